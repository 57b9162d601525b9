"""Reading abstracts from files and directories, streamed, with stable unique ids.

Formats (by extension):
* ``.txt``  - the seed format: first line a header, then abstracts separated by blank lines;
  ids ``<file stem>#<n>`` with n counting abstracts from 1;
* ``.jsonl`` - one object per line with ``abstract`` or ``text`` (optional ``id``, ``title``);
  default ids ``<file stem>#<line>``;
* ``.csv``  - a header row with an ``abstract`` or ``text`` column (optional ``id``,
  ``title``); default ids ``<file stem>#<row>``.

A problem with one record (undecodable bytes, unparsable line, empty abstract, duplicate
id) is yielded as a :class:`Problem` naming file and line; it never stops the others.
"""

from __future__ import annotations

import csv
import json
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .errors import InputError
from .idindex import IdIndex

EXTENSIONS = (".txt", ".jsonl", ".csv")
csv.field_size_limit(sys.maxsize)


@dataclass(frozen=True)
class Item:
    id: str
    source: str          # "path:line"
    text: str
    title: str | None = None


@dataclass(frozen=True)
class Problem:
    source: str
    reason: str
    id: str | None = None


_SURROGATE = re.compile("[\udc80-\udcff]")


def _bad_bytes(s: str) -> int | None:
    """Column of the first undecodable byte (kept as a surrogate escape), if any.
    (A regex: a per-character loop was 40% of a cached rerun's time.)"""
    m = _SURROGATE.search(s)
    return m.start() + 1 if m else None


def expand(paths: Iterable[str | Path]) -> tuple[list[Path], list[str]]:
    """Input files in a stable order, plus notes on skipped files.  A path that does not
    exist is an :class:`InputError` (raised before anything runs)."""
    files, notes = [], []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            for f in sorted(x for x in p.rglob("*") if x.is_file()):
                if f.name.startswith("."):
                    continue
                if f.suffix.lower() in EXTENSIONS:
                    files.append(f)
                else:
                    notes.append(f"{f}: skipped (not .txt, .jsonl or .csv)")
        elif p.is_file():
            if p.suffix.lower() not in EXTENSIONS:
                raise InputError(f"{p}: unsupported input type {p.suffix or '(none)'!r}; "
                                 "use .txt, .jsonl or .csv")
            files.append(p)
        else:
            raise InputError(f"{p}: no such file or directory")
    return files, notes


def _open(path: Path):
    return path.open("r", encoding="utf-8", errors="surrogateescape", newline="")


def _read_txt(path: Path) -> Iterator[Item | Problem]:
    with _open(path) as fh:
        header = fh.readline()
        if not header:
            yield Problem(f"{path}:1", "empty file")
            return
        n, buf, start, lineno = 0, [], 0, 1
        for lineno, line in enumerate(fh, start=2):
            line = line.rstrip("\r\n")
            if line.strip():
                if not buf:
                    start = lineno
                buf.append(line)
                continue
            if buf:
                n += 1
                yield _txt_item(path, n, start, buf)
                buf = []
        if buf:
            n += 1
            yield _txt_item(path, n, start, buf)
        if n == 0:
            yield Problem(f"{path}:{lineno}", "no abstracts after the header line")


def _txt_item(path: Path, n: int, start: int, lines: list[str]) -> Item | Problem:
    text, rid, src = "\n".join(lines).strip(), f"{path.stem}#{n}", f"{path}:{start}"
    col = _bad_bytes(text)
    if col is not None:
        return Problem(src, "not valid UTF-8 (undecodable bytes)", rid)
    return Item(rid, src, text)


def _from_mapping(obj: dict, path: Path, n: int, src: str) -> Item | Problem:
    rid = obj.get("id")
    rid = f"{path.stem}#{n}" if rid in (None, "") else str(rid)
    text = obj.get("abstract", obj.get("text"))
    if text is None:
        return Problem(src, "no 'abstract' or 'text' field", rid)
    if not isinstance(text, str):
        return Problem(src, "'abstract' is not a string", rid)
    if _bad_bytes(text) is not None:
        return Problem(src, "not valid UTF-8 (undecodable bytes)", rid)
    title = obj.get("title")
    return Item(rid, src, text.strip(), title if isinstance(title, str) else None)


def _read_jsonl(path: Path) -> Iterator[Item | Problem]:
    seen_any = False
    with _open(path) as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            seen_any = True
            src = f"{path}:{lineno}"
            if _bad_bytes(line) is not None:
                yield Problem(src, "not valid UTF-8 (undecodable bytes)")
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                yield Problem(src, f"not JSON ({e.msg} at column {e.colno})")
                continue
            if not isinstance(obj, dict):
                yield Problem(src, "not a JSON object")
                continue
            yield _from_mapping(obj, path, lineno, src)
    if not seen_any:
        yield Problem(f"{path}:1", "empty file")


def _read_csv(path: Path) -> Iterator[Item | Problem]:
    with _open(path) as fh:
        reader = csv.DictReader(fh)
        fields = [f.strip().lower() for f in (reader.fieldnames or [])]
        if not fields:
            yield Problem(f"{path}:1", "empty file")
            return
        if "abstract" not in fields and "text" not in fields:
            yield Problem(f"{path}:1", "no 'abstract' or 'text' column in the header")
            return
        reader.fieldnames = fields
        n = 0
        try:
            for n, row in enumerate(reader, start=1):
                yield _from_mapping(row, path, n, f"{path}:{reader.line_num}")
        except csv.Error as e:
            yield Problem(f"{path}:{reader.line_num}", f"unparsable CSV ({e}); rest of file skipped")
        if n == 0:
            yield Problem(f"{path}:2", "header only, no rows")


_READERS = {".txt": _read_txt, ".jsonl": _read_jsonl, ".csv": _read_csv}


def read_inputs(files: Iterable[Path]) -> Iterator[Item | Problem]:
    """Items and problems in input order; empty abstracts and duplicate ids become problems."""
    seen = IdIndex()     # id -> where it first appeared; bounded memory for huge inputs
    try:
        for path in files:
            try:
                for entry in _READERS[path.suffix.lower()](path):
                    if isinstance(entry, Item):
                        first = seen.get(entry.id) if entry.text else None
                        if not entry.text:
                            entry = Problem(entry.source, "empty abstract", entry.id)
                        elif first is not None:
                            entry = Problem(entry.source, f"duplicate id {entry.id!r} "
                                            f"(first at {first})", entry.id)
                        else:
                            seen.add(entry.id, entry.source)
                    yield entry
            except OSError as e:
                yield Problem(f"{path}:0", f"cannot read ({e.strerror or e})")
    finally:
        seen.close()
