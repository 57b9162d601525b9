"""Transient-fault policy for remote endpoints: what is retried, how long to wait.

This is the only retry layer for transport faults: the ``openai`` client is built with
``max_retries=0`` and instructor only re-asks on schema failures.  Here:

* 429 (honouring ``Retry-After`` / ``retry-after-ms``), 408, 409, 5xx, timeouts and
  dropped connections are retried with capped exponential backoff and full jitter;
* 401/403/404 stop the run (:class:`FatalBackendError`): every record would fail alike;
* other 4xx reject this one record (:class:`RequestRejected`).
"""

from __future__ import annotations

import email.utils
import random
import time

import openai
from instructor.core.exceptions import IncompleteOutputException, InstructorRetryException

from ..errors import FatalBackendError, RecordError, RequestRejected, SchemaFailure, TransientBackendError

_RETRY_STATUS = {408, 409, 425, 429}
_FATAL_STATUS = {401, 403, 404}


def _root(exc: BaseException) -> BaseException:
    """The transport error under instructor's wrapper, if any."""
    seen = 0
    while isinstance(exc, InstructorRetryException) and exc.__cause__ is not None and seen < 5:
        exc, seen = exc.__cause__, seen + 1
    return exc


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
        parsed = email.utils.parsedate_to_datetime(value) if value else None
        return max(0.0, parsed.timestamp() - time.time()) if parsed else None


def _brief(exc: BaseException) -> str:
    status = getattr(exc, "status_code", None)
    name = type(exc).__name__
    return f"HTTP {status} ({name})" if status else name


def classify(exc: BaseException) -> Exception:
    """Map any exception out of an instructor call to extract's hierarchy."""
    root = _root(exc)
    if isinstance(root, IncompleteOutputException):
        return SchemaFailure("output truncated at max_tokens (raise --max-tokens)")
    if isinstance(root, (openai.APITimeoutError, openai.APIConnectionError)):
        return TransientBackendError(_brief(root))
    if isinstance(root, openai.APIStatusError):
        status = root.status_code
        if status in _RETRY_STATUS or status >= 500:
            return TransientBackendError(_brief(root), retry_after(root))
        if status in _FATAL_STATUS:
            return FatalBackendError(f"endpoint refused the request: {_brief(root)}; check the "
                                     "model name, base URL and API key")
        return RequestRejected(f"endpoint rejected this record: {_brief(root)}")
    if isinstance(exc, InstructorRetryException):
        last = str(root).strip().splitlines()
        detail = " ".join(last[:6])[:600]
        return SchemaFailure(f"answer stayed invalid after {exc.n_attempts} attempts: {detail}",
                             attempts=exc.n_attempts)
    if isinstance(root, RecordError):
        return root
    return RecordError(f"{type(root).__name__}: {str(root)[:300]}")


def backoff(attempt: int, hint: float | None, cap: float, base: float = 0.5) -> float:
    """Seconds to wait before retry ``attempt`` (1-based): the server's hint if it gave
    one (capped), else capped exponential backoff with full jitter."""
    if hint is not None:
        return min(hint, cap)
    return random.uniform(0, min(cap, base * 2 ** (attempt - 1)))
