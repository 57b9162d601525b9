"""The document the claims rules read: sentences, numbers, name occurrences, coordinated runs.

Internal to :mod:`extract.candidates.claims`; :class:`_Doc` is built once per abstract.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ..text import sentence_bounds
from .claim_metric import Phrase, metric_phrases
from ..text import is_model_name


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

_SYSTEM_TOKEN = re.compile(r"(?<![\w\-.])[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*(?:\s\d+(?:\.\d+)?[BM]\b)?")
_LIST_GAP = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+|&\s*|/\s*)(?:the\s+)?", re.I)
_NUM_GAP = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+|to\s+|(?:-{1,3}|[–—])\s*|/\s*|\s)"
                      r"(?:by\s+)?(?:(?:up\s+to|over|about|nearly|almost|around|only)\s+)?", re.I)
#: Where a clause ends inside a sentence: "; ", ", while", ", whereas", ", but".
CLAUSE_BREAK = re.compile(r";|,?\s+\b(?:while|whereas|but)\b", re.I)
_TRAIN_BEFORE = re.compile(r"\b(?:(?:pre-?)?train\w*|fine-?tun\w*|refined|derived|distilled|built|"
                           r"constructed|collected|curated|sourced|adapted|initiali[sz]ed)\s+"
                           r"(?:(?!evaluat|test|report|achiev|outperform)[\w\-]+\s+){0,6}?"
                           r"(?:on|from|with|using)\s+(?:the\s+)?(?:[\d.,]+\s*(?:million|billion|[KMB])?\s+)?$", re.I)

# A head that is a name by its shape (ARMBench, MS MARCO, WMT14), not a capitalized word (Open).
_NAMEY_HEAD = re.compile(r"(?:\S+\s)*\S*(?:[A-Z]\S*[A-Z]|\d)\S*(?:\s\S+)*")


def _short_mentions(text: str, datasets: Sequence[str]) -> list[tuple[int, int, str, str, Ref]]:
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
        first = _occurrences(text, [name], "dataset")
        if not first:
            continue
        ref = Ref(name, first[0][0], first[0][1])
        out += [(s, e, head, "dataset", ref) for s, e, _, _ in _occurrences(text, [head], "dataset")]
    return out


def _occurrences(text: str, names: Iterable[str], role: str) -> list[tuple[int, int, str, str]]:
    out = []
    for name in names:
        if not name:
            continue
        for m in re.finditer(re.escape(name), text):
            s, e = m.start(), m.end()
            if (s > 0 and text[s - 1].isalnum() and name[0].isalnum()) or \
                    (e < len(text) and text[e].isalnum() and name[-1].isalnum()):
                continue
            out.append((s, e, name, role))
    return out


class _Doc:
    def __init__(self, text: str, numbers: Sequence[Any], methods: Sequence[str], datasets: Sequence[str],
                 contribution: str | None = None):
        self.text = text
        self.bounds = sentence_bounds(text)
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
        found = [o + (None,) for o in _occurrences(text, datasets, "dataset") + _occurrences(text, self.methods, "method")
                 + self._systems(text, set(dataset_keys) | {m.lower() for m in methods})]
        found += _short_mentions(text, datasets)
        found.sort(key=lambda o: (-(o[1] - o[0]), o[0]))
        taken: list[tuple[int, int]] = []
        occ = []
        for s, e, name, role, ref in found:
            if any(s < te and ts < e for ts, te in taken) or any(s < n.end and n.start < e for n in self.nums):
                continue
            taken.append((s, e))
            occ.append(_Occ(text[s:e], s, e, role, self.sent_of(s), ref))
        self.occ = sorted(occ, key=lambda o: o.start)
        self.main = self._main_method()
        self.metrics = metric_phrases(text)
        self.groups = self._number_groups()

    def sent_of(self, pos: int) -> int:
        for i, (s, e) in enumerate(self.bounds):
            if pos < e or i == len(self.bounds) - 1:
                return i
        return len(self.bounds) - 1

    @staticmethod
    def _systems(text: str, known: set[str]) -> list[tuple[int, int, str, str]]:
        out = []
        for m in _SYSTEM_TOKEN.finditer(text):
            tok = m.group(0)
            if tok.lower() not in known and any(c.isupper() for c in tok) and is_model_name(tok):
                out.append((m.start(), m.end(), tok, "system"))
        return out

    def _main_method(self) -> str:
        """The paper's own system: its most mentioned method name (a long form counts for the
        acronym it defines), the earliest on a tie; "" when it names none."""
        if not self.methods:
            return ""
        counts = {m: sum(1 for o in self.occ if o.text == m) for m in self.methods}
        for m in self.methods:          # "Long Form (LF)": the mentions of the long form go to LF
            for o in self.occ:
                if o.text == m:
                    after = self.text[o.end:o.end + 30]
                    acro = re.match(r"\s*\(\s*([^()]{2,20}?)\s*\)", after)
                    if acro and acro.group(1) in counts:
                        counts[acro.group(1)] += counts.pop(m, 0)
                    break
        first = {m: next((o.start for o in self.occ if o.text == m), 10**9) for m in counts}
        return max(counts, key=lambda m: (counts[m], -first[m]))

    def _number_groups(self) -> dict[int, list[_Num]]:
        """Coordinated numbers ("9.43%, 7.68%, and 4.82%", "2-5x"): each number's group."""
        groups: dict[int, list[_Num]] = {}
        cur: list[_Num] = []
        for n in self.nums:
            if cur and cur[-1].sent == n.sent and _NUM_GAP.fullmatch(self.text[cur[-1].end:n.start]):
                cur.append(n)
            else:
                cur = [n]
            for m in cur:
                groups[m.i] = cur
        return groups

    # -- helpers for the rules --------------------------------------------------------
    def sentence(self, n: _Num) -> tuple[int, int]:
        return self.bounds[n.sent]

    def in_sentence(self, n: _Num, role: str | tuple[str, ...]) -> list[_Occ]:
        roles = (role,) if isinstance(role, str) else role
        return [o for o in self.occ if o.sent == n.sent and o.role in roles]

    def runs(self, items: Sequence[Any]) -> list[list[Any]]:
        """Coordinated runs of spans ("A, B and C")."""
        out: list[list[Any]] = []
        for it in items:
            if out and _LIST_GAP.fullmatch(self.text[out[-1][-1].end:it.start]):
                out[-1].append(it)
            else:
                out.append([it])
        return out

    def segment_after(self, n: _Num) -> tuple[int, int]:
        """From the end of n's group to the next number outside it (or the sentence end)."""
        group = self.groups[n.i]
        s = group[-1].end
        nxt = next((m.start for m in self.nums if m.start >= s and m.sent == n.sent), self.sentence(n)[1])
        brk = CLAUSE_BREAK.search(self.text, s, nxt)
        return s, brk.start() if brk else nxt

    def segment_before(self, n: _Num) -> tuple[int, int]:
        group = self.groups[n.i]
        e = group[0].start
        prev = [m.end for m in self.nums if m.end <= e and m.sent == n.sent]
        s = prev[-1] if prev else self.sentence(n)[0]
        breaks = list(CLAUSE_BREAK.finditer(self.text, s, e))
        return (breaks[-1].end() if breaks else s), e

    def training_use(self, o: _Occ) -> bool:
        return bool(_TRAIN_BEFORE.search(self.text[max(0, o.start - 100):o.start]))

    def evaluation_datasets(self, n: _Num) -> list[_Occ]:
        """The datasets of n's sentence it can be reported on: not the data a system is trained
        on, unless n counts that data ("13.2 million ImageNet-21k scenes")."""
        def counts(o: _Occ) -> bool:     # "13.2 million ImageNet-21k scenes"
            return n.kind == "setting" and 0 < o.start - n.end < 40 and bool(
                re.fullmatch(r"\s+(?:[\w\-]+\s+){0,2}", self.text[n.end:o.start]))
        return [o for o in self.in_sentence(n, "dataset") if counts(o) or not self.training_use(o)]


def _ref(o: _Occ | Phrase) -> Ref:
    return getattr(o, "ref", None) or Ref(o.text, o.start, o.end)


def _pair(doc: _Doc, n: _Num, items: Sequence[Any]) -> Any | None:
    """With n in a group of k numbers and a coordinated run of k items, n's item."""
    group = doc.groups[n.i]
    if len(group) < 2 or any(not _LIST_GAP.fullmatch(doc.text[a.end:b.start].replace("%", "", 1).strip(" $")
                                                     + " ") for a, b in zip(group, group[1:])):
        return None                 # "from 12.4% to 7.9%", "2-5x": a range, not a list
    for run in doc.runs(items):
        if len(run) == len(group):
            return run[group.index(n)]
    return None
