"""Where a literal string occurs, with ``str.find``: ``re.finditer(re.escape(name))`` compiled
a new pattern per name (names are unique: ``re``'s cache never hits and is flushed of the rule
layer's own patterns). Same matches (non-overlapping; ``\\w`` is ``isalnum()`` or ``_``)."""

from __future__ import annotations

__all__ = ["bounded_starts", "folded", "matches_from", "starts", "word_starts"]

# What re.IGNORECASE matches to an ASCII letter besides its two cases and lower() does not
# make that letter: "ı" and "İ" ("i", "İ".lower() is two characters) and "ſ" ("s"), replaced
# (str.translate reads a table per character: 20 times slower).


def folded(text: str) -> str:
    """``text`` lower-cased so that wherever a case-insensitive pattern matches an ASCII word,
    the lower-cased word occurs in it, at the same offset (a pattern that needs a word cannot
    match a text whose fold lacks it: ``in`` tested first, the pattern only where it may match).
    Offset for offset: no character lower-cases to two but "İ"."""
    return text.lower() if text.isascii() else text.replace("ı", "i").replace("İ", "i").replace("ſ", "s").lower()


def word_starts(text: str, words) -> list[int]:
    """Sorted offsets where one of the lower-case ASCII ``words`` starts a word of ``text``,
    case-insensitively (as re.I matches it) and after no word character: every place where a
    case-insensitive ``\\b(?:word...)`` can match."""
    low, out = folded(text), set()
    for w in words:
        i = low.find(w)
        while i >= 0:
            if i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_"):      # no \w before
                out.add(i)
            i = low.find(w, i + 1)
    return sorted(out)


def matches_from(rx, text: str, starts: list[int]) -> list:
    """``list(rx.finditer(text))`` for a pattern that matches no empty string and whose every
    match starts at one of the sorted offsets ``starts``: rx is tried only there (its
    look-behinds still see the text before)."""
    out, end = [], 0
    for p in starts:
        if p >= end and (m := rx.match(text, p)):
            out.append(m)
            end = m.end()
    return out


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
