"""`extract batch submit|status|collect` against a loopback server speaking /v1/files and
/v1/batches, with the real openai client."""

import json
import threading

import pytest

from conftest import PLAIN, SECRET, SEEDS, read_jsonl, write_abstracts
from extract.identity import request_digest

ABSTRACTS = [
    "We propose FlowNet, a solver that improves accuracy by 12.5% on ImageNet.",
    "We introduce EvalAwareBench and find that 11.25% of variance comes from the generator.",
    "A theory of everything, with no numbers at all.",
    "GraphMixer reaches 91% accuracy and cuts memory by 40% on OGB benchmarks.",
]


@pytest.fixture
def small(tmp_path):
    return write_abstracts(tmp_path / "small.jsonl", ABSTRACTS)


@pytest.fixture
def bcli(cli, server, tmp_path):
    """``extract batch ...`` against the fake server with one cache dir."""
    def invoke(*args, model="test-model"):
        argv = ["batch", *args, "--base-url", server.base_url]
        if args[0] in ("submit", "collect"):
            argv += ["--model", model, "--cache-dir", str(tmp_path / "cache")]
        return cli(*argv)
    invoke.server = server
    return invoke


def wait_done(bcli, batch_id):
    """The batch's status (``extract batch status``) once the server has finished it."""
    assert bcli.server.wait_batch(batch_id), f"the fake server never finished {batch_id}"
    r = bcli("status", batch_id)
    assert r.exit_code == 0, r.stderr
    info = json.loads(r.stdout)
    assert info["status"] in ("completed", "failed"), info
    return info


def submit(bcli, *inputs, keep, extra=()):
    r = bcli("submit", *map(str, inputs), "--keep", str(keep), *extra)
    assert r.exit_code == 0, r.stderr
    return r.stdout.split()


def test_request_body_is_exactly_the_live_json_schema_request(cli, server, bcli, small, tmp_path):
    r = cli("run", str(small), "--mode", "json_schema", "--no-cache", server=server,
            out=tmp_path / "live.jsonl")
    assert r.exit_code == 0, r.stderr
    live = {json.dumps(q["body"]["messages"]): q["body"] for q in server.requests}
    keep = tmp_path / "batch.jsonl"
    r = bcli("submit", str(small), "--keep", str(keep), "--dry-run")
    assert r.exit_code == 0 and r.stdout == "", r.stderr
    lines = read_jsonl(keep)
    # each request is named by its own digest, never by the record id or its position
    assert [x["custom_id"] for x in lines] == [request_digest(x["body"]) for x in lines]
    assert len({x["custom_id"] for x in lines}) == 4
    for line in lines:
        assert line["method"] == "POST" and line["url"] == "/v1/chat/completions"
        assert line["body"] == live[json.dumps(line["body"]["messages"])]
        assert line["body"]["response_format"]["type"] == "json_schema"
    assert not server.files and not server.batches, "--dry-run uploads nothing"


def test_dry_run_needs_no_api_key(small, tmp_path, monkeypatch):
    """A dry run sends nothing: it used to stop at "OPENAI_API_KEY is not set" (exit 2)."""
    from click.testing import CliRunner
    from extract.cli import main
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    keep = tmp_path / "batch.jsonl"
    r = CliRunner().invoke(main, ["batch", "submit", str(small), "--model", "gpt-4o-mini", "--dry-run",
                                  "--keep", str(keep), "--cache-dir", str(tmp_path / "cache")])
    assert r.exit_code == 0, r.output
    lines = read_jsonl(keep)
    assert [x["custom_id"] for x in lines] == [request_digest(x["body"]) for x in lines]
    assert "unused-by-a-dry-run" not in keep.read_text()
    assert lines[0]["body"]["model"] == "gpt-4o-mini"


