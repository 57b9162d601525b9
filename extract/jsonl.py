"""JSON Lines, strictly: the one reader and writer of every JSONL file extract touches.

Why by hand: the standard ``json`` module is lenient in ways that break other readers
(it writes and reads ``NaN``/``Infinity``, turns ``1e999`` into ``inf``, accepts numerals of
any length, recurses without bound on ``[[[[...``), and ``str.splitlines`` also splits on
U+2028 inside a string.  No kept library reads JSONL with those guarantees and line numbers.

Reading (:func:`read`) streams a file line by line (``\\n`` only), numbers the lines from 1,
skips blank ones, and gives each line as a :class:`Line`: its parsed ``value``, or an
``error`` saying in a few words why the line is not strict JSON (not JSON, NaN/Infinity,
a number that does not fit a double, nesting too deep to parse).  It never
raises on a line's content; only on a file that cannot be opened or read (``OSError``).

Writing (:func:`dumps`) refuses non-finite floats (``allow_nan=False``) after
:func:`sanitize` has turned every value that does not fit a JSON number (``inf``, ``nan``,
an integer beyond a double's range) into ``null`` and said where.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

__all__ = ["Line", "NotStrictJSON", "dumps", "dumps_noted", "loads", "read", "sanitize"]

MAX_NUMERAL = 400        # digits: longer integers are not numbers anyone wrote on purpose
_DOUBLE_MAX = 1.7976931348623157e308


# A numeral too long for a double (json.dumps writes such an int in full) is a run of 309
# digits: found by mapping every digit to "0" and searching bytes (a regex is 10x slower).
_DIGITS_TO_ZERO = bytes.maketrans(b"0123456789", b"0" * 10)
_LONG_RUN = b"0" * 309


class NotStrictJSON(ValueError):
    """A text that is JSON only to a lenient parser (or not at all)."""


@dataclass(frozen=True)
class Line:
    number: int                 # 1-based line number in the file
    value: Any = None           # the parsed JSON, when ``error`` is None
    error: str | None = None    # why the line is not usable strict JSON

    @property
    def ok(self) -> bool:
        return self.error is None


def _constant(name: str):
    raise NotStrictJSON(f"{name} is not JSON")


def _float(s: str) -> float:
    v = float(s)
    if not math.isfinite(v):
        raise NotStrictJSON(f"number {s[:20]}{'...' if len(s) > 20 else ''} does not fit a double")
    return v


def _int(s: str) -> int:
    if len(s) > MAX_NUMERAL:
        raise NotStrictJSON(f"a {len(s)}-digit number")
    v = int(s)
    if abs(v) > _DOUBLE_MAX:
        raise NotStrictJSON(f"number {s[:20]}... does not fit a double")
    return v


def loads(text: str | bytes) -> Any:
    """Parse strict JSON; raise :class:`NotStrictJSON` (a ``ValueError``) with a short reason."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    try:
        return json.loads(text, parse_constant=_constant, parse_float=_float, parse_int=_int)
    except NotStrictJSON:
        raise
    except json.JSONDecodeError as e:
        raise NotStrictJSON(f"not JSON ({e.msg} at column {e.colno})") from None
    except RecursionError:
        raise NotStrictJSON("nested too deeply") from None
    except ValueError as e:  # the int digit limit, odd escapes
        raise NotStrictJSON(f"not JSON ({str(e)[:80]})") from None


def read(path: str | Path | BinaryIO, *, encoding_errors: str = "replace",
         strict: bool = True) -> Iterator[Line]:
    """Every non-blank line of ``path`` (or of an open binary stream: stdin) as a
    :class:`Line`, streamed.  ``encoding_errors`` is how undecodable bytes are decoded
    (``"surrogateescape"`` keeps them detectable).  ``strict=False`` parses with the plain
    C parser (4x faster; NaN, 1e400 and long numerals pass): for a scan that reads only ids
    and strings."""
    parse = loads if strict else _lenient
    if not isinstance(path, (str, Path)):
        yield from _lines(path, parse, encoding_errors)
        return
    with open(path, "rb") as fh:
        yield from _lines(fh, parse, encoding_errors)


def _lines(fh: BinaryIO, parse, encoding_errors: str) -> Iterator[Line]:
    for number, raw in enumerate(fh, 1):
        text = raw.decode("utf-8", encoding_errors)
        if number == 1 and text.startswith("\ufeff"):
            text = text[1:]                       # a byte-order mark is not content
        if not text.strip():
            continue
        try:
            yield Line(number, parse(text))
        except NotStrictJSON as e:
            yield Line(number, error=str(e))


def _lenient(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise NotStrictJSON(f"not JSON ({e.msg} at column {e.colno})") from None
    except RecursionError:
        raise NotStrictJSON("nested too deeply") from None
    except ValueError as e:
        raise NotStrictJSON(f"not JSON ({str(e)[:80]})") from None


def sanitize(obj: Any, where: str = "") -> tuple[Any, list[str]]:
    """``obj`` with every value that does not fit a JSON number replaced by ``None``, and
    the places changed (``extraction.numbers[0].value``)."""
    notes: list[str] = []

    def walk(x: Any, at: str) -> Any:
        if isinstance(x, float):
            if math.isfinite(x):
                return x
            notes.append(f"{at or 'value'}: {x!r} does not fit a JSON number; null")
            return None
        if isinstance(x, int) and not isinstance(x, bool):
            if abs(x) <= _DOUBLE_MAX:
                return x
            notes.append(f"{at or 'value'}: a {len(str(abs(x)))}-digit number does not fit "
                         "a double; null")
            return None
        if isinstance(x, dict):
            return {k: walk(v, f"{at}.{k}" if at else str(k)) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return [walk(v, f"{at}[{i}]") for i, v in enumerate(x)]
        return x

    return walk(obj, where), notes


def _dump(obj: Any) -> tuple[str, bytes]:
    line = json.dumps(obj, ensure_ascii=False, separators=(", ", ": "), allow_nan=False)
    try:
        data = line.encode("utf-8")
    except UnicodeEncodeError:      # a lone surrogate: escaped, so the line stays UTF-8
        line = json.dumps(obj, ensure_ascii=True, separators=(", ", ": "), allow_nan=False)
        data = line.encode("utf-8")
    return line, data


def dumps_noted(obj: Any) -> tuple[str, list[str]]:
    """(one line of strict JSON, the places :func:`sanitize` had to change)."""
    try:
        line, data = _dump(obj)     # the fast path: raises on NaN/Infinity
        if _LONG_RUN not in data.translate(_DIGITS_TO_ZERO):
            return line, []
    except ValueError:
        pass
    clean, notes = sanitize(obj)
    return _dump(clean)[0], notes


def dumps(obj: Any) -> str:
    """One line of strict JSON (UTF-8 text, no ``NaN``/``Infinity``)."""
    return dumps_noted(obj)[0]
