"""Where a literal string occurs in a text, without building a regular expression for it.

``re.finditer(re.escape(name), text)`` compiles a new pattern for every name of every
abstract; the names are unique, so ``re``'s cache never hits, each compile costs more than the
search (a character class such as ``[\\w\\-‐–]`` builds a Unicode bitmap), and the misses push
the rule layer's own static patterns out of that cache too.  These give the same matches as
those patterns (non-overlapping, left to right; ``\\w`` is ``str.isalnum()`` or ``_``), with
``str.find``.
"""

from __future__ import annotations

__all__ = ["bounded_starts", "starts"]


def starts(text: str, needle: str) -> list[int]:
    """Starts of the non-overlapping occurrences of ``needle``, as
    ``[m.start() for m in re.finditer(re.escape(needle), text)]``."""
    if not needle:
        return list(range(len(text) + 1))
    out, i, n = [], text.find(needle), len(needle)
    while i >= 0:
        out.append(i)
        i = text.find(needle, i + n)
    return out


def _joins(ch: str) -> bool:
    """In ``[\\w\\-‐–]``: a character that continues a name."""
    return ch.isalnum() or ch in "_-‐–"


def bounded_starts(text: str, needle: str) -> list[int]:
    """Starts of ``needle`` where no word character or hyphen touches it on either side, as
    ``re.finditer(r"(?<![\\w\\-‐–])" + re.escape(needle) + r"(?![\\w\\-‐–])", text)``."""
    if not needle:
        return [m for m in range(len(text) + 1)
                if not (m > 0 and _joins(text[m - 1])) and not (m < len(text) and _joins(text[m]))]
    out, n, end = [], len(needle), len(text)
    i = text.find(needle)
    while i >= 0:
        j = i + n
        if (i == 0 or not _joins(text[i - 1])) and (j == end or not _joins(text[j])):
            out.append(i)
            i = text.find(needle, j)
        else:
            i = text.find(needle, i + 1)
    return out
