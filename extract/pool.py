"""The rules' worker pool: the rule layer over the machine's cores (core: no backend).

The rules are pure Python, so threads would share one core; this pool runs them in worker
processes, ``python -m extract.pool_worker`` children that read pickled tasks on stdin and
write answers on stdout, in order.  Tasks travel in batches (one pickle, one write and one
answer message for up to :data:`BATCH` abstracts): per abstract, the pipe, the reader thread
and the wake-up of the caller's event loop cost more than the pickles themselves.

Why by hand and not :class:`concurrent.futures.ProcessPoolExecutor` (or loky, or
multiprocessing.Pool): their workers are started by ``spawn``/``forkserver``, which re-run the
caller's ``__main__`` in every worker (a plain script without an ``if __name__ ==
"__main__":`` guard starts a pool from inside the pool and dies "in the bootstrapping phase";
``python - <<EOF`` cannot be re-read at all: ``FileNotFoundError: '<stdin>'``), and ``fork``
copies the caller's threads and locks (the event loop's).  One dead worker breaks the whole
executor for good (every pending and later task fails, in a notebook until the kernel
restarts), and after SIGTERM its forkserver and resource tracker outlive the run.  These
workers import only ``extract`` (never the caller's ``__main__``), so they work the same from
a script, stdin, ``python -c`` and Jupyter; a worker that dies is replaced and the abstracts
it held are sent again (the one it was computing is charged a try: an abstract that kills
its worker twice is an error record, never a loop: every abstract of the batch being computed
is charged, and sent again alone); a worker ends when its stdin closes, so
none outlives the process that started it, however that process ends.

A worker takes tasks once it says it is ready (its imports done, a few hundred milliseconds):
until the first one is, the caller may compute the oldest tasks itself, one at a time
(:meth:`RulesPool.run_here`), so a run's first proposals do not wait for a worker's start-up.

Answers do not depend on the pool: one worker or many, here or there, the same function on
the same text.
"""

from __future__ import annotations

import atexit
import os
import pickle
import subprocess
import sys
import threading
import weakref
from collections import deque
from concurrent.futures import Future, InvalidStateError
from pathlib import Path

from .errors import FatalBackendError, RecordError, UsageError
from .pool_worker import READY, answer, functions

#: The most tasks sent to a worker in one message.
BATCH = 16
#: The most messages one worker holds at once (one computing, one queued in its pipe):
#: enough that a worker never waits for the main process to hand it the next batch.
PER_WORKER = 2
#: An abstract whose worker died while computing it is sent again this many times.
RETRIES = 1
#: Workers that die before answering anything, in a row, before the pool gives up.
MAX_START_FAILURES = 3

_POOLS: "weakref.WeakSet[RulesPool]" = weakref.WeakSet()


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def worker_count() -> int:
    """``EXTRACT_WORKERS``, else one worker per available core, at most 8."""
    env = os.environ.get("EXTRACT_WORKERS", "").strip()
    if env and not env.isdigit():
        raise UsageError(f"EXTRACT_WORKERS must be a whole number, got {env!r}")
    return max(1, int(env)) if env else min(cpu_count(), 8)


def proposal_workers() -> int:
    """Workers for the hybrid job's proposals: ``EXTRACT_WORKERS`` when set, else one per
    core but the one the run's event loop keeps busy (it sends, parses and maps every
    answer: a worker per core took CPU from it when it is the critical path; one worker
    computes ~500 proposals a second, more than one event loop sends).  0 (in this process,
    on the event loop) when that leaves none: ``EXTRACT_WORKERS=1`` or one core."""
    if os.environ.get("EXTRACT_WORKERS", "").strip():
        n = worker_count()
        return 0 if n == 1 else n
    return max(0, min(cpu_count() - 1, 8))


class WorkerLost(RecordError):
    """The worker computing this abstract died, again after a retry."""


class _Task:
    __slots__ = ("fn", "args", "future", "tries")

    def __init__(self, fn: str, args: tuple):
        self.fn, self.args, self.future, self.tries = fn, args, Future(), 0


