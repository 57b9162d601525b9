"""Where a run may write, checked before anything is written, and the lock on an output.

* :func:`check_paths` refuses (exit 2) an ``-o`` that is also an input, an errors file
  equal to ``-o`` or to an input, ``-o dir/``, and an ``-o`` under a path that is a file.  Paths are compared
  resolved, so a symlink or ``./x`` versus ``/abs/x`` is seen through.
* it also refuses an existing, non-empty ``-o`` that is not a records file (a CSV, a file
  of abstracts): a run appends to ``-o``, and would append records to someone's data.
* :func:`is_own_output` tells a records or errors file written by extract from an input
  file, by its name and its first line; folder scanning (``inputs.expand``) skips them.
* :class:`OutputLock` is an ``flock`` on ``<resolved output>.lock`` and one on the output
  file itself: two processes writing one file through two names (a symlink, a hard link)
  still meet on one lock.  The lock file is removed
  when the run ends; a process that opened it just before checks that the file it locked is
  still the one at that path, so removal never lets two writers in.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import tempfile
from pathlib import Path
from typing import IO, Iterable

from . import jsonl
from .errors import OutputError, OutputLockedError, UsageError

_RECORD_KEYS = {"id", "status", "extraction", "provenance"}
_ERROR_KEYS = {"id", "source", "status", "kind", "reason"}


def errors_path_for(out: Path) -> Path:
    name = out.name[: -len(".jsonl")] if out.name.endswith(".jsonl") else out.name
    return out.with_name(name + ".errors.jsonl")


def is_own_output(path: str | Path, peek: int = 1 << 20) -> bool:
    """True for a records file, an errors file or a lock file that extract wrote."""
    path = Path(path)
    if path.name.endswith(".jsonl.lock"):
        return True
    if path.suffix.lower() != ".jsonl":
        return False
    try:
        with path.open("rb") as fh:
            head = fh.read(peek)
    except OSError:
        return False
    for raw in head.split(b"\n"):
        if raw.strip():
            try:
                obj = jsonl.loads(raw.decode("utf-8", "replace"))
            except ValueError:
                return False
            if not isinstance(obj, dict):
                return False
            keys = set(obj)
            if obj.get("status") in ("error", "skipped"):     # skipped: no abstract
                return _ERROR_KEYS <= keys or path.name.endswith(".errors.jsonl")
            return _RECORD_KEYS <= keys
    return False


def holds_foreign_data(path: Path, peek: int = 1 << 20, keys: frozenset = frozenset({"id", "status"})) -> bool:
    """True when ``path`` exists with a complete first line that is not an object with
    ``keys`` (a record of extract by default; an empty file, or one torn line left by a
    killed run, is ours to resume)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(peek)
    except OSError:
        return False
    for raw in head.split(b"\n")[:-1]:           # complete lines only
        if raw.strip():
            try:
                obj = jsonl.loads(raw.decode("utf-8", "replace"))
            except ValueError:
                return True
            return not (isinstance(obj, dict) and keys <= set(obj))   # what resume reads
    return False


def target_kind(path: str | Path, flag: str = "-o") -> str:
    """What writing ``path`` means: ``"file"`` (a regular file, a symlink to one, or nothing
    yet: replaced atomically) or ``"stream"`` (a character device or a FIFO, e.g.
    ``/dev/null``, ``/dev/stdout`` on a terminal or pipe: written through).  A directory,
    a block device, a socket or a symlink loop is a :class:`UsageError`."""
    try:
        st = os.stat(path)                  # follows symlinks
    except FileNotFoundError:
        return "file"                       # new (or a dangling symlink: its target is created)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise UsageError(f"{flag} {path}: a symlink loop") from None
        raise UsageError(f"{flag} {path}: {e.strerror or e}") from None
    if stat.S_ISREG(st.st_mode):
        return "file"
    if stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
        return "stream"
    what = ("a directory" if stat.S_ISDIR(st.st_mode) else "a block device" if stat.S_ISBLK(st.st_mode)
            else "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file")
    raise UsageError(f"{flag} {path}: is {what}; give a file name")


def check_regular(path: Path | None, flag: str) -> None:
    """A run reads back and appends to ``-o`` (and rewrites ``--errors``): refuse, in one
    line, one that exists and is not a regular file (a device, a FIFO, a symlink loop)."""
    if path is not None and target_kind(path, flag) != "file":
        why = ("a run resumes from and appends to -o, so it must be a file (without -o "
               "records go to stdout)" if flag == "-o" else
               "the errors file is read back and rewritten, so it must be a file")
        raise UsageError(f"{flag} {path}: is not a regular file (a device or a FIFO); {why}")


