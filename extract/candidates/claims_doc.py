"""The document the claims rules read: sentences, numbers, name occurrences, coordinated runs.
Internal to :mod:`extract.candidates.claims`; :class:`_Doc` is built once per abstract."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from ..text import is_model_name, sentence_bounds
from .claim_metric import Phrase, metric_phrases
from .name_rules import COMPONENT
from .name_shapes import is_namey
from ..text.literal import starts as literal_starts


@dataclass(frozen=True)
class Ref:
    """A span of the abstract: ``text == abstract[start:end]``."""
    text: str
    start: int
    end: int


@dataclass(frozen=True)
class _Num:
    i: int
    start: int
    end: int
    kind: str | None
    sent: int


@dataclass(frozen=True)
class _Occ:
    text: str
    start: int
    end: int
    role: str            # method | dataset | system
    sent: int
    ref: Ref | None = None      # a short mention ("on ARMBench"): the listed name it stands for

    @property
    def name(self) -> str:
        """The listed name this occurrence names (its own text unless it is a short mention)."""
        return self.ref.text if self.ref else self.text


# A token with a capital (_systems): one without (a look-ahead after the first letter) is skipped
_SYSTEM_TOKEN = re.compile(r"(?<![\w\-.])[A-Za-z](?!(?<=[a-z])[a-z0-9]*(?:[-.][a-z0-9]+)*(?![A-Za-z0-9]|[-.][A-Za-z0-9]|"
                           r"\s\d+(?:\.\d+)?[BM]\b))[A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*(?:\s\d+(?:\.\d+)?[BM]\b)?")
_SYSTEM_SHAPE = re.compile(r"\d|[A-Z]{2}|[a-z][A-Z]")
# After a comma only a finite verb ("The best, Protenix-v2, achieves 87%"): a participle there
# belongs to the main clause ("FooNet outperforms BarNet and ZetaNet, reaching 81.2%": FooNet's)
_RESULT_AFTER = re.compile(r"(?:\s*,\s*(?!\w*ing\b)|\s+)(?:also\s+)?(?:achiev|reach|attain|scor|obtain|yield)\w*\b")
_VALUE_AFTER = re.compile(r"\s*\(\s*\$?[-+]?\d")        # "YOLOv8-L (50.3 AP)" after a comparison:
_COMPARED_BEFORE = re.compile(r"\b(?:outperform\w*|surpass\w*|than|compared\s+(?:to|with)|versus|vs\.?|over|against|"
                              r"beat\w*|exceed\w*)\b", re.I)
# a short form in parentheses right after a long form ("Long Form (LF)"), or a short form right
# before one's parentheses ("LF (Long Form)")
_PAREN_AFTER = re.compile(r"\s*\(\s*([^()]{2,20}?)\s*\)")
_PAREN_BEFORE = re.compile(r"(?<![\w\-])([^\s()]{2,20})\s*\(\s*$")
_LIST_GAP = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+|&\s*|/\s*)(?:the\s+)?", re.I)
_NUM_GAP = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+|to\s+|(?:-{1,3}|[–—])\s*|/\s*|\s)"
                      r"(?:by\s+)?(?:(?:up\s+to|over|about|nearly|almost|around|only)\s+)?", re.I)
#: Where a clause ends inside a sentence: "; ", ", while", ", whereas", ", but".
#: (A run of white space is entered at its start only: linear on long runs of spaces.)
CLAUSE_BREAK = re.compile(r";|(?:,|(?<![\s,]))\s+\b(?:while|whereas|but)\b", re.I)
_TRAIN_BEFORE = re.compile(r"\b(?:(?:pre-?)?train\w*|fine-?tun\w*|refined|derived|distilled|built|"
                           r"constructed|collected|curated|sourced|adapted|initiali[sz]ed)\s+"
                           r"(?:(?!evaluat|test|report|achiev|outperform)[\w\-]+\s+){0,6}?"
                           r"(?:on|from|with|using)\s+(?:the\s+)?(?:[\d.,]+\s*(?:million|billion|[KMB])?\s+)?$", re.I)

# A head that is a name by its shape (ARMBench, MS MARCO, WMT14), not a capitalized word (Open).
_NAMEY_HEAD = re.compile(r"(?:\S+\s)*\S*(?:[A-Z]\S*[A-Z]|\d)\S*(?:\s\S+)*")


def _covering(spans: list[tuple[int, int]]) -> Callable[[int, int], bool]:
    """An overlap test against ``spans`` (possibly overlapping) in O(log n)."""
    spans = sorted(spans)
    starts, reach, far = [s for s, _ in spans], [], 0
    for _, e in spans:
        far = max(far, e)
        reach.append(far)

    def overlaps(s: int, e: int) -> bool:
        k = bisect_left(starts, e) - 1          # the spans starting before e
        return k >= 0 and reach[k] > s
    return overlaps


def _split_runs(items: Sequence[Any], joined: Callable[[Any, Any], Any]) -> list[list[Any]]:
    """``items`` cut into runs of neighbours that are ``joined``."""
    runs: list[list[Any]] = []
    for it in items:
        if runs and joined(runs[-1][-1], it):
            runs[-1].append(it)
        else:
            runs.append([it])
    return runs


def _short_mentions(text: str, datasets: Sequence[str]) -> list[tuple[int, int, str, Ref]]:
    """Occurrences of a word-prefix of exactly one listed multi-word dataset, itself unlisted,
    as mentions of that dataset: "... benchmarks LibriSpeech test-clean and ... on LibriSpeech"."""
    listed = {d.lower() for d in datasets}
    heads: dict[str, set[str]] = {}
    for d in datasets:
        words = d.split()
        if len(words) > 3:
            continue                    # a long form ("Learning Environment for the X") has no short head
        for k in range(1, len(words)):
            heads.setdefault(" ".join(words[:k]), set()).add(d)
    out = []
    for head, full in heads.items():
        if len(full) != 1 or head.lower() in listed or len(head) < 3 or not _NAMEY_HEAD.fullmatch(head):
            continue
        name = next(iter(full))
        if first := _occurrences(text, [name], "dataset"):
            out += _occurrences(text, [head], "dataset", Ref(name, first[0][0], first[0][1]))
    return out


def _occurrences(text: str, names: Iterable[str], role: str, ref: Ref | None = None) -> list[tuple[int, int, str, Any]]:
    """(start, end, role, ref) of every whole-word occurrence of ``names``."""
    return [(s, s + len(name), role, ref) for name in names if name for s in literal_starts(text, name)
            if not (s > 0 and text[s - 1].isalnum() and name[0].isalnum()
                    or s + len(name) < len(text) and text[s + len(name)].isalnum() and name[-1].isalnum())]


class _Doc:
    def __init__(self, text: str, numbers: Sequence[Any], methods: Sequence[str], datasets: Sequence[str],
                 contribution: str | None = None, titled: str | None = None):
        self.text = text
        self.bounds = sentence_bounds(text)
        self._sent_ends = [e for _, e in self.bounds]
        dual = {d.lower() for d in datasets} & {m.lower() for m in methods}
        if contribution == "system":
            # a system paper's own environment/simulator (listed in both): its numbers are its own
            datasets = [d for d in datasets if d.lower() not in dual]
            dual = set()
        dataset_keys = {d.lower() for d in datasets}
        # an introduced benchmark is listed in both: it is not the system a number belongs to
        self.methods = [m for m in methods if m.lower() not in dataset_keys]
        self.introduced = [d for d in datasets if d.lower() in dual]
        self.nums = [_Num(i, s, e, k, self.sent_of(s)) for i, (s, e, k) in enumerate(numbers)]
        self._starts = [n.start for n in self.nums]         # numbers are sorted and disjoint
        self._ends = [n.end for n in self.nums]
        self.metrics = metric_phrases(text)
        in_metric = _covering([(p.start, p.end) for p in self.metrics])
        systems = [o for o in self._systems(text, set(dataset_keys) | {m.lower() for m in methods})
                   if not in_metric(o[0], o[1])]        # "AP50 (84.9)", "the AUC-ROC (0.91)": a metric
        found = (_occurrences(text, datasets, "dataset") + _occurrences(text, self.methods, "method") + systems
                 + _short_mentions(text, datasets))
        found.sort(key=lambda o: (-(o[1] - o[0]), o[0]))
        taken, on_number = bytearray(len(text)), _covering([(n.start, n.end) for n in self.nums])
        occ = []
        for s, e, role, ref in found:        # the longest first; none overlaps one taken
            if on_number(s, e) or 1 in taken[s:e]:
                continue
            taken[s:e] = b"\1" * (e - s)
            occ.append(_Occ(text[s:e], s, e, role, self.sent_of(s), ref))
        self.occ, self._occ_by_sent = sorted(occ, key=lambda o: o.start), {}
        for o in self.occ:
            self._occ_by_sent.setdefault(o.sent, []).append(o)
        self.firsts = {o.text: o for o in reversed(self.occ)}       # each name's first occurrence
        self.main = self._main_method(titled)
        self.short = self._short_forms(datasets)
        self.groups = self._number_groups()
        self._memo: dict[Any, Any] = {}

    def sent_of(self, pos: int) -> int:
        return min(bisect_right(self._sent_ends, pos), len(self.bounds) - 1)

    @staticmethod
    def _systems(text: str, known: set[str]) -> list[tuple[int, int, str, None]]:
        """Other systems the text names: a model's name (GPT-4o, Llama3-8B), or a name-shaped
        token (digits or capitals inside) that a result verb follows ("Protenix-v2 achieves 87%")
        or, after a comparison, a value ("outperforming YOLOv8-L (50.3 AP)")."""
        out = []
        for m in _SYSTEM_TOKEN.finditer(text):
            tok = m[0]
            if tok.lower() in known:
                continue
            if is_model_name(tok) or (_SYSTEM_SHAPE.search(tok) and len(tok) >= 4 and is_namey(tok)[0]
                                      and (_RESULT_AFTER.match(text, m.end()) or _VALUE_AFTER.match(text, m.end())
                                           and _COMPARED_BEFORE.search(text, max(0, m.start() - 80), m.start()))):
                out.append((m.start(), m.end(), "system", None))
        return out

    def _main_method(self, titled: str | None = None) -> str:
        """The paper's own system: the name its title gives (``titled``), else its most mentioned
        method name, the earliest on a tie (a long form stands for the acronym it defines); ""
        when it names none."""
        if not self.methods:
            return ""
        seen = Counter(o.text for o in self.occ)     # (counted in one pass: many names stay linear)
        counts, short = {m: seen[m] for m in self.methods}, {}
        for m in self.methods:          # "Long Form (LF)": the mentions of the long form go to LF
            o = self.firsts.get(m)
            acro = o and _PAREN_AFTER.match(self.text, o.end, o.end + 30)
            if acro and acro.group(1) in counts:
                short[m] = acro.group(1)
                counts[acro.group(1)] += counts.pop(m, 0)
        if titled in self.methods:      # ("ProxyNCA++: Revisiting ...", though "ProxyNCA" is named more)
            return short.get(titled, titled)
        parts = {m for m in self.methods if COMPONENT.match(m)}
        parts |= {short[m] for m in parts if m in short}
        if any(m not in parts for m in counts):     # a part ("Weighted Correlation Block (WCB)") is no system
            counts = {m: c for m, c in counts.items() if m not in parts}
        first = {m: self.firsts[m].start if m in self.firsts else 10**9 for m in counts}
        return max(counts, key=lambda m: (counts[m], -first[m]))

    def _short_forms(self, datasets: Sequence[str]) -> dict[str, Ref]:
        """{long form: its short form's occurrence} for the listed datasets written as "Long Form
        (LF)" or "LF (Long Form)" with both listed: a claim names the short form (the guideline's
        convention; 7 corpus abstracts, "Visual Task Adaptation Benchmark (VTAB)", "PSAT
        (Professionally Simplified Admissions Texts)")."""
        out = {}
        for d in datasets:
            o = self.firsts.get(d)
            if o is None:
                continue
            if (m := _PAREN_AFTER.match(self.text, o.end, o.end + 30)) and m.group(1) in datasets and m.group(1) != d:
                out[d] = Ref(m.group(1), m.start(1), m.end(1))
            elif (m := _PAREN_BEFORE.search(self.text, max(0, o.start - 30), o.start)) and m.group(1) in datasets \
                    and len(m.group(1)) < len(d):
                out[d] = Ref(m.group(1), m.start(1), m.end(1))
        return out

    def _number_groups(self) -> dict[int, list[_Num]]:
        """Coordinated numbers ("9.43%, 7.68%, and 4.82%", "2-5x"): each number's group (one
        list per group, shared by its numbers)."""
        groups = _split_runs(self.nums, lambda a, b: a.sent == b.sent and _NUM_GAP.fullmatch(self.text[a.end:b.start]))
        return {n.i: group for group in groups for n in group}

    def is_list(self, group: list[_Num]) -> bool:
        """A group of numbers that is a list ("2.1%, 3.4% and 5.0%"), not a range ("from 12.4%
        to 7.9%", "2-5x"); computed once per group."""
        return self.memo(("list", group[0].i), lambda: len(group) >= 2 and all(
            _LIST_GAP.fullmatch(self.text[a.end:b.start].replace("%", "", 1).strip(" $") + " ")
            for a, b in zip(group, group[1:])))

    # -- helpers for the rules --------------------------------------------------------
    def sentence(self, n: _Num) -> tuple[int, int]:
        return self.bounds[n.sent]

    def memo(self, key: Any, make: Callable[[], Any]) -> Any:
        """``make()`` computed once per document for ``key`` (a sentence's or a group's
        property that every number of it asks for: the rules stay linear in the text)."""
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    def sentence_has(self, pattern: re.Pattern, n: _Num) -> bool:
        """Whether ``pattern`` occurs in n's sentence (once per sentence)."""
        s, e = self.sentence(n)
        return self.memo((pattern.pattern, n.sent), lambda: pattern.search(self.text, s, e) is not None)

    def occurs(self, pattern: re.Pattern, n: _Num, s: int, e: int) -> bool:
        """Whether a match of ``pattern`` (found once per sentence) lies in [s, e) of n's sentence."""
        a, b = self.sentence(n)
        spans = self.memo((pattern.pattern, "spans", n.sent), lambda: [m.span() for m in pattern.finditer(self.text, a, b)])
        k = bisect_left(spans, (s, -1))
        return k < len(spans) and spans[k][1] <= e

    def last_words(self, s: int, e: int, words: int) -> int:
        """Where the last ``words`` white-space separated words of text[s:e] start (s at most)."""
        i, t = e, self.text
        for _ in range(words):
            while i > s and t[i - 1].isspace():
                i -= 1
            while i > s and not t[i - 1].isspace():
                i -= 1
        return i

    def in_sentence(self, n: _Num, role: str | tuple[str, ...]) -> list[_Occ]:
        roles = (role,) if isinstance(role, str) else role
        return self.memo(("in", n.sent, roles), lambda: [o for o in self._occ_by_sent.get(n.sent, ()) if o.role in roles])

    def between(self, items: list[Any], s: int, e: int) -> list[Any]:
        """The items (sorted spans) that start in [s, e)."""
        starts = self.memo(("starts", id(items)), lambda: (items, [o.start for o in items]))[1]
        return items[bisect_left(starts, s):bisect_left(starts, e)]

    def run_of(self, items: list[Any], o: Any) -> list[Any]:
        """The coordinated run of ``items`` that holds ``o``."""
        return self.memo(("run-of", id(items)),
                         lambda: (items, {it.start: run for run in self.runs(items) for it in run}))[1][o.start]

    def coordinated(self, items: Sequence[Any]) -> list[list[Any]]:
        """Coordinated runs of spans ("A, B and C")."""
        return _split_runs(items, lambda a, b: _LIST_GAP.fullmatch(self.text[a.end:b.start]))

    def runs(self, items: Sequence[Any]) -> list[list[Any]]:
        """:meth:`coordinated`, once per list."""
        return self.memo(("runs", id(items)), lambda: (items, self.coordinated(items)))[1]

    def break_before(self, n: _Num, pos: int) -> int:
        """The end of the last clause break of n's sentence ending by ``pos`` (found once per
        sentence: a long sentence of many numbers stays linear), else the sentence start."""
        s, e = self.sentence(n)
        ends = self.memo(("breaks", n.sent), lambda: [m.end() for m in CLAUSE_BREAK.finditer(self.text, s, e)])
        k = bisect_right(ends, pos) - 1
        return ends[k] if k >= 0 else s

    def segment_after(self, n: _Num) -> tuple[int, int]:
        """From the end of n's group to the next number outside it, a clause break or the sentence end."""
        last = self.groups[n.i][-1]

        def make() -> tuple[int, int]:
            k = bisect_left(self._starts, last.end)
            nxt = self.nums[k].start if k < len(self.nums) and self.nums[k].sent == n.sent else self.sentence(n)[1]
            brk = CLAUSE_BREAK.search(self.text, last.end, nxt)
            return last.end, brk.start() if brk else nxt
        return self.memo(("after", last.i), make)

    def segment_before(self, n: _Num) -> tuple[int, int]:
        """From the number before n's group, or the clause break after it, to n's group."""
        first = self.groups[n.i][0]

        def make() -> tuple[int, int]:
            k = bisect_right(self._ends, first.start) - 1
            s = self.nums[k].end if k >= 0 and self.nums[k].sent == n.sent else self.sentence(n)[0]
            return max(s, self.break_before(n, first.start)), first.start
        return self.memo(("before", first.i), make)

    def training_use(self, o: _Occ) -> bool:
        return self.memo(("train", o.start), lambda: bool(_TRAIN_BEFORE.search(self.text[max(0, o.start - 100):o.start])))

    def sentence_evals(self, sent: int) -> list[_Occ]:
        """The datasets of sentence ``sent`` a result can be reported on (not training data)."""
        return self.memo(("evals", sent), lambda: [o for o in self._occ_by_sent.get(sent, ())
                                                   if o.role == "dataset" and not self.training_use(o)])

    def evaluation_datasets(self, n: _Num) -> list[_Occ]:
        """The datasets of n's sentence it can be reported on: not the data a system is trained
        on, unless n counts that data ("13.2 million ImageNet-21k scenes")."""
        evals = self.sentence_evals(n.sent)
        if n.kind != "setting":
            return evals
        ds = self.in_sentence(n, "dataset")
        counted = [o for o in self.between(ds, n.end + 1, n.end + 40) if self.training_use(o) and
                   re.fullmatch(r"\s+(?:[\w\-]+\s+){0,2}", self.text[n.end:o.start])]
        return sorted(evals + counted, key=lambda o: o.start) if counted else evals


def per_group(rule: Callable[[_Doc, _Num], Any]) -> Callable[[_Doc, _Num], Any]:
    """``rule`` (whose answer depends on a number's group only: the segment before it, the text
    after it) asked once per group: a group of k numbers after a long segment costs the
    segment once, not k times."""
    def once(doc: _Doc, n: _Num) -> Any:
        return doc.memo((rule, doc.groups[n.i][0].i), lambda: rule(doc, n))
    once.__doc__, once.__name__ = rule.__doc__, rule.__name__
    return once


def _ref(o: _Occ | Phrase) -> Ref:
    return getattr(o, "ref", None) or Ref(o.text, o.start, o.end)


def _pair(doc: _Doc, n: _Num, items: Sequence[Any]) -> Ref | None:
    """With n in a group of k numbers and a coordinated run of k items, n's item (its Ref)."""
    group = doc.groups[n.i]
    if not doc.is_list(group):
        return None                 # "from 12.4% to 7.9%", "2-5x": a range, not a list
    return next((_ref(run[n.i - group[0].i]) for run in doc.runs(items) if len(run) == len(group)), None)