def test_submit_status_collect_then_live_run_is_cached(cli, server, bcli, small, tmp_path):
    keep = tmp_path / "batch.jsonl"
    [batch_id] = submit(bcli, small, keep=keep)
    info = wait_done(bcli, batch_id)
    assert info["status"] == "completed" and info["request_counts"]["completed"] == 4
    assert info["metadata"]["request_sha"] and SECRET not in json.dumps(info)
    uploaded = server.files[info["input_file_id"]]["data"]
    assert uploaded == keep.read_bytes() and SECRET.encode() not in uploaded

    out = tmp_path / "out.jsonl"
    r = bcli("collect", batch_id, str(small), "-o", str(out))
    assert r.exit_code == 0, r.stderr
    records = read_jsonl(out)
    assert [x["id"] for x in records] == ["p1", "p2", "p3", "p4"]
    for rec in records:
        assert rec["status"] == "ok" and rec["provenance"]["cached"] is False
        assert rec["provenance"]["usage"]["total_tokens"] > 0
        for span in (rec["extraction"]["method_names"] + rec["extraction"]["datasets"]
                     + rec["extraction"]["numbers"]):
            assert rec["text"][span["start"]:span["end"]] == span["text"]
    assert "4 ok (0 cached)" in r.stderr
    assert server.chat_count == 0, "collect sends no live request"

    # a live run in json_schema mode with the same options is now a cached rerun
    live = tmp_path / "live.jsonl"
    r = cli("run", str(small), "--mode", "json_schema", server=server, out=live)
    assert r.exit_code == 0 and server.chat_count == 0, r.stderr
    for a, b in zip(records, read_jsonl(live)):
        assert b["provenance"].pop("cached") is True
        a["provenance"].pop("cached")
        assert a == b

    # collecting again into the same -o resumes: nothing twice
    r = bcli("collect", batch_id, str(small), "-o", str(out))
    assert r.exit_code == 0 and "4 already done" in r.stderr
    assert len(read_jsonl(out)) == 4


def test_per_line_status_codes_and_bad_answers_go_to_the_errors_file(server, bcli, small, tmp_path):
    ghost = {"task": "t", "contribution": "method", "method_names": ["GhostNet", "FlowNet"],
             "datasets": [], "numbers": []}
    server.push({"payload": ghost}, {"status": 500, "message": "overloaded"},
                {"raw": "{not json"}, {"truncate": True})
    [batch_id] = submit(bcli, small, keep=tmp_path / "b.jsonl", extra=PLAIN)
    info = wait_done(bcli, batch_id)
    assert info["request_counts"] == {"total": 4, "completed": 3, "failed": 1}
    out = tmp_path / "out.jsonl"
    r = bcli("collect", batch_id, str(small), "-o", str(out), *PLAIN)
    assert r.exit_code == 1
    [rec] = read_jsonl(out)
    assert rec["id"] == "p1" and rec["dropped"] == ["GhostNet"]
    assert [m["text"] for m in rec["extraction"]["method_names"]] == ["FlowNet"]
    assert "1 ungrounded strings dropped" in r.stderr
    errors = {e["id"]: e["reason"] for e in read_jsonl(tmp_path / "out.errors.jsonl")}
    assert "HTTP 500" in errors["p2"] and "overloaded" in errors["p2"]
    assert "cannot re-ask" in errors["p3"]
    assert "truncated" in errors["p4"]

    # collecting again resumes: the record is not written twice, the failures stay listed
    r = bcli("collect", batch_id, str(small), "-o", str(out), *PLAIN)
    assert r.exit_code == 1 and "1 already done" in r.stderr and len(read_jsonl(out)) == 1
    assert len(read_jsonl(tmp_path / "out.errors.jsonl")) == 3


def test_collect_before_the_batch_is_done_says_so(server, bcli, small, tmp_path):
    server.batch_gate = threading.Event()          # the batch stays in_progress until set
    [batch_id] = submit(bcli, small, keep=tmp_path / "b.jsonl")
    r = bcli("collect", batch_id, str(small), "-o", str(tmp_path / "o.jsonl"))
    assert r.exit_code == 6 and ("in_progress" in r.stderr or "validating" in r.stderr)
    assert not (tmp_path / "o.jsonl").read_text()
    r = bcli("status", batch_id)
    assert r.exit_code == 0 and json.loads(r.stdout)["status"] in ("validating", "in_progress")
    server.batch_gate.set()
    assert wait_done(bcli, batch_id)["status"] == "completed"
    r = bcli("collect", batch_id, str(small), "-o", str(tmp_path / "o.jsonl"))
    assert r.exit_code == 0 and len(read_jsonl(tmp_path / "o.jsonl")) == 4, r.stderr


