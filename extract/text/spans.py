"""Spans of an abstract that the rules treat apart: inline math, URLs, citation brackets, and
point-in-span lookups over them (offset-exact, no I/O)."""

from __future__ import annotations

import re
from bisect import bisect_right

__all__ = ["SpanIndex", "excluded_spans", "math_spans"]

# Inline math: $...$ (not $$), \( ... \).  Bounded length, no blank line inside.
_MATH = re.compile(r"(?<![\\$])\$(?!\$)([^$\n]{1,300}?)(?<!\\)\$|\\\((.{1,300}?)\\\)")
_URL = re.compile(r"https?://[^\s)\]>]+|\]\([^)\s]*\)|\bwww\.[^\s)]+")
# Citation-like brackets: [12], [3, 4], [12-15], \cite{...}
_CITE = re.compile(r"\[\s*\d{1,3}(?:\s*[,;–-]\s*\d{1,3})*\s*\]|\\cite[tp]?\{[^}]*\}")


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
