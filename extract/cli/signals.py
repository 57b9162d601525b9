"""SIGTERM ends a run as Ctrl-C does.

``kill PID`` (a scheduler's stop, a container's shutdown) used to end the process at once:
the rules' workers outlived it, the output's ``.lock`` stayed, and nothing was said.  After
:func:`sigterm_as_interrupt`, SIGTERM runs the SIGINT handler in force (asyncio's, which
cancels the run so it closes its backend and workers, or Python's, which raises
``KeyboardInterrupt``), so the run stops through the same ``finally`` blocks as Ctrl-C: the
records written are kept, the lock is released, the caller prints one line
(:meth:`Stop.line`), a rerun resumes.
"""

from __future__ import annotations

import asyncio
import signal
import threading

from ..errors import EXIT_INTERRUPTED, EXIT_TERMINATED


class Stop:
    """Whether SIGTERM (rather than Ctrl-C) stopped the run, and what to say then."""

    terminated = False

    def line(self) -> str:
        how = "terminated (SIGTERM)" if self.terminated else "interrupted"
        return f"extract: {how}; rerun with the same -o to resume"

    @property
    def exit_code(self) -> int:
        return EXIT_TERMINATED if self.terminated else EXIT_INTERRUPTED


def sigterm_as_interrupt() -> Stop:
    """Make SIGTERM act as SIGINT in this process (from the main thread; elsewhere signals
    cannot be handled and nothing changes)."""
    stop = Stop()
    if threading.current_thread() is not threading.main_thread():
        return stop

    def on_term(signum, frame):
        stop.terminated = True
        handler = signal.getsignal(signal.SIGINT)
        if callable(handler):       # asyncio's (cancels the run) or default_int_handler
            handler(signal.SIGINT, frame)
        else:                       # SIGINT ignored (a background job of a script)
            raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    return stop


async def quiet_when_stopped(coro):
    """Await ``coro`` (the run) with the loop's callback errors left unprinted once the run is
    stopping: Ctrl-C or SIGTERM cancelled it, or it is done.  A callback that races the
    teardown then ("Exception in callback ...", a traceback, once in a CI run of the SIGTERM
    test) is no news to the user, whom :meth:`Stop.line` tells in one line what happened; any
    other callback error is printed as asyncio prints it."""
    me = asyncio.current_task()
    loop = asyncio.get_running_loop()

    def on_error(loop, context):
        if me is not None and (me.cancelling() or me.done()):
            return
        loop.default_exception_handler(context)

    loop.set_exception_handler(on_error)
    return await coro
