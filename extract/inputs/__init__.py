"""Reading abstracts from files, directories and stdin, streamed, with stable unique ids.

Formats (by extension; stdin's is sniffed or given): ``.txt`` (see :mod:`.txt` for how a
header and one-abstract-per-line files are recognised), ``.jsonl``/``.ndjson`` and
``.json`` (arXiv snapshot, OpenAlex, Semantic Scholar, your own; :mod:`.jsonfmt`), ``.csv``
(Zotero, Scopus, your own; :mod:`.csvfmt`), ``.bib`` (:mod:`.bib`) and ``.atom``/``.xml`` (the
arXiv API's Atom feed; :mod:`.atom`).  Field names and
``meta``: :mod:`.model`; which files and their default ids: :mod:`.paths`.

Any of them may be compressed (``papers.jsonl.gz``, ``.bz2``, ``.xz``): read through the standard
library's ``gzip``, ``bz2`` and ``lzma``, streamed like the others; a file that ends or breaks
mid-stream is a :class:`Problem` after the records read before it.  Every file is read as UTF-8
with an optional BOM.  A problem with one record (undecodable
bytes, a lone surrogate, an unparsable line, an empty abstract, a duplicate id) is yielded
as a :class:`Problem` naming file and line; it never stops the others.  An entry without
an abstract (empty, null, a placeholder such as "[No abstract available]") is a Problem
with ``skipped`` set: reported, not a failure.
"""

from __future__ import annotations

import bz2
import gzip
import io
import itertools
import lzma
import sys
import zlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from ..idindex import IdIndex
from .atom import read_atom
from .bib import read_bib
from .csvfmt import read_csv
from .jsonfmt import read_json, read_jsonl, sniff
from .model import FieldMap, Item, Problem, from_mapping, missing_abstract
from .paths import (COMPRESSIONS, EXTENSIONS, STDIN, SUFFIX_FORMATS, InputFiles, compression, expand, format_suffix,
                    is_own_output)
from .txt import read_txt

__all__ = ["Item", "Problem", "FieldMap", "EXTENSIONS", "COMPRESSIONS", "InputFiles", "expand", "read_inputs",
           "count_inputs", "is_own_output", "from_mapping", "FORMATS", "SUFFIX_FORMATS", "PARSERS"]

FORMATS = tuple(dict.fromkeys(SUFFIX_FORMATS.values()))
#: the reader of each format but txt (whose reader also says how it read the file)
PARSERS = {"jsonl": read_jsonl, "json": read_json, "csv": read_csv, "bib": read_bib, "atom": read_atom}
_OPENERS = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}
# what a broken compressed stream raises besides OSError (gzip.BadGzipFile is one): a truncated
# file (EOFError), a corrupt deflate or xz block
_UNREADABLE = (OSError, EOFError, zlib.error, lzma.LZMAError)


def _open(path: Path):
    if path == STDIN:
        buf = getattr(sys.stdin, "buffer", None)
        if buf is None:                         # a text-only stdin (tests, notebooks)
            return sys.stdin
        return io.TextIOWrapper(buf, encoding="utf-8-sig", errors="surrogateescape", newline="")
    return _opener(path)(path, "rt", encoding="utf-8-sig", errors="surrogateescape", newline="")


def _opener(path: Path):
    """``open``, or the decompressor's ``open`` of a compressed file (same arguments)."""
    return _OPENERS.get(compression(path) or "", open)


def _entries(path: Path, label: str, fmt: str | None, fields: FieldMap | None,
             note: Callable[[str], None] | None, stream=None) -> Iterator[Item | Problem]:
    name = f"<stdin:{label}>" if path == STDIN else str(path)
    fh = stream or _open(path)
    try:
        lines: Iterable[str] = fh
        if fmt is None and path == STDIN:
            head: list[str] = []
            first = fh.readline()
            while first and not first.strip():
                head.append(first)
                first = fh.readline()
            lines = itertools.chain(head, [first] if first else [], fh)
            fmt = SUFFIX_FORMATS[sniff(first, fields.text if fields is not None else None)]
            if note is not None:
                note(f"<stdin>: read as {fmt} (use --input-format to say otherwise)")
        fmt = fmt or SUFFIX_FORMATS[format_suffix(path)]
        if fmt == "txt":
            tell = (lambda m: note(f"{name}: {m}")) if note is not None else None
            yield from read_txt(lines, name, label, tell)
        else:
            yield from PARSERS[fmt](lines, name, label, fields)
    finally:
        if fh is not sys.stdin:
            fh.close()


def read_inputs(files: Iterable[Path], fields: FieldMap | None = None, *,
                input_format: str | None = None,
                note: Callable[[str], None] | None = None) -> Iterator[Item | Problem]:
    """Items and problems in input order; duplicate ids become problems, entries without an
    abstract skipped problems.
    ``note`` hears how each .txt file (and stdin) was read."""
    labels = files if isinstance(files, InputFiles) else InputFiles(files)
    seen = IdIndex()     # id -> where it first appeared; bounded memory for huge inputs
    try:
        for path in list(files):
            try:
                label = labels.label(path)
                for entry in _entries(path, label, input_format, fields, note,
                                      labels.stdin() if path == STDIN else None):
                    if isinstance(entry, Item):
                        skip = missing_abstract(entry)
                        first = seen.get(entry.id) if skip is None else None
                        if skip is not None:
                            entry = skip
                        elif first is not None:
                            entry = Problem(entry.source, f"duplicate id {entry.id!r} (first at "
                                            f"{first}; ids are compared as text, so 123 and "
                                            f"\"123\" are one id)", entry.id)
                        else:
                            seen.add(entry.id, entry.source)
                    yield entry
            except _UNREADABLE as e:
                yield Problem(f"{path}:0", f"cannot read ({getattr(e, 'strerror', None) or e})")
    finally:
        seen.close()


CHEAP_BYTES = 64 << 20          # files parsed to be counted
CHEAP_LINES_BYTES = 4 << 30     # JSON Lines: counted by scanning for non-blank lines


def count_inputs(files: Iterable[Path], fields: FieldMap | None = None,
                 input_format: str | None = None) -> int | None:
    """How many entries :func:`read_inputs` will yield, when that is cheap to know: JSON
    Lines files by their non-blank lines, other files by parsing them when they total at
    most 64 MiB (compressed files: when they total at most 64 MiB compressed, counted as
    read); stdin never.  Else None (the progress bar then has no total)."""
    files = list(files)
    labels = files if isinstance(files, InputFiles) else InputFiles(files)
    if any(f == STDIN for f in files):
        return None
    try:
        sizes = {f: f.stat().st_size for f in files}
    except OSError:
        return None
    packed = {f for f in files if compression(f)}
    lines_only = {f for f in files
                  if (input_format or SUFFIX_FORMATS.get(format_suffix(f))) == "jsonl"}
    if sum(sizes[f] for f in lines_only - packed) > CHEAP_LINES_BYTES or \
            sum(sizes[f] for f in files if f not in lines_only or f in packed) > CHEAP_BYTES:
        return None
    n = 0
    for path in files:
        try:
            if path in lines_only:
                with _opener(path)(path, "rb") as fh:
                    n += max(1, sum(1 for line in fh if line.strip()))
            else:
                n += sum(1 for _ in _entries(path, labels.label(path), input_format, fields, None))
        except _UNREADABLE:
            n += 1
    return n
