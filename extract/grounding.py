"""Align strings a model returned with character offsets in the source text.

Parse and align are separate steps (as in LangExtract): the model names strings, this
module finds where they are.  Every aligned span keeps ``start``/``end`` such that
``source[start:end] == span.text`` and an alignment ``status``:

* ``exact``  - the string occurs verbatim;
* ``fuzzy``  - it occurs once markdown/LaTeX wrappers, case and spacing are ignored
  (the exported text is then the source's own spelling);
* ``None`` from :func:`align` - not in the source: the caller re-asks or drops it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Wrappers a model (or the abstract itself) puts around a name: **X**, __X__, `X`,
# \texttt{X}, \textbf{X}, \emph{X}, \mathrm{X}, "X", 'X'.
_WRAPPERS = re.compile(
    r"^(?:\*\*|__|`|\"|'|“|‘)(.+?)(?:\*\*|__|`|\"|'|”|’)$"
    r"|^\\(?:texttt|textbf|textit|emph|mathrm|mathbf|mathtt|textsc|textsf)\{(.+)\}$",
    re.S,
)
# Characters ignored by fuzzy matching (markup, not content).
_IGNORED = set("\\$*`{}~")


@dataclass(frozen=True)
class Span:
    text: str
    start: int
    end: int
    status: str = "exact"  # exact | fuzzy

    def as_dict(self) -> dict:
        return {"text": self.text, "start": self.start, "end": self.end, "status": self.status}


def unwrap(name: str) -> str:
    """Strip markdown/LaTeX wrappers and outer spaces from a name."""
    s = name.strip()
    while True:
        m = _WRAPPERS.match(s)
        if not m:
            return s
        s = (m.group(1) or m.group(2)).strip()


def _is_word(ch: str) -> bool:
    return ch.isalnum()


def _at_boundary(source: str, start: int, end: int) -> bool:
    before = source[start - 1] if start > 0 else " "
    after = source[end] if end < len(source) else " "
    first, last = source[start], source[end - 1]
    return not (_is_word(before) and _is_word(first)) and not (_is_word(after) and _is_word(last))


def _pick(hits: list[tuple[int, int]], source: str, taken: frozenset) -> tuple[int, int] | None:
    """Prefer a hit on word boundaries not already used, then any unused, then any."""
    if not hits:
        return None
    for pred in (
        lambda s, e: (s, e) not in taken and _at_boundary(source, s, e),
        lambda s, e: _at_boundary(source, s, e),
    ):
        for s, e in hits:
            if pred(s, e):
                return s, e
    return None


def _exact_hits(source: str, needle: str) -> list[tuple[int, int]]:
    hits, i = [], source.find(needle)
    while i >= 0:
        hits.append((i, i + len(needle)))
        i = source.find(needle, i + 1)
    return hits


def _normalize(text: str) -> tuple[str, list[int]]:
    """Lower-cased text without markup characters and with spaces collapsed,
    plus the source index of every kept character."""
    out, index, prev_space = [], [], False
    for i, ch in enumerate(text):
        if ch in _IGNORED:
            continue
        if ch.isspace():
            if prev_space:
                continue
            prev_space = True
            out.append(" ")
            index.append(i)
        else:
            prev_space = False
            low = ch.lower()            # "İ" lower-cases to two characters: one index each
            out.append(low)
            index.extend([i] * len(low))
    return "".join(out), index


class Aligner:
    """Aligns many strings against one source; reuses the normalized source."""

    def __init__(self, source: str):
        self.source = source
        self._norm: tuple[str, list[int]] | None = None

    def align(self, needle: str, *, unwrap_name: bool = False, taken: frozenset = frozenset()) -> Span | None:
        if not isinstance(needle, str):
            return None
        candidates = [needle.strip()]
        if unwrap_name:
            bare = unwrap(needle)
            if bare != candidates[0]:
                candidates.insert(0, bare)
        for cand in candidates:
            if not cand:
                continue
            hit = _pick(_exact_hits(self.source, cand), self.source, taken)
            if hit:
                return Span(cand, hit[0], hit[1], "exact")
        for cand in candidates:
            span = self._fuzzy(cand, taken)
            if span:
                return span
        return None

    def _fuzzy(self, needle: str, taken: frozenset) -> Span | None:
        if self._norm is None:
            self._norm = _normalize(self.source)
        norm, index = self._norm
        key, _ = _normalize(needle)
        key = key.strip()
        if not key or not any(ch.isalnum() for ch in key):
            return None
        hits = []
        for s, e in _exact_hits(norm, key):
            start, end = index[s], index[e - 1] + 1
            hits.append((start, end))
        hit = _pick(hits, self.source, taken)
        if not hit:
            return None
        start, end = hit
        return Span(self.source[start:end], start, end, "fuzzy")


def align(source: str, needle: str, **kw) -> Span | None:
    """Find ``needle`` in ``source``; see :meth:`Aligner.align`."""
    return Aligner(source).align(needle, **kw)
