"""`extract run` end to end against a real HTTP server with injected faults."""

import fcntl
import json

import pytest

from conftest import PLAIN, write_abstracts, SECRET, SEEDS, read_jsonl

ABSTRACTS = [
    "We propose FlowNet, a solver that improves accuracy by 12.5% on ImageNet.",
    "We introduce EvalAwareBench and find that 11.25% of variance comes from the generator.",
    "A theory of everything, with no numbers at all.",
]


@pytest.fixture
def small(tmp_path):
    return write_abstracts(tmp_path / "small.jsonl", ABSTRACTS)


def assert_grounded(records):
    for r in records:
        ex = r["extraction"]
        for span in ex["method_names"] + ex["datasets"] + ex["numbers"]:
            assert r["text"][span["start"]:span["end"]] == span["text"]


def files_under(path):
    return [p for p in path.rglob("*") if p.is_file()]


def test_seeds_survive_faults_then_rerun_is_cached_and_identical(cli, server, tmp_path):
    server.push({"status": 429, "headers": {"Retry-After": "0"}}, {"status": 500},
                {"status": 503, "headers": {"retry-after-ms": "10"}}, {"delay": 120},     # held until --timeout
                {"reset": True}, {"raw": "{this is not json"},
                {"payload": {"task": "x", "contribution": "nonsense"}})
    out = tmp_path / "out.jsonl"
    r = cli("run", str(SEEDS), "--timeout", "5", server=server, out=out)
    assert r.exit_code == 0, r.stderr
    first = read_jsonl(out)
    assert len(first) == 90 and len({x["id"] for x in first}) == 90
    assert all(x["status"] == "ok" for x in first)
    assert_grounded(first)
    assert "90 ok (0 cached)" in r.stderr
    sent = server.chat_count

    out2 = tmp_path / "again.jsonl"
    r2 = cli("run", str(SEEDS), server=server, out=out2)
    assert r2.exit_code == 0 and server.chat_count == sent, "a cached rerun sends no request"
    second = read_jsonl(out2)
    assert all(x["provenance"]["cached"] for x in second)
    for a, b in zip(first, second):
        a["provenance"].pop("cached"), b["provenance"].pop("cached")
        assert a == b

    # the key went out in the Authorization header and nowhere else
    assert any(SECRET in h.get("authorization", "") for h in server.headers)
    for f in [out, out2] + files_under(tmp_path / "cache"):
        assert SECRET.encode() not in f.read_bytes(), f


def test_stdout_carries_records_and_stderr_the_summary(cli, server, small):
    r = cli("run", str(small), server=server)
    assert r.exit_code == 0
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert [x["id"] for x in lines] == ["p1", "p2", "p3"]
    assert "3 ok" in r.stderr and "{" not in r.stderr


def test_ungrounded_string_is_reasked_then_fixed(cli, server, small, tmp_path):
    bad = {"task": "t", "contribution": "method", "method_names": ["GhostNet"],
           "datasets": [], "numbers": []}
    good = {"task": "t", "contribution": "method", "method_names": ["FlowNet"],
            "datasets": ["ImageNet"], "numbers": [{"text": "12.5%", "value": 12.5, "unit": "%",
                                                    "kind": "result", "about": "accuracy gain"}]}
    server.push({"payload": bad}, {"payload": good})
    out = tmp_path / "o.jsonl"
    assert cli("run", str(small), *PLAIN, "--limit", "1", server=server, out=out).exit_code == 0
    rec = read_jsonl(out)[0]
    assert rec["provenance"]["attempts"] == 2 and rec["dropped"] == []
    assert [m["text"] for m in rec["extraction"]["method_names"]] == ["FlowNet"]
    assert "GhostNet" in json.dumps(server.requests[1]["body"]["messages"])  # the re-ask says why


def test_string_that_stays_ungrounded_is_dropped_and_counted(cli, server, small, tmp_path):
    bad = {"task": "t", "contribution": "method", "method_names": ["GhostNet", "FlowNet"],
           "datasets": [], "numbers": [{"text": "99.9%", "value": 99.9, "kind": "result"}]}
    server.push(*[{"payload": bad}] * 3)
    out = tmp_path / "o.jsonl"
    r = cli("run", str(small), *PLAIN, "--limit", "1", "--reasks", "2", server=server, out=out)
    assert r.exit_code == 0
    rec = read_jsonl(out)[0]
    assert rec["provenance"]["attempts"] == 3
    assert sorted(rec["dropped"]) == ["99.9%", "GhostNet"]
    assert [m["text"] for m in rec["extraction"]["method_names"]] == ["FlowNet"]
    assert rec["extraction"]["numbers"] == []
    assert "2 ungrounded strings dropped" in r.stderr


def test_failed_record_goes_to_errors_file_and_rerun_resumes(cli, server, small, tmp_path):
    invalid = {"payload": {"task": "t", "contribution": "not-a-kind"}}
    server.push(*[invalid] * 3)          # p1 stays schema-invalid through 2 re-asks
    out = tmp_path / "o.jsonl"
    r = cli("run", str(small), "--concurrency", "1", server=server, out=out)
    assert r.exit_code == 1
    assert [x["id"] for x in read_jsonl(out)] == ["p2", "p3"]
    errors = read_jsonl(tmp_path / "o.errors.jsonl")
    assert len(errors) == 1 and errors[0]["id"] == "p1" and errors[0]["attempts"] == 3
    assert "invalid" in errors[0]["reason"] and errors[0]["source"].endswith("small.jsonl:1")

    before = server.chat_count
    r = cli("run", str(small), server=server, out=out)
    assert r.exit_code == 0 and server.chat_count == before + 1   # only p1 is asked again
    assert sorted(x["id"] for x in read_jsonl(out)) == ["p1", "p2", "p3"]
    assert not (tmp_path / "o.errors.jsonl").exists()