def test_collect_with_other_options_or_changed_inputs_is_refused(server, bcli, small, tmp_path):
    [batch_id] = submit(bcli, small, keep=tmp_path / "b.jsonl")
    wait_done(bcli, batch_id)
    r = bcli("collect", batch_id, str(small), "-o", str(tmp_path / "o.jsonl"), model="other-model")
    assert r.exit_code == 2 and "other options" in r.stderr

    lines = small.read_text().splitlines()
    lines[1] = json.dumps({"id": "p2", "abstract": ABSTRACTS[1] + " Edited since."})
    small.write_text("\n".join(lines) + "\n")
    out = tmp_path / "o.jsonl"
    r = bcli("collect", batch_id, str(small), "-o", str(out))
    assert r.exit_code == 0, r.stderr
    assert [x["id"] for x in read_jsonl(out)] == ["p1", "p3", "p4"]
    assert "1 inputs not in this batch" in r.stderr and "1 answers match no request" in r.stderr


def test_cached_abstracts_are_not_submitted_but_collected(cli, server, bcli, small, tmp_path):
    one = tmp_path / "one.jsonl"
    one.write_text(small.read_text().splitlines()[0] + "\n")
    assert cli("run", str(one), "--mode", "json_schema", server=server).exit_code == 0
    keep = tmp_path / "b.jsonl"
    r = bcli("submit", str(small), "--keep", str(keep))
    assert r.exit_code == 0 and "1 already cached" in r.stderr
    sent = keep.read_text()
    assert len(read_jsonl(keep)) == 3 and "FlowNet" not in sent and "GraphMixer" in sent
    batch_id = r.stdout.strip()
    wait_done(bcli, batch_id)
    out = tmp_path / "o.jsonl"
    r = bcli("collect", batch_id, str(small), "-o", str(out))
    assert r.exit_code == 0 and "4 ok (1 cached)" in r.stderr
    assert [x["id"] for x in read_jsonl(out)] == ["p1", "p2", "p3", "p4"]


def test_large_input_is_split_into_parts_collected_into_one_output(server, bcli, tmp_path):
    keep = tmp_path / "seeds.jsonl"
    ids = submit(bcli, SEEDS, keep=keep, extra=("--max-lines", "40"))
    assert len(ids) == 3 and (tmp_path / "seeds.2.jsonl").exists() and (tmp_path / "seeds.3.jsonl").exists()
    out = tmp_path / "o.jsonl"
    for k, batch_id in enumerate(ids):
        wait_done(bcli, batch_id)
        r = bcli("collect", batch_id, str(SEEDS), "-o", str(out))
        assert r.exit_code == 0, r.stderr
        if k == 0:
            assert "40 ok" in r.stderr and "50 inputs not in this batch" in r.stderr
    records = read_jsonl(out)
    assert len(records) == 90 and len({x["id"] for x in records}) == 90


def test_local_results_file_in_batch_output_format(server, bcli, small, tmp_path):
    """The path for vLLM's offline runner: answers from a local results file."""
    keep = tmp_path / "b.jsonl"
    [batch_id] = submit(bcli, small, keep=keep)
    info = wait_done(bcli, batch_id)
    results = tmp_path / "results.jsonl"
    results.write_bytes(server.files[info["output_file_id"]]["data"])
    out = tmp_path / "o.jsonl"
    r = bcli("collect", "--results", str(results), str(small), "-o", str(out))
    assert r.exit_code == 0, r.stderr
    assert [x["id"] for x in read_jsonl(out)] == ["p1", "p2", "p3", "p4"]

    # error lines the way vLLM's run_batch writes them: a string, or an error response
    lines = read_jsonl(results)
    lines[0] = {"id": "vllm-1", "custom_id": lines[0]["custom_id"], "error": "prompt is too long",
                "response": {"status_code": 400, "request_id": "r1", "body": None}}
    lines[1] = {"id": "vllm-2", "custom_id": lines[1]["custom_id"],
                "response": {"status_code": 404, "request_id": "r2"},
                "error": {"error": {"message": "model 'x' does not exist", "type": "NotFound", "code": 404}}}
    vllm = tmp_path / "vllm.jsonl"
    vllm.write_text("".join(json.dumps(x) + "\n" for x in lines))
    out2 = tmp_path / "o2.jsonl"
    r = bcli("collect", "--results", str(vllm), str(small), "-o", str(out2), "--no-cache")
    assert r.exit_code == 1
    assert [x["id"] for x in read_jsonl(out2)] == ["p3", "p4"]
    errors = {e["id"]: e["reason"] for e in read_jsonl(tmp_path / "o2.errors.jsonl")}
    assert "prompt is too long" in errors["p1"] and "does not exist" in errors["p2"]


