"""The one hash helper (a leaf: imports nothing from extract)."""

from __future__ import annotations

import hashlib
from pathlib import Path


def sha256(data: str | bytes) -> str:
    """Hex SHA-256 of ``data`` (text is encoded as UTF-8)."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()


def files_digest(files) -> str:
    """SHA-256 over the names and bytes of ``files`` (source files whose code shapes answers:
    changing one changes the cache keys that include this digest)."""
    h = hashlib.sha256()
    for f in files:
        f = Path(f)
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def package_files(*modules) -> list[Path]:
    """The ``*.py`` files of each package module given, sorted per package."""
    out: list[Path] = []
    for m in modules:
        out += sorted(Path(m.__file__).parent.glob("*.py"))
    return out
