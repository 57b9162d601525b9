"""Transient-fault policy for remote endpoints: what is retried, how long to wait, and
what each fault is called in a reason.

This is the only retry layer for transport faults: the ``openai`` client is built with
``max_retries=0`` and instructor only re-asks on schema failures.  The bound is one number
per record: at most ``reasks + retries + 1`` requests (see :mod:`extract.errors`).

* 429 (honouring ``Retry-After`` / ``retry-after-ms``), 408, 409, 425, 5xx, timeouts,
  dropped connections and a 200 whose body is an error object are retried with capped
  exponential backoff and full jitter;
* 401/403/404 refuse the replica that said so (:class:`FatalBackendError` once every
  replica has refused): every record would fail alike;
* other 4xx (400, 413, 422) reject this one record (:class:`RequestRejected`), with the
  server's own message;
* a body larger than the response cap fails the record (:class:`ResponseTooLarge`).

Faults are named as a person would: "connection refused", "timed out after 3 s", "name
not resolved", never an exception class.
"""

from __future__ import annotations

import email.utils
import errno
import random
import socket
import time

import openai
from instructor.core.exceptions import IncompleteOutputException, InstructorRetryException

from .. import redact
from ..errors import (ExtractError, FatalBackendError, RecordError, RequestRejected,
                      SchemaFailure, TransientBackendError)

_RETRY_STATUS = {408, 409, 425, 429}
_FATAL_STATUS = {401, 403, 404}


class ResponseTooLarge(RecordError):
    """The endpoint sent more than the response cap; the rest was not read."""


class ErrorBody(TransientBackendError):
    """A 200 whose body is an error object rather than a completion."""


def _root(exc: BaseException) -> BaseException:
    """The transport error under instructor's wrapper, if any."""
    seen = 0
    while isinstance(exc, InstructorRetryException) and exc.__cause__ is not None and seen < 5:
        exc, seen = exc.__cause__, seen + 1
    return exc


def _chain(exc: BaseException):
    seen = set()
    while exc is not None and id(exc) not in seen and len(seen) < 12:
        seen.add(id(exc))
        yield exc
        exc = exc.__cause__ or exc.__context__


_OUT_OF_FDS = (errno.EMFILE, errno.ENFILE)
OUT_OF_FDS = "out of file descriptors (too many open files: lower --concurrency or raise `ulimit -n`)"
CLOSED_UNANSWERED = "the server accepted the connection and closed it without answering"


def _out_of_fds(e: BaseException) -> bool:
    return getattr(e, "errno", None) in _OUT_OF_FDS or (
        isinstance(getattr(e, "os_error", None), OSError) and e.os_error.errno in _OUT_OF_FDS)


def dropped_unanswered(exc: BaseException) -> bool:
    """Did a server take the connection and close it before any answer (it is reachable)?"""
    for e in _chain(exc):
        if type(e).__name__ in ("ServerDisconnectedError", "RemoteProtocolError", "ClientConnectionResetError"):
            return True
        if type(e).__name__ == "ClientOSError" and "request body" in str(e):
            return True
    return False


def connection_fault(exc: BaseException) -> str | None:
    """What went wrong on the wire, in words, or None if ``exc`` is not a connection fault.
    (The aiohttp transport reports every failure to connect, or to get an answer, as a
    *timeout*: the cause says what happened.)"""
    chain = list(_chain(exc))
    if any(_out_of_fds(e) for e in chain):
        return OUT_OF_FDS
    if dropped_unanswered(exc):
        return CLOSED_UNANSWERED
    for e in chain:
        if isinstance(e, ConnectionRefusedError) or getattr(e, "errno", None) == errno.ECONNREFUSED:
            return "connection refused"
        if isinstance(e, socket.gaierror):
            return "name not resolved"
        if isinstance(e, ConnectionResetError):
            return "connection reset"
        if getattr(e, "errno", None) in (errno.EHOSTUNREACH, errno.ENETUNREACH):
            return "host unreachable"
    if isinstance(exc, openai.APITimeoutError):
        return "timed out"
    if isinstance(exc, openai.APIConnectionError):
        return "connection dropped"
    return None


_CONNECT_NAMES = {"ConnectError", "ConnectTimeout", "ClientConnectorError", "ConnectionRefusedError",
                  "gaierror"}