def test_batch_with_duplicate_custom_ids_fails_with_the_servers_reason(server, bcli, small, tmp_path):
    keep = tmp_path / "b.jsonl"
    submit(bcli, small, keep=keep, extra=("--dry-run",))
    line = keep.read_text().splitlines()[0]
    keep.write_text(line + "\n" + line + "\n")
    import openai
    client = openai.OpenAI(base_url=server.base_url, api_key="x")
    f = client.files.create(file=("b.jsonl", keep.read_bytes()), purpose="batch")
    b = client.batches.create(input_file_id=f.id, endpoint="/v1/chat/completions",
                              completion_window="24h")
    wait_done(bcli, b.id)
    r = bcli("collect", b.id, str(small), "-o", str(tmp_path / "o.jsonl"))
    assert r.exit_code == 3 and "duplicate_custom_id" not in r.stderr and "not unique" in r.stderr


def test_collect_without_the_input_file_still_works_and_says_it_could_not_check(server, bcli, small, tmp_path):
    server.no_download = {"batch"}
    [batch_id] = submit(bcli, small, keep=tmp_path / "b.jsonl")
    wait_done(bcli, batch_id)
    out = tmp_path / "o.jsonl"
    r = bcli("collect", batch_id, str(small), "-o", str(out))
    assert r.exit_code == 0, r.stderr
    assert "inputs are not checked" in r.stderr and len(read_jsonl(out)) == 4


# -- --examples: the few-shot turns of `extract run --examples`, in the batch too ------------------

EX_TEXT = ("We propose QuillNet, a parser that reaches 91.2% F1 on TreeBank, 3.4 points above "
           "GPT-4o, using 12 layers.")
EXAMPLE = {"id": "ex1", "abstract": EX_TEXT, "task": "syntactic parsing", "contribution": "method",
           "method_names": ["QuillNet"], "datasets": ["TreeBank"],
           "numbers": [{"text": "91.2%", "value": 91.2, "kind": "result", "about": "F1", "metric": "F1",
                        "dataset": "TreeBank", "method": "QuillNet"},
                       {"text": "12", "value": 12, "kind": "setting", "about": "layers", "metric": "layers",
                        "dataset": None, "method": None}]}


