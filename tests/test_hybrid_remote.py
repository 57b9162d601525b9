"""The hybrid extractor is the default for a remote model (``--prompt auto``): the real
OpenAI client, instructor's re-asks and the transient retries against the fake
OpenAI-compatible server on 127.0.0.1, live and through the Batch API."""

import json

import pytest

from conftest import PLAIN, SECRET, read_jsonl
from fakescript import hybrid_payload

from extract import hybrid
from extract.config import RunConfig
from extract.pipeline import Extractor

ABSTRACT = ("We propose FooNet, which improves top-1 accuracy by 3.2% on BarBench over the "
            "MegaBaseline model, using 120 GPUs.")
TITLE = "FooNet: a title"
PROPOSAL = hybrid.propose(ABSTRACT, TITLE)
IDS = {n.text: k for k, n in PROPOSAL.names.items()}        # "FooNet" -> "@C1", ...


def good(**over):
    decided = {"@N1": {"kind": "result", "metric": "top-1 accuracy", "dataset": IDS["BarBench"],
                      "method": IDS["FooNet"]}, "@N2": "setting"}
    return hybrid_payload(task="image classification", names={IDS["FooNet"]: "method",
                                                               IDS["BarBench"]: "dataset"},
                          numbers=decided, **over)


@pytest.fixture
def one(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps({"id": "p1", "title": TITLE, "abstract": ABSTRACT}) + "\n")
    return path


def run(cli, server, inputs, out, *extra, cache_dir=None):
    r = cli("run", str(inputs), *extra, server=server, out=out, cache_dir=cache_dir)
    return r, (read_jsonl(out) if out.exists() else [])


def schema_of(body: dict) -> dict:
    if body.get("tools"):
        return body["tools"][0]["function"]["parameters"]
    return body["response_format"]["json_schema"]["schema"]


@pytest.mark.parametrize("mode", ["tools", "json_schema"])
def test_the_default_request_admits_exactly_the_abstracts_number_ids(cli, server, one, tmp_path, mode):
    server.push({"payload": good()})
    r, recs = run(cli, server, one, tmp_path / "o.jsonl", "--mode", mode)
    assert r.exit_code == 0, r.stderr
    assert "hybrid: the rules propose, the model decides" in r.stderr
    assert server.chat_count == 1
    defs = schema_of(server.requests[0]["body"])["$defs"]
    assert list(defs["Numbers"]["properties"]) == list(PROPOSAL.numbers) == ["@N1", "@N2"]
    assert defs["Numbers"]["additionalProperties"] is False
    assert list(defs["Names"]["properties"]) == list(PROPOSAL.names)
    assert defs["Names"]["additionalProperties"] is False
    assert recs[0]["provenance"]["decided_by"] == "model"


def test_a_scripted_answer_keeps_the_rules_texts_values_and_offsets(cli, server, one, tmp_path):
    server.push({"payload": good()})
    r, recs = run(cli, server, one, tmp_path / "o.jsonl")
    assert r.exit_code == 0, r.stderr
    ext = recs[0]["extraction"]
    rules = [(n.text, float(n.value), n.unit, n.start, n.end) for n in PROPOSAL.numbers.values()]
    assert [(n["text"], n["value"], n["unit"], n["start"], n["end"]) for n in ext["numbers"]] == rules
    n1, n2 = ext["numbers"]
    assert (n1["kind"], n1["metric"]["text"], n1["dataset"]["text"], n1["method"]["text"]) == \
        ("result", "top-1 accuracy", "BarBench", "FooNet")
    assert n2["kind"] == "setting"
    assert [m["text"] for m in ext["method_names"]] == ["FooNet"]
    assert [d["text"] for d in ext["datasets"]] == ["BarBench"]


def test_an_unknown_candidate_id_is_reasked_and_the_reask_survives_a_429(cli, server, one, tmp_path):
    server.push({"payload": good(more_datasets=["@C9"])},
                {"status": 429, "headers": {"Retry-After": "0"}}, {"payload": good()})
    r, recs = run(cli, server, one, tmp_path / "o.jsonl")
    assert r.exit_code == 0, r.stderr
    assert server.chat_count == 3
    first, reask, after_429 = (q["body"]["messages"] for q in server.requests)
    assert len(reask) > len(first) and "@C9" in json.dumps(reask[len(first):])
    assert after_429 == reask, "the retry after the 429 sends the re-ask again, not a fresh ask"
    assert recs[0]["provenance"]["attempts"] == 3
    assert [d["text"] for d in recs[0]["extraction"]["datasets"]] == ["BarBench"]


