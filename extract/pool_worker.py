"""One rules worker (``python -m extract.pool_worker``), started by :mod:`extract.pool`.

It reads ``(function name, args)`` pickles on stdin and writes ``(ok, result)`` pickles on
stdout, in order, one task at a time; it ends when stdin closes (the process that started
it ended or closed the pool).  Only the functions named in :func:`functions` run: what the
pipe carries names work, it is never code.  A thread drains stdin into a queue, so the
parent's writes never wait for the abstract being computed.
"""

from __future__ import annotations

import os
import pickle
import queue
import signal
import sys
import threading


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


def main() -> None:
    # Ctrl-C reaches the whole process group: the parent stops its workers itself
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)                   # a stray print goes to stderr, never into the answers
    tasks: queue.SimpleQueue = queue.SimpleQueue()
    threading.Thread(target=_feed, args=(sys.stdin.buffer, tasks), daemon=True).start()
    table = functions()
    while True:
        task = tasks.get()
        if task is None:
            return
        name, args = task
        try:
            answer = (True, table[name](*args))
        except Exception as e:      # a bug on one abstract fails that abstract only
            answer = (False, f"{type(e).__name__}: {e}")
        try:
            data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as e:      # an answer that cannot travel fails its abstract only
            data = pickle.dumps((False, f"cannot return the answer: {type(e).__name__}: {e}"))
        try:
            out.write(data)
            out.flush()
        except (OSError, ValueError):
            return


if __name__ == "__main__":
    main()
