"""A string-keyed index that keeps memory bounded however large the corpus is.

Duplicate-id detection and resume need every id seen so far.  Up to ``spill_at`` entries
they live in a dict; past that they move to a temporary SQLite file (no journal, no
fsync: it only lives as long as the run), so memory stays flat for millions of ids.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile

SPILL_AT = 50_000


class IdIndex:
    """``id -> note`` (a short string: a source location, a text digest); adding a key
    again replaces its note, in memory and on disk alike."""

    def __init__(self, spill_at: int = SPILL_AT):
        self.spill_at = spill_at
        self._mem: dict[str, str] = {}
        self._db: sqlite3.Connection | None = None
        self._path: str | None = None
        self._count = 0

    def _spill(self) -> None:
        fd, self._path = tempfile.mkstemp(prefix="extract-ids-", suffix=".sqlite")
        os.close(fd)
        self._db = sqlite3.connect(self._path, isolation_level=None)
        self._db.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; "
                               "PRAGMA cache_size=-8000; "
                               "CREATE TABLE ids (id TEXT PRIMARY KEY, note TEXT) WITHOUT ROWID;")
        self._db.execute("BEGIN")
        self._db.executemany("INSERT OR IGNORE INTO ids VALUES (?, ?)", self._mem.items())
        self._mem = {}

    def add(self, key: str, note: str = "") -> None:
        if self._db is None:
            if key not in self._mem:
                self._count += 1
            self._mem[key] = note
            if len(self._mem) > self.spill_at:
                self._spill()
            return
        cur = self._db.execute("UPDATE ids SET note = ? WHERE id = ?", (note, key))
        if cur.rowcount == 0:
            self._db.execute("INSERT INTO ids VALUES (?, ?)", (key, note))
            self._count += 1

    def get(self, key: str) -> str | None:
        if self._db is None:
            return self._mem.get(key)
        row = self._db.execute("SELECT note FROM ids WHERE id = ?", (key,)).fetchone()
        return row[0] if row else None

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key) is not None

    def __len__(self) -> int:
        return self._count

    def __bool__(self) -> bool:
        return self._count > 0

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
        if self._path is not None:
            try:
                os.unlink(self._path)
            except OSError:
                pass
            self._path = None

    def __del__(self) -> None:  # a temporary file never outlives its index
        self.close()