def replace_file(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (temp file + rename in its folder), keeping the
    permissions of the file it replaces (a new one gets 0666 minus the umask).  ``path`` is
    the file itself: resolve a symlink first, so the link is not replaced."""
    tmp = None
    try:
        try:
            mode = stat.S_IMODE(os.stat(path).st_mode)
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.chmod(tmp, mode)                 # mkstemp makes 0600
        os.replace(tmp, path)
        tmp = None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _resolved(p: str | Path) -> Path:
    return Path(os.path.abspath(p)).resolve()


def output_path(raw: str | Path | None) -> Path | None:
    """``-o`` as a Path, refusing a directory (``dir/`` or an existing folder)."""
    if raw is None:
        return None
    text = os.fspath(raw)
    if text.endswith(("/", os.sep)) or Path(text).is_dir():
        raise UsageError(f"-o {text}: is a directory; give a file name such as "
                         f"{text.rstrip('/')}/records.jsonl")
    return Path(text)


def _file_ancestor(p: Path) -> Path | None:
    for parent in p.parents:
        if parent.exists():
            return parent if not parent.is_dir() else None
    return None


def check_paths(out: Path | None, errors: Path | None, inputs: Iterable[str | Path] = ()) -> None:
    """Raise :class:`UsageError` for an output that would clobber or be read back as input."""
    named = [("-o", out), ("--errors", errors)]
    for flag, p in named:
        if p is None:
            continue
        blocker = _file_ancestor(Path(os.path.abspath(p)))
        if blocker is not None:
            raise UsageError(f"{flag} {p}: cannot create it, {blocker} is a file")
        check_regular(p, flag)
        if flag == "--errors" and Path(p).is_dir():
            raise UsageError(f"--errors {p}: is a directory; give a file name")
    if out is not None and errors is not None and _resolved(out) == _resolved(errors):
        raise UsageError(f"--errors {errors} is the same file as -o; the errors would "
                         "replace the records")
    for raw in inputs:
        src = _resolved(raw)
        for flag, p in named:
            if p is None:
                continue
            dest = _resolved(p)
            if dest == src:
                raise UsageError(f"{flag} {p} is also an input; it would be written into")
            # An output inside an input folder is allowed: scanning skips extract's own
            # outputs (:func:`is_own_output`), so the next run does not read it back.
    if out is not None and out.is_file() and holds_foreign_data(out):
        raise UsageError(f"-o {out} holds data that is not a records file of extract (its first "
                         "line is not a record); a run appends to -o: give another file name")
    if errors is not None and errors.is_file() and holds_foreign_data(errors, keys=frozenset({"reason"})):
        raise UsageError(f"--errors {errors} holds data that is not an errors file of extract (its "
                         "first line is not an error entry); it would be replaced: give another name")


class OutputLock:
    """An exclusive, non-blocking lock for one output file (use as a context manager)."""

    def __init__(self, out: Path):
        self.out = Path(out)
        self.path = Path(f"{_resolved(out)}.lock")
        self._fh: IO[str] | None = None
        self._file_fd: int | None = None

    def _lock_the_file(self) -> None:
        """An flock on the output file itself, so a second name of the same file (a hard
        link, which resolving cannot see through) meets this run: locks belong to the
        file's identity (device, inode), not to a name."""
        try:
            fd = os.open(self.out, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, 0o666)
        except OSError as e:
            raise OutputError(f"cannot create {self.out}: {e.strerror or e}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise OutputLockedError(f"{self.out} is being written by another extract process "
                                    "(under another name: a hard link); wait for it or choose "
                                    "another -o") from None
        self._file_fd = fd

    def __enter__(self) -> "OutputLock":
        for _ in range(20):
            try:
                fh = open(self.path, "w")
            except OSError as e:
                raise OutputError(f"cannot create {self.path}: {e.strerror or e}") from None
            try:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                fh.close()
                raise OutputLockedError(f"{self.path.name[:-5]} is being written by another "
                                        "extract process; wait for it or choose another -o") from None
            try:
                same = os.stat(self.path).st_ino == os.fstat(fh.fileno()).st_ino
            except FileNotFoundError:
                same = False
            if same:
                self._fh = fh
                try:
                    self._lock_the_file()
                except BaseException:
                    self.__exit__()
                    raise
                return self
            fh.close()        # the holder removed it as we opened it: lock the new one
        raise OutputLockedError(f"cannot lock {self.path}")  # pragma: no cover - a lock race storm

    def __exit__(self, *exc) -> None:
        if self._file_fd is not None:
            os.close(self._file_fd)
            self._file_fd = None
        if self._fh is not None:
            try:
                os.unlink(self.path)   # while still held: a waiter sees a new file, not this one
            except OSError:
                pass
            fcntl.flock(self._fh, fcntl.LOCK_UN)
            self._fh.close()
            self._fh = None
