"""Scale and reliability: 600 abstracts under injected faults, a run killed with SIGKILL,
two processes on one output or one cache, bad input at the CLI, the token budget at
concurrency 32, replicas."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import SECRET, read_jsonl
from fakeserver import FakeOpenAI, FaultPlan

_SCRIPT = Path(sys.executable).with_name("extract")
EXTRACT = ([str(_SCRIPT)] if _SCRIPT.exists()
           else [sys.executable, "-c", "import sys; from extract.cli import main; sys.exit(main())"])
N = 600


def corpus(path: Path, n: int = N, start: int = 0) -> Path:
    """``n`` distinct abstracts, each with a CamelCase name and percentages to ground."""
    with path.open("w") as fh:
        for i in range(start, start + n):
            fh.write(json.dumps({"id": f"a{i}", "abstract": (
                f"We propose Method{i}Net, a solver for task {i} that improves accuracy by "
                f"{i % 50}.5% over strong baselines and cuts cost by {i % 7 + 1}% on "
                f"benchmark suite {i}.")}) + "\n")
    return path


def check_complete(out: Path, n: int = N) -> list[dict]:
    records = read_jsonl(out)
    ids = [r["id"] for r in records]
    assert len(ids) == n and len(set(ids)) == n, (len(ids), len(set(ids)))
    assert all(r["status"] == "ok" for r in records)
    for r in records:
        for span in r["extraction"]["method_names"] + r["extraction"]["numbers"]:
            assert r["text"][span["start"]:span["end"]] == span["text"]
    return records


def spawn(inputs: Path, out: Path, server: FakeOpenAI, cache: Path, *extra: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_BASE_URL"}
    env["OPENAI_API_KEY"] = SECRET
    cmd = [*EXTRACT, "run", str(inputs), "-o", str(out), "--base-url", server.base_url,
           "--model", "test-model", "--cache-dir", str(cache), "--no-progress", *extra]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def lines_in(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def test_600_abstracts_survive_every_fault_kind(cli, tmp_path):
    # a timeout fault is held until the client gives up: a --timeout a loaded machine's
    # ordinary answer never reaches still meets every one of them
    plan = FaultPlan(rate=0.35, delay=120, retry_after="1")
    with FakeOpenAI() as server:
        server.fault = plan
        out = tmp_path / "out.jsonl"
        r = cli("run", str(corpus(tmp_path / "in.jsonl")), "--concurrency", "32",
                "--timeout", "5", server=server, out=out)
    assert r.exit_code == 0, r.stderr
    assert all(plan.seen[k] >= 10 for k in plan.KINDS), plan.seen
    records = check_complete(out)
    assert f"{N} ok (0 cached), 0 failed" in r.stderr
    assert not (tmp_path / "out.errors.jsonl").exists()
    # a non-JSON answer is re-asked (attempts 2+); transport faults are retried, not re-asked
    assert any(rec["provenance"]["attempts"] >= 2 for rec in records)


def test_sigkill_midway_then_rerun_finishes_and_a_second_writer_is_refused(cli, tmp_path):
    inputs, out, cache = corpus(tmp_path / "in.jsonl"), tmp_path / "out.jsonl", tmp_path / "cache"
    with FakeOpenAI(latency=0.05) as server:
        held = server.hold_after(N // 2)      # the run stops halfway, however fast the machine
        proc = spawn(inputs, out, server, cache, "--concurrency", "4")
        try:
            deadline = time.monotonic() + 240     # a hang guard only
            while lines_in(out) < 60:
                assert proc.poll() is None, proc.stderr.read()
                assert time.monotonic() < deadline
                time.sleep(0.01)
            # the running process holds the output: a second writer is refused
            r = cli("run", str(inputs), server=server, out=out, cache_dir=cache)
            assert r.exit_code == 5 and "being written by another extract process" in r.stderr
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
            proc.stderr.close()
        assert proc.returncode == -signal.SIGKILL
        written_before = lines_in(out)
        assert 60 <= written_before <= N // 2

        server.latency = 0
        held.set()
        r = cli("run", str(inputs), "--concurrency", "32", server=server, out=out, cache_dir=cache)
        assert r.exit_code == 0, r.stderr
        assert "resuming" in r.stderr
        check_complete(out)
        sent = server.chat_count

        # the cache survived the kill: a run into a new file asks nothing
        r = cli("run", str(inputs), server=server, out=tmp_path / "again.jsonl", cache_dir=cache)
        assert r.exit_code == 0 and f"{N} ok ({N} cached)" in r.stderr
        assert server.chat_count == sent
        # every abstract was asked once, and those in flight at the kill at most twice
        assert N <= sent <= N + 4 + 1


@pytest.mark.timeout(900)      # two processes of 300 requests each on a loaded machine
def test_two_processes_share_one_cache_directory(cli, tmp_path):
    inputs, cache = corpus(tmp_path / "in.jsonl", 300), tmp_path / "cache"
    with FakeOpenAI(latency=0.01) as server:
        procs = [spawn(inputs, tmp_path / f"out{k}.jsonl", server, cache, "--concurrency", "16")
                 for k in (1, 2)]
        for p in procs:
            _, err = p.communicate(timeout=600)       # a hang guard only
            assert p.returncode == 0, err
        for k in (1, 2):
            check_complete(tmp_path / f"out{k}.jsonl", 300)
        sent = server.chat_count
        assert 300 <= sent <= 600
        r = cli("run", str(inputs), server=server, out=tmp_path / "third.jsonl", cache_dir=cache)
        assert r.exit_code == 0 and "300 ok (300 cached)" in r.stderr
        assert server.chat_count == sent


def test_bad_inputs_in_a_directory_are_named_and_the_rest_go_through(cli, server, tmp_path):
    d = tmp_path / "in"
    d.mkdir()
    (d / "empty.txt").write_text("")
    (d / "header_only.txt").write_text("Header line only\n")
    (d / "bytes.txt").write_bytes(b"Header\n\nGood one: FlowNet gains 3%.\n\nBad \xff\xfe bytes.\n\n"
                                  b"Another good one: GraphNet gains 4%.\n")
    huge = "word " * (2 * 1024 * 1024)          # a 10 MB abstract
    (d / "mixed.jsonl").write_text("\n".join([
        json.dumps({"id": "j1", "abstract": "We propose TinyNet, 5% better."}),
        "{this line is not JSON",
        json.dumps({"id": "huge", "abstract": huge}),
        json.dumps({"id": "j1", "abstract": "A duplicate id."}),
        json.dumps({"id": "j2", "abstract": "We propose WideNet, 6% better."}),
    ]) + "\n")
    (d / "other.csv").write_text("id,abstract\nj2,Duplicate across files.\nc1,CsvNet gains 7%.\n")
    (d / "notes.md").write_text("# not an input")
    (d / "paper.pdf").write_bytes(b"%PDF-1.4")
    out = tmp_path / "out.jsonl"
    r = cli("run", str(d), server=server, out=out)
    assert r.exit_code == 1
    assert "notes.md: skipped" in r.stderr and "paper.pdf: skipped" in r.stderr
    assert sorted(x["id"] for x in read_jsonl(out)) == [f"{d}/bytes#1", f"{d}/bytes#3", "c1", "j1", "j2"]
    errors = {e["source"].replace(str(d) + "/", ""): e for e in read_jsonl(tmp_path / "out.errors.jsonl")}
    assert "empty file" in errors["empty.txt:1"]["reason"]
    assert "no abstracts" in errors["header_only.txt:1"]["reason"]
    assert "UTF-8" in errors["bytes.txt:5"]["reason"]
    assert "not JSON" in errors["mixed.jsonl:2"]["reason"]
    assert "over --max-chars" in errors["mixed.jsonl:3"]["reason"] and errors["mixed.jsonl:3"]["id"] == "huge"
    assert "duplicate id 'j1'" in errors["mixed.jsonl:4"]["reason"]
    assert "duplicate id 'j2'" in errors["other.csv:2"]["reason"]
    assert len(errors) == 7
    assert max(len(json.dumps(q["body"])) for q in server.requests) < 50_000, "never sent whole"
    assert "7 failures listed" in r.stderr


def test_token_budget_at_concurrency_32_stops_cleanly_and_resumes_without_waste(cli, tmp_path):
    inputs, out = corpus(tmp_path / "in.jsonl"), tmp_path / "out.jsonl"
    with FakeOpenAI(latency=0.01) as server:
        r = cli("run", str(inputs), "--concurrency", "32", "--max-tokens-total", "60000",
                server=server, out=out)
        assert r.exit_code == 4 and "token budget of 60,000 spent" in r.stderr
        first = read_jsonl(out)
        assert 0 < len(first) < N and len({x["id"] for x in first}) == len(first)
        spent = sum(x["provenance"]["usage"]["total_tokens"] for x in first)
        assert spent <= 60_000, "the budget is never overshot, even at concurrency 32"
        assert spent >= 0.9 * 60_000, "and it is nearly all used"
        assert f"{spent:,} tokens" in r.stderr
        assert server.chat_count == len(first), "answers in flight at the stop are kept"

        r = cli("run", str(inputs), "--concurrency", "32", server=server, out=out)
        assert r.exit_code == 0 and f"{len(first)} already done" in r.stderr
        check_complete(out)
        assert server.chat_count == N, "no abstract asked twice"


def test_replicas_spread_the_load_and_a_failing_one_is_set_aside(cli, tmp_path):
    inputs = corpus(tmp_path / "in.jsonl", 200)
    with FakeOpenAI(latency=0.005) as a, FakeOpenAI(latency=0.005) as b:
        r = cli("run", str(inputs), "--base-url", a.base_url, "--base-url", b.base_url,
                "--model", "m", "--concurrency", "8", "--cache-dir", str(tmp_path / "c1"),
                "-o", str(tmp_path / "even.jsonl"))
        assert r.exit_code == 0, r.stderr
        assert a.chat_count + b.chat_count == 200
        assert 70 <= a.chat_count <= 130, (a.chat_count, b.chat_count)

    with FakeOpenAI(latency=0.005) as good, FakeOpenAI() as bad:
        bad.fault = lambda body, n: {"status": 500}
        out = tmp_path / "failover.jsonl"
        r = cli("run", str(inputs), "--base-url", good.base_url, "--base-url", bad.base_url,
                "--model", "m", "--concurrency", "8", "--cache-dir", str(tmp_path / "c2"),
                "-o", str(out))
        assert r.exit_code == 0, r.stderr
        check_complete(out, 200)
        assert good.chat_count == 200
        assert bad.chat_count <= 16, bad.chat_count     # set aside after 3 failures in a row


@pytest.mark.parametrize("text", ["We bound it by $O(n^{{2}})$ with {# set #} sizes; FlowNet gains 12%.",
                                  "A set {% of things %} where FlowNet gains 12%.\n\n   indented"])
def test_abstract_reaches_the_model_verbatim(cli, server, tmp_path, text):
    """instructor would render messages as Jinja2 templates; extract sends them as written."""
    p = tmp_path / "t.jsonl"
    p.write_text(json.dumps({"id": "t", "abstract": text}) + "\n")
    r = cli("run", str(p), server=server, out=tmp_path / "o.jsonl")
    assert r.exit_code == 0, r.stderr
    user = server.requests[0]["body"]["messages"][1]["content"]
    assert text.strip() in user and user.endswith("\n")


def test_input_is_streamed_through_a_bounded_window(tmp_path):
    """Input is pulled only as far as the window ahead of the records written, so memory
    does not grow with the corpus and records are written while the input is read."""
    import asyncio

    from extract.config import RunConfig
    from extract.inputs import Item
    from extract.output import RecordSink
    from extract.pipeline import Extractor

    pulled, lead = [0], []

    def entries(n=1000):
        for i in range(n):
            pulled[0] += 1
            yield Item(f"s{i}", f"mem:{i}", f"We propose Stream{i}Net, which gains {i % 90}.5% on task {i}.")

    class Watch(RecordSink):
        def record(self, rec):
            super().record(rec)
            lead.append(pulled[0] - len(self.done))

    with FakeOpenAI() as server:
        config = RunConfig(backend="openai", model="m", base_urls=(server.base_url,), api_key="k",
                           concurrency=16, cache_dir=tmp_path / "cache")
        with Watch(tmp_path / "out.jsonl") as sink:
            summary = asyncio.run(Extractor(config).run(entries(), sink))
    assert summary.ok == 1000 and len(lead) == 1000
    window = max(64, 8 * 16)
    assert max(lead) <= window + 1, max(lead)      # never more than the window read ahead
    assert lead[0] <= window + 1                    # the first record came out early
