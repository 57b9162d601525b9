"""The rules' worker pool (extract.pool): it starts from a plain script, from stdin and from
``python -c`` (a notebook's ``__main__`` has no file either), one abstract never starts it,
a killed worker is replaced and its abstracts retried, and SIGTERM stops a run as Ctrl-C
does (workers stopped, lock released, one line, resumable)."""

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, SECRET, SEEDS, read_jsonl
from test_readme import section

from extract.backends.rules import RulesBackend
from extract.config import RunConfig
from extract.inputs import Item, expand, read_inputs
from extract.output import RecordSink
from extract.pipeline import Extractor

EXE = Path(sys.executable).parent / "extract"


def seed_texts() -> list[str]:
    files, _ = expand([SEEDS])
    return [e.text for e in read_inputs(files) if isinstance(e, Item)]


def many(path: Path, n: int) -> Path:
    """n abstracts (the seeds, cycled) under distinct ids."""
    texts = seed_texts()
    path.write_text("".join(json.dumps({"id": f"r{i}", "abstract": texts[i % len(texts)]}) + "\n"
                            for i in range(n)))
    return path


def descendants(pid: int) -> set[int]:
    """Every living process below ``pid`` (read from /proc)."""
    parent = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if fields[0] != "Z":
                parent[int(d.name)] = int(fields[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {p for p, pp in parent.items() if pp in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def lines_in(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def without_time(records: list[dict]) -> list[dict]:
    for r in records:
        r["provenance"].pop("extracted_at", None)
        r.pop("source", None)
    return records


def reference(tmp_path: Path, inputs: Path) -> list[dict]:
    """The records of one process, no pool."""
    config = RunConfig(backend="rules", cache_dir=tmp_path / "ref-cache", use_cache=False)
    out = tmp_path / "ref.jsonl"
    files, _ = expand([inputs])
    with RecordSink(out) as sink:
        asyncio.run(Extractor(config, backend=RulesBackend(config, workers=1)).run(read_inputs(files), sink))
    return without_time(read_jsonl(out))


# -- the README's snippet and a pool, as a script, from stdin, from -c ---------------------

POOL_SCRIPT = """\
import json, os, sys
import extract

def parent(pid):
    try:                            # (a process of the machine may end between listing and reading)
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[1]
    except (OSError, IndexError):
        return None

texts = json.load(open(sys.argv[-1]))
recs = list(extract.extract_many(texts, use_cache=False))
kids = [p for p in os.listdir("/proc") if p.isdigit() and parent(p) == str(os.getpid())]
print(json.dumps({"ok": sum(r.ok for r in recs), "n": len(recs), "pool": len(kids) >= 2}))
"""


@pytest.mark.parametrize("how", ["script", "stdin", "-c"])
def test_a_pool_starts_from_a_plain_script_stdin_and_dash_c(tmp_path, how):
    texts = tmp_path / "texts.json"
    texts.write_text(json.dumps(seed_texts()[:12]))
    script = tmp_path / "s.py"
    script.write_text(POOL_SCRIPT)           # no `if __name__ == "__main__":` guard
    argv = {"script": [sys.executable, str(script), str(texts)],
            "stdin": [sys.executable, "-", str(texts)],
            "-c": [sys.executable, "-c", POOL_SCRIPT, str(texts)]}[how]
    env = dict(os.environ, EXTRACT_WORKERS="2", EXTRACT_CACHE_DIR=str(tmp_path / "cache"))
    r = subprocess.run(argv, input=POOL_SCRIPT if how == "stdin" else None, capture_output=True,
                       text=True, cwd=tmp_path, env=env, timeout=240)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "Traceback" not in r.stderr and "bootstrapping" not in r.stderr
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got == {"ok": 12, "n": 12, "pool": True}


@pytest.mark.parametrize("how", ["script", "stdin"])
def test_readme_python_snippet_runs_as_a_plain_script_and_from_stdin(server, tmp_path, how):
    code = section("Python API").split("```python\n", 1)[1].split("```", 1)[0]
    code = code.replace("http://127.0.0.1:8000/v1", server.base_url)
    (tmp_path / "out.jsonl").write_bytes((ROOT / "tests" / "fixtures" / "records-sample.jsonl").read_bytes())
    (tmp_path / "s.py").write_text(code)
    env = dict(os.environ, EXTRACT_WORKERS="2", EXTRACT_CACHE_DIR=str(tmp_path / "cache"),
               OPENAI_API_KEY=SECRET)
    argv = [sys.executable, "s.py"] if how == "script" else [sys.executable, "-"]
    r = subprocess.run(argv, input=code if how == "stdin" else None, capture_output=True,
                       text=True, cwd=tmp_path, env=env, timeout=240)
    assert r.returncode == 0, r.stderr[-2000:]
    assert (tmp_path / "report.html").stat().st_size > 1000


def test_one_abstract_never_starts_a_pool(tmp_path):
    config = RunConfig(backend="rules", cache_dir=tmp_path / "c", use_cache=False)
    backend = RulesBackend(config, workers=2)
    ex = Extractor(config, backend=backend)
    item = Item("p1", "<t>", seed_texts()[0])
    record, _, _ = asyncio.run(ex.extract(item))                  # the API's extract()
    assert record["status"] == "ok" and backend._pool is None
    with RecordSink(tmp_path / "one.jsonl") as sink:              # a run of one abstract
        summary = asyncio.run(ex.run([item], sink))
    assert summary.ok == 1 and backend._pool is None


# -- a dead worker --------------------------------------------------------------------------

def test_a_killed_worker_is_replaced_and_every_record_comes_out_identical(tmp_path):
    inputs, out = many(tmp_path / "in.jsonl", 240), tmp_path / "out.jsonl"
    env = dict(os.environ, EXTRACT_WORKERS="2")
    proc = subprocess.Popen([str(EXE), "run", str(inputs), "-o", str(out), "--no-cache",
                             "--cache-dir", str(tmp_path / "cache")],
                            env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while lines_in(out) < 20:
            assert proc.poll() is None, proc.stderr.read()
            assert time.monotonic() < deadline
            time.sleep(0.02)
        workers = descendants(proc.pid)
        assert len(workers) == 2
        os.kill(min(workers), signal.SIGKILL)
        _, err = proc.communicate(timeout=180)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "240 ok" in err and "0 failed" in err
    assert not (tmp_path / "out.errors.jsonl").exists()
    assert without_time(read_jsonl(out)) == reference(tmp_path, inputs)


def test_after_a_worker_dies_later_api_calls_still_work(tmp_path, monkeypatch):
    import extract
    monkeypatch.setenv("EXTRACT_WORKERS", "2")
    texts = seed_texts()
    before = descendants(os.getpid())
    first = list(extract.extract_many(texts[:10], use_cache=False, cache_dir=tmp_path / "c"))
    assert all(r.ok for r in first)
    workers = descendants(os.getpid()) - before
    assert workers
    for pid in workers:
        os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 120          # killed workers go at once; a loaded machine reaps late
    while any(alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.02)
    again = list(extract.extract_many(texts[10:30], use_cache=False, cache_dir=tmp_path / "c"))
    assert [r.status for r in again] == ["ok"] * 20, [r.reason for r in again if not r.ok][:2]
    one = extract.extract(texts[31], use_cache=False, cache_dir=tmp_path / "c")
    assert one.ok


# -- SIGTERM ----------------------------------------------------------------------------------

def test_sigterm_stops_workers_releases_the_lock_says_so_and_the_rerun_resumes(tmp_path):
    inputs, out = many(tmp_path / "in.jsonl", 300), tmp_path / "out.jsonl"
    env = dict(os.environ, EXTRACT_WORKERS="2")
    argv = [str(EXE), "run", str(inputs), "-o", str(out), "--no-cache", "--cache-dir", str(tmp_path / "cache")]
    proc = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while lines_in(out) < 20:
            assert proc.poll() is None, proc.stderr.read()
            assert time.monotonic() < deadline
            time.sleep(0.02)
        children = descendants(proc.pid)
        assert children
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 143, err
    assert err.strip().splitlines()[-1] == "extract: terminated (SIGTERM); rerun with the same -o to resume"
    assert "Traceback" not in err
    deadline = time.monotonic() + 120          # a hang guard: the workers stop at once
    while any(alive(p) for p in children) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not [p for p in children if alive(p)]
    assert not list(tmp_path.glob("*.lock"))
    written = lines_in(out)
    assert 20 <= written < 300
    r = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=240)
    assert r.returncode == 0, r.stderr
    assert f"{written} already done" in r.stderr
    ids = [rec["id"] for rec in read_jsonl(out)]
    assert sorted(ids) == sorted(f"r{i}" for i in range(300))


def test_an_abstract_that_kills_its_worker_twice_fails_alone_and_its_batch_comes_back(monkeypatch):
    """Tasks travel in batches: the batch a worker dies on is sent again, each task alone; the
    one that kills its worker again is an error record (WorkerLost), every other answer comes
    back, in order, and the pool goes on."""
    from concurrent.futures import wait

    from extract.pool import BATCH, RulesPool, WorkerLost

    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parent))       # tests/poolworker_die.py
    pool = RulesPool(2, worker="poolworker_die")
    try:
        texts = [f"t{i}" for i in range(3 * BATCH)]
        texts[BATCH + 3] = "die"
        futures = [pool.submit("echo", t) for t in texts]
        wait(futures, timeout=60)
        for text, f in zip(texts, futures):
            if text == "die":
                assert isinstance(f.exception(), WorkerLost)
            else:
                assert f.result() == text.upper()
        assert pool.replaced == 2
        assert pool.submit("echo", "after").result(timeout=30) == "AFTER"
    finally:
        pool.close()


def test_the_caller_computes_the_oldest_tasks_until_a_worker_is_ready(monkeypatch, tmp_path):
    """While no worker has said it is ready, run_here computes the oldest task not sent, in
    order, with the caller's own functions; nothing is sent to a worker before it is ready;
    once one is, every task goes to it and run_here computes nothing more."""
    from extract.pool import RulesPool

    go = tmp_path / "go"
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parent))       # tests/poolworker_die.py
    monkeypatch.setenv("POOLWORKER_GO", str(go))
    here = {"echo": lambda text: text.upper() + " here"}
    pool = RulesPool(1, worker="poolworker_die")
    try:
        pool.start()
        futures = [pool.submit("echo", t) for t in ("a", "b", "c")]
        assert pool.run_here(here) and futures[0].result(timeout=0) == "A here"
        assert pool.run_here(here) and futures[1].result(timeout=0) == "B here"
        go.write_text("")
        assert futures[2].result(timeout=60) == "C"          # sent once the worker is ready
        deadline = time.monotonic() + 60
        while not pool.warm and time.monotonic() < deadline:
            time.sleep(0.01)
        assert pool.warm
        later = pool.submit("echo", "d")
        assert not pool.run_here(here)
        assert later.result(timeout=60) == "D"
    finally:
        pool.close()