class _Proc:
    """One worker: its process, the batches sent to it (answered in order), a reader thread."""

    def __init__(self, pool: "RulesPool"):
        env = dict(os.environ)
        # the worker imports extract from where this process does (a source checkout too)
        root = str(Path(__file__).resolve().parent.parent)
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        env["PYTHONSAFEPATH"] = "1"     # never the current directory's modules (Python 3.11+)
        self.popen = subprocess.Popen([sys.executable, "-m", pool.worker],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      env=env, close_fds=True)
        self.sent: deque[list[_Task]] = deque()
        self.answered = 0
        self.ready = False           # it said its imports are done: it takes tasks now
        self.reader = threading.Thread(target=pool._read, args=(self,), daemon=True,
                                       name=f"extract-pool-{self.popen.pid}")
        self.reader.start()

    @property
    def pid(self) -> int:
        return self.popen.pid

    def send(self, batch: list[_Task]) -> None:
        pickle.dump([(t.fn, t.args) for t in batch], self.popen.stdin, protocol=pickle.HIGHEST_PROTOCOL)
        self.popen.stdin.flush()

    def stop(self, busy: bool = False, timeout: float = 1.0) -> None:
        """End the worker: its stdin closed, it ends after its task; a busy one (tasks the
        run no longer waits for) is terminated at once."""
        try:
            self.popen.stdin.close()
        except OSError:
            pass
        if busy:
            self.popen.terminate()
        try:
            self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait()


