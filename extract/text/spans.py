"""Spans the rules treat apart (inline math, URLs, citations, notices), and lookups in them."""

from __future__ import annotations

import re
from bisect import bisect_right

__all__ = ["SpanIndex", "excluded_spans", "math_spans", "notice_spans", "rules_text", "unemphasized", "url_spans"]

# Inline math: $...$ (not $$), \( ... \).  Bounded length, no blank line inside.  (Each
# alternative opens with its literal, the look-behinds after it: re scans for "$" and "\" fast.)
_MATH = re.compile(r"\$(?<![\\$]\$)(?!\$)([^$\n]{1,300}?)(?<!\\)\$|\\\((.{1,300}?)\\\)")
# (``\bwww\.`` written ``w(?<=\bw)ww\.``: every alternative opens with a literal, scanned for fast)
_URL = re.compile(r"https?://[^\s)\]>]+|\]\([^)\s]*\)|w(?<=\bw)ww\.[^\s)]+")
# A bare web address with a path ("github.com/org/repo", "name.github.io/page"), found by the end
# of its domain and widened to its whole token (url_spans)
_BARE_URL = re.compile(r"\.(?:com|org|io|net|edu|ai)/[^\s)\]>]*")
# Citation-like brackets: [12], [3, 4], [12-15], \cite{...}, a bracket holding a year
_CITE = re.compile(r"\[\s*\d{1,3}(?:\s*[,;–-]\s*\d{1,3})*\s*\]|\\cite[tp]?\{[^}]*\}"
                   r"|\[[^\[\]\n]{0,80}?\b(?:19|20)\d\d[a-z]?\b[^\[\]\n]{0,80}\]")   # [Smith, 2021], [JMLR 19 (2018)]

# A copyright notice: "© 2024 Elsevier B.V. All rights reserved.", "(c) 2023 IEEE", "Copyright
# 2022 by the authors."; from its mark to the end of its sentence (and a following "All rights reserved").
_YEAR = r"(?:19|20)\d\d\b"
_NOTICE = re.compile(r"(?:©|\(c\)(?=\s*" + _YEAR + r"\s*(?:(?-i:[A-Z])|[,.]|$))|\bcopyright\b(?=\s*(?:©|\(c\)|" + _YEAR + r")))"
                     r"[^\n]*?(?:[.!?](?=\s+(?-i:[A-Z])|\s*$)(?:\s*all\s+rights\s+reserved\b\.?)?|(?=\n)|$)", re.I)


# a space that is not " ", or one line break ("\n", "\r\n", "\r") with no other next to it: a
# wrapped line, not a paragraph
_WIDE = "\xa0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"
_SPACE = re.compile(rf"[\t{_WIDE}]|(?<![\n\r])(?:\r\n?|\n)(?![\n\r])")


# a heading before the abstract: "Abstract:", "ABSTRACT" on its own line, "Summary." (never the
# words of a sentence: "Abstract meaning representation (AMR) is ...")
_HEADING = re.compile(r"\s*(?:abstract|summary)\s*(?:[:.—–]|-(?=\s)|\r?\n)", re.I)


_EMPHASIS = re.compile(r"(?<![\w\-])(?:(\\(?:textbf|textit|emph|texttt|textsc|textsf|underline)\{)([^{}\n$]{1,80})\}"
                       r"|(\*\*)([^*\n]{1,80}?)\*\*|(__)([^_\n]{1,80}?)__)(?![\w\-])")   # (never a letter's: "\textbf{S}cale")


def notice_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every copyright notice: publisher boilerplate, no part of the abstract."""
    low = text.lower()
    if "©" not in text and "(c)" not in low and "copyr" not in low:
        return []       # each notice holds one of these (no "i" or "s": re.I folds nothing else into them)
    return [(m.start(), m.end()) for m in _NOTICE.finditer(text)]


def rules_text(text: str) -> str:
    r"""The text the rules read (offsets unchanged): ``text`` with its copyright notices and a
    heading before it ("Abstract:", "ABSTRACT" on its own line) blanked, its single line breaks and
    its other spaces (tab, no-break, thin, ideographic) read as spaces, so that a hard-wrapped
    abstract (as arXiv serves them) or one pasted from a PDF reads as the same abstract; a blank
    line stays a break.

    >>> rules_text("the Tensor\u00a0Product\nNetwork (TPN).\n\nNext")
    'the Tensor Product Network (TPN).\n\nNext'
    """
    if (m := _HEADING.match(text)) is not None:     # "Abstract: We propose ...", as pasted from a PDF
        text = " " * m.end() + text[m.end():]
    if "\n" in text or "\r" in text or "\t" in text or not text.isascii() and any(c in text for c in _WIDE):
        text = _SPACE.sub(lambda m: " " * len(m.group()), text)      # (sought only where one can be)
    for s, e in notice_spans(text):
        text = text[:s] + " " * (e - s) + text[e:]
    return text


def unemphasized(text: str) -> str:
    r"""``text`` with the markup of emphasis around words read as spaces (offsets unchanged):
    ``\textbf{X}``, ``\emph{X}``, ``**X**``, ``__X__`` ("we propose \textbf{FewVLM}, a ..." names
    FewVLM as "we propose FewVLM" does). The name rules read this text, and the emphasis itself,
    a cue that the paper names the term, on the text before.

    >>> unemphasized(r"we propose \textbf{FewVLM}, a **new** model")
    'we propose         FewVLM , a   new   model'
    """
    if "\\" in text or "**" in text or "__" in text:
        text = _EMPHASIS.sub(_unwrapped, text)
    return text


def _unwrapped(m: re.Match) -> str:
    g = next(i for i in (2, 4, 6) if m.group(i) is not None)
    return " " * (m.start(g) - m.start()) + m.group(g) + " " * (m.end() - m.end(g))


def math_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every inline-math segment, delimiters included."""
    return [(m.start(), m.end()) for m in _MATH.finditer(text)]


def url_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every web address, with or without its scheme, and markdown link target."""
    out = [m.span() for m in _URL.finditer(text)]
    if "/" in text:
        inside = SpanIndex(out).find
        for m in _BARE_URL.finditer(text):
            if inside(m.start()):
                continue
            s = m.start()               # (back to the token's start, never past a match's end: linear)
            while s > 0 and not text[s - 1].isspace() and text[s - 1] not in "([<\"'“)]>":
                s -= 1
            out.append((s, m.end()))
    return sorted(out)


def excluded_spans(text: str) -> list[tuple[int, int]]:
    """URLs, markdown link targets and citation brackets: digits there are never quantities."""
    return sorted(url_spans(text) + [m.span() for m in _CITE.finditer(text)])


class SpanIndex:
    """Point-in-interval lookups over a sorted list of non-overlapping spans."""

    def __init__(self, spans: list[tuple[int, int]]):
        self.spans = sorted(spans)
        self._starts = [s for s, _ in self.spans]

    def find(self, pos: int) -> tuple[int, int] | None:
        i = bisect_right(self._starts, pos) - 1
        return self.spans[i] if i >= 0 and self.spans[i][0] <= pos < self.spans[i][1] else None
