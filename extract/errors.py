"""Every exception extract raises on purpose, in one place.

    ExtractError                  base class; ``exit_code`` is what the CLI exits with
    ├── UsageError                bad options or configuration (exit 2)
    ├── InputError                an input path that cannot be read at all (exit 2)
    ├── OutputLockedError         another process is writing the same output (exit 5)
    ├── OutputError               the output cannot be written: disk full, ... (exit 7)
    │   └── OutputClosed          stdout was closed by its reader (``| head``): exit 0, quietly
    ├── BackendError              the model could not be reached or used (exit 3)
    │   ├── TransientBackendError 429, 5xx, timeouts, dropped connections: retried
    │   └── FatalBackendError     401/403/404 from every endpoint, no endpoint reachable at
    │                             all, a model that cannot load: stops the run
    ├── RecordError               one record failed; it goes to the errors file
    │   ├── SchemaFailure         the answer stayed invalid after every re-ask
    │   └── RequestRejected       the endpoint refused this one request (400, 413, 422)
    ├── BudgetExhausted           --max-tokens-total was reached (exit 4, resumable)
    └── BatchNotReady             extract batch collect before the batch ended (exit 6)

A record-level failure never stops a batch; only ``FatalBackendError`` and the
usage/input/lock/output errors do.  Messages never contain an API key.

Retries have one bound per record: at most ``reasks + retries + 1`` model requests
(defaults 2 + 6 + 1 = 9).  An invalid answer spends a re-ask (instructor, the conversation
goes on); a transient fault spends a retry (the same request is sent again, to the next
healthy replica, with the re-ask conversation kept).  ``attempts`` in a record or an error
entry counts the requests spent, and every reason quotes that same number.
"""

from __future__ import annotations


# Exit statuses of `extract run`, documented in the README.
EXIT_OK = 0
EXIT_SOME_FAILED = 1
EXIT_USAGE = 2
EXIT_BACKEND = 3
EXIT_BUDGET = 4
EXIT_LOCKED = 5
EXIT_BATCH_PENDING = 6     # extract batch collect: the batch has not finished
EXIT_OUTPUT = 7            # the output cannot be written (disk full, ...)
EXIT_INTERRUPTED = 130     # Ctrl-C (SIGINT): resumable
EXIT_TERMINATED = 143      # SIGTERM (kill PID): stopped as Ctrl-C stops it, resumable


class ExtractError(Exception):
    """Base class of every error extract raises deliberately."""

    exit_code = EXIT_SOME_FAILED


class UsageError(ExtractError):
    exit_code = EXIT_USAGE


class InputError(ExtractError):
    exit_code = EXIT_USAGE


class OutputLockedError(ExtractError):
    exit_code = EXIT_LOCKED


class OutputError(ExtractError):
    """The records or errors file cannot be written (disk full, a path under a file)."""

    exit_code = EXIT_OUTPUT


class OutputClosed(OutputError):
    """The reader of stdout went away (``extract run x | head``): stop quietly."""

    exit_code = EXIT_OK


class BackendError(ExtractError):
    exit_code = EXIT_BACKEND


class TransientBackendError(BackendError):
    """A fault worth retrying; ``retry_after`` is the server's hint in seconds."""

    def __init__(self, message: str, retry_after: float | None = None):
        super().__init__(message)
        self.retry_after = retry_after


class FatalBackendError(BackendError):
    """A fault that would hit every record the same way: the run stops."""


class RecordError(ExtractError):
    """One record failed for good; ``attempts`` counts the model calls spent on it."""

    def __init__(self, message: str, attempts: int = 0, usage: dict | None = None):
        super().__init__(message)
        self.attempts = attempts
        self.usage = usage or {}


class SchemaFailure(RecordError):
    pass


class RequestRejected(RecordError):
    pass


class BudgetExhausted(ExtractError):
    exit_code = EXIT_BUDGET


class BatchNotReady(ExtractError):
    """The batch has not finished: collect later (``extract batch status ID``)."""

    exit_code = EXIT_BATCH_PENDING


def brief(e, limit: int = 300) -> str:
    """A pydantic ``ValidationError`` in one line: the first four locations and messages."""
    parts = [f"{'.'.join(map(str, err['loc'])) or 'answer'}: {err['msg']}" for err in e.errors()[:4]]
    text = "; ".join(parts)
    return text if len(text) <= limit else text[: limit - 1] + "…"
