"""Where records go: JSONL on stdout or a file that a rerun resumes.

With ``-o OUT.jsonl``:
* a lock (``OUT.jsonl.lock``, ``flock``) keeps a second process from writing the same file;
* on start, a torn last line (a killed run) is cut off, and the ids already written are
  skipped by the run;
* each record is appended as one complete line in one ``write`` and flushed; the file is
  fsynced every few hundred records and at the end;
* failures go to ``OUT.errors.jsonl``, rewritten atomically (temp file + rename) at the end
  with this run's failures plus earlier ones for ids this run did not reach.
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
from pathlib import Path
from typing import IO

from .errors import OutputLockedError
from .idindex import IdIndex

FSYNC_EVERY = 256


def dumps(obj: dict) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))


def errors_path_for(out: Path) -> Path:
    name = out.name[: -len(".jsonl")] if out.name.endswith(".jsonl") else out.name
    return out.with_name(name + ".errors.jsonl")


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


def repair_and_scan(path: Path) -> tuple[IdIndex, int]:
    """Cut a torn last line off ``path``; return the ids it holds and how many bytes were
    cut.  Streams the file: memory does not grow with its size."""
    ids = IdIndex()
    if not path.exists():
        return ids, 0
    with path.open("r+b") as fh:
        size = fh.seek(0, os.SEEK_END)
        cut = 0
        if size:
            fh.seek(size - 1)
            if fh.read(1) != b"\n":
                keep = _last_newline_end(fh, size)
                fh.truncate(keep)
                cut = size - keep
        fh.seek(0)
        for line in fh:
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if isinstance(rec, dict) and rec.get("status") == "ok" and "id" in rec:
                ids.add(str(rec["id"]))
    return ids, cut


def read_errors(path: Path) -> list[dict]:
    out = []
    if path.exists():
        # iterate lines, not str.splitlines(): that also splits on U+2028 inside a reason
        with path.open(encoding="utf-8", errors="replace", newline="\n") as fh:
            lines = list(fh)
        for line in lines:
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if isinstance(obj, dict):
                out.append(obj)
    return out


def atomic_write_lines(path: Path, lines: list[str]) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for line in lines:
            fh.write(line + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


class RecordSink:
    """Records and errors of one run.  Use as a context manager."""

    def __init__(self, out: Path | None, errors: Path | None = None, stream: IO[str] | None = None):
        self.out = out
        self.errors_path = errors or (errors_path_for(out) if out else None)
        self.stream = stream or sys.stdout
        self.done = IdIndex()
        self.repaired_bytes = 0
        self._fh: IO[str] | None = None
        self._lock: IO[str] | None = None
        self._written = 0
        self._new_errors: list[dict] = []
        self._old_errors: list[dict] = []
        self._attempted: set[str] = set()
        self._old_error_ids: set = set()

    def __enter__(self) -> "RecordSink":
        if self.out is not None:
            self.out.parent.mkdir(parents=True, exist_ok=True)
            self._lock = open(f"{self.out}.lock", "w")
            try:
                fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                self._lock.close()
                self._lock = None
                raise OutputLockedError(f"{self.out} is being written by another extract "
                                        "process; wait for it or choose another -o") from None
            self.done, self.repaired_bytes = repair_and_scan(self.out)
            self._fh = self.out.open("a", encoding="utf-8")
        if self.errors_path is not None:
            self._old_errors = read_errors(self.errors_path)
            self._old_error_ids = {e.get("id") for e in self._old_errors}
        return self

    def attempted(self, rid: str | None) -> None:
        if rid is not None:
            if rid in self._old_error_ids:   # only these matter at exit: memory stays flat
                self._attempted.add(rid)

    def record(self, rec: dict) -> None:
        line = dumps(rec) + "\n"
        if self._fh is not None:
            self._fh.write(line)
            self._fh.flush()
            self._written += 1
            if self._written % FSYNC_EVERY == 0:
                os.fsync(self._fh.fileno())
        else:
            self.stream.write(line)
            self.stream.flush()
        self.done.add(rec["id"])

    def error(self, err: dict) -> None:
        self._new_errors.append(err)
        if self.errors_path is None:
            print(f"error: {err.get('id') or ''} {err.get('source', '')}: {err['reason']}",
                  file=sys.stderr)

    @property
    def errors(self) -> list[dict]:
        return self._new_errors

    def __exit__(self, *exc) -> None:
        try:
            if self._fh is not None:
                self._fh.flush()
                os.fsync(self._fh.fileno())
                self._fh.close()
            if self.errors_path is not None:
                keep = [e for e in self._old_errors
                        if e.get("id") not in self._attempted and e.get("id") not in self.done
                        and e.get("id") is not None]
                if keep or self._new_errors or self.errors_path.exists():
                    atomic_write_lines(self.errors_path, [dumps(e) for e in keep + self._new_errors])
                    if not keep and not self._new_errors:
                        self.errors_path.unlink()
        finally:
            self.done.close()
            if self._lock is not None:
                fcntl.flock(self._lock, fcntl.LOCK_UN)
                self._lock.close()
