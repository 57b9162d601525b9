"""Which files a run reads: ``expand`` turns the INPUT arguments into a list of files.

* ``-`` is standard input (its format sniffed, or given by ``--input-format``);
* a directory is searched recursively, in a stable order; hidden files and hidden folders
  (``.git``, ``.venv``, ...) are not entered; files of other types are skipped with a note;
  a directory with no input file in it is an error;
* the tool's own outputs are never read back as input: ``*.errors.jsonl``, the run's own
  ``-o`` and errors file, and JSONL files whose first line is an extract record;
* a file named twice (``./x.jsonl`` and its absolute path, or a file inside a directory
  also given) is read once.

Default ids are built from each file's *label*: its path as given (normalised: ``./x`` is
``x``), without the extension (``b1/papers.jsonl`` -> ``b1/papers``; ``2024/papers.txt``
found under ``d`` -> ``d/2024/papers``), so different files never share ids, and separate
runs into one output never replace each other's records.  Two files whose labels still
clash (``a.txt`` and ``a.jsonl``) keep their extension in the label.  Stdin's label is
``--label`` or a digest of its content (:mod:`.stdin`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import IO

from ..errors import InputError
from ..outpaths import is_own_output
from .stdin import spool

#: the format each input file suffix names (``--engine ray`` adds its own, ``.parquet``)
SUFFIX_FORMATS = {".txt": "txt", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "json",
                  ".csv": "csv", ".bib": "bib", ".atom": "atom", ".xml": "atom"}
EXTENSIONS = tuple(SUFFIX_FORMATS)
#: Any of them compressed (``papers.jsonl.gz``), read through the standard library's decompressors
COMPRESSIONS = (".gz", ".bz2", ".xz")
STDIN = Path("-")


_COMPRESSED = "compressed as " + ", ".join(COMPRESSIONS)


def name_parts(name: str, compressions: tuple[str, ...] = COMPRESSIONS) -> tuple[str, str, str]:
    """(stem, format suffix in lower case, compression suffix as written or "") of a file name:
    ``papers.jsonl.gz`` -> ("papers", ".jsonl", ".gz"); `--engine ray` passes the compressions
    its readers take."""
    packed = next((c for c in compressions if name.lower().endswith(c)), "")
    inner = name[:len(name) - len(packed)]
    suffix = os.path.splitext(inner)[1]
    return inner[:len(inner) - len(suffix)], suffix.lower(), name[len(inner):]


def compression(path: Path) -> str | None:
    """``.gz``, ``.bz2`` or ``.xz`` for a compressed file, else None."""
    return name_parts(path.name)[2].lower() or None


def format_suffix(path: Path) -> str:
    """The suffix that names the format, under a compression's: ``.jsonl`` for ``papers.jsonl.gz``."""
    return name_parts(path.name)[1]


def _full_suffix(path: Path) -> str:
    """The suffixes the label leaves out, as written: ``.jsonl``, ``.jsonl.gz``."""
    return path.name[len(_stem(path)):]


def _stem(path: Path) -> str:
    return name_parts(path.name)[0]


class InputFiles(list):
    """The files to read (a list of Paths), with the label each one's default ids use."""

    def __init__(self, files=(), labels: dict | None = None):
        super().__init__(files)
        self.labels: dict[Path, str | None] = dict(labels or {})
        self._stdin: IO[str] | None = None

    def label(self, path: Path) -> str:
        if path == STDIN and not self.labels.get(STDIN):
            self._stdin, self.labels[STDIN] = spool()     # named by its content
        return self.labels.get(path) or _stem(path)

    def stdin(self) -> IO[str] | None:
        """Stdin as spooled to name it (then read from there), or None: read it directly."""
        stream, self._stdin = self._stdin, None
        return stream


def _as_given(path: Path) -> str:
    """``path`` as the user gave it, normalised (``./x/../y.txt`` -> ``y.txt``), no extension
    (nor compression: ``b1/papers.jsonl.gz`` -> ``b1/papers``)."""
    p = Path(os.path.normpath(path))
    return p.with_name(_stem(p)).as_posix()