def _run_with_a_failing_callback(cancel: bool) -> None:
    """A run whose loop runs a failing callback, after the run was cancelled or while it is not."""
    import asyncio

    from extract.cli.signals import quiet_when_stopped

    async def run():
        loop, me = asyncio.get_running_loop(), asyncio.current_task()

        def boom():
            raise RuntimeError("a callback racing the teardown")
        if cancel:
            loop.call_soon(me.cancel)
        try:
            await asyncio.sleep(0.05)
        finally:
            loop.call_soon(boom)
            await asyncio.shield(asyncio.sleep(0.01))
    try:
        asyncio.run(quiet_when_stopped(run()))
    except asyncio.CancelledError:
        pass


def test_a_callback_error_after_the_run_is_stopped_prints_no_traceback(caplog):
    """Ctrl-C and SIGTERM end a run in one line: a callback that fails while the run is torn down
    (asyncio's "Exception in callback ...", logged with its traceback) is not reported; one that
    fails during the run is."""
    with caplog.at_level("ERROR", logger="asyncio"):
        _run_with_a_failing_callback(cancel=True)
    assert not [r for r in caplog.records if r.name == "asyncio"]
    with caplog.at_level("ERROR", logger="asyncio"):
        _run_with_a_failing_callback(cancel=False)
    assert any("Exception in callback" in r.getMessage() for r in caplog.records if r.name == "asyncio")
