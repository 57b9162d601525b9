"""A run's counts and its exit status (one class for live runs, batch collect and the Ray
engine), and how an input problem is settled into them."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from .errors import EXIT_BACKEND, EXIT_BUDGET, EXIT_OK, EXIT_SOME_FAILED
from .record import error_entry

__all__ = ["Summary", "settle_problem"]


@dataclass
class Summary:
    ok: int = 0
    cached: int = 0
    failed: int = 0
    skipped: int = 0          # already in the output file (resume)
    changed: int = 0          # in the output file from another text: extracted again
    problems: int = 0         # input problems (bad lines, duplicates)
    no_abstract: int = 0      # entries without an abstract: skipped, not failed (exit 0)
    dropped: int = 0          # ungrounded strings removed from records
    invalid: int = 0          # invalid fields removed to keep their record (record notes)
    tokens: dict = field(default_factory=lambda: {"prompt_tokens": 0, "completion_tokens": 0,
                                                  "total_tokens": 0})
    seconds: float = 0.0
    stopped: str | None = None   # why the run stopped early, if it did
    exit_code: int = EXIT_OK

    def finish(self, started: float, *, fatal: bool = False) -> "Summary":
        """Set the run's seconds and exit status (one place for live runs and batch collect):
        3 the backend stopped the run, 4 the token budget stopped it, 1 some record or input
        failed, else 0."""
        self.seconds = time.monotonic() - started
        if fatal:
            self.exit_code = EXIT_BACKEND
        elif self.stopped:
            self.exit_code = EXIT_BUDGET
        elif self.failed or self.problems:
            self.exit_code = EXIT_SOME_FAILED
        else:
            self.exit_code = EXIT_OK
        return self

    def line(self, tokens: bool = True) -> str:
        """The closing summary; ``tokens=False`` for a backend that runs no model (the rules:
        there is nothing to count)."""
        t = self.tokens
        parts = [f"{self.ok} ok ({self.cached} cached)", f"{self.failed} failed"]
        if self.problems:
            parts.append(f"{self.problems} input problem{'s' if self.problems != 1 else ''}")
        if self.no_abstract:
            parts.append(f"{self.no_abstract} skipped (no abstract)")
        if self.skipped:
            parts.append(f"{self.skipped} already done")
        if self.changed:
            parts.append(f"{self.changed} re-extracted (text changed)")
        if self.dropped:
            parts.append(f"{self.dropped} ungrounded strings dropped")
        if self.invalid:
            parts.append(f"{self.invalid} invalid fields dropped")
        if tokens:
            parts.append(f"{t['total_tokens']:,} tokens ({t['prompt_tokens']:,} prompt, "
                         f"{t['completion_tokens']:,} completion)")
        parts.append(f"{self.seconds:.1f} s")
        return "extract: " + ", ".join(parts)


def settle_problem(entry, summary: Summary, sink) -> None:
    """An input problem (``inputs.Problem``): an entry without an abstract is counted as
    skipped, any other as a problem; both are listed in the errors file."""
    sink.reached(entry.source, entry.id)
    if entry.skipped:
        summary.no_abstract += 1
    else:
        summary.problems += 1
    sink.error(error_entry(entry.id, entry.source, entry.reason, kind="input",
                           status="skipped" if entry.skipped else "error"))
