"""Reviewer triage: which papers' claims to question first.

Each paper gets flags, each with the evidence (spans of the abstract, or the failure reason)
that triggered it, and a score.  A flag marked *per item* counts once per item (number,
name or sentence) up to three times; the others count once.  The score is the sum of
weight × count; papers are listed by score, highest first, then in file order.

============================  ======  ========  ================================================
flag                          weight  per item  fires when
============================  ======  ========  ================================================
``failed``                    5       no        the paper is in the errors file next to the
                                                records: nothing was extracted
``number_not_in_source``      4       yes       a number's text is not at its offsets or not in
                                                the abstract at all
``no_comparison``             3       no        results are claimed but none belongs to another
                                                named system (a baseline) and the paper's own
                                                sentences name no comparison ("than",
                                                "outperforms", "compared with", "baseline", ...)
``partial``                   3       yes       the model named strings that are not in the
                                                abstract; they were dropped
``result_no_metric``          2       yes       a result's claim does not say what it measures
                                                (metric null) and its sentence names no
                                                metric either
``value_mismatch``            2       yes       a number's value is not the numeral its text
                                                states ("85,229" read as 85.229)
``name_not_in_source``        2       yes       a method, dataset or claim name is not at its
                                                offsets / not in the abstract
``unsupported_superlative``   2       yes       one of the paper's own claim sentences says
                                                "state-of-the-art", "significantly",
                                                "outperforms", ... with no number in it
                                                (background sentences are not counted)
``settings_only``             2       no        there are numbers but all are settings (sizes,
                                                counts): no claimed result is quantified
``rules_disagree``            2       yes       the rules' reading of a number (kind, dataset,
                                                method) and the model's differ: read it first
                                                (``--disagree`` lists only these)
``result_no_dataset``         1       yes       a result's claim names no dataset although the
                                                paper names datasets, none in its sentence
``change_no_reference``       1       yes       a change (a gain, drop or speedup: ``value_type``
                                                "change") names no system it is measured against
                                                and its sentence names no reference at all
                                                ("over", "than", "upon", "baseline", "SOTA",
                                                "prior", ...): over what?
``no_numbers``                1       no        no number at all (not for ``theory`` papers)
``no_dataset``                1       no        no dataset named although the paper's own
                                                sentences report an evaluation (experiments,
                                                "evaluated on", benchmarks; not for ``theory``)
``other_schema``              0       no        the record is not of the default schema: shown,
                                                not scored
============================  ======  ========  ================================================

The paper's own claim sentences are those with a result number or one of its method names,
those in its own voice ("we", "our", "this paper", "the proposed") and those opening with
"Experiments"/"Results"; the rest (typically the opening background) are not searched for
superlatives or comparisons.  The cue lists are English-only and lexical: they point a
reviewer at a sentence, they do not judge it.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Sequence

from .text import sentence_at, sentence_bounds
from .names import NameIndex
from .records import Failure, Number, Paper, RecordSet, Span

PER_ITEM_CAP = 3  # a per-item flag counts at most this many times


@dataclass(frozen=True)
class FlagType:
    code: str
    weight: int
    label: str
    description: str
    per_item: bool = False


FLAG_TYPES: dict[str, FlagType] = {f.code: f for f in [
    FlagType("failed", 5, "extraction failed", "in the errors file: nothing was extracted"),
    FlagType("number_not_in_source", 4, "number not in source",
             "a number's text is not at its offsets or not in the abstract", True),
    FlagType("no_comparison", 3, "no baseline or comparison",
             "results are claimed, but none belongs to another named system and the paper's own "
             "sentences name no comparison"),
    FlagType("partial", 3, "partial extraction",
             "strings the model named were not in the abstract and were dropped", True),
    FlagType("result_no_metric", 2, "result without metric",
             "a result's claim does not say what it measures, nor does its sentence", True),
    FlagType("value_mismatch", 2, "value does not match text",
             "a number's value is not the number its text states (e.g. '85,229' read as 85.229)", True),
    FlagType("name_not_in_source", 2, "name not in source",
             "a method, dataset or claim name is not at its offsets or not in the abstract", True),
    FlagType("unsupported_superlative", 2, "superlative without number",
             "one of the paper's own claim sentences says 'state-of-the-art', 'significantly', ... "
             "with no number in it", True),
    FlagType("rules_disagree", 2, "rules and model disagree",
             "the rules' reading of a number (kind, dataset, method) and the model's differ", True),
    FlagType("settings_only", 2, "numbers are all settings", "every number is a setting; no result is quantified"),
    FlagType("result_no_dataset", 1, "result without dataset",
             "a result's claim names no dataset although the paper names datasets (none in its sentence)", True),
    FlagType("change_no_reference", 1, "change without reference",
             "a gain, drop or speedup names no system it is measured against and its sentence names no "
             "reference (over, than, baseline, SOTA, ...)", True),
    FlagType("no_numbers", 1, "no numbers", "no number at all (not for theory papers)"),
    FlagType("no_dataset", 1, "no dataset named",
             "no dataset, benchmark or corpus is named, though the paper reports an evaluation (not for theory papers)"),
    FlagType("other_schema", 0, "not the default schema", "the record's extraction is not of the default schema"),
]}


@dataclass
class Evidence:
    text: str
    start: int | None = None
    end: int | None = None
    context: str = ""  # the sentence, with the span marked «like this»
    note: str = ""
    #: where the marked spans are in ``context`` (the text between « and »): an abstract
    #: may hold « or » itself, so a reader that bolds the spans goes by these offsets
    marks: list = field(default_factory=list)

    def __post_init__(self):
        if isinstance(self.context, Marked):
            self.marks = [list(m) for m in self.context.marks]
            self.context = str(self.context)


class Marked(str):
    """A context string with the offsets of its marked spans (``marks``)."""

    marks: tuple = ()


@dataclass
class Flag:
    code: str
    weight: int
    label: str
    evidence: list[Evidence] = field(default_factory=list)

    @property
    def points(self) -> int:
        """What the flag adds to the score: its weight, times its items (capped) when per item."""
        if FLAG_TYPES[self.code].per_item:
            return self.weight * max(1, min(len(self.evidence), PER_ITEM_CAP))
        return self.weight


@dataclass
class Triage:
    id: str
    title: str | None
    source: str
    task: str
    contribution: str
    score: int
    flags: list[Flag]
    failed: bool = False

    @property
    def label(self) -> str:
        return " ".join((self.title or "").split()) or self.id

    def as_dict(self) -> dict:
        d = asdict(self)
        for f, flag in zip(d["flags"], self.flags):
            f["points"] = flag.points
        return d


# ----------------------------------------------------------------- cues

_COMPARISON = re.compile(
    r"(?i:(?<!rather\s)(?<!other\s)\bthan\b(?!\s*\$?\\?(?:sim\s*)?\d)|\b(?:outperform\w*|surpass\w*|beat(?:s|ing)?|exceed(?:s|ing)?|compared\s+(?:to|with|against)"
    r"|comparisons?\s+(?:to|with|against)|relative\s+to|versus|vs\.?|baselines?|prior\s+(?:work|methods?|art|approaches|models?|best)"
    r"|previous(?:ly)?\s+(?:best|methods?|work|approaches|models?|state)|existing\s+(?:methods?|approaches|baselines|models?|tools?)"
    r"|competing|competitors?|(?:state[- ]of[- ]the[- ]art|sota)\s+(?:methods?|approaches|baselines|models?|systems?))\b)"
    r"|\b(?i:over|against|above|below|beyond)\s+(?:the\s+)?(?:[A-Z][\w.+-]*|(?i:strong|standard|vanilla|conventional|classical|existing|prior|previous|competing|\w+-based|state[- ]of[- ]the[- ]art)\b)"
)
_SUPERLATIVE = re.compile(
    r"(?i)\b(?:(?:state[- ]of[- ]the[- ]art|sota)(?!\s+(?:methods?|baselines?|models?|approaches|defen[cs]es|systems?|"
    r"techniques|algorithms|solutions|llms|detectors|attacks|competitors|alternatives|works?)\b)|significantly|significant\s+(?:improvements?|gains?|boosts?|reductions?|speed-?ups?|increases?|margins?)"
    r"|substantially|substantial\s+(?:improvements?|gains?|boosts?|reductions?|speed-?ups?)|dramatically|drastically|remarkabl[ey]"
    r"|unprecedented|superior|outperform(?:s|ed|ing)?|by\s+a\s+(?:large|wide|significant|clear)\s+margin|orders?\s+of\s+magnitude"
    r"|new\s+records?|best[- ]in[- ]class)\b")
_DIGIT_QUANTITY = re.compile(r"\d(?:[\d.,]*\d)?\s*(?:\\?%|×|\\times|x\b|-?fold\b|points?\b|pp\b)")
#: What a change can be measured against, named or not ("over the baseline", "upon the current SOTA").
_REFERENCE = re.compile(r"(?i)\b(?:over|than|upon|compared|versus|vs\.?|against|relative\s+to|outperform\w*|surpass\w*"
                        r"|baselines?|sota|state[- ]of[- ]the[- ]art|prior|previous(?:ly)?|existing|short\s+of)\b")
# An evaluation the paper reports (so a dataset could be named): "experiments", "evaluated on",
# "benchmarks", "datasets", "empirically", "we test"; not the bare noun "evaluation(s)", which
# is as often the paper's topic ("LLM evaluations are costly", "evaluation awareness").
_EVALUATION = re.compile(r"(?i)\b(?:experiments?|evaluat(?:e|es|ed|ing)\b(?=(?:\s+\w+){0,4}?\s+(?:on|across|against|over|using|with)\b)"
                         r"|benchmarks?|datasets?|empirical(?:ly)?|we\s+(?:test|validate)\w*)\b")
# What a number measures, stated in words (the read side's lexical check: a result whose
# claim has no metric is flagged only when its sentence names none of these).
_METRIC_WORDS = re.compile(
    r"(?i)(?<![\w-])(?:accuracy|accuracies|precision|recall|f1|f-?(?:score|measure)|auc|auroc|aupr|au-?pr|m?ap(?:@?\d+)?"
    r"|bleu|rouge(?:-\w+)?|meteor|cider|chrf|perplexity|ppl|[wc]er|eer|errors?|error\s+rates?|success(?:\s+rates?)?"
    r"|win\s*rates?|pass@\d+|exact\s+match|m?iou|dice|psnr|ssim|fid|lpips|latency|throughput|speed-?ups?|memory"
    r"|energy|rewards?|returns?|scores?|performance|ndcg(?:@\d+)?|mrr|hits@\d+|top-?\d+|correlation|agreement"
    r"|mae|mse|rmse|loss|gains?|improvements?|reductions?|faster|slower|fewer|less|more|higher|lower)(?![\w-])")


_OWN_VOICE = re.compile(r"(?i)\b(?:we|our|ours|this\s+(?:paper|work|study|article|report|thesis)|the\s+proposed)\b")
_RESULTS_OPENER = re.compile(r"(?i)^\W*(?:(?:extensive|comprehensive|empirical|experimental|numerical)\s+)?"
                             r"(?:experiments?|results?|evaluations?|simulations?|empirically|experimentally)\b")


_CONTINUES = re.compile(r"^\W*(?:it|its|this|these|they|their|such|both|moreover|furthermore|additionally|also)\b", re.I)


def own_sentences(p: Paper, bounds: list[tuple[int, int]]) -> set[int]:
    """Starts of the sentences that state the paper's own claims: those with a result number or
    one of its method names, those in its own voice, those opening with "Experiments/Results",
    and those that continue such a sentence ("It", "This", "Moreover", ...).  When none
    qualifies, every sentence does (an impersonal abstract)."""
    text, own = p.text, set()
    names = [re.compile(r"(?<!\w)" + re.escape(m.text) + r"(?!\w)") for m in p.methods if len(m.text.strip()) > 1]
    results = {sentence_at(bounds, n.start)[0] for n in p.numbers if n.kind == "result" and n.grounded}
    prev = False
    for a, b in bounds:
        seg = text[a:b]
        mine = (a in results or bool(_OWN_VOICE.search(seg)) or bool(_RESULTS_OPENER.match(seg))
                or any(rx.search(seg) for rx in names) or (prev and bool(_CONTINUES.match(seg))))
        if mine:
            own.add(a)
        prev = mine
    return own or {a for a, _ in bounds}


_OPEN, _CLOSE = "\x02", "\x03"     # marks while the context is shaped; never in the text


def _context(text: str, bounds: list[int], start: int, end: int, width: int = 220,
             more: Sequence[tuple[int, int]] = ()) -> Marked:
    """The sentence around ``text[start:end]``, that span (and ``more`` spans in the same
    sentence) marked «like this», shortened at word boundaries to about ``width`` characters;
    its ``marks`` say where the marked spans are (« or » in the text is just text)."""
    lo, hi = sentence_at(bounds, start)
    spans = sorted({(start, end), *((a, b) for a, b in more if lo <= a and b <= max(hi, end))})
    hi = max(hi, max(b for _, b in spans))

    def plain(piece: str) -> str:
        return piece.replace(_OPEN, " ").replace(_CLOSE, " ")
    parts, pos = [], lo
    for a, b in spans:
        if a < pos:
            continue
        parts += [plain(text[pos:a]), _OPEN, plain(text[a:b]), _CLOSE]
        pos = b
    parts.append(plain(text[pos:hi]))
    s = " ".join("".join(parts).split())
    head = tail = ""
    if len(s) > width:
        mark = s.index(_OPEN)
        a = max(0, mark - width // 2)
        if a:
            a = s.rfind(" ", 0, a) + 1
        b = s.find(" ", min(len(s), a + width))
        b = len(s) if b < 0 else b
        head, tail = ("…" if a else ""), ("…" if b < len(s) else "")
        s = s[a:b].strip()
    out, marks, opened = [head], [], None
    n = len(head)
    for ch in s:
        if ch == _OPEN:
            out.append("«")
            n += 1
            opened = n
        elif ch == _CLOSE:
            if opened is not None:
                marks.append((opened, n))
                out.append("»")
                n += 1
                opened = None
        else:
            out.append(ch)
            n += 1
    if opened is not None:           # a span the shortening cut: closed where the text stops
        marks.append((opened, n))
        out.append("»")
    out.append(tail)
    result = Marked("".join(out))
    result.marks = tuple(marks)
    return result


def _span_problem(text: str, s: Span) -> str | None:
    if s.grounded:
        return None
    if not s.text or s.text not in text:
        return "not in the text"
    if s.start is None or s.end is None:
        return f"no offsets (occurs at {text.index(s.text)})"
    shown = text[s.start:s.end] if 0 <= s.start <= s.end <= len(text) else ""
    return f"offsets {s.start}-{s.end} read {shown!r}; it occurs at {text.index(s.text)}"


_NUMERAL = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+")
_SCALES = (1.0, 1e3, 1e6, 1e9, 1e12, 1e-2)


def value_problem(text: str, value: float | None) -> str | None:
    """Why ``value`` is not the number ``text`` states, or None.  Only judged when the text
    holds exactly one plain numeral (no exponent, fraction or range); a value may be the
    numeral times a power of 1000 ('80B' -> 8e10) or a percentage as a fraction."""
    if value is None:
        return None
    if re.search(r"[\^/]|\d\s*[eE][-+]?\d|\\frac|\d\s*[-–]\s*\d|\d\s*(?:to)\s*\d", text):
        return None
    nums = _NUMERAL.findall(text)
    if len(nums) != 1:
        return None
    x = float(nums[0].replace(",", ""))
    v = abs(value)
    if any(abs(v - x * k) <= 1e-6 * max(1.0, x * k) for k in _SCALES):
        return None
    return f"value {value:g} but the text says {nums[0]}"


# ----------------------------------------------------------------- flags

def _claim_spans(n: Number) -> list[tuple[str, Span]]:
    out = [(f, s) for f, s in (("metric", n.metric), ("dataset", n.dataset), ("method", n.method),
                               ("compared_to", n.compared_to))
           if isinstance(s, Span) and s.text]
    return out


def paper_flags(p: Paper) -> list[Flag]:
    """Every flag one paper raises, with its evidence."""
    text, bounds = p.text, sentence_bounds(p.text)
    found: dict[str, list[Evidence]] = {}

    def add(code: str, ev: Evidence) -> None:
        found.setdefault(code, []).append(ev)

    def ev_span(s: Span, note: str = "") -> Evidence:
        if s.grounded:
            return Evidence(s.text, s.start, s.end, _context(text, bounds, s.start, s.end), note)
        return Evidence(s.text, s.start, s.end, "", note)

    if not p.schema_ok:
        add("other_schema", Evidence("", note="extraction fields missing or of another shape"))
    for d in p.dropped:
        add("partial", Evidence(d, note="dropped: not in the abstract"))
    for n in p.numbers:
        why = _span_problem(text, n)
        if why:
            add("number_not_in_source", Evidence(n.text, n.start, n.end, "", why))
    for n in p.numbers:
        why = value_problem(n.text, n.value)
        if why:
            add("value_mismatch", ev_span(n, why))
    names = [*(("method", m) for m in p.methods), *(("dataset", d) for d in p.datasets),
             *(("claim " + f, s) for n in p.numbers for f, s in _claim_spans(n))]
    seen: set = set()
    for what, s in names:
        why = _span_problem(text, s)
        if why and (s.text, s.start) not in seen:
            seen.add((s.text, s.start))
            add("name_not_in_source", Evidence(s.text, s.start, s.end, "", f"{what}: {why}"))
    if not p.schema_ok:
        return _finish(found)

    def by_sentence(code: str, nums: list, note) -> None:
        """One evidence item per sentence, every number of it marked; ungrounded ones alone."""
        groups: dict[int, list] = {}
        for n in nums:
            if n.grounded:
                groups.setdefault(sentence_at(bounds, n.start)[0], []).append(n)
            else:
                add(code, ev_span(n, note(n)))
        for ns in groups.values():
            first = ns[0]
            add(code, Evidence(", ".join(n.text for n in ns), first.start, first.end,
                               _context(text, bounds, first.start, first.end, more=[(n.start, n.end) for n in ns[1:]]),
                               "; ".join(x for x in (note(n) for n in ns) if x)))

    results = [n for n in p.numbers if n.kind == "result"]
    own = own_sentences(p, bounds)
    own_text = " ".join(text[a:b] for a, b in bounds if a in own)
    systems = [n.method.text for n in results if isinstance(n.method, Span) and n.method.text.strip()]
    index = NameIndex()  # the paper's own names, long form and acronym merged
    index.add(p.id, [m.text for m in p.methods] + systems, text)
    own_groups = {index.group(m.text, p.id) for m in p.methods}
    compared = any(index.group(s, p.id) not in own_groups for s in systems) or \
        any(n.compared_to for n in results)     # a change measured against a named system
    if results and not compared and not _COMPARISON.search(own_text):
        by_sentence("no_comparison", results, lambda n: "")
    dataset_names = [re.compile(r"(?<!\w)" + re.escape(d.text) + r"(?!\w)") for d in p.datasets
                     if d.text.strip()]
    for n in results:
        if not n.has_claims:
            continue
        # a flag names what the paper's text lacks, not what the extractor missed: a metric
        # stated in the number's sentence, or one of the record's datasets named there
        lo, hi = sentence_at(bounds, n.start) if n.grounded else (0, 0)
        sentence = text[lo:hi]
        if n.metric is None and not (n.grounded and _METRIC_WORDS.search(sentence)):
            add("result_no_metric", ev_span(n, "metric: not stated"))
        if n.dataset is None and p.datasets and not (n.grounded and any(rx.search(sentence) for rx in dataset_names)):
            add("result_no_dataset", ev_span(n, "dataset: none named for this result"))
        if n.is_change and n.compared_to is None and n.grounded and \
                not _REFERENCE.search(text, *sentence_at(bounds, n.start)):
            add("change_no_reference", ev_span(n, "a change: measured against what is not said"))
    for n in p.numbers:
        if n.rules_agree is False:
            add("rules_disagree", ev_span(n, _reading(n)))
    number_sentences = {sentence_at(bounds, n.start)[0] for n in p.numbers if n.grounded}
    superlatives: dict[int, list[re.Match]] = {}
    for m in _SUPERLATIVE.finditer(text):
        lo, hi = sentence_at(bounds, m.start())
        if lo not in own or lo in number_sentences or _DIGIT_QUANTITY.search(text, lo, hi):
            continue
        superlatives.setdefault(lo, []).append(m)
    for ms in superlatives.values():
        first = ms[0]
        add("unsupported_superlative", Evidence(
            ", ".join(dict.fromkeys(m.group(0) for m in ms)), first.start(), first.end(),
            _context(text, bounds, first.start(), first.end(), more=[m.span() for m in ms[1:]])))
    if p.numbers and not results and all(n.kind == "setting" for n in p.numbers):
        by_sentence("settings_only", p.numbers, lambda n: n.about)
    if p.contribution != "theory":
        if not p.numbers:
            add("no_numbers", Evidence("", note="the extraction has no numbers"))
        if not p.datasets:
            # only when the paper's own sentences report an evaluation: a text that evaluates
            # nothing lacks no dataset
            m = next((m for m in _EVALUATION.finditer(text) if sentence_at(bounds, m.start())[0] in own), None)
            if m:
                add("no_dataset", Evidence(m.group(0), m.start(), m.end(),
                                           _context(text, bounds, m.start(), m.end()),
                                           "evaluation reported, no dataset named"))
    return _finish(found)


def _reading(n: Number) -> str:
    """The record's reading of a number, as a note: kind, dataset, method."""
    method = n.method.text if isinstance(n.method, Span) else ('"" (own approach)' if n.method == "" else "none")
    return f"kept: {n.kind or '?'}; dataset {n.dataset.text if n.dataset else 'none'}; method {method}"


