"""The one hash helper (a leaf: imports nothing from extract)."""

from __future__ import annotations

import hashlib


def sha256(data: str | bytes) -> str:
    """Hex SHA-256 of ``data`` (text is encoded as UTF-8)."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()
