"""Where records go: JSONL on stdout or a file that a rerun resumes.

A record's identity is its id *and* a digest of its text: a rerun skips an id only when
the text it was extracted from is the text read now.  With ``-o OUT.jsonl``:

* the paths are checked first (:func:`.outpaths.check_paths`), and a lock on the resolved
  path (:class:`.outpaths.OutputLock`) keeps a second process off the same file, whatever
  name it uses; the lock file is removed when the run ends;
* on start, a torn last line (a killed run) is cut off, and the (id, text digest) pairs
  already written are what the run skips;
* each record is appended as one complete line in one ``write`` and flushed; the file is
  fsynced every few hundred records and at the end.  Every line is strict JSON: a value
  that does not fit a JSON number is written as null and named in the record's ``notes``;
* a record whose text changed since it was written is extracted again and replaces the old
  one: the file is rewritten atomically (temp file + rename) at the end, one record per id;
* failures go to ``OUT.errors.jsonl``, rewritten atomically at the end with this run's
  failures plus earlier ones for ids this run did not reach; an entry is never repeated;
* a write that fails (disk full) raises :class:`OutputError` (exit 7) with one line; stdout
  closed by its reader (``| head``) raises :class:`OutputClosed` (exit 0, quietly).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import IO, Iterable

from . import jsonl
from .errors import OutputClosed, OutputError
from .idindex import IdIndex
from .outpaths import OutputLock, check_paths, errors_path_for, is_own_output, output_path

__all__ = ["RecordSink", "dumps", "errors_path_for", "is_own_output", "read_errors",
           "repair_and_scan", "text_digest", "atomic_write_lines"]

FSYNC_EVERY = 256
dumps = jsonl.dumps


def text_digest(text: str) -> str:
    """The content half of a record's identity (128 bits of SHA-256 of the text)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def record_line(rec: dict) -> str:
    """A record's line (no newline), strict JSON: a value JSON cannot hold is replaced and
    named in the record's ``notes`` (the Ray engine's shards use this too)."""
    line, notes = jsonl.dumps_noted(rec)
    if notes:
        rec, _ = jsonl.sanitize(rec)
        rec["notes"] = list(rec.get("notes") or []) + notes
        line = dumps(rec)
    return line


def _last_newline_end(fh, size: int, chunk: int = 1 << 16) -> int:
    """Offset just past the last newline of the file (0 if none), reading backwards."""
    pos = size
    while pos > 0:
        start = max(0, pos - chunk)
        fh.seek(start)
        block = fh.read(pos - start)
        i = block.rfind(b"\n")
        if i >= 0:
            return start + i + 1
        pos = start
    return 0


def _identity(line: jsonl.Line) -> tuple[str, str] | None:
    rec = line.value
    if line.ok and isinstance(rec, dict) and rec.get("status") == "ok" and "id" in rec:
        return str(rec["id"]), text_digest(rec["text"] if isinstance(rec.get("text"), str) else "")
    return None


def repair_and_scan(path: Path) -> tuple[IdIndex, int, int]:
    """Cut a torn last line off ``path``; return ``id -> text digest`` of the records it
    holds (the last record of an id wins), the bytes cut, and how many records are
    superseded by a later one with the same id.  Streams: memory does not grow with the
    file."""
    ids = IdIndex()
    if not path.exists():
        return ids, 0, 0
    with path.open("r+b") as fh:
        size = fh.seek(0, os.SEEK_END)
        cut = 0
        if size:
            fh.seek(size - 1)
            if fh.read(1) != b"\n":
                keep = _last_newline_end(fh, size)
                fh.truncate(keep)
                cut = size - keep
    superseded = 0
    for line in jsonl.read(path, strict=False):      # only ids and texts are read
        ident = _identity(line)
        if ident is not None:
            superseded += ident[0] in ids
            ids.add(*ident)
    return ids, cut, superseded


