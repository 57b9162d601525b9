"""The words around a position, within its clause (lower-cased, LaTeX commands dropped)."""

from __future__ import annotations

import re

__all__ = ["words_after", "words_before"]

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9'’\-]*")
_CMD = re.compile(r"\\[A-Za-z]+")
_CLAUSE_END = re.compile(r"[.!?](?:\s|$)|[;:]|\n")
_COMMA_END = re.compile(r"[.!?](?:\s|$)|[;:,]|\n")


def words_before(text: str, pos: int, n: int, comma: bool = False) -> list[str]:
    """Up to n lower-cased words before pos within its clause (ended also by a comma with ``comma``).

    >>> words_before("Accuracy rises; it improves by 3%", 31, 3)
    ['it', 'improves', 'by']
    """
    seg = text[max(0, pos - 200):pos]
    end = _COMMA_END if comma else _CLAUSE_END         # the last end: sought in the last 40 first
    ends = list(end.finditer(seg, max(0, len(seg) - 40))) or list(end.finditer(seg))
    if ends:
        seg = seg[ends[-1].end():]
    return [w.lower() for w in _WORD.findall(_CMD.sub(" ", seg))][-n:]


def words_after(text: str, pos: int, n: int) -> list[str]:
    """Up to n lower-cased words after pos within its clause."""
    seg = _CLAUSE_END.split(text[pos:pos + 200], maxsplit=1)[0]
    return [w.lower() for w in _WORD.findall(_CMD.sub(" ", seg))][:n]