def connect_phase(exc: BaseException) -> bool:
    """Did ``exc`` happen before any byte reached a server (refused, unresolved,
    unreachable, connect timeout)?  Those, and only those, count toward fail-fast.  A
    server that accepted the connection was reached, and running out of file descriptors
    is this process's own limit: neither is a failure to connect."""
    if dropped_unanswered(exc) or any(_out_of_fds(e) for e in _chain(exc)):
        return False
    for e in _chain(exc):
        if type(e).__name__ in _CONNECT_NAMES or isinstance(e, (ConnectionRefusedError, socket.gaierror)):
            return True
        if getattr(e, "errno", None) in (errno.ECONNREFUSED, errno.EHOSTUNREACH, errno.ENETUNREACH):
            return True
    return False


def scrub(text: str, secret: str | None = None) -> str:
    """``text`` with secrets masked: ``secret``, the configured key and URL credentials
    (:mod:`extract.redact`), whatever their shape, and key-shaped strings."""
    if secret:
        redact.register(secret)
    return redact.mask(text)


def server_message(exc: BaseException, limit: int = 300) -> str:
    """The endpoint's own words from an error response (``error.message``, ``detail``...)."""
    return message_of(getattr(exc, "body", None), limit)


def message_of(body, limit: int = 300) -> str:
    """The message in an error body (a dict such as ``{"error": {"message": ...}}`` or text)."""
    msg = None
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict):
            msg = err.get("message") or err.get("detail") or err.get("msg")
        elif isinstance(err, str):
            msg = err
        msg = msg or body.get("detail") or body.get("message")
    elif isinstance(body, str):
        msg = body
    if not isinstance(msg, str):
        msg = str(msg) if msg else ""
    msg = " ".join(msg.split())
    return scrub(msg[:limit] + ("..." if len(msg) > limit else ""))


def retry_after(exc: BaseException) -> float | None:
    """Seconds the server asked us to wait, from ``retry-after-ms`` or ``Retry-After``."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if not headers:
        return None
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        try:
            parsed = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        return max(0.0, parsed.timestamp() - time.time()) if parsed else None


def _status(root: openai.APIStatusError) -> str:
    said = server_message(root)
    return f"HTTP {root.status_code}" + (f": {said}" if said else "")


def classify(exc: BaseException, timeout: float | None = None) -> Exception:
    """Map any exception out of a request (or an instructor call) to extract's hierarchy,
    its message with every secret masked."""
    err = _classify(exc, timeout)
    if err.args and isinstance(err.args[0], str):
        masked = redact.mask(err.args[0])
        if masked != err.args[0]:
            err.args = (masked, *err.args[1:])
    return err


def _classify(exc: BaseException, timeout: float | None) -> Exception:
    root = _root(exc)
    for e in _chain(root):
        if isinstance(e, ExtractError):
            return e
    if isinstance(root, IncompleteOutputException):
        return SchemaFailure("output truncated at max_tokens (raise --max-tokens)")
    if isinstance(root, TimeoutError):          # our bound on the whole request
        return TransientBackendError(f"timed out after {timeout:g} s" if timeout else "timed out")
    if isinstance(root, (openai.APITimeoutError, openai.APIConnectionError)):
        err = TransientBackendError(connection_fault(root) or "connection error")
        err.connect = connect_phase(root)
        err.unanswered = dropped_unanswered(root)
        return err
    if isinstance(root, openai.APIStatusError):
        status = root.status_code
        if status in _RETRY_STATUS or status >= 500:
            return TransientBackendError(_status(root), retry_after(root))
        if status in _FATAL_STATUS:
            return FatalBackendError(f"endpoint refused the request ({_status(root)}); check the "
                                     "model name, base URL and API key")
        return RequestRejected(f"endpoint rejected this record ({_status(root)})")
    if isinstance(exc, InstructorRetryException):
        last = str(root).strip().splitlines()
        detail = " ".join(last[:6])[:600]
        return SchemaFailure(f"answer stayed invalid: {detail}", attempts=exc.n_attempts)
    if isinstance(root, RecordError):
        return root
    return RecordError(f"{type(root).__name__}: {str(root)[:300]}")


def attempts(n: int) -> str:
    """``"1 attempt"``, ``"3 attempts"``: how every reason counts requests."""
    return f"{n} attempt" + ("" if n == 1 else "s")


def backoff(attempt: int, hint: float | None, cap: float, base: float = 0.5) -> float:
    """Seconds to wait before retry ``attempt`` (1-based): the server's hint if it gave
    one (capped), else capped exponential backoff with full jitter."""
    if hint is not None:
        return min(hint, cap)
    return random.uniform(0, min(cap, base * 2 ** (attempt - 1)))
