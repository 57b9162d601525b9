"""One rules worker (``python -m extract.pool_worker``), started by :mod:`extract.pool`.

It reads batches, pickled lists of ``(function name, args)``, on stdin and writes one pickled
list of ``(ok, result)`` per batch on stdout, in order, after a pickled :data:`READY` once its
imports are done (the pool sends nothing before: until then the caller may compute the first
tasks itself, :meth:`extract.pool.RulesPool.run_here`); it ends when stdin closes (the process that started
it ended or closed the pool).  Only the functions named in :func:`functions` run: what the
pipe carries names work, it is never code.  A thread drains stdin into a queue, so the
parent's writes never wait for the abstract being computed.
"""

from __future__ import annotations

import gc
import os
import pickle
import queue
import signal
import sys
import threading

#: The worker's first message: its functions are imported, it takes tasks now.
READY = "ready"


def functions() -> dict:
    from .decision import decide
    from .hybrid import propose

    return {"decide": decide, "propose": propose}


def _feed(stream, tasks: queue.SimpleQueue) -> None:
    while True:
        try:
            tasks.put(pickle.load(stream))
        except Exception:           # EOF (or a torn task): the parent is gone or done
            tasks.put(None)
            return


def answer(table: dict, name: str, args: tuple) -> tuple[bool, object]:
    """``(True, table[name](*args))``, or ``(False, why)``: what a worker answers for a task."""
    try:
        return True, table[name](*args)
    except Exception as e:          # a bug on one abstract fails that abstract only
        return False, f"{type(e).__name__}: {e}"


def _travels(answer: tuple[bool, object]) -> tuple[bool, object]:
    """``answer``, or a failure when it cannot be pickled."""
    try:
        pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        return answer
    except Exception as e:
        return False, f"cannot return the answer: {type(e).__name__}: {e}"


def main(table: dict | None = None) -> None:
    # Ctrl-C reaches the whole process group: the parent stops its workers itself
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)                   # a stray print goes to stderr, never into the answers
    tasks: queue.SimpleQueue = queue.SimpleQueue()
    threading.Thread(target=_feed, args=(sys.stdin.buffer, tasks), daemon=True).start()
    table = table or functions()
    try:
        out.write(pickle.dumps(READY, protocol=pickle.HIGHEST_PROTOCOL))
        out.flush()
    except (OSError, ValueError):
        return
    while True:
        batch = tasks.get()
        if batch is None:
            return
        answers = [answer(table, name, args) for name, args in batch]
        try:
            data = pickle.dumps(answers, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:           # an answer that cannot travel fails its abstract only
            data = pickle.dumps([_travels(a) for a in answers], protocol=pickle.HIGHEST_PROTOCOL)
        try:
            out.write(data)
            out.flush()
        except (OSError, ValueError):
            return


if __name__ == "__main__":
    # as the extract command (extract.cli.entry): the imports uncollected, then frozen, so
    # the collector never walks the rule layer's and the schema's objects again
    gc.disable()
    try:
        table = functions()
    finally:
        gc.freeze()
        gc.enable()
    try:
        main(table)
    finally:
        gc.freeze()
