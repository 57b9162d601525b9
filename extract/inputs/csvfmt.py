"""CSV files with a header row: your own, or Zotero and Scopus exports (their ``Abstract
Note`` / ``Abstract``, ``Key`` / ``EID`` and ``Title`` columns are recognised).

Rows are read by the standard library's ``csv`` in strict mode, so a quote that is never
closed is an error, not a field that swallows the rows after it: that row is reported with
its first line and reading resumes on the line after it.  A row spanning several lines is
reported by its first line.  Default ids ``<label>#<row>`` (row counts data rows from 1).
"""

from __future__ import annotations

import csv
import sys
from collections import deque
from collections.abc import Iterable, Iterator

from .model import FieldMap, Item, Problem, from_mapping


def _raise_field_limit() -> None:
    """Abstract fields may be long: lift csv's 128 KiB field limit (process-wide, so only
    when a CSV is actually read; ``--max-chars`` bounds what is sent)."""
    if csv.field_size_limit() < sys.maxsize:
        csv.field_size_limit(sys.maxsize)


class _Lines:
    """The lines csv reads, counted (for the source line of each row), with the lines of
    the record being read kept so that reading can resume after a bad record."""

    def __init__(self, lines: Iterable[str]):
        self._it = iter(lines)
        self._pending: deque[str] = deque()
        self._record: list[str] = []
        self.n = 0

    def __iter__(self):
        return self

    def __next__(self) -> str:
        line = self._pending.popleft() if self._pending else next(self._it)
        self.n += 1
        self._record.append(line)
        return line

    def mark(self) -> int:
        """A record starts here: its first line number."""
        self._record = []
        return self.n + 1

    def resume_after_first_line(self) -> None:
        """Give back every line of the bad record but its first."""
        again = self._record[1:]
        self._pending.extendleft(reversed(again))
        self.n -= len(again)
        self._record = []


def read_csv(lines: Iterable[str], name: str, label: str,
             fields: FieldMap | None = None) -> Iterator[Item | Problem]:
    _raise_field_limit()
    src = _Lines(lines)
    reader = csv.reader(src, strict=True)
    try:
        header = next(reader, None)
    except csv.Error as e:
        yield Problem(f"{name}:1", f"unparsable CSV header ({e})")
        return
    if not header:
        yield Problem(f"{name}:1", "empty file")
        return
    header = [h.strip() for h in header]
    keys = {h.lower(): h for h in header}
    fm = fields or FieldMap()
    if fm.pick(keys, "text") is None:
        wanted = repr(fm.text) if fm.text else "'abstract' or 'text'"
        yield Problem(f"{name}:1", f"no {wanted} column in the header "
                      f"(columns: {', '.join(header[:12])}; name it with --text-field)")
        return
    n = 0
    while True:
        start = src.mark()
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as e:
            n += 1
            yield Problem(f"{name}:{start}", f"unparsable CSV row ({e}; an unclosed quote?); "
                          "this row skipped, the next line read on")
            src.resume_after_first_line()
            reader = csv.reader(src, strict=True)
            continue
        if not row or (len(row) == 1 and not row[0].strip()):
            continue
        n += 1
        where = f"{name}:{start}"
        if len(row) > len(header):
            yield Problem(where, f"{len(row)} fields in this row, {len(header)} in the header")
            continue
        yield from_mapping(dict(zip(header, row)), label, n, where, fm)
    if n == 0:
        yield Problem(f"{name}:2", "header only, no rows")
