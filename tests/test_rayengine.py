"""`extract run --engine ray` on a local Ray (2 CPUs): the records `extract run` writes.

Few and quick (Ray's start-up is seconds): one Ray for the module, the seeds and dev2 through
the rules, dev2 through the loopback server (clean and fault-injected), a job killed and
rerun, and the read side on a shard directory.
"""

from __future__ import annotations

import json
import re
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

ray = pytest.importorskip("ray")

from conftest import ROOT, SEEDS, SECRET  # noqa: E402
from fakescript import FaultPlan, answer_for  # noqa: E402
from extract.cli import main  # noqa: E402

DEV2 = ROOT / "tests" / "gold" / "dev2" / "abstracts.jsonl"
DEV2_GOLD = ROOT / "tests" / "gold" / "dev2" / "gold.jsonl"


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def comparable(lines) -> dict:
    out = {}
    for line in lines:
        rec = json.loads(line)
        if "provenance" in rec:
            rec["provenance"].pop("extracted_at"), rec["provenance"].pop("cached")
        key = rec["id"] if rec["id"] is not None else rec["source"]
        assert key not in out, f"duplicate {key}"
        out[key] = rec
    return out


def shards(d: Path, kind: str = "records") -> dict:
    return comparable(line for p in sorted(d.glob(f"{kind}-*.jsonl")) for line in p.read_text().splitlines())


def run(*args, env=None):
    return CliRunner().invoke(main, ["run", *map(str, args)], env=env, catch_exceptions=False)


def test_rules_on_seeds_and_dev2_are_extract_runs_records(tmp_path):
    ref = tmp_path / "ref.jsonl"
    assert run(SEEDS, DEV2, "-o", ref, "--no-cache", "-q").exit_code == 0
    out = tmp_path / "out"
    r = run(SEEDS, DEV2, "-o", out, "--engine", "ray", "--json")
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout.strip().splitlines()[-1])
    assert summary["ok"] == 140 and summary["failed"] == 0 and summary["engine"] == "ray"
    want = comparable(ref.read_text().splitlines())
    assert shards(out) == want and len(want) == 140
    assert "140 ok (0 cached), 0 failed" in r.stderr
    # the read side reads the directory as it reads the file
    for cmd in (["table"], ["triage"], ["eval", "--gold", DEV2_GOLD]):
        a = CliRunner().invoke(main, [cmd[0], str(ref), *map(str, cmd[1:])])
        b = CliRunner().invoke(main, [cmd[0], str(out), *map(str, cmd[1:])])
        assert a.exit_code == b.exit_code == 0 and a.stdout == b.stdout, (cmd, b.stderr)
    import extract
    assert len(extract.load_records(out).papers) == 140
    # a rerun finds everything done and writes nothing new
    again = run(SEEDS, DEV2, "-o", out, "--engine", "ray")
    assert again.exit_code == 0 and "140 already done" in again.stderr
    assert shards(out) == want


def test_the_library_returns_a_dataset_of_records_in_the_cluster():
    import extract.rayengine as xr
    from extract.config import RunConfig

    rows = [{"id": "a1", "abstract": "We propose FlowNet, which improves accuracy by 12.5% on ImageNet."},
            {"id": "a2", "abstract": ""}, {"abstract": "No id here, 3% better."}]
    out = xr.extract_dataset(ray.data.from_items(rows), RunConfig(use_cache=False))
    got = sorted(out.filter(lambda r: r["kind"] != "skipped").take_all(), key=lambda r: str(r["id"]))
    kinds = [(r["kind"], r["id"]) for r in got]
    assert ("record", "a1") in kinds and ("error", "a2") in kinds and ("error", None) in kinds
    rec = json.loads(next(r["line"] for r in got if r["id"] == "a1"))
    assert rec["extraction"]["numbers"][0]["value"] == 12.5


def _remote(server, concurrency=4, timeout="30"):
    return ["--base-url", server.base_url, "--model", "test-model", "--concurrency", str(concurrency),
            "--retries", "6", "--timeout", timeout]