@pytest.mark.parametrize("job", [(), PLAIN], ids=["hybrid", "plain"])
def test_examples_are_in_every_request_its_custom_id_and_the_cache_key(cli, server, bcli, small, tmp_path, job):
    from extract.examples import text_digest

    examples = tmp_path / "examples.jsonl"
    examples.write_text(json.dumps(EXAMPLE) + "\n")
    shots = ("--examples", str(examples), *job)
    # the request a live json_schema run with the same examples sends, byte for byte
    r = cli("run", str(small), "--mode", "json_schema", "--no-cache", *shots, server=server,
            out=tmp_path / "live0.jsonl")
    assert r.exit_code == 0, r.stderr
    live = {json.dumps(q["body"]["messages"]): q["body"] for q in server.requests}
    live_records = {x["id"]: x for x in read_jsonl(tmp_path / "live0.jsonl")}
    without = submit(bcli, small, keep=tmp_path / "plain.jsonl", extra=("--dry-run", *job))
    assert without == []
    keep = tmp_path / "b.jsonl"
    [batch_id] = submit(bcli, small, keep=keep, extra=shots)
    lines = read_jsonl(keep)
    assert len(lines) == 4
    for line in lines:
        messages = line["body"]["messages"]
        assert [m["role"] for m in messages[:3]] == ["system", "user", "assistant"]
        assert EX_TEXT in messages[1]["content"] and "syntactic parsing" in messages[2]["content"]
        assert line["body"] == live[json.dumps(messages)]
        assert line["custom_id"] == request_digest(line["body"])
    other = {x["custom_id"] for x in read_jsonl(tmp_path / "plain.jsonl")}
    assert other and not other & {x["custom_id"] for x in lines}, "the examples are part of each request"

    wait_done(bcli, batch_id)
    r = bcli("collect", batch_id, str(small), "-o", str(tmp_path / "refused.jsonl"), *job)
    assert r.exit_code == 2 and "other options" in r.stderr, "collect without the examples is refused"
    out = tmp_path / "out.jsonl"
    r = bcli("collect", batch_id, str(small), "-o", str(out), *shots)
    assert r.exit_code == 0, r.stderr
    records = read_jsonl(out)
    assert [x["status"] for x in records] == ["ok"] * 4
    for rec in records:
        prov = rec["provenance"]
        assert prov["examples"] == [text_digest(EX_TEXT)]
        assert prov["config"]["examples"] and prov["config"] == live_records[rec["id"]]["provenance"]["config"]
        assert prov["prompt_sha"] == live_records[rec["id"]]["provenance"]["prompt_sha"]

    # filed under the live run's cache key: a live run with the examples asks nothing
    sent = server.chat_count
    r = cli("run", str(small), "--mode", "json_schema", *shots, server=server, out=tmp_path / "live.jsonl")
    assert r.exit_code == 0 and server.chat_count == sent and "4 ok (4 cached)" in r.stderr, r.stderr
    # ... and one without them is not a cached rerun
    r = cli("run", str(small), "--mode", "json_schema", *job, server=server, out=tmp_path / "live2.jsonl")
    assert r.exit_code == 0 and server.chat_count == sent + 4, r.stderr


def test_batch_proposal_spans_is_the_live_spans_request_and_shares_its_cache(cli, server, bcli, small, tmp_path):
    """``--proposal`` on submit and collect: the request lines are byte for byte a live
    ``--mode json_schema --proposal spans`` run's, and a collected batch fills the cache that
    run reads (the other proposal is another request: not a hit)."""
    r = cli("run", str(small), "--mode", "json_schema", "--proposal", "spans", "--no-cache",
            server=server, out=tmp_path / "live.jsonl")
    assert r.exit_code == 0, r.stderr
    live = {json.dumps(q["body"]["messages"]): q["body"] for q in server.requests}
    assert all("Rules' task:" not in k for k in live), "spans: no rules' reading shown"
    keep = tmp_path / "spans.jsonl"
    r = bcli("submit", str(small), "--keep", str(keep), "--dry-run", "--proposal", "spans")
    assert r.exit_code == 0, r.stderr
    lines = read_jsonl(keep)
    assert len(lines) == 4 and all(line["body"] == live[json.dumps(line["body"]["messages"])] for line in lines)
    reading = tmp_path / "reading.jsonl"
    assert bcli("submit", str(small), "--keep", str(reading), "--dry-run").exit_code == 0
    assert {x["custom_id"] for x in read_jsonl(reading)}.isdisjoint(x["custom_id"] for x in lines)

    before = server.chat_count
    [batch_id] = submit(bcli, small, keep=tmp_path / "b.jsonl", extra=("--proposal", "spans"))
    assert wait_done(bcli, batch_id)["status"] == "completed"
    out = tmp_path / "out.jsonl"
    r = bcli("collect", batch_id, str(small), "-o", str(out), "--proposal", "spans")
    assert r.exit_code == 0 and "4 ok (0 cached)" in r.stderr, r.stderr
    r = cli("run", str(small), "--mode", "json_schema", "--proposal", "spans", server=server,
            out=tmp_path / "again.jsonl")
    assert r.exit_code == 0 and server.chat_count == before, r.stderr
    assert all(x["provenance"]["cached"] for x in read_jsonl(tmp_path / "again.jsonl"))
