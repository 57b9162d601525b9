"""Small text helpers shared by the candidate finders (offset-preserving, no I/O)."""

from __future__ import annotations

import re
from bisect import bisect_right

# Inline math: $...$ (not $$), \( ... \).  Bounded length, no blank line inside.
_MATH = re.compile(r"(?<![\\$])\$(?!\$)([^$\n]{1,300}?)(?<!\\)\$|\\\((.{1,300}?)\\\)")
_URL = re.compile(r"https?://[^\s)\]>]+|\]\([^)\s]*\)|\bwww\.[^\s)]+")
# Citation-like brackets: [12], [3, 4], [12-15], \cite{...}
_CITE = re.compile(r"\[\s*\d{1,3}(?:\s*[,;–-]\s*\d{1,3})*\s*\]|\\cite[tp]?\{[^}]*\}")
_SENT_END = re.compile(r"(?<=[.!?;])\s+(?=[A-Z\[(\"'`$*\\]|\d)|\n\s*\n")


def math_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every inline-math segment, delimiters included."""
    return [(m.start(), m.end()) for m in _MATH.finditer(text)]


def excluded_spans(text: str) -> list[tuple[int, int]]:
    """URLs, markdown link targets and citation brackets: digits there are never quantities."""
    spans = [(m.start(), m.end()) for m in _URL.finditer(text)]
    spans += [(m.start(), m.end()) for m in _CITE.finditer(text)]
    return sorted(spans)


class SpanIndex:
    """Point-in-interval lookups over a sorted list of non-overlapping spans."""

    def __init__(self, spans: list[tuple[int, int]]):
        self.spans = sorted(spans)
        self._starts = [s for s, _ in self.spans]

    def find(self, pos: int) -> tuple[int, int] | None:
        i = bisect_right(self._starts, pos) - 1
        if i >= 0:
            s, e = self.spans[i]
            if s <= pos < e:
                return s, e
        return None


def sentence_bounds(text: str) -> list[tuple[int, int]]:
    """Rough sentence spans (start, end) covering the text."""
    bounds, start = [], 0
    for m in _SENT_END.finditer(text):
        bounds.append((start, m.start()))
        start = m.end()
    bounds.append((start, len(text)))
    return bounds


def sentence_at(bounds: list[tuple[int, int]], pos: int) -> tuple[int, int]:
    starts = [s for s, _ in bounds]
    i = max(bisect_right(starts, pos) - 1, 0)
    return bounds[i]


_WORD = re.compile(r"[A-Za-z][A-Za-z0-9'’\-]*")
_CMD = re.compile(r"\\[A-Za-z]+")
_CLAUSE_END = re.compile(r"[.!?](?:\s|$)|[;:]|\n")


def _clean(seg: str) -> str:
    return _CMD.sub(" ", seg)


_COMMA_END = re.compile(r"[.!?](?:\s|$)|[;:,]|\n")


def words_before(text: str, pos: int, n: int, comma: bool = False) -> list[str]:
    """Up to n lower-cased words before pos within its clause (LaTeX commands dropped);
    with ``comma`` the clause also ends at a comma."""
    lo = max(0, pos - 200)
    seg = text[lo:pos]
    ends = list((_COMMA_END if comma else _CLAUSE_END).finditer(seg))
    if ends:
        seg = seg[ends[-1].end():]
    return [w.lower() for w in _WORD.findall(_clean(seg))][-n:]


def words_after(text: str, pos: int, n: int) -> list[str]:
    seg = text[pos:pos + 200]
    m = _CLAUSE_END.search(seg)
    if m:
        seg = seg[:m.start()]
    return [w.lower() for w in _WORD.findall(_clean(seg))][:n]