def test_reasks_and_retries_share_one_bound_per_record(cli, server, one, tmp_path):
    """reasks + retries + 1 requests at most, whatever the mix of bad ids and 429s; on the
    last attempt an unknown id is dropped, the rest of the answer kept."""
    bad, busy = {"payload": good(more_methods=["@C9"])}, {"status": 429, "headers": {"Retry-After": "0"}}
    server.push(bad, busy, busy)
    r, recs = run(cli, server, one, tmp_path / "o.jsonl", "--reasks", "1", "--retries", "1")
    assert recs == [] and r.exit_code == 1 and server.chat_count == 3
    (err,) = read_jsonl(tmp_path / "o.errors.jsonl")
    assert err["attempts"] == 3 and "429" in err["reason"]
    server.requests.clear()
    server.push(bad, busy, bad)
    r, recs = run(cli, server, one, tmp_path / "again.jsonl", "--reasks", "1", "--retries", "1")
    assert r.exit_code == 0 and len(server.requests) == 3 and not server.script
    assert recs[0]["provenance"]["attempts"] == 3
    assert [m["text"] for m in recs[0]["extraction"]["method_names"]] == ["FooNet"]


def test_a_verbatim_name_not_in_the_abstract_is_dropped_without_a_reask(cli, server, one, tmp_path):
    server.push({"payload": good(more_methods=["GhostNet", "MegaBaseline"])})
    r, recs = run(cli, server, one, tmp_path / "o.jsonl", "--decide", "model")   # the model's names count
    assert r.exit_code == 0 and server.chat_count == 1
    ext = recs[0]["extraction"]
    assert [m["text"] for m in ext["method_names"]] == ["FooNet", "MegaBaseline"]
    assert "GhostNet" not in json.dumps(recs[0])
    assert all(ABSTRACT[m["start"]:m["end"]] == m["text"] for m in ext["method_names"])


def test_auto_and_hybrid_share_the_cache_and_extract_is_another_request(cli, server, one, tmp_path):
    cache = tmp_path / "cache"
    server.push({"payload": good()})
    r, auto = run(cli, server, one, tmp_path / "a.jsonl", cache_dir=cache)
    r, explicit = run(cli, server, one, tmp_path / "b.jsonl", "--prompt", "hybrid", cache_dir=cache)
    assert r.exit_code == 0 and server.chat_count == 1 and explicit[0]["provenance"]["cached"]
    assert explicit[0]["extraction"] == auto[0]["extraction"]
    r, plain = run(cli, server, one, tmp_path / "c.jsonl", *PLAIN, cache_dir=cache)
    assert r.exit_code == 0 and server.chat_count == 2
    assert "method_names" in schema_of(server.requests[-1]["body"])["properties"]
    assert plain[0]["provenance"]["prompt_sha"] != auto[0]["provenance"]["prompt_sha"]
    assert "decided_by" not in plain[0]["provenance"]


@pytest.mark.parametrize("backend, prompt, custom, expected", [
    ("openai", "auto", False, "hybrid"),
    ("openai", "extract", False, "extract"),
    ("openai", "hybrid", False, "hybrid"),
    ("rules", "auto", False, "extract"),
    ("openai", "auto", True, "generic"),
    ("openai", "extract", True, "generic"),
])
def test_which_prompt_a_run_sends(backend, prompt, custom, expected, tmp_path):
    schema = RunConfig.schema
    if custom:                  # a schema of the user's own: never the hybrid job
        (tmp_path / "mine.py").write_text("from pydantic import BaseModel\n\n\n"
                                          "class Paper(BaseModel):\n    task: str\n")
        schema = f"{tmp_path / 'mine.py'}:Paper"
    config = RunConfig(backend=backend, model="m" if backend == "openai" else None,
                       base_urls=("http://127.0.0.1:9/v1",),
                       prompt=prompt, schema=schema, cache_dir=tmp_path / "c")
    ex = Extractor(config)
    assert ex.prompt.name == expected
    assert ex.hybrid == (expected == "hybrid")


def test_hybrid_with_a_custom_schema_is_a_usage_error(cli, server, one, tmp_path, monkeypatch):
    (tmp_path / "mine.py").write_text("from pydantic import BaseModel\n\n\nclass Paper(BaseModel):\n    task: str\n")
    monkeypatch.chdir(tmp_path)
    r = cli("run", str(one), "--prompt", "hybrid", "--schema", "./mine.py:Paper", server=server,
            out=tmp_path / "o.jsonl")
    assert r.exit_code == 2 and server.chat_count == 0
    assert r.stderr.strip().splitlines()[-1].startswith("extract: error: --prompt hybrid needs the default schema")


# -- the Batch API builds the same hybrid job and maps its answers the same way -------------

@pytest.fixture
def bcli(cli, server, tmp_path):
    def invoke(*args, cache="bcache"):
        argv = ["batch", *args, "--base-url", server.base_url]
        if args[0] in ("submit", "collect"):
            argv += ["--model", "test-model", "--cache-dir", str(tmp_path / cache)]
        return cli(*argv)
    invoke.server = server
    return invoke