class RulesPool:
    """``size`` worker processes, started on the first task; :meth:`submit` returns a
    :class:`concurrent.futures.Future` (await it with :func:`asyncio.wrap_future`), so the
    pool serves any event loop and any thread."""

    def __init__(self, size: int, worker: str = "extract.pool_worker"):
        self.size = max(1, size)
        self.worker = worker         # the workers' module (a test's own, to make one die)
        self._lock = threading.Lock()
        self._procs: list[_Proc] = []
        self._pending: deque[_Task] = deque()
        self._closed = False
        self._start_failures = 0
        self._broken: str | None = None
        self._warm = False           # a worker has said it is ready (run_here stops for good)
        self.replaced = 0            # workers that died and were replaced
        _POOLS.add(self)

    # -- the caller's side ---------------------------------------------------------------
    def submit(self, fn: str, *args) -> Future:
        """Run ``extract.pool_worker.FUNCTIONS[fn](*args)`` in a worker."""
        task = _Task(fn, args)
        with self._lock:
            if self._closed:
                raise RuntimeError("the rules pool is closed")
            if self._broken:
                raise FatalBackendError(self._broken)
            self._pending.append(task)
            self._dispatch()
        return task.future

    def start(self) -> None:
        """Start the workers now, before the first task (their start-up overlaps the
        caller's first tasks: :meth:`run_here`)."""
        with self._lock:
            while not self._closed and not self._broken and len(self._procs) < self.size:
                if self._start() is None:
                    return

    @property
    def warm(self) -> bool:
        """Whether a worker has said it is ready (from then on every task goes to one)."""
        return self._warm

    def run_here(self, table: dict | None = None) -> bool:
        """Compute the oldest task not yet sent in this process, with ``table`` (name ->
        function; the workers' own by default), while no worker has said it is ready yet: whichever
        is ready first computes it.  False (nothing done) once a worker is ready, when no
        task is waiting, or for a task whose worker died (that one never runs here)."""
        with self._lock:
            if self._warm:
                return False
            while self._pending and self._pending[0].future.cancelled():
                self._pending.popleft()
            if not self._pending or self._pending[0].tries:
                return False
            task = self._pending.popleft()
        ok, payload = answer(table or functions(), task.fn, task.args)
        _resolve(task, ok, payload)
        return True

    def pids(self) -> list[int]:
        with self._lock:
            return [p.pid for p in self._procs]

    def close(self) -> None:
        """Stop every worker; tasks not answered are cancelled.  Safe to call again (at exit,
        after an interrupted close): workers not yet stopped are stopped then."""
        with self._lock:
            self._closed = True
            procs = list(self._procs)
            left = list(self._pending) + [t for p in procs for b in p.sent for t in b]
            self._pending.clear()
        for task in left:
            task.future.cancel()
        for p in procs:
            p.stop(busy=bool(p.sent))
            with self._lock:
                if p in self._procs:
                    self._procs.remove(p)

    # -- inside (the lock held) ----------------------------------------------------------
    def _dispatch(self) -> None:
        while self._pending:
            idle = min((p for p in self._procs if p.ready), key=lambda p: len(p.sent), default=None)
            starting = sum(1 for p in self._procs if not p.ready)
            if ((idle is None or idle.sent) and len(self._procs) < self.size
                    and starting < len(self._pending)):
                if self._start() is None:
                    return
                continue
            if idle is None or len(idle.sent) >= PER_WORKER:
                return
            batch = self._batch()
            if not batch:
                continue
            idle.sent.append(batch)
            try:
                idle.send(batch)
            except (OSError, ValueError):    # it died: its reader thread requeues what it held
                return

    def _batch(self) -> list[_Task]:
        """The next tasks to send together: up to :data:`BATCH`; a task that was being
        computed when its worker died travels alone (so a second death names it)."""
        batch: list[_Task] = []
        while self._pending and len(batch) < BATCH:
            task = self._pending[0]
            if task.future.cancelled():      # its caller stopped waiting
                self._pending.popleft()
                continue
            if task.tries and batch:
                break
            batch.append(self._pending.popleft())
            if task.tries:
                break
        return batch

    def _start(self) -> _Proc | None:
        try:
            proc = _Proc(self)
        except OSError as e:
            self._give_up(f"cannot start a rules worker: {e.strerror or e}")
            return None
        self._procs.append(proc)
        return proc

    def _give_up(self, why: str) -> None:
        self._broken = why
        left = list(self._pending)
        self._pending.clear()
        for task in left:
            _settle(task.future, error=FatalBackendError(why))

    # -- the reader thread of each worker --------------------------------------------------
    def _read(self, proc: _Proc) -> None:
        stream = proc.popen.stdout
        while True:
            try:
                answers = pickle.load(stream)
            except Exception:                # EOF or a torn answer: the worker ended
                break
            if answers == READY and not proc.ready:
                with self._lock:
                    proc.ready = self._warm = True
                    self._dispatch()
                continue
            with self._lock:
                batch = proc.sent.popleft()
                proc.answered += len(batch)
                self._start_failures = 0
                self._dispatch()
            for task, (ok, payload) in zip(batch, answers):
                _resolve(task, ok, payload)
        self._lost(proc)

    def _lost(self, proc: _Proc) -> None:
        code = proc.popen.wait()
        with self._lock:
            if self._closed or proc not in self._procs:      # stopped by close()
                return
            self._procs.remove(proc)
            computing = proc.sent.popleft() if proc.sent else []
            held = [t for b in proc.sent for t in b]
            proc.sent.clear()
            how = f"killed by signal {-code}" if code < 0 else f"exit status {code}"
            self.replaced += 1
            if not proc.answered:
                self._start_failures += 1
            if self._start_failures >= MAX_START_FAILURES:
                self._pending.extendleft(reversed(computing + held))
                self._give_up(f"the rules workers exit before answering ({how}); "
                              "run with EXTRACT_WORKERS=1 to run the rules in this process")
                return
            for task in computing:           # one of them was being computed
                task.tries += 1
            failed = [t for t in computing if t.tries > RETRIES]
            held = [t for t in computing if t.tries <= RETRIES] + held
            self._pending.extendleft(reversed(held))
            self._dispatch()
        for task in failed:
            _settle(task.future, error=WorkerLost(
                f"the rules worker computing this abstract died ({how}), again after a retry"))


def _resolve(task: _Task, ok: bool, payload) -> None:
    """Settle ``task`` with a worker's answer (``ok``: its result; else why it failed)."""
    if ok:
        _settle(task.future, result=payload)
    else:
        _settle(task.future, error=RecordError(f"the rules failed on this abstract: {payload}"))


def _settle(future: Future, result=None, error: BaseException | None = None) -> None:
    """Resolve ``future`` unless its caller cancelled it meanwhile."""
    try:
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)
    except InvalidStateError:
        pass


def close_all() -> None:
    for pool in list(_POOLS):
        pool.close()


atexit.register(close_all)
