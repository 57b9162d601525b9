"""The sentence around a span of the abstract, the span marked «like this», for a triage
flag's evidence (:mod:`extract.triage`)."""

from __future__ import annotations

from typing import Sequence

from .text import sentence_at
from .triage_model import Marked

_OPEN, _CLOSE = "\x02", "\x03"     # marks while the context is shaped; never in the text


def marked_context(text: str, bounds: list[int], start: int, end: int, width: int = 220,
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
