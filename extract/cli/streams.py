"""The standard streams of a command.

* stderr is wrapped (:func:`guard_stderr`) so that whatever reaches it, from any layer, has
  its secrets masked and its control characters escaped (:mod:`extract.redact`): an id or
  a title read from an input cannot send escape sequences to the terminal, and a key a
  server echoed never shows.  ``\\r`` is kept (the progress bar redraws its line).
* :func:`stdout_failed` ends a command whose stdout cannot be written (``> /dev/full``):
  one line and exit 7, no traceback, and nothing more said by the interpreter's last
  flush.
"""

from __future__ import annotations

import errno
import io
import os
import sys

from .. import redact
from ..errors import EXIT_OUTPUT

#: errnos of a write that cannot succeed: a full disk or quota, a file too large, I/O, a closed pipe
WRITE_FAILURES = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EPIPE)


class _GuardedText(io.TextIOBase):
    """A text stream that masks and escapes what is written, then passes it on."""

    def __init__(self, inner):
        self._inner = inner

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        self._inner.write(redact.printable(redact.mask(s), keep_cr=True))
        return len(s)

    def flush(self) -> None:
        self._inner.flush()

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self._inner.isatty()

    def fileno(self) -> int:
        return self._inner.fileno()

    @property
    def encoding(self):
        return getattr(self._inner, "encoding", "utf-8")

    @property
    def errors(self):
        return getattr(self._inner, "errors", "strict")

    def __getattr__(self, name):
        if name == "buffer":          # bytes would bypass the guard
            raise AttributeError(name)
        return getattr(self._inner, name)


def guard_stderr() -> None:
    """Wrap ``sys.stderr`` (once)."""
    if not isinstance(sys.stderr, _GuardedText) and sys.stderr is not None:
        sys.stderr = _GuardedText(sys.stderr)


def _silence_stdout() -> None:
    """Point fd 1 at /dev/null so the interpreter's final flush of stdout cannot fail."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def stdout_failed(e: OSError) -> None:
    """stdout could not be written: exit 0 quietly when its reader went away (``| head``),
    else one line and exit 7."""
    _silence_stdout()
    if isinstance(e, BrokenPipeError) or e.errno == errno.EPIPE:
        sys.exit(0)
    print(f"extract: error: cannot write to stdout: {e.strerror or e}", file=sys.stderr)
    sys.exit(EXIT_OUTPUT)
