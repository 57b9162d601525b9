"""Plain-text abstracts.  Which reading is used is decided by one rule, and the caller is
told which (``note``):

1. The first line is a **header** (a title for the file, not an abstract) when it is at most
   150 characters and does not end like a sentence (``.``, ``!``, ``?``, ``:``, ``;`` or a
   closing bracket/quote after one), e.g. "NeurIPS 2026 Papers".
2. The rest is split into **blocks separated by blank lines**: one block, one abstract
   (lines of a block are joined with newlines).
3. Unless the rest has **no blank line at all** and several lines that each end like a
   sentence (or are mostly 300+ characters long): then it is **one abstract per line**.

ids ``<label>#<n>``, n counting abstracts from 1; the source is the abstract's first line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

from .model import Item, Problem, bad_text

_SENTENCE_END = re.compile(r"""[.!?:;][)\]"'’”»]*\s*$""")
HEADER_MAX = 150


def is_header(line: str) -> bool:
    line = line.strip()
    return bool(line) and len(line) <= HEADER_MAX and not _SENTENCE_END.search(line)


def _per_line(body: list[tuple[int, str]]) -> bool:
    lines = [s for _, s in body]
    if len(lines) < 2 or any(not s.strip() for s in lines):
        return False
    if all(_SENTENCE_END.search(s) for s in lines):
        return True
    long = sum(len(s) >= 300 for s in lines)
    return long * 2 > len(lines)


def read_txt(lines: Iterable[str], name: str, label: str,
             note: Callable[[str], None] | None = None) -> Iterator[Item | Problem]:
    it = iter(lines)
    first = next(it, None)
    if first is None:
        yield Problem(f"{name}:1", "empty file")
        return
    first = first.rstrip("\r\n")
    header = is_header(first)
    # Look ahead only as far as needed to choose the reading: up to the first blank line
    # (blocks) or 4,000 lines without one (then per line is decided on those).
    ahead: list[tuple[int, str]] = [] if header else [(1, first)]
    lineno = 1
    blank_seen = False
    for lineno, line in enumerate(it, start=2):
        line = line.rstrip("\r\n")
        ahead.append((lineno, line))
        if not line.strip():
            if any(s.strip() for _, s in ahead):
                blank_seen = True
                break
        if len(ahead) >= 4000:
            break
    per_line = not blank_seen and _per_line([(n, s) for n, s in ahead if s.strip()])
    if note is not None:
        head = f"first line {first.strip()[:60]!r} read as a header; " if header else "no header line; "
        note(head + ("one abstract per line" if per_line
                     else "abstracts separated by blank lines"))

    def rest():
        yield from ahead
        for n, line in enumerate(it, start=lineno + 1):
            yield n, line.rstrip("\r\n")

    count = 0
    last = lineno
    if per_line:
        for n, line in rest():
            last = n
            if line.strip():
                count += 1
                yield _item(name, label, count, n, [line])
    else:
        buf: list[str] = []
        start = 0
        for n, line in rest():
            last = n
            if line.strip():
                if not buf:
                    start = n
                buf.append(line)
            elif buf:
                count += 1
                yield _item(name, label, count, start, buf)
                buf = []
        if buf:
            count += 1
            yield _item(name, label, count, start, buf)
    if count == 0:
        yield Problem(f"{name}:{last}", "no abstracts after the header line" if header
                      else "no abstracts")


def _item(name: str, label: str, n: int, start: int, lines: list[str]) -> Item | Problem:
    text, rid, src = "\n".join(lines).strip(), f"{label}#{n}", f"{name}:{start}"
    reason = bad_text(text)
    if reason:
        return Problem(src, reason, rid)
    return Item(rid, src, text)