def _finish(found: dict[str, list[Evidence]]) -> list[Flag]:
    flags = [Flag(c, FLAG_TYPES[c].weight, FLAG_TYPES[c].label, ev) for c, ev in found.items()]
    flags.sort(key=lambda f: (-f.points, -f.weight, f.code))
    return flags


def failure_flags(f: Failure) -> list[Flag]:
    note = f.reason + (f" (after {f.attempts} attempt{'s' if f.attempts != 1 else ''})" if f.attempts else "")
    return [Flag("failed", FLAG_TYPES["failed"].weight, FLAG_TYPES["failed"].label, [Evidence("", note=note)])]


def triage(rs: RecordSet) -> list[Triage]:
    """Every paper of the records and errors files, highest score first."""
    out = []
    for p in rs.papers:
        flags = paper_flags(p)
        out.append(Triage(p.id, p.title, p.source, p.task, p.contribution, sum(f.points for f in flags), flags))
    for f in rs.failures:
        flags = failure_flags(f)
        out.append(Triage(f.id, None, f.source, "", "", sum(fl.points for fl in flags), flags, failed=True))
    order = {t.id: i for i, t in enumerate(out)}
    out.sort(key=lambda t: (-t.score, order[t.id]))
    return out


def select(items: Sequence[Triage], top: int | None = None, min_score: int | None = None,
           only: str | None = None) -> list[Triage]:
    """The items with a score of at least ``min_score`` (and flag ``only``), at most the
    first ``top`` of them."""
    out = [t for t in items if (min_score is None or t.score >= min_score)
           and (only is None or any(f.code == only for f in t.flags))]
    return out[:top] if top is not None else out


def flags_help() -> str:
    """One line per flag for ``extract triage --help``."""
    width = max(len(c) for c in FLAG_TYPES)
    return "\n".join(f"{f.code:<{width}}  +{f.weight}{'*' if f.per_item else ' '} {f.description}"
                     for f in FLAG_TYPES.values())
