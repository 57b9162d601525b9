"""Where records go: JSONL on stdout or a file that a rerun resumes.

A record's identity (:mod:`extract.identity`) is its id, the input it came from, a digest
of its text and the configuration that made it: a rerun skips an input only when a record
of the same text made with the same configuration is held.  With ``-o OUT.jsonl``:

* the paths are checked first (:func:`.outpaths.check_paths`), and a lock on the resolved
  path (:class:`.outpaths.OutputLock`) keeps a second process off the same file, whatever
  name it uses; the lock file is removed when the run ends;
* on start, a torn last line (a killed run) is cut off (a whole record that only lacks
  its newline is kept), and the records already written are indexed
  (:class:`.resume.OutputIndex`); records made with another configuration stop the run
  with one line (:class:`UsageError`, exit 2) unless ``redo`` is set: then each one the
  run reaches is extracted again and replaced;
* each record is appended as one complete line in one ``write`` and flushed; the file is
  fsynced every few hundred records and at the end.  Every line is strict JSON: a value
  that does not fit a JSON number is written as null and named in the record's ``notes``;
* a record whose text changed since it was written (same id, same input) is extracted
  again and replaces the old one: the file is rewritten atomically (temp file + rename) at
  the end, one record per paper; the same id from another input is another paper;
* failures go to ``OUT.errors.jsonl``, rewritten atomically at the end: this run's, plus
  the earlier ones this run did not reach (a record's by its input and id, an input
  problem by its file and line, past the point the run read to in that file); an entry is
  never repeated;
* a write that fails (disk full) raises :class:`OutputError` (exit 7) with one line; stdout
  closed by its reader (``| head``) raises :class:`OutputClosed` (exit 0, quietly).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import IO, Iterable

from . import jsonl, redact
from .errors import OutputClosed, OutputError, UsageError
from .identity import differences, origin, text_digest
from .resume import OutputIndex, identity_of
from .outpaths import OutputLock, check_paths, errors_path_for, is_own_output, output_path

__all__ = ["RecordSink", "dumps", "errors_path_for", "is_own_output", "read_errors",
           "repair_and_scan", "text_digest", "atomic_write_lines"]

FSYNC_EVERY = 256
dumps = jsonl.dumps


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


def _whole_record(fh, start: int, end: int, limit: int = 64 << 20) -> bool:
    """Is the last line (bytes ``start:end``, no newline) a complete record, a JSON
    object with an id?  A killed run leaves a prefix of one, which never parses."""
    if end - start > limit:
        return False
    fh.seek(start)
    try:
        obj = jsonl.loads(fh.read(end - start).decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return False
    return isinstance(obj, dict) and "id" in obj and "status" in obj


def repair_and_scan(path: Path, config: dict | None = None) -> tuple[OutputIndex, int]:
    """Cut a torn last line off ``path`` (a last line that is a whole record, only its
    newline missing, is kept and given one); return the index of the records it holds
    (:class:`.resume.OutputIndex`; ``config``: the run's configuration) and the bytes cut.
    Streams: memory does not grow with the file."""
    ids = OutputIndex(config)
    if not path.exists():
        return ids, 0
    with path.open("r+b") as fh:
        size = fh.seek(0, os.SEEK_END)
        cut = 0
        if size:
            fh.seek(size - 1)
            if fh.read(1) != b"\n":
                keep = _last_newline_end(fh, size)
                if _whole_record(fh, keep, size):
                    fh.seek(0, os.SEEK_END)
                    fh.write(b"\n")         # complete, only its newline is missing: kept
                else:
                    fh.truncate(keep)
                    cut = size - keep
    return ids.scan(path), cut


def read_errors(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [ln.value for ln in jsonl.read(path) if ln.ok and isinstance(ln.value, dict)]


def atomic_write_lines(path: Path, lines: Iterable[str]) -> None:
    path = Path(os.path.realpath(path))     # through a symlink: the link stays a link
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
    """A record's failure is one per paper (its input and id); an input problem (a bad
    line, a duplicate id, an empty abstract) one per place (file and line), so a duplicate
    id never hides the failure of the first record with that id."""
    rid, source = err.get("id"), err.get("source")
    kind = err.get("kind") or ("record" if rid is not None else "input")
    if kind == "record" and rid is not None:
        return ("record", origin(source), str(rid))
    return ("input", str(source))


def _place(source) -> tuple[str | None, int]:
    """(input, line) of a ``source`` such as ``papers.jsonl:12`` (line 0 when it has none)."""
    o = origin(source)
    tail = str(source)[len(o or "") + 1:] if o is not None else ""
    return o, int(tail) if tail.isdigit() else 0


def error_line(err: dict) -> str:
    """One stderr line for a failed record or input problem (when there is no errors file):
    ``extract: failed: SOURCE (id ID): REASON``."""
    rid = err.get("id")
    where = err.get("source") or "?"
    what = "skipped" if err.get("status") == "skipped" else "failed"
    return redact.safe(f"extract: {what}: {where}" + (f" (id {rid})" if rid else "") + f": {err['reason']}")


class RecordSink:
    """Records and errors of one run.  Use as a context manager.

    ``inputs`` (the paths the run reads) are checked against ``out`` and ``errors``.
    ``config``: the run's configuration (:func:`extract.identity.config_identity`); an
    output holding records made with another one is refused unless ``redo``."""

    def __init__(self, out: str | Path | None, errors: str | Path | None = None,
                 stream: IO[str] | None = None, inputs: Iterable[str | Path] = (),
                 config: dict | None = None, redo: bool = False):
        self.out = output_path(out)
        self.errors_path = Path(errors) if errors is not None else (
            errors_path_for(self.out) if self.out else None)
        self._inputs = tuple(inputs)
        self.stream = stream or sys.stdout
        self.config, self.redo = config, redo
        self.done = OutputIndex(config)     # the records held, by id
        self.repaired_bytes = 0
        self.other_configs = 0              # records of another configuration found on start
        self._fh: IO[str] | None = None
        self._lock: OutputLock | None = None
        self._written = 0
        self._new_errors: dict[tuple, dict] = {}
        self._old_errors: list[dict] = []
        self._old_keys: set[tuple] = set()   # record failures listed before this run
        self._reached: set[tuple] = set()    # ... of those, the papers this run reached
        self._frontier: dict[str | None, int] = {}   # input -> the last line this run settled

    def __enter__(self) -> "RecordSink":
        check_paths(self.out, self.errors_path, self._inputs)
        if self.out is not None:
            try:
                self.out.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise OutputError(f"cannot create {self.out.parent}: {e.strerror or e}") from None
            self._lock = OutputLock(self.out).__enter__()
            try:
                self.done.close()
                self.done, self.repaired_bytes = repair_and_scan(self.out, self.config)
                self._check_configs()
                self._fh = self.out.open("a", encoding="utf-8")
            except OSError as e:
                self._release()
                raise OutputError(f"cannot write {self.out}: {e.strerror or e}") from None
            except BaseException:
                self._release()
                raise
        if self.errors_path is not None:
            self._old_errors = read_errors(self.errors_path)
            self._old_keys = {k for k in map(_error_key, self._old_errors) if k[0] == "record"}
        return self

    def _check_configs(self) -> None:
        others = self.done.others()
        self.other_configs = sum(others.values())
        if not others or self.redo:
            return
        n, most = self.other_configs, max(others, key=others.get)
        more = f"; and {len(others) - 1} more configurations" if len(others) > 1 else ""
        raise UsageError(
            f"{self.out} holds {n:,} record{'' if n == 1 else 's'} made with another "
            f"configuration ({differences(self.done.examples[most], self.config)}{more}); "
            "write to a new -o, or add --redo to extract them again and replace them")

    def _release(self) -> None:
        self.done.close()
        if self._lock is not None:
            self._lock.__exit__()
            self._lock = None

    # -- identity ----------------------------------------------------------------------
    def state(self, rid: str, text: str, source: str | None = None) -> str:
        """``"done"`` (a record of this text, made with this configuration, is held: skip
        it), ``"changed"`` (this input's record is of another text), ``"redo"`` (made with
        another configuration) or ``"new"``; see :func:`extract.identity.resume_state`."""
        return self.done.state(rid, text, source)

    def is_done(self, rid: str, text: str, source: str | None = None) -> bool:
        return self.state(rid, text, source) == "done"

    @property
    def replaced(self) -> int:
        """Records of another configuration this run replaced (``redo``)."""
        return self.done.replaced

    def reached(self, source: str | None, rid: str | None = None) -> None:
        """The run settled the input entry at ``source`` (done, written, failed or a
        problem): earlier errors listed for it, or before it in its file, are stale."""
        where, line = _place(source)
        if line > self._frontier.get(where, -1):
            self._frontier[where] = line
        if rid is not None and self._old_keys:
            key = ("record", where, str(rid))
            if key in self._old_keys:
                self._reached.add(key)

    # -- writing -----------------------------------------------------------------------
    def record(self, rec: dict) -> None:
        line = record_line(rec) + "\n"
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
        else:
            try:
                self.stream.write(line)
                self.stream.flush()
            except BrokenPipeError:
                self._quiet_stdout()
                raise OutputClosed("stdout was closed") from None
            except OSError as e:          # a full disk under `> file`
                self._quiet_stdout()
                raise OutputError(f"cannot write to stdout: {e.strerror or e}") from None
        text = rec.get("text")
        self.done.append(str(rec["id"]), rec.get("source"), text if isinstance(text, str) else "")

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
        if isinstance(err.get("reason"), str):    # a server may echo the key in its message
            err = {**err, "reason": redact.mask(err["reason"])}
        self._new_errors[_error_key(err)] = err
        if self.errors_path is None:
            print(error_line(err), file=sys.stderr)

    @property
    def errors(self) -> list[dict]:
        return list(self._new_errors.values())

    # -- the end -----------------------------------------------------------------------
    def _compact(self) -> None:
        """Keep only the records no later one replaced (one per paper), atomically."""
        def kept():
            with self.out.open("rb") as fh:
                for number, raw in enumerate(fh, 1):
                    text = raw.decode("utf-8", "replace").rstrip("\n")
                    if not text.strip():
                        continue
                    try:
                        ident = identity_of(json.loads(text.lstrip("\ufeff") if number == 1 else text))
                    except (ValueError, RecursionError):
                        ident = None
                    if ident is not None and not self.done.keeps(ident[0], number):
                        continue            # a later record replaced this one
                    yield text
        atomic_write_lines(self.out, kept())

    def _stale(self, err: dict) -> bool:
        """Whether an error listed before this run no longer holds: this run listed it
        again, reached its paper (or wrote its record), or read past its line."""
        key = _error_key(err)
        if key in self._new_errors:
            return True
        if key[0] == "record":
            return key in self._reached or self.done.holds(key[2], err.get("source"))
        where, line = _place(err.get("source"))
        return where in self._frontier and line <= self._frontier[where]

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
                if self.done.dropped and exc[0] is None:
                    self._compact()
            if self.errors_path is not None:
                keep = {_error_key(e): e for e in self._old_errors if not self._stale(e)}
                if keep or self._new_errors:
                    atomic_write_lines(self.errors_path,
                                       [dumps(e) for e in list(keep.values()) + self.errors])
                elif self.errors_path.exists():
                    self.errors_path.unlink()
        finally:
            self._release()


__all__ += ["check_paths", "output_path"]