def test_remote_backend_through_an_actor_pool_with_faults(tmp_path, server, monkeypatch):
    """dev2 through the loopback server: extract run's records, at most --concurrency in
    flight across the pool; then with injected faults (429, 500, timeouts, resets, bad
    JSON) the same records; an abstract the server always refuses is an error shard."""
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    state = {"now": 0, "most": 0}
    lock = threading.Lock()

    def counting(body):
        with lock:
            state["now"] += 1
            state["most"] = max(state["most"], state["now"])
        time.sleep(0.02)
        with lock:
            state["now"] -= 1
        return answer_for(body)

    server.responder = counting
    ref = tmp_path / "ref.jsonl"
    assert run(DEV2, "-o", ref, "--no-cache", "-q", *_remote(server)).exit_code == 0
    want = comparable(ref.read_text().splitlines())
    state["most"] = 0
    out = tmp_path / "out"
    r = run(DEV2, "-o", out, "--engine", "ray", *_remote(server, 4))
    assert r.exit_code == 0, r.stderr
    assert shards(out) == want and len(want) == 50
    assert 1 <= state["most"] <= 4
    assert SECRET not in "".join(p.read_text() for p in out.iterdir())

    refused = json.loads(DEV2.read_text().splitlines()[7])["abstract"]

    def faults():
        plan = FaultPlan(rate=0.5, kinds=("429", "500", "timeout", "reset", "nonjson"), delay=120,
                         retry_after="0")          # a timeout fault is held until the client gives up

        def fault(body, n):
            from fakescript import abstract_of
            if abstract_of(body) == refused:
                return {"status": 400, "message": "refused for the test"}
            return plan(body, n)
        return plan, fault

    plan, server.fault = faults()                 # the same faults meet both engines
    ref_faulty = tmp_path / "ref-faulty.jsonl"
    assert run(DEV2, "-o", ref_faulty, "--no-cache", "-q", *_remote(server, 4, "3")).exit_code == 1
    want = comparable(ref_faulty.read_text().splitlines())
    plan, server.fault = faults()
    faulty = tmp_path / "faulty"
    r = run(DEV2, "-o", faulty, "--engine", "ray", *_remote(server, 4, "3"))
    assert r.exit_code == 1, r.stderr
    assert sum(plan.seen.values()) >= 10 and all(plan.seen.values())
    # a retry's timing (a timeout) may cost another attempt: all else is the same
    def settled(recs):
        for rec in recs.values():
            rec["provenance"].pop("attempts"), rec["provenance"].pop("usage")
        return recs
    assert settled(shards(faulty)) == settled(want) and len(want) == 49
    errors = shards(faulty, "errors")
    assert list(errors) == ["dev2-8"] and errors["dev2-8"]["status"] == "error"
    assert errors["dev2-8"] == comparable(Path(str(ref_faulty).replace(".jsonl", ".errors.jsonl")).read_text().splitlines())["dev2-8"]
    assert "49 ok" in r.stderr and "1 failed" in r.stderr


SLOW_RULES = r"""
import sys, time
import extract.rayengine as xr
xr._real_run_batch = xr._run_batch      # slow is sent by value; xr by name (a worker's is unpatched)
def slow(batch, config, fields, done):
    time.sleep(1.0)                      # a shard a second: the kill lands mid-job
    return getattr(xr, "_real_run_batch", xr._run_batch)(batch, config, fields, done)
xr._run_batch = slow
xr.BATCH_ROWS = 40
from extract.cli import main
main(sys.argv[1:], prog_name="extract")
"""