def _finished(bcli, batch_id):
    assert bcli.server.wait_batch(batch_id), "the fake server never finished the batch"
    info = json.loads(bcli("status", batch_id).stdout)
    assert info["status"] == "completed", info
    return info


def test_batch_round_trip_gives_the_live_records(cli, bcli, server, tmp_path):
    from conftest import write_abstracts
    texts = [ABSTRACT, "GraphMixer reaches 91% accuracy and cuts memory by 40% on OGB benchmarks.",
             "A theory of everything, with no numbers at all."]
    src = write_abstracts(tmp_path / "in.jsonl", texts)
    r, live = run(cli, server, src, tmp_path / "live.jsonl", "--mode", "json_schema", "--no-cache")
    assert r.exit_code == 0, r.stderr
    bodies = {json.dumps(q["body"]["messages"]): q["body"] for q in server.requests}
    keep = tmp_path / "b.jsonl"
    r = bcli("submit", str(src), "--keep", str(keep))
    assert r.exit_code == 0, r.stderr
    [batch_id] = r.stdout.split()
    lines = read_jsonl(keep)
    for line in lines:      # byte for byte the live json_schema request, per-abstract ids included
        assert line["body"] == bodies[json.dumps(line["body"]["messages"])]
    ids = list(schema_of(lines[0]["body"])["$defs"]["Numbers"]["properties"])
    assert ids == list(PROPOSAL.numbers)
    _finished(bcli, batch_id)
    out = tmp_path / "batch.jsonl"
    r = bcli("collect", batch_id, str(src), "-o", str(out))
    assert r.exit_code == 0, r.stderr
    collected = read_jsonl(out)
    assert [x["extraction"] for x in collected] == [x["extraction"] for x in live]
    assert {x["provenance"]["prompt_sha"] for x in collected} == {live[0]["provenance"]["prompt_sha"]}
    assert all(x["provenance"]["decided_by"] == "model" for x in collected)
    # collect filed the answers under the live key: a live json_schema run is all cache hits
    n = server.chat_count
    r, again = run(cli, server, src, tmp_path / "again.jsonl", "--mode", "json_schema",
                   cache_dir=tmp_path / "bcache")
    assert r.exit_code == 0 and server.chat_count == n
    assert [x["extraction"] for x in again] == [x["extraction"] for x in live]


def test_a_batch_answer_with_an_unknown_id_is_kept_without_it(bcli, server, one, tmp_path):
    """A batch cannot re-ask: what a live run re-asks is dropped, the rest recorded."""
    server.push({"payload": good(more_datasets=["@C9"])})
    r = bcli("submit", str(one), "--keep", str(tmp_path / "b.jsonl"))
    [batch_id] = r.stdout.split()
    _finished(bcli, batch_id)
    out = tmp_path / "o.jsonl"
    r = bcli("collect", batch_id, str(one), "-o", str(out))
    assert r.exit_code == 0, r.stderr
    (rec,) = read_jsonl(out)
    assert [d["text"] for d in rec["extraction"]["datasets"]] == ["BarBench"]
    assert [n["value"] for n in rec["extraction"]["numbers"]] == [3.2, 120.0]


@pytest.mark.parametrize("mode", ["tools", "json_schema"])
def test_a_raw_newline_inside_a_json_string_is_read_not_reasked(cli, server, one, tmp_path, mode):
    """llama-cpp-python's schema grammars admit raw control characters in strings; strict
    JSON parsers reject them, which failed every such answer."""
    text = json.dumps({**good(), "task": "image\nclassification"}).replace("\\n", "\n")
    assert "\n" in text
    server.push({"raw": text})
    r, recs = run(cli, server, one, tmp_path / "o.jsonl", "--mode", mode)
    assert r.exit_code == 0, r.stderr
    assert server.chat_count == 1 and recs[0]["extraction"]["task"] == "image classification"


