"""Secrets and terminal control characters out of everything extract prints or writes.

* :func:`register` remembers a secret of this process: the configured API key (whatever
  its shape: ``sk-...``, ``gsk_...``, 32 hex digits, ``sk-test``), and the password and
  query-string values of a base URL.  :class:`extract.config.RunConfig` registers its key
  and URLs when it is built, so every layer masks them without being handed the key.
* :func:`mask` replaces every registered secret with ``***``, and also what is shaped like
  a secret though nobody registered it: ``user:password@`` in a URL, a query parameter
  named like a secret (``?api-key=...``, ``&token=...``), ``Bearer ...``, and key shapes
  (``sk-...``, ``gsk_...``) that a server echoes back.
* :func:`printable` escapes control characters (ESC and the rest of C0/C1, bidi overrides)
  so an id or a title read from an input cannot drive the terminal it is printed on.

Why by hand: no kept library masks a given secret in free text; these are a few regexes.
"""

from __future__ import annotations

import re
import threading
import urllib.parse
from typing import Any

MASK = "***"
_MIN_SECRET = 5            # shorter strings are not keys anyone configures; masking them would garble text

_lock = threading.Lock()
_secrets: tuple[str, ...] = ()        # longest first, so a key is masked before a part of it

_SECRET_PARAM = (r"(?:api[-_]?key|apikey|key|code|token|access[-_]?token|auth|authorization|"
                 r"sig|signature|secret|client[-_]?secret|password|passwd|pwd|x-api-key)")
_QUERY_SECRET = re.compile(r"(?i)([?&;]" + _SECRET_PARAM + r"=)[^&#\s'\"<>]+")
_URL_CREDENTIALS = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://[^/@\s:'\"<>]*:)[^/@\s'\"<>]+@")
_BEARER = re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/\-]{6,}=*")
_KEYLIKE = re.compile(r"\b((?:sk|gsk|xai)[-_][A-Za-z0-9]{0,3})[A-Za-z0-9_\-*]{6,}")

# C0 controls but tab and newline, DEL, C1 controls, and the bidirectional overrides and
# isolates (they reorder what a terminal shows: "Trojan Source").
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_CONTROL_KEEP_CR = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def register(*secrets: Any) -> None:
    """Remember ``secrets`` (strings; ``None`` and short ones are ignored) for :func:`mask`."""
    global _secrets
    new = {s for s in secrets if isinstance(s, str) and len(s.strip()) >= _MIN_SECRET}
    new |= {urllib.parse.quote(s, safe="") for s in new}       # as it appears in a URL
    with _lock:
        if new - set(_secrets):
            _secrets = tuple(sorted(set(_secrets) | new, key=len, reverse=True))


def register_url(url: Any) -> None:
    """Register the password and the secret-named query values of ``url``."""
    if not isinstance(url, str):
        return
    try:
        p = urllib.parse.urlsplit(url.strip())
        password = p.password
        query = urllib.parse.parse_qsl(p.query, keep_blank_values=False)
    except ValueError:
        return
    found = [password] if password else []
    named = re.compile(_SECRET_PARAM + r"\Z", re.IGNORECASE)
    found += [v for k, v in query if named.match(k)]
    register(*found)


def mask(text: Any) -> Any:
    """``text`` with every secret masked (anything but a string is returned as it is)."""
    if not isinstance(text, str) or not text:
        return text
    for s in _secrets:
        if s in text:
            text = text.replace(s, MASK)
    text = _URL_CREDENTIALS.sub(r"\1" + MASK + "@", text)
    text = _QUERY_SECRET.sub(r"\1" + MASK, text)
    text = _BEARER.sub(r"\1" + MASK, text)
    return _KEYLIKE.sub(r"\1" + MASK, text)


def _escape(m: re.Match) -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def printable(text: Any, keep_cr: bool = False) -> Any:
    """``text`` with control characters shown as ``\\x1b`` (tab and newline kept; ``\\r``
    too with ``keep_cr``, for a progress bar redrawing its line)."""
    if not isinstance(text, str):
        return text
    return (_CONTROL_KEEP_CR if keep_cr else _CONTROL).sub(_escape, text)


def safe(text: Any) -> Any:
    """What may reach a terminal: :func:`printable` of :func:`mask`."""
    return printable(mask(text))
