"""The answer cache: diskcache on disk, keyed by every input that shapes an answer.

The key is a SHA-256 over canonical JSON of: tool version, backend name and fingerprint
(model, endpoint, decoding parameters), prompt text digest, schema JSON digest, re-ask
budget and the source text.  API keys are never part of it: a backend fingerprint must
not contain secrets, and :func:`cache_key` refuses a fingerprint with a key-like field.
The value is what is needed to rebuild the record without the model: the validated
answer, usage, attempts and the time it was extracted.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import diskcache

from ._version import __version__
from .prompting import sha256

_SECRET_FIELDS = {"api_key", "key", "authorization", "token", "password", "secret"}


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


class AnswerCache:
    """A thin, process- and thread-safe wrapper (diskcache uses SQLite with WAL)."""

    def __init__(self, directory: Path | str, enabled: bool = True):
        self.directory = Path(directory)
        self.enabled = enabled
        self._cache: diskcache.Cache | None = None

    def _open(self) -> diskcache.Cache:
        if self._cache is None:
            self.directory.mkdir(parents=True, exist_ok=True)
            self._cache = diskcache.Cache(str(self.directory), size_limit=2**34,
                                          eviction_policy="none")
        return self._cache

    def get(self, key: str) -> dict[str, Any] | None:
        if not self.enabled:
            return None
        value = self._open().get(key)
        return value if isinstance(value, dict) else None

    def set(self, key: str, value: dict[str, Any]) -> None:
        if self.enabled:
            self._open().set(key, value)

    def stats(self) -> dict[str, Any]:
        cache = self._open()
        return {"directory": str(self.directory.resolve()), "entries": len(cache),
                "bytes": cache.volume()}

    def clear(self) -> int:
        return self._open().clear()

    def close(self) -> None:
        if self._cache is not None:
            self._cache.close()
            self._cache = None