@pytest.mark.parametrize("mode", ["tools", "json_schema", "json"])
def test_the_body_skips_the_sdks_transform_and_its_bytes_are_the_sdks(cli, server, one, tmp_path, mode,
                                                                      monkeypatch):
    """The openai SDK's ``chat.completions.create`` "transforms" a request's parameters node by
    node (every message, the whole schema; the identity on plain JSON) and constructs the
    answer in Python: extract posts the body's bytes through the SDK's client (its headers,
    key and HTTP client) and reads a well-formed answer with pydantic, so the SDK walks
    neither; the server gets the bytes and headers the SDK's ``create`` sends, first ask,
    re-ask and the retry of a re-ask alike, and the records are the same."""
    import openai.resources.chat.completions.completions as sdk

    from extract.backends import completions

    walked = []
    real = sdk.async_maybe_transform

    async def spy(data, expected_type):
        walked.append(data)
        return await real(data, expected_type)

    monkeypatch.setattr(sdk, "async_maybe_transform", spy)
    script = ({"payload": good(more_datasets=["@C9"])}, {"status": 429, "headers": {"Retry-After": "0"}},
              {"payload": good()})
    sent, heads, recs = {}, {}, {}
    for how in ("plain", "sdk"):
        if how == "sdk":
            monkeypatch.setattr(completions, "request_body", lambda kwargs: None)
        server.raw_bodies.clear()
        server.headers.clear()
        server.push(*script)
        r, recs[how] = run(cli, server, one, tmp_path / f"{how}.jsonl", "--mode", mode, "--no-cache")
        assert r.exit_code == 0, r.stderr
        assert recs[how][0]["provenance"]["attempts"] == 3
        sent[how] = list(server.raw_bodies)
        heads[how] = [{k: v for k, v in h.items() if k not in ("x-stainless-retry-count",)} for h in server.headers]
        if how == "plain":
            assert walked == [], "the SDK walked the body"
    assert len(walked) == 3
    assert len(sent["plain"]) == 3 and sent["plain"][1] == sent["plain"][2]
    assert sent["plain"] == sent["sdk"], "the body's bytes differ from the SDK's own"
    assert heads["plain"] == heads["sdk"] and heads["plain"][0]["authorization"] == f"Bearer {SECRET}"
    assert b'"tool_choice"' in sent["plain"][0] if mode == "tools" else b'"response_format"' in sent["plain"][0]
    strip = lambda rs: [{**x, "provenance": {k: v for k, v in x["provenance"].items() if k != "extracted_at"}}
                        for x in rs]
    assert strip(recs["plain"]) == strip(recs["sdk"])


def test_a_call_the_sdk_acts_on_is_left_to_the_sdk():
    from extract.backends.completions import request_body

    kwargs = {"model": "m", "messages": [{"role": "user", "content": "x"}], "max_tokens": 5}
    assert json.loads(request_body(kwargs)) == kwargs
    assert list(json.loads(request_body({"max_tokens": 5, **kwargs}))) == ["messages", "model", "max_tokens"]
    for odd in ({"stream": True}, {"extra_body": {"x": 1}}, {"timeout": 3}, {"not_a_field": 1}):
        assert request_body({**kwargs, **odd}) is None
    assert request_body({"model": "m"}) is None


def test_the_body_is_the_sdks_json_with_what_recurs_written_once():
    """The body is written field by field, the system prompt and a tool's parameters once
    for every request that has them: the bytes are the SDK's encoder's on the whole body,
    whatever the messages hold (a re-ask's tool call, text beyond ASCII)."""
    from openai._utils._json import openapi_dumps

    from extract.backends.completions import request_body

    system = "Answer in JSON. « naïve » \u2028 " * 80
    params = {"$defs": {"N": {"type": "object"}}, "properties": {"x": {"$ref": "#/$defs/N"}}, "type": "object"}
    for user, extra in (("the abstract", []), ("ünïcode", [
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{\"x\": 1}"}}]},
            {"role": "tool", "tool_call_id": "c", "content": "fix: x"}])):
        kwargs = {"model": "m", "max_tokens": 9, "temperature": 0.0, "messages": [
            {"role": "system", "content": system}, {"role": "user", "content": user}, *extra],
            "tools": [{"type": "function", "function": {"name": "f", "description": "d", "parameters": params}}],
            "tool_choice": {"type": "function", "function": {"name": "f"}}}
        for _ in range(2):
            assert request_body(kwargs) == openapi_dumps({k: kwargs[k] for k in (
                "messages", "model", "max_tokens", "temperature", "tool_choice", "tools")})


def test_an_answer_that_is_not_a_well_formed_completion_is_read_as_the_sdk_reads_it():
    """pydantic reads a well-formed completion (an object equal to the SDK's own); anything
    else is the SDK's lenient reading: an error object in a 200, a body that is not JSON."""
    import httpx2
    from openai._models import construct_type
    from openai.types.chat import ChatCompletion

    from extract.backends.completions import completion_of

    def response(body, kind="application/json"):
        return httpx2.Response(200, content=body if isinstance(body, bytes) else json.dumps(body).encode(),
                               headers={"content-type": kind})
    ok = {"id": "c", "object": "chat.completion", "created": 1, "model": "m", "choices": [
        {"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": None, "tool_calls": [
            {"id": "t", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}, "x_extra": 1}
    assert completion_of(response(ok)) == construct_type(type_=ChatCompletion, value=ok)
    error = {"error": {"message": "overloaded"}}
    got = completion_of(response(error))
    assert not got.choices and got.model_extra == {"error": {"message": "overloaded"}}
    assert completion_of(response(b"busy", "text/plain")) == "busy"
    with pytest.raises(ValueError):
        completion_of(response(b"{not json"))
