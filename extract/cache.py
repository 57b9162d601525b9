"""The answer cache: diskcache on disk, keyed by every input that shapes an answer.

The key is a SHA-256 over canonical JSON of: tool version, backend name and fingerprint
(model, endpoint, decoding parameters), prompt text digest, schema JSON digest, re-ask
budget and the source text.  API keys are never part of it: a backend fingerprint must
not contain secrets, and :func:`cache_key` refuses a fingerprint with a key-like field.
The value is what is needed to rebuild the record without the model: the validated
answer, usage, attempts and the time it was extracted.

Safety, because a cache directory is input like any other:

* values are stored as JSON text (:class:`JSONOnlyDisk`), and an entry in any other form
  (diskcache's default pickle, text, planted or left by an old version) is refused and
  treated as a miss, with one warning: nothing read back is ever unpickled or executed;
* a row's ``filename`` is honoured only when it names a value file diskcache made inside
  the cache directory: a planted path (``/home/me/thesis.tex``) is never read, and never
  deleted when the entry is replaced or the cache cleared;
* a cache that cannot be opened or read (corrupt file, not a database) is named in one
  warning and the run carries on without it; ``extract cache clear`` removes it anyway;
* a cache that cannot be written (disk full) is named in one warning; records are still
  written, answers from then on are just not cached;
* ``stats`` and ``clear`` refuse a directory that holds no cache (a typo creates nothing).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import sys
from pathlib import Path
from typing import Any, Callable

import diskcache
from diskcache.core import MODE_BINARY, MODE_RAW

from . import jsonl
from ._version import __version__
from .errors import UsageError
from .prompting import sha256

_SECRET_FIELDS = {"api_key", "key", "authorization", "token", "password", "secret"}
_DB = "cache.db"
_STORE_ERRORS = (OSError, sqlite3.Error, diskcache.Timeout)


def cache_key(*, backend: str, fingerprint: dict, prompt_sha: str, schema_sha: str,
              reasks: int, text: str) -> str:
    leaked = _SECRET_FIELDS & {k.lower() for k in fingerprint}
    if leaked:
        raise ValueError(f"backend fingerprint must not carry secrets: {sorted(leaked)}")
    payload = {
        "tool_version": __version__,
        "backend": backend,
        "fingerprint": fingerprint,
        "prompt_sha": prompt_sha,
        "schema_sha": schema_sha,
        "reasks": reasks,
        "text_sha": sha256(text),
    }
    return sha256(json.dumps(payload, sort_keys=True, separators=(",", ":")))


class UnsafeEntry(ValueError):
    """A cache entry extract did not write (a pickle, text, a file outside the cache):
    refused, never loaded."""


# diskcache names a large value's file ``xx/yy/<28 hex>.val`` (Disk.filename)
_OWN_FILE = re.compile(r"[0-9a-f]{2}/[0-9a-f]{2}/[0-9a-f]{28}\.val\Z")


class JSONOnlyDisk(diskcache.Disk):
    """Values as UTF-8 JSON bytes; keys as plain strings (diskcache stores those raw).

    A row of the database is input: its ``mode`` and ``filename`` are checked before
    diskcache acts on them.  ``fetch`` accepts only what :meth:`store` writes (JSON bytes
    in the row, or in a file diskcache named inside this directory) and refuses the rest
    (a pickle, text, an absolute or outside path) before anything is opened or unpickled;
    ``remove`` deletes only files of that form, so a planted ``filename`` never makes a
    run or ``cache clear`` delete a file elsewhere.  ``refused`` counts what was refused."""

    def __init__(self, directory, **kwargs):
        super().__init__(directory, **kwargs)
        self._root = os.path.realpath(directory)
        self.refused = 0

    def _own(self, filename) -> str | None:
        """The full path of ``filename`` when it is a value file of this cache, else None."""
        if not isinstance(filename, str) or not _OWN_FILE.match(filename.replace(os.sep, "/")):
            return None
        full = os.path.join(self._root, filename)
        real = os.path.realpath(full)
        return full if real.startswith(self._root + os.sep) else None

    def store(self, value, read, key=diskcache.core.UNKNOWN):
        if not read:
            value = jsonl.dumps(value).encode("utf-8")
        return super().store(value, read, key=key)

    def fetch(self, mode, filename, value, read):
        if mode == MODE_RAW and filename is None and isinstance(value, (bytes, memoryview)):
            data = bytes(value)
        elif mode == MODE_BINARY and self._own(filename) and not read:
            data = super().fetch(mode, filename, value, read)
        else:
            self.refused += 1
            raise UnsafeEntry("a cache entry extract did not write")
        try:        # plain JSON: parsing never runs code, and the schema validates what it holds
            return json.loads(data)
        except (ValueError, RecursionError):
            self.refused += 1
            raise UnsafeEntry("a cache entry that is not JSON") from None

    def remove(self, file_path):
        if file_path is None:
            return
        if self._own(file_path) is None:
            self.refused += 1           # not a file of this cache: never deleted
            return
        super().remove(file_path)


def _stderr(msg: str) -> None:
    print(f"extract: warning: {msg}", file=sys.stderr)


class AnswerCache:
    """A thin, process- and thread-safe wrapper (diskcache uses SQLite with WAL)."""

    def __init__(self, directory: Path | str, enabled: bool = True,
                 warn: Callable[[str], None] = _stderr):
        self.directory = Path(directory)
        self.enabled = enabled
        self.writable = True
        self._warn = warn
        self._warned: set[str] = set()
        self._cache: diskcache.Cache | None = None

    def _once(self, what: str, msg: str) -> None:
        if what not in self._warned:
            self._warned.add(what)
            self._warn(msg)

    def _open(self) -> diskcache.Cache:
        if self._cache is None:
            self.directory.mkdir(parents=True, exist_ok=True)
            self._cache = diskcache.Cache(str(self.directory), size_limit=2**34,
                                          eviction_policy="none", disk=JSONOnlyDisk)
        return self._cache

    def _unusable(self, e: BaseException) -> None:
        self.enabled = False
        self._once("broken", f"the cache at {self.directory} cannot be used ({_why(e)}); "
                   "running without it (`extract cache clear` removes it)")

    def get(self, key: str) -> dict[str, Any] | None:
        if not self.enabled:
            return None
        try:
            value = self._open().get(key)
        except UnsafeEntry:
            self._warn_refused()
            return None
        except _STORE_ERRORS as e:
            self._unusable(e)
            return None
        return value if isinstance(value, dict) else None

    def _warn_refused(self) -> None:
        self._once("unsafe", f"the cache at {self.directory} holds entries that are not JSON "
                   "(pickle) or that extract did not write (text, a file path outside the "
                   "cache); they are ignored: never loaded, never deleted outside the cache")

    def _check_refused(self) -> None:
        if self._cache is not None and getattr(self._cache.disk, "refused", 0):
            self._warn_refused()

    def set(self, key: str, value: dict[str, Any]) -> None:
        if not (self.enabled and self.writable):
            return
        try:
            self._open().set(key, value)
            self._check_refused()       # the row it replaced named a file not ours
        except _STORE_ERRORS as e:
            self.writable = False
            self._once("broken", f"cannot write to the cache at {self.directory} ({_why(e)}); "
                       "records are still written, answers from now on are not cached")

    # -- maintenance (extract cache stats|clear) ---------------------------------------
    def _existing(self) -> None:
        if not (self.directory / _DB).is_file():
            what = "no such directory" if not self.directory.exists() else "no cache there"
            raise UsageError(f"--cache-dir {self.directory}: {what}")

    def stats(self) -> dict[str, Any]:
        self._existing()
        try:
            cache = self._open()
            return {"directory": str(self.directory.resolve()), "entries": len(cache),
                    "bytes": cache.volume()}
        except _STORE_ERRORS as e:
            raise UsageError(f"the cache at {self.directory} cannot be read ({_why(e)}); "
                             "`extract cache clear` removes it") from None

    def clear(self) -> int | None:
        """Remove every entry; the number removed, or None when the cache was unreadable
        and its files were removed instead."""
        self._existing()
        try:
            n = self._open().clear()
            self._check_refused()
            return n
        except _STORE_ERRORS:
            self.close()
            _remove_cache_files(self.directory)
            try:
                self._open()            # an empty cache in its place
            except _STORE_ERRORS:
                pass
            return None

    def close(self) -> None:
        if self._cache is not None:
            try:
                self._cache.close()
            except _STORE_ERRORS:
                pass
            self._cache = None


def _why(e: BaseException) -> str:
    return getattr(e, "strerror", None) or str(e) or type(e).__name__


_VALUE_DIR = re.compile(r"^[0-9a-f]{2}$")


def _remove_cache_files(directory: Path) -> None:
    """Remove what diskcache keeps in ``directory``: the database (with its WAL files) and
    the two-hex-digit folders of large values.  Nothing else is touched."""
    for name in (_DB, f"{_DB}-wal", f"{_DB}-shm"):
        try:
            os.unlink(directory / name)
        except FileNotFoundError:
            pass
    for sub in directory.iterdir():
        if sub.is_dir() and _VALUE_DIR.match(sub.name):
            shutil.rmtree(sub, ignore_errors=True)