def test_truncated_output_fails_the_record_with_a_reason(cli, server, small, tmp_path):
    server.push({"truncate": True})
    out = tmp_path / "o.jsonl"
    r = cli("run", str(small), "--limit", "1", server=server, out=out)
    assert r.exit_code == 1
    assert "truncated" in read_jsonl(tmp_path / "o.errors.jsonl")[0]["reason"]


def test_transient_faults_past_the_budget_fail_only_that_record(cli, server, small, tmp_path):
    server.push(*[{"status": 500}] * 3)
    out = tmp_path / "o.jsonl"
    r = cli("run", str(small), "--retries", "2", "--concurrency", "1", server=server, out=out)
    assert r.exit_code == 1
    err = read_jsonl(tmp_path / "o.errors.jsonl")[0]
    assert err["id"] == "p1" and "gave up after 3 attempts" in err["reason"] and "500" in err["reason"]
    assert err["attempts"] == 3
    assert len(read_jsonl(out)) == 2


def test_unauthorized_stops_the_run_with_exit_3(cli, server, small, tmp_path):
    server.push(*[{"status": 401, "message": "bad key"}] * 10)
    r = cli("run", str(small), server=server, out=tmp_path / "o.jsonl")
    assert r.exit_code == 3
    assert "401" in r.stderr and SECRET not in r.stderr
    assert len(r.stderr.strip().splitlines()) <= 3


def test_torn_last_line_is_repaired_without_duplicates(cli, server, small, tmp_path):
    out = tmp_path / "o.jsonl"
    assert cli("run", str(small), server=server, out=out).exit_code == 0
    lines = out.read_text().splitlines(keepends=True)
    out.write_text(lines[0] + lines[1][: len(lines[1]) // 2])   # killed mid-write of p2
    r = cli("run", str(small), server=server, out=out)
    assert r.exit_code == 0 and "repaired a torn last line" in r.stderr
    assert [x["id"] for x in read_jsonl(out)] == ["p1", "p2", "p3"]


def test_second_writer_is_refused(cli, server, small, tmp_path):
    out = tmp_path / "o.jsonl"
    with open(f"{out}.lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        r = cli("run", str(small), server=server, out=out)
    assert r.exit_code == 5 and "another extract process" in r.stderr


def test_overlong_abstract_is_rejected_and_never_sent(cli, server, tmp_path):
    p = tmp_path / "big.jsonl"
    p.write_text(json.dumps({"id": "big", "abstract": "word " * 5000}) + "\n"
                 + json.dumps({"id": "ok", "abstract": ABSTRACTS[0]}) + "\n")
    out = tmp_path / "o.jsonl"
    r = cli("run", str(p), "--max-chars", "10000", server=server, out=out)
    assert r.exit_code == 1 and server.chat_count == 1
    assert "over --max-chars" in read_jsonl(tmp_path / "o.errors.jsonl")[0]["reason"]


def test_bad_input_lines_are_reported_and_others_go_through(cli, server, tmp_path):
    p = tmp_path / "mixed.jsonl"
    p.write_text(json.dumps({"id": "a", "abstract": ABSTRACTS[0]}) + "\nnot json\n"
                 + json.dumps({"id": "a", "abstract": "dup"}) + "\n")
    out = tmp_path / "o.jsonl"
    r = cli("run", str(p), server=server, out=out)
    assert r.exit_code == 1
    assert [x["id"] for x in read_jsonl(out)] == ["a"]
    reasons = {e["source"].rsplit(":", 1)[1]: e["reason"] for e in read_jsonl(tmp_path / "o.errors.jsonl")}
    assert "not JSON" in reasons["2"] and "duplicate id" in reasons["3"]


def test_token_budget_stops_cleanly_and_rerun_finishes(cli, server, small, tmp_path):
    out = tmp_path / "o.jsonl"
    r = cli("run", str(small), "--max-tokens-total", "1", "--concurrency", "1", server=server, out=out)
    assert r.exit_code == 4 and "token budget" in r.stderr
    assert server.chat_count == 0, "a request that could go over the budget is not sent"
    r = cli("run", str(small), server=server, out=out)
    assert r.exit_code == 0 and len(read_jsonl(out)) == 3


def test_usage_errors_exit_2_with_one_line(cli, tmp_path):
    r = cli("run", str(tmp_path / "missing.txt"))
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "no such file" in r.stderr
    r = cli("run", str(SEEDS), "--schema", "nope:Nothing")
    assert r.exit_code == 2 and "cannot import" in r.stderr


def test_json_schema_mode(cli, server, small, tmp_path):
    out = tmp_path / "o.jsonl"
    assert cli("run", str(small), "--mode", "json_schema", server=server, out=out).exit_code == 0
    body = server.requests[-1]["body"]
    assert "tools" not in body and body["response_format"]["type"] == "json_schema"
    assert len(read_jsonl(out)) == 3


def test_dash_output_is_stdout_not_a_file_named_dash(tmp_path, monkeypatch):
    """`-o -` writes the records to stdout, as `table`, `triage` and `report` read `-`."""
    import json as _json
    import subprocess
    import sys

    src = tmp_path / "one.jsonl"
    src.write_text(_json.dumps({"id": "p1", "abstract": "We propose FooNet, reaching 91.2% accuracy on ImageNet."}) + "\n")
    from pathlib import Path

    exe = str(Path(sys.executable).parent / "extract")
    r = subprocess.run([exe, "run", str(src), "-o", "-", "-q", "--no-cache"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    [record] = [_json.loads(line) for line in r.stdout.splitlines()]
    assert record["status"] == "ok" and record["extraction"]["method_names"][0]["text"] == "FooNet"
    assert not (tmp_path / "-").exists()