def test_a_killed_job_rerun_finishes_without_loss_or_duplicates(tmp_path):
    lines = DEV2.read_text().splitlines() * 8
    inp = tmp_path / "many.jsonl"
    inp.write_text("".join(json.dumps({**json.loads(l), "id": f"k{i}"}) + "\n" for i, l in enumerate(lines)))
    ref = tmp_path / "ref.jsonl"
    assert run(inp, "-o", ref, "--no-cache", "-q").exit_code == 0
    want = comparable(ref.read_text().splitlines())
    out = tmp_path / "out"
    argv = [sys.executable, "-c", SLOW_RULES, "run", str(inp), "-o", str(out), "--engine", "ray"]
    env = {**os.environ, "RAY_ADDRESS": "", "EXTRACT_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 240
        while not list(out.glob("records-*.jsonl")) and time.monotonic() < deadline:
            assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
            time.sleep(0.2)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)   # the driver and the Ray it started
        except ProcessLookupError:
            pass
        proc.wait()
    first = shards(out)
    assert 0 < len(first) < len(want)
    r = run(inp, "-o", out, "--engine", "ray")      # the rerun, on this module's Ray
    assert r.exit_code == 0, r.stderr
    # a task of the killed job that outlived it may add a shard before the rerun takes the
    # directory over (never after): the rerun resumes from at least what was counted here
    held = re.search(r"resuming: ([\d,]+) records already in", r.stderr)
    assert held and len(first) <= int(held[1].replace(",", "")) < len(want), r.stderr
    assert shards(out) == want                    # every record once: nothing lost, nothing twice
    assert not list(out.glob(".*.tmp"))


def test_jsonl_gz_and_parquet_inputs_read_as_extract_run_reads_jsonl(tmp_path):
    """The same rows as .jsonl, .jsonl.gz and .parquet: the same items (ids, text, title,
    meta); a row without an abstract is an input problem, not a failed job."""
    import gzip

    import pyarrow as pa
    import pyarrow.parquet as pq

    import extract.rayengine as xr
    from extract.inputs import read_inputs

    rows = [json.loads(l) for l in DEV2.read_text().splitlines()[:5]] + [{"id": "bad", "title": "t"}]
    (tmp_path / "a.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    with gzip.open(tmp_path / "b.jsonl.gz", "wt") as fh:
        fh.write("".join(json.dumps(r) + "\n" for r in rows))
    pq.write_table(pa.Table.from_pylist([{"abstract": None, **r} for r in rows]), tmp_path / "c.parquet")
    want = [(e.id, getattr(e, "text", None), getattr(e, "title", None), getattr(e, "meta", None))
            for e in read_inputs([tmp_path / "a.jsonl"])]
    for name in ("a.jsonl", "b.jsonl.gz", "c.parquet"):
        got = [xr._decode(r[xr.ITEM]) for r in xr.read_abstracts([tmp_path / name]).take_all()]
        assert [(e.id, getattr(e, "text", None), getattr(e, "title", None), getattr(e, "meta", None))
                for e in got] == want, name
        assert got[-1].reason.startswith("empty abstract") or "no 'abstract'" in got[-1].reason


def test_an_atom_feed_reads_as_extract_run_reads_it(tmp_path):
    """The arXiv API's feed through Ray's read tasks: the readers `extract run` uses."""
    import extract.rayengine as xr
    from extract.inputs import read_inputs
    from test_input_atom import FEED

    (tmp_path / "query.xml").write_text(FEED)
    want = [(e.id, e.text, e.title, e.meta) for e in read_inputs([tmp_path / "query.xml"])]
    got = [xr._decode(r[xr.ITEM]) for r in xr.read_abstracts([tmp_path / "query.xml"]).take_all()]
    assert [(e.id, e.text, e.title, e.meta) for e in got] == want and len(want) == 2


def test_a_rerun_leaves_no_temporary_of_an_earlier_runs_task(tmp_path):
    """A task of a killed job that outlived it may die between writing its temporary and
    dropping it, after the rerun's first clean-up: the rerun's end removes it (never its own)."""
    from extract.raysink import drop_stale

    stale = tmp_path / ".records-r0001-976efb60a2298874.jsonl.4791.tmp"
    own = tmp_path / ".records-r0002-0123456789abcdef.jsonl.4792.tmp"
    shard = tmp_path / "records-r0001-976efb60a2298874.jsonl"
    for p in (stale, own, shard):
        p.write_text("{}\n")
    drop_stale(tmp_path, "r0002")
    assert not stale.exists() and own.exists() and shard.exists()
