"""Claims: which metric, dataset and method each number of an abstract belongs to.

:func:`attach_claims` reads the sentence a number is in (who achieves it, what it is "on" or
"compared to", coordinated lists, "respectively") and the discourse around it.  Pure and
deterministic; every span it returns is a slice of the text.  Each decision is made by the first
rule of a table (:data:`DATASET_RULES`, :data:`METHOD_RULES`, :data:`METRIC_RULES`, each rule
with one example) that applies; its name is kept on the :class:`Claim` (``rules``).
Conventions: tests/gold/GUIDELINE.md, "Claims".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Sequence

from .claim_change import change_of
from .claims_doc import Ref, _Doc, _Num
from .claim_metric_rules import METRIC_RULES
from .claims_rules import _SKIP, DATASET_RULES, METHOD_RULES, Rule
from .rules import fire

__all__ = ["Claim", "Ref", "attach_claims", "DATASET_RULES", "METHOD_RULES", "METRIC_RULES"]


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
    in its clause, with no measure of its own, measures what that one does."""
    if not claims or n.i == 0:
        return None
    prev, last = doc.nums[n.i - 1], claims[-1]
    gap = doc.text[prev.end:n.start]
    if prev.sent != n.sent or last.metric is None or not re.search(r"\band\b|,", gap) or \
            re.search(r"[;:]", gap) or len(gap) > 80 or doc.between(doc.metrics, prev.end, n.start):
        return None
    return last


def _decide(rules: Sequence[tuple[str, str, Rule]], doc: _Doc, n: _Num, table: str) -> tuple[Any, str]:
    for name, _, rule in rules:
        got = rule(doc, n)
        if got is not _SKIP:
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
                  contribution: str | None = None) -> list[Claim]:
    """One :class:`Claim` per number of ``numbers`` (objects or dicts with ``start``/``end``
    and ``kind``/``kind_hint``, offsets into ``text``), given the record's method and dataset
    names (strings or objects with ``text``).  ``kinds`` overrides the numbers' kinds; with
    ``contribution == "system"`` a name listed as both method and dataset is the paper's own
    system, otherwise an introduced benchmark (numbers on it belong to the systems evaluated)."""
    spans = _number_spans(numbers)
    if kinds is not None:
        spans = [(s, e, k) for (s, e, _), k in zip(spans, kinds)]
    order = sorted(range(len(spans)), key=lambda i: spans[i][:2])     # the rules read in text order
    doc = _Doc(text, [spans[i] for i in order], _names(methods), _names(datasets), contribution)
    out: list[Claim] = []
    for n in doc.nums:
        metric, r1 = _decide(METRIC_RULES, doc, n, "metric")
        if metric is None and (prev := _parallel_metric(doc, n, out)) is not None:
            metric, r1 = prev.metric, "parallel"
        dataset, r2 = _decide(DATASET_RULES, doc, n, "dataset")
        method, r3 = _decide(METHOD_RULES, doc, n, "method")
        value_type, compared_to, r45 = change_of(doc, n, method, out[-1].value_type if out else None)
        out.append(Claim(metric, dataset, method, (r1, r2, r3), value_type, compared_to, r45))
    return [c for _, c in sorted(zip(order, out), key=lambda p: p[0])]      # back in the given order
