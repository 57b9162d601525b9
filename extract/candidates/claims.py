"""Claims: which metric, dataset and method each number of an abstract belongs to.

:func:`attach_claims` reads the sentence a number is in (who achieves it, what it is "on" or
"compared to", coordinated lists, "respectively") and the discourse around it.  Pure and
deterministic; every span it returns is a slice of the text.  Each decision is made by the first
rule of a table (:data:`DATASET_RULES`, :data:`METHOD_RULES`, :data:`METRIC_RULES`, each rule
with one example) that applies; its name is kept on the :class:`Claim` (``rules``).
Conventions: tests/gold/GUIDELINE.md, "Claims".

:func:`claimed_systems` finds the names the claims show to be the paper's own systems, among
candidates the name rules doubted: a coinage never introduced by "we propose X" but the subject
of a claimed result ("SkinNet achieves 77.3% accuracy", "Our B2X models outperform GPT-4 by 6.8
points") is the system the paper reports on; the backends add them to the methods (rules
propose, a capable model decides).  A pretrained model's name is never promoted: it is a
baseline or a backbone ("GPT-4o achieves 31%").
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ..text import is_model_name
from ..text.numparse import range_joint
from ..text.literal import starts
from .claim_change import change_of, to_end
from .claim_metric import HEADS
from .claims_doc import CLAUSE_BREAK, Ref, _Doc, _Num
from .claim_metric_rules import METRIC_RULES
from .claims_rules import _SKIP, DATASET_RULES, METHOD_RULES, Rule
from .rules import fire

__all__ = ["Claim", "Ref", "attach_claims", "claimed_systems", "title_name", "DATASET_RULES", "METHOD_RULES", "METRIC_RULES"]

_CLAIM_VERB = re.compile(
    r"\s*(?:\([^()]{1,30}\)\s*)?(?:models?\s+|framework\s+|method\s+|system\s+)?(?:,[^,]{1,60},\s*)?"
    r"(?:also\s+|further\s+|consistently\s+|significantly\s+|substantially\s+)?"
    r"(?:achiev\w*|attain\w*|reach\w*|outperform\w*|surpass\w*|improv\w*|yield\w*|boost\w*|obtain\w*|"
    r"deliver\w*|reduc\w*|sets?\s+a\s+new|exceed\w*|beat\w*|gains)\b", re.I)
_OUR = re.compile(r"\b[Oo]ur\s+$")
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")


@dataclass(frozen=True)
class Claim:
    metric: Ref | None
    dataset: Ref | None
    method: Ref | str | None          # "" = the paper's own unnamed approach
    rules: tuple[str, str, str] = ("", "", "")   # the rules that decided metric, dataset, method
    # absolute value or change, and the named system a change is measured against (.claim_change)
    value_type: str = "absolute"
    compared_to: Ref | None = None
    change_rules: tuple[str, str] = ("", "")     # the rules that decided value_type, compared_to

    def fields(self) -> dict:
        """The model-facing strings (schemas.paper.NumberMention's claim fields)."""
        method = self.method.text if isinstance(self.method, Ref) else self.method
        return {"metric": self.metric.text if self.metric else None,
                "dataset": self.dataset.text if self.dataset else None, "method": method,
                "value_type": self.value_type, "compared_to": self.compared_to.text if self.compared_to else None}


def _parallel_metric(doc: _Doc, n: _Num, claims: list[Claim]) -> Claim | None:
    """"an IoU gain of 1.6% on A and 1.5% on B": a number joined by "and" to the previous one
    in its clause, or the end of its "from 6.8% to 1.5%", with no measure of its own, measures
    what that one does."""
    if n.i == 0:                    # (the first number: no claim before it)
        return None
    prev, last = doc.nums[n.i - 1], claims[-1]
    gap = doc.text[prev.end:n.start]
    if prev.sent != n.sent or last.metric is None or not (to_end(doc, n) or re.search(r"\band\b|,", gap)) or \
            re.search(r"[;:]", gap) or len(gap) > 80 or doc.between(doc.metrics, prev.end, n.start) \
            or last.metric.start >= prev.end:       # ("2.68 MOS for TTS, and 11.7% PER": its own after it)
        return None
    return last


def _decide(rules: Sequence[tuple[str, str, Rule]], doc: _Doc, n: _Num, table: str) -> tuple[Any, str]:
    for name, _, rule in rules:
        if (got := rule(doc, n)) is not _SKIP:
            fire(f"{table}:{name}")         # counted by bench/rule_firings.py
            return got, name
    return None, ""


def _number_spans(numbers: Sequence[Any]) -> list[tuple[int, int, str | None]]:
    def get(n: Any, key: str) -> Any:
        return n.get(key) if isinstance(n, dict) else getattr(n, key, None)
    return [(int(get(n, "start")), int(get(n, "end")), get(n, "kind") or get(n, "kind_hint")) for n in numbers]


def _names(xs: Sequence[Any]) -> list[str]:
    """Name strings from strings, span dicts or candidate objects."""
    return [x if isinstance(x, str) else x.get("text") if isinstance(x, dict) else getattr(x, "text", "")
            for x in xs]


def attach_claims(text: str, numbers: Sequence[Any], methods: Sequence[Any] = (),
                  datasets: Sequence[Any] = (), kinds: Sequence[str | None] | None = None,
                  contribution: str | None = None, titled: str | None = None) -> list[Claim]:
    """One :class:`Claim` per number of ``numbers`` (objects or dicts with ``start``/``end``
    and ``kind``/``kind_hint``, offsets into ``text``), given the record's method and dataset
    names (strings or objects with ``text``).  ``kinds`` overrides the numbers' kinds; with
    ``contribution == "system"`` a name listed as both method and dataset is the paper's own
    system, otherwise an introduced benchmark (numbers on it belong to the systems evaluated);
    ``titled`` is the name the paper's title gives (:func:`title_name`): when it is one of the
    methods, the paper's own results are its."""
    spans = _number_spans(numbers)
    if kinds is not None:
        spans = [(s, e, k) for (s, e, _), k in zip(spans, kinds)]
    order = sorted(range(len(spans)), key=lambda i: spans[i][:2])     # the rules read in text order
    doc = _Doc(text, [spans[i] for i in order], _names(methods), _names(datasets), contribution, titled)
    out: list[Claim] = []
    for n in doc.nums:
        metric, r1 = _decide(METRIC_RULES, doc, n, "metric")
        if metric is None and (prev := _parallel_metric(doc, n, out)) is not None:
            metric, r1 = prev.metric, "parallel"
        dataset, r2 = _decide(DATASET_RULES, doc, n, "dataset")
        dataset = doc.short.get(dataset.text, dataset) if isinstance(dataset, Ref) else dataset
        method, r3 = _decide(METHOD_RULES, doc, n, "method")
        value_type, compared_to, r45 = change_of(doc, n, method, out[-1].value_type if out else None)
        out.append(Claim(metric, dataset, method, (r1, r2, r3), value_type, compared_to, r45))
    for k in range(1, len(out)):
        if _range(doc, doc.nums[k - 1], doc.nums[k]):
            out[k - 1] = out[k] = _range_claim(out[k - 1], out[k])
    return [c for _, c in sorted(zip(order, out), key=lambda p: p[0])]      # back in the given order


def title_name(names: Iterable[Any]) -> str | None:
    """The name the title gives the paper's system ("ProxyNCA++: Revisiting ..."): the first
    candidate of ``names`` the title rules found (cue ``title``), or None."""
    return next((n.text for n in names if "title" in getattr(n, "cues", ())), None)


def _range(doc: _Doc, a: _Num, b: _Num) -> bool:
    """Whether numbers a and b are the two ends of one range ("3% - 15%", "85∼95%", "2.9-5.9x"; on the
    corpus a hyphen in 141 abstracts, an en dash in 12, a tilde in its four spellings in 13), as the
    number layer reads one; not "from 6.8% to 1.5%", two values."""
    return a.sent == b.sent and a.kind == b.kind and range_joint(doc.text, a.end, b.start) not in (None, "to")


def _range_claim(first: Claim, second: Claim) -> Claim:
    """A range is one claim, read at its second end (next to its unit and to what follows it):
    the first end's metric stands in where the second has none (a measure written before the
    range: "an average weighing error of 0.1 - 0.2 mg"); a change when either end reads one
    ("+0.30 ∼ 0.85 micro-F1", "outperforms ... by 0.6% ∼ 2.7%")."""
    fire("claims:range")
    metric, r1 = (second.metric, second.rules[0]) if second.metric else (first.metric, first.rules[0])
    change = "change" in (first.value_type, second.value_type)
    return Claim(metric, second.dataset, second.method, (r1, *second.rules[1:]),
                 "change" if change else "absolute", second.compared_to, second.change_rules)


def claimed_systems(text: str, numbers: Sequence[Any], names: Iterable[Any],
                    exclude: Iterable[str] = ()) -> list[Any]:
    """Candidates of ``names`` (objects with text/start/end/role_hint) that are the subject of a
    sentence stating a result number (``numbers``: objects with start/end and kind or
    kind_hint), in text order; ``exclude`` holds names already decided (any role)."""
    skip = {x.lower() for x in exclude}
    results = [n for n in numbers if (getattr(n, "kind", None) or getattr(n, "kind_hint", None)) == "result"]
    result_starts = sorted(n.start for n in results)
    out, seen = [], set()
    for c in names:
        key = c.text.lower()
        if key in skip or key in seen or is_model_name(c.text) or not re.search(r"[A-Z]", c.text) \
                or c.role_hint == "dataset" or " " in c.text.strip() or HEADS.fullmatch(c.text) \
                or re.fullmatch(r"[A-Z]{2,}s", c.text) \
                or {"generic", "fragment"} & set(getattr(c, "cues", ())):
            continue        # a metric (AP50), a plural acronym (LLMs), a field's term (SGD, LSTM), a name's part
        for s in starts(text, c.text):
            e = s + len(c.text)
            if s > 0 and text[s - 1].isalnum() or e < len(text) and text[e].isalnum() \
                    or re.search(r"\d\s*$", text[max(0, s - 3):s]):
                continue        # (after a number: a unit, "24.0 dB")
            verb = _CLAIM_VERB.match(text, e)
            ours = _OUR.search(text, max(0, s - 6), s) and re.match(r"\s+(?:models?|method|framework)\b",
                                                                    text[e:e + 12])
            if not (verb and c.role_hint != "model" or ours):
                continue
            end = m.end() if (m := _SENTENCE_END.search(text, e)) else len(text)
            stop = CLAUSE_BREAK.search(text, e, end)
            end = stop.start() if stop else end
            k = bisect_right(result_starts, e)      # the first result starting after e
            if k < len(result_starts) and result_starts[k] < end:
                seen.add(key)
                out.append(c)
                break
    return out
