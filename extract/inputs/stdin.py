"""Standard input with a reproducible identity.

Default ids name their input (``<label>#<n>``).  A file's label is its path; stdin has
none, so without ``--label`` it is named by a digest of its content: stdin is copied to
a temporary file while hashed (streamed: memory stays flat), then read from there.  The
same batch piped again gets the same ids and resumes; another batch gets other ids and
never replaces the first one's records.
"""

from __future__ import annotations

import hashlib
import io
import sys
import tempfile
from typing import IO

CHUNK = 1 << 20


def spool() -> tuple[IO[str], str]:
    """(a text stream of stdin's content, its label ``stdin-<12 hex digits>``)."""
    h = hashlib.sha256()
    tmp = tempfile.TemporaryFile(prefix="extract-stdin-")
    buf = getattr(sys.stdin, "buffer", None)
    if buf is not None:
        while block := buf.read(CHUNK):
            h.update(block)
            tmp.write(block)
    else:                                   # a text-only stdin (tests, notebooks)
        while text := sys.stdin.read(CHUNK):
            block = text.encode("utf-8", "surrogateescape")
            h.update(block)
            tmp.write(block)
    tmp.seek(0)
    stream = io.TextIOWrapper(tmp, encoding="utf-8-sig", errors="surrogateescape", newline="")
    return stream, f"stdin-{h.hexdigest()[:12]}"