def _hidden(rel: Path) -> bool:
    return any(part.startswith(".") for part in rel.parts)


def _key(path: Path) -> Path:
    try:
        return path.resolve()
    except OSError:  # pragma: no cover
        return path.absolute()


def expand(paths: Iterable[str | Path], exclude: Iterable[str | Path | None] = (),
           stdin_label: str | None = None) -> tuple[InputFiles, list[str]]:
    """Input files in a stable order, plus notes on skipped files.  A path that does not
    exist, a file of an unsupported type and a directory with no input file in it are
    :class:`InputError` (raised before anything runs).  ``exclude``: the run's outputs.
    ``stdin_label``: the label of stdin's default ids (default: a digest of its content)."""
    excluded = {_key(Path(p)) for p in exclude if p}
    found: list[tuple[Path, str]] = []      # (file, label relative to its argument)
    notes: list[str] = []
    seen: dict[Path, str] = {}
    for raw in paths:
        p = Path(raw)
        if str(raw) == "-":
            if STDIN in seen:
                continue
            seen[STDIN] = "-"
            found.append((STDIN, stdin_label))
            continue
        if p.is_dir():
            hits, skipped = 0, []
            for f in sorted(p.rglob("*")):
                rel = f.relative_to(p)
                if _hidden(rel) or not f.is_file():
                    continue
                if format_suffix(f) not in EXTENSIONS:
                    skipped.append(f)
                    continue
                if _key(f) in excluded or is_own_output(f):
                    notes.append(f"{f}: skipped (an output of extract, not an input)")
                    continue
                hits += 1
                if _key(f) in seen:
                    notes.append(f"{f}: already read as {seen[_key(f)]}; read once")
                    continue
                seen[_key(f)] = str(f)
                found.append((f, _as_given(p / rel)))
            notes += [f"{f}: skipped (not {', '.join(EXTENSIONS)}, nor one of them compressed)" for f in skipped]
            if not hits:
                raise InputError(f"{p}: no input file in this directory (looked for "
                                 f"{', '.join(EXTENSIONS)}, also {_COMPRESSED}; hidden files and folders are "
                                 f"not searched; {len(skipped)} other file(s))")
        elif p.is_file():
            if format_suffix(p) not in EXTENSIONS:
                raise InputError(f"{p}: unsupported input type {_full_suffix(p) or '(none)'!r}; "
                                 f"use {', '.join(EXTENSIONS)}, also {_COMPRESSED} (or - for stdin)")
            if _key(p) in excluded:
                raise InputError(f"{p}: is this run's own output; it cannot be an input too")
            if _key(p) in seen:
                notes.append(f"{p}: already read as {seen[_key(p)]}; read once")
                continue
            seen[_key(p)] = str(p)
            found.append((p, _as_given(p)))
        elif p.exists():
            raise InputError(f"{p}: not a regular file or directory")
        else:
            raise InputError(f"{p}: no such file or directory")
    if stdin_label is not None and STDIN not in seen:
        raise InputError("--label names the default ids of stdin: give - as an input")
    return InputFiles([f for f, _ in found], _labels(found)), notes


def _labels(found: list[tuple[Path, str | None]]) -> dict[Path, str | None]:
    """Labels unique across the run: clashing ones are widened (with the extension, then
    the resolved path) until they differ."""
    labels = {f: label for f, label in found}
    for widen in (lambda f, lab: lab + _full_suffix(f) if f != STDIN else lab,
                  lambda f, lab: str(_key(f)) if f != STDIN else lab):
        counts: dict[str, int] = {}
        for lab in labels.values():
            counts[lab] = counts.get(lab, 0) + 1
        clashing = [f for f, lab in labels.items() if counts[lab] > 1]
        if not clashing:
            break
        for f in clashing:
            labels[f] = widen(f, labels[f])
    return labels