def read_errors(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [ln.value for ln in jsonl.read(path) if ln.ok and isinstance(ln.value, dict)]


def atomic_write_lines(path: Path, lines: Iterable[str]) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with tmp.open("w", encoding="utf-8") as fh:
            for line in lines:
                fh.write(line + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as e:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise OutputError(f"cannot write {path}: {e.strerror or e}") from None


def _error_key(err: dict) -> tuple:
    """Errors are one per id (or, for an input problem without id, per source)."""
    rid = err.get("id")
    return ("id", str(rid)) if rid is not None else ("source", err.get("source"), err.get("reason"))


def error_line(err: dict) -> str:
    """One stderr line for a failed record or input problem (when there is no errors file):
    ``extract: failed: SOURCE (id ID): REASON``."""
    rid = err.get("id")
    where = err.get("source") or "?"
    return f"extract: failed: {where}" + (f" (id {rid})" if rid else "") + f": {err['reason']}"


class RecordSink:
    """Records and errors of one run.  Use as a context manager.

    ``inputs`` (the paths the run reads) are checked against ``out`` and ``errors``."""

    def __init__(self, out: str | Path | None, errors: str | Path | None = None,
                 stream: IO[str] | None = None, inputs: Iterable[str | Path] = ()):
        self.out = output_path(out)
        self.errors_path = Path(errors) if errors is not None else (
            errors_path_for(self.out) if self.out else None)
        self._inputs = tuple(inputs)
        self.stream = stream or sys.stdout
        self.done = IdIndex()               # id -> text digest of its record
        self.repaired_bytes = 0
        self._fh: IO[str] | None = None
        self._lock: OutputLock | None = None
        self._written = 0
        self._superseded = 0
        self._new_errors: dict[tuple, dict] = {}
        self._old_errors: list[dict] = []
        self._attempted: set[str] = set()
        self._old_error_ids: set = set()

    def __enter__(self) -> "RecordSink":
        check_paths(self.out, self.errors_path, self._inputs)
        if self.out is not None:
            try:
                self.out.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise OutputError(f"cannot create {self.out.parent}: {e.strerror or e}") from None
            self._lock = OutputLock(self.out).__enter__()
            try:
                self.done, self.repaired_bytes, self._superseded = repair_and_scan(self.out)
                self._fh = self.out.open("a", encoding="utf-8")
            except OSError as e:
                self._lock.__exit__()
                raise OutputError(f"cannot write {self.out}: {e.strerror or e}") from None
        if self.errors_path is not None:
            self._old_errors = read_errors(self.errors_path)
            self._old_error_ids = {e.get("id") for e in self._old_errors}
        return self

    # -- identity ----------------------------------------------------------------------
    def state(self, rid: str, text: str) -> str:
        """``"done"`` (this id was extracted from this text), ``"changed"`` (from another
        text: extract it again) or ``"new"``."""
        have = self.done.get(rid)
        if have is None:
            return "new"
        return "done" if have == text_digest(text) else "changed"

    def is_done(self, rid: str, text: str) -> bool:
        return self.state(rid, text) == "done"

    def attempted(self, rid: str | None) -> None:
        if rid is not None and rid in self._old_error_ids:  # only these matter at exit
            self._attempted.add(rid)

    # -- writing -----------------------------------------------------------------------
    def record(self, rec: dict) -> None:
        line = record_line(rec) + "\n"
        rid, digest = str(rec["id"]), text_digest(rec.get("text") or "")
        if self._fh is not None:
            try:
                self._fh.write(line)
                self._fh.flush()
                self._written += 1
                if self._written % FSYNC_EVERY == 0:
                    os.fsync(self._fh.fileno())
            except OSError as e:
                raise OutputError(f"cannot write {self.out}: {e.strerror or e}; the records "
                                  "written so far are kept, rerun with the same -o to resume") from None
            if rid in self.done:          # a changed text: the old record goes at the end
                self._superseded += 1
        else:
            try:
                self.stream.write(line)
                self.stream.flush()
            except BrokenPipeError:
                self._quiet_stdout()
                raise OutputClosed("stdout was closed") from None
        self.done.add(rid, digest)

    def _quiet_stdout(self) -> None:
        """Point stdout at /dev/null so the interpreter's last flush says nothing."""
        try:
            fd = self.stream.fileno()
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, fd)
            os.close(devnull)
        except (OSError, ValueError, AttributeError):
            pass

    def error(self, err: dict) -> None:
        self._new_errors[_error_key(err)] = err
        if self.errors_path is None:
            print(error_line(err), file=sys.stderr)

    @property
    def errors(self) -> list[dict]:
        return list(self._new_errors.values())

    # -- the end -----------------------------------------------------------------------
    def _compact(self) -> None:
        """Keep one record per id in the output (the last one), atomically."""
        later: dict[str, int] = {}
        for line in jsonl.read(self.out, strict=False):
            ident = _identity(line)
            if ident is not None:
                later[ident[0]] = later.get(ident[0], 0) + 1
        later = {k: n for k, n in later.items() if n > 1}

        def kept():
            with self.out.open("rb") as fh:
                for raw in fh:
                    text = raw.decode("utf-8", "replace").rstrip("\n")
                    if not text.strip():
                        continue
                    try:
                        ident = _identity(jsonl.Line(0, json.loads(text)))
                    except (ValueError, RecursionError):
                        ident = None
                    if ident is not None and ident[0] in later:
                        later[ident[0]] -= 1
                        if later[ident[0]]:
                            continue        # a later record of this id follows
                    yield text
        atomic_write_lines(self.out, kept())

    def __exit__(self, *exc) -> None:
        try:
            if self._fh is not None:
                try:
                    self._fh.flush()
                    os.fsync(self._fh.fileno())
                except OSError as e:
                    if exc[0] is None:
                        raise OutputError(f"cannot write {self.out}: {e.strerror or e}") from None
                finally:
                    try:
                        self._fh.close()
                    except OSError:
                        pass
                if self._superseded and exc[0] is None:
                    self._compact()
            if self.errors_path is not None:
                new_keys = set(self._new_errors)
                keep = [e for e in self._old_errors
                        if e.get("id") is not None and e.get("id") not in self._attempted
                        and e.get("id") not in self.done and _error_key(e) not in new_keys]
                keep = list({_error_key(e): e for e in keep}.values())
                if keep or self._new_errors:
                    atomic_write_lines(self.errors_path,
                                       [dumps(e) for e in keep + list(self._new_errors.values())])
                elif self.errors_path.exists():
                    self.errors_path.unlink()
        finally:
            self.done.close()
            if self._lock is not None:
                self._lock.__exit__()
                self._lock = None


__all__ += ["check_paths", "output_path"]
