"""Record identity: which paper (input and id), from which text, made how (configuration).

Issue 19's first item (a rerun with another configuration into the same -o; --redo) and
issue 20's items 5 (separate runs into one -o), 7 (batch answers matched by the request's
digest) and 8 (the errors file's keys).  Each test failed on the code before the change."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import PLAIN, ROOT, SEEDS, read_jsonl
from extract.cli import main
from extract.evaluate import load_jsonl, match_gold

A = "We propose FlowNet, which improves accuracy by 12.5% on ImageNet."
B = "We introduce GraphNet and find 11.25% of variance comes from the generator."
C = "A theory of everything, with a 3% chance of being right."
D = "We present TinyNet, 4% faster on CIFAR-10 than the baseline."


@pytest.fixture(autouse=True)
def _one_worker(monkeypatch):
    monkeypatch.setenv("EXTRACT_WORKERS", "1")


def _jsonl(path: Path, rows: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _stdin(args: list[str], text: str, tmp_path: Path):
    return CliRunner().invoke(main, ["run", "-", "--cache-dir", str(tmp_path / "cache"), *args],
                              input=text)


# -- the pure rules ---------------------------------------------------------------------------

def test_resume_state_tells_done_changed_redo_and_another_paper():
    from extract.identity import Held, resume_state, supersedes
    old = Held("b1.jsonl", "t1", "cfgA", 1)
    assert resume_state([old], "b1.jsonl", "t1", "cfgA") == "done"
    assert resume_state([old], "b2.jsonl", "t1", "cfgA") == "done"       # the same paper, listed twice
    assert resume_state([old], "b1.jsonl", "t2", "cfgA") == "changed"    # edited: replace it
    assert resume_state([old], "b2.jsonl", "t2", "cfgA") == "new"        # another paper: keep both
    assert resume_state([old], "b1.jsonl", "t1", "cfgB") == "redo"
    new = Held("b1.jsonl", "t2", "cfgA", 9)
    assert supersedes(old, new) and not supersedes(old, Held("b2.jsonl", "t2", "cfgA", 9))
    assert supersedes(old, Held("b2.jsonl", "t1", "cfgB", 9))


def test_differences_name_the_backend_and_model_first():
    from extract.identity import config_identity, differences
    rules = config_identity(backend="rules", fingerprint={"policy": {"x": 1}, "rules_sha256": "a"},
                            schema="s", schema_sha="0" * 64)
    remote = config_identity(backend="openai", fingerprint={"model": "big", "base_urls": ["u"],
                                                           "mode": "tools", "max_tokens": 9},
                             schema="s", schema_sha="0" * 64, prompt="hybrid", prompt_sha="1" * 64,
                             decide="measured")
    assert differences(rules, remote) == "backend rules, now openai; model none, now big"
    # the endpoint, --max-tokens and the code's digests are not the configuration
    assert "base_urls" not in remote and "max_tokens" not in remote and "rules_sha256" not in rules
    other = {**remote, "decide": "model"}
    assert differences(remote, other) == "decide measured, now model"


# -- issue 19: a rerun with another configuration ------------------------------------------------

def test_rerun_with_another_backend_is_refused_and_redo_replaces(cli, server, tmp_path):
    inp, out = _jsonl(tmp_path / "in.jsonl", [{"id": "p1", "abstract": A}, {"id": "p2", "abstract": B}]), tmp_path / "o.jsonl"
    assert cli("run", str(inp), out=out).exit_code == 0            # the rules (the default)
    before = out.read_bytes()
    r = cli("run", str(inp), *PLAIN, server=server, out=out)
    assert r.exit_code == 2, r.stderr
    [line] = [x for x in r.stderr.splitlines() if "error" in x]
    assert "2 records made with another configuration" in line
    assert "backend rules, now openai" in line and "model none, now test-model" in line
    assert "new -o" in line and "--redo" in line
    assert out.read_bytes() == before and server.chat_count == 0, "nothing sent, nothing mixed"

    r = cli("run", str(inp), *PLAIN, "--redo", server=server, out=out)
    assert r.exit_code == 0, r.stderr
    assert "replaced 2 records made with another configuration" in r.stderr
    recs = read_jsonl(out)
    assert [x["id"] for x in recs] == ["p1", "p2"], "one record per paper"
    assert {x["provenance"]["backend"] for x in recs} == {"openai"}
    # the same configuration again resumes
    r = cli("run", str(inp), *PLAIN, server=server, out=out)
    assert r.exit_code == 0 and "2 already done" in r.stderr and server.chat_count == 2


@pytest.mark.parametrize("first,second,named", [
    (("--model", "model-a"), ("--model", "model-b"), "model model-a, now model-b"),
    ((), ("--decide", "model"), "decide auto, now model"),
    ((), PLAIN, "prompt hybrid@"),
    (("--temperature", "0"), ("--temperature", "0.7"), "temperature 0.0, now 0.7"),
])
def test_rerun_with_another_option_is_refused(server, tmp_path, first, second, named):
    inp, out = _jsonl(tmp_path / "in.jsonl", [{"id": "p1", "abstract": A}]), tmp_path / "o.jsonl"
    base = ("--base-url", server.base_url, "--cache-dir", str(tmp_path / "c"), "-o", str(out))

    def args(extra):
        model = () if "--model" in extra else ("--model", "m")
        return ["run", str(inp), *base, *model, *extra]
    r = CliRunner().invoke(main, args(first))
    assert r.exit_code == 0, r.stderr
    r = CliRunner().invoke(main, args(second))
    assert r.exit_code == 2 and named in r.stderr, r.stderr
    r = CliRunner().invoke(main, args(first))
    assert r.exit_code == 0 and "1 already done" in r.stderr, "the first configuration still resumes"


def test_redo_with_limit_replaces_part_and_says_what_remains(cli, server, tmp_path):
    inp = _jsonl(tmp_path / "in.jsonl", [{"id": f"p{i}", "abstract": t} for i, t in enumerate((A, B, C), 1)])
    out = tmp_path / "o.jsonl"
    assert cli("run", str(inp), out=out).exit_code == 0
    r = cli("run", str(inp), *PLAIN, "--redo", "--limit", "1", server=server, out=out)
    assert r.exit_code == 0 and "replaced 1 records" in r.stderr and "2 remain" in r.stderr, r.stderr
    assert cli("run", str(inp), *PLAIN, server=server, out=out).exit_code == 2, "still mixed: refused"
    r = cli("run", str(inp), *PLAIN, "--redo", "--json", server=server, out=out)
    assert r.exit_code == 0 and "replaced 2 records" in r.stderr and "remain" not in r.stderr
    assert json.loads(r.stdout)["replaced"] == 2
    r = cli("run", str(inp), "--redo")
    assert r.exit_code == 2 and "give -o" in r.stderr
    recs = read_jsonl(out)
    assert sorted(x["id"] for x in recs) == ["p1", "p2", "p3"]
    assert {x["provenance"]["backend"] for x in recs} == {"openai"} and server.chat_count == 3


# -- issue 20 item 5: separate runs into one output ---------------------------------------------

def test_files_of_the_same_name_in_two_runs_keep_both(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _jsonl(tmp_path / "b1" / "papers.jsonl", [{"abstract": A}, {"abstract": B}])
    _jsonl(tmp_path / "b2" / "papers.jsonl", [{"abstract": C}, {"abstract": D}])
    out = tmp_path / "o.jsonl"
    assert cli("run", "b1/papers.jsonl", out=out).exit_code == 0
    r = cli("run", "b2/papers.jsonl", out=out)
    assert r.exit_code == 0 and "text differs" not in r.stderr, r.stderr
    recs = read_jsonl(out)
    assert [x["id"] for x in recs] == ["b1/papers#1", "b1/papers#2", "b2/papers#1", "b2/papers#2"]
    assert [x["text"] for x in recs] == [A, B, C, D]
    r = cli("run", "./b1/papers.jsonl", out=out)          # the same file, named otherwise
    assert r.exit_code == 0 and "2 already done" in r.stderr


def test_explicit_ids_from_two_inputs_are_two_papers_and_an_edit_replaces_only_its_own(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    one = _jsonl(tmp_path / "one.jsonl", [{"id": "p1", "abstract": A}])
    _jsonl(tmp_path / "two.jsonl", [{"id": "p1", "abstract": B}])
    out = tmp_path / "o.jsonl"
    assert cli("run", "one.jsonl", out=out).exit_code == 0
    assert cli("run", "two.jsonl", out=out).exit_code == 0
    assert sorted(x["text"] for x in read_jsonl(out)) == sorted([A, B]), "both kept"
    _jsonl(one, [{"id": "p1", "abstract": C}])          # edited in its own input: replaced
    r = cli("run", "one.jsonl", out=out)
    assert r.exit_code == 0 and "text differs" in r.stderr
    assert sorted((x["source"], x["text"]) for x in read_jsonl(out)) == [("one.jsonl:1", C), ("two.jsonl:1", B)]


def test_two_stdin_batches_keep_both_and_the_same_batch_resumes(tmp_path):
    out = tmp_path / "o.jsonl"
    first, second = f"{A}\n\n{B}\n", f"{C}\n\n{D}\n"
    assert _stdin(["-o", str(out)], first, tmp_path).exit_code == 0
    r = _stdin(["-o", str(out)], second, tmp_path)
    assert r.exit_code == 0 and "text differs" not in r.stderr, r.stderr
    recs = read_jsonl(out)
    assert [x["text"] for x in recs] == [A, B, C, D] and len({x["id"] for x in recs}) == 4
    r = _stdin(["-o", str(out)], first, tmp_path)
    assert r.exit_code == 0 and "2 already done" in r.stderr, "a rerun of the same batch resumes"


def test_a_labelled_stdin_batch_edited_is_extracted_again_under_its_ids(tmp_path):
    out = tmp_path / "o.jsonl"
    assert _stdin(["-o", str(out), "--label", "batch1"], f"{A}\n\n{B}\n", tmp_path).exit_code == 0
    r = _stdin(["-o", str(out), "--label", "batch1"], f"{A}\n\n{C}\n", tmp_path)
    assert r.exit_code == 0 and "1 already done" in r.stderr and "text differs" in r.stderr
    assert [(x["id"], x["text"]) for x in read_jsonl(out)] == [("batch1#1", A), ("batch1#2", C)]
    r = CliRunner().invoke(main, ["run", str(_jsonl(tmp_path / "x.jsonl", [{"abstract": A}])),
                                  "--label", "b"])
    assert r.exit_code == 2 and "give - as an input" in r.stderr


def test_eval_still_matches_records_with_path_ids_to_gold(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = tmp_path / "seeds.jsonl"
    assert cli("run", "seeds/", out=out).exit_code == 0
    recs = read_jsonl(out)
    assert recs[0]["id"].startswith("seeds/000_")
    gold = load_jsonl(ROOT / "tests/gold/dev-gold.jsonl")
    pairs = match_gold(recs, gold)
    assert all(r is not None and r["text"].startswith(g["first_words"]) for g, r in pairs)
    r = cli("eval", str(out), "--gold", "tests/gold/dev-gold.jsonl")
    assert r.exit_code == 0 and "not found" not in r.stderr, r.stderr
    blind = tmp_path / "blind.jsonl"              # a gold set of plain text: ids PPP-n
    assert cli("run", "tests/gold/blind-abstracts.txt", out=blind).exit_code == 0
    recs = read_jsonl(blind)
    assert recs[0]["id"] == "tests/gold/blind-abstracts#1"
    pairs = match_gold(recs, load_jsonl(ROOT / "tests/gold/blind-gold.jsonl"))
    assert all(r is not None and r["text"].startswith(g["first_words"]) for g, r in pairs)


# -- issue 20 item 7: batch answers are matched by the request's digest ---------------------------

def test_collect_results_after_an_insert_attaches_no_answer_to_another_abstract(cli, server, tmp_path):
    small = _jsonl(tmp_path / "small.jsonl", [{"abstract": t} for t in (A, B, C)])    # default ids
    keep, cache = tmp_path / "b.jsonl", str(tmp_path / "cache")
    common = ("--base-url", server.base_url, "--model", "test-model", "--cache-dir", cache, *PLAIN)
    r = cli("batch", "submit", str(small), "--keep", str(keep), *common)
    assert r.exit_code == 0, r.stderr
    batch_id = r.stdout.strip()
    assert server.wait_batch(batch_id), "the fake server never finished the batch"
    info = json.loads(cli("batch", "status", batch_id, "--base-url", server.base_url).stdout)
    assert info["status"] == "completed", info
    results = tmp_path / "results.jsonl"
    results.write_bytes(server.files[info["output_file_id"]]["data"])

    _jsonl(small, [{"abstract": D}] + [{"abstract": t} for t in (A, B, C)])   # a line inserted on top
    out = tmp_path / "o.jsonl"
    r = cli("batch", "collect", "--results", str(results), str(small), "-o", str(out), *common)
    assert r.exit_code == 0, r.stderr
    recs = read_jsonl(out)
    assert [x["text"] for x in recs] == [A, B, C] and "1 inputs not in this batch" in r.stderr
    for rec in recs:                                  # each answer is its own abstract's
        assert not rec["dropped"] and all(m["text"] in rec["text"] for m in rec["extraction"]["method_names"])
    # nothing wrong was cached: a live run asks for the new abstract only
    before = server.chat_count
    r = cli("run", str(small), *PLAIN, "--mode", "json_schema", "--base-url", server.base_url, "--model", "test-model",
            cache_dir=tmp_path / "cache")
    assert r.exit_code == 0 and "3 cached" in r.stderr and server.chat_count == before + 1


# -- issue 20 item 8: the errors file's keys ----------------------------------------------------

def test_a_duplicate_id_does_not_hide_the_first_records_failure(cli, tmp_path):
    inp = _jsonl(tmp_path / "in.jsonl", [{"id": "p1", "abstract": A * 3}, {"id": "p2", "abstract": B},
                                         {"id": "p1", "abstract": C}])
    out = tmp_path / "o.jsonl"
    r = cli("run", str(inp), "--max-chars", "100", out=out)
    assert r.exit_code == 1
    errors = read_jsonl(tmp_path / "o.errors.jsonl")
    assert sorted((e["id"], e["kind"]) for e in errors) == [("p1", "input"), ("p1", "record")]
    assert "2 failures listed" in r.stderr
    assert any("over --max-chars" in e["reason"] for e in errors)
    assert any("duplicate id" in e["reason"] for e in errors)
    r = cli("run", str(inp), "--max-chars", "100", out=out)       # a rerun lists the same two
    assert len(read_jsonl(tmp_path / "o.errors.jsonl")) == 2 and "2 failures listed" in r.stderr


def test_a_partial_rerun_keeps_the_problems_it_did_not_reach(cli, tmp_path):
    inp, out = tmp_path / "in.jsonl", tmp_path / "o.jsonl"
    rows = [json.dumps({"id": "p1", "abstract": A}), json.dumps({"id": "p2", "abstract": B}), "{not json"]
    inp.write_text("\n".join(rows) + "\n")
    assert cli("run", str(inp), out=out).exit_code == 1
    [bad] = read_jsonl(tmp_path / "o.errors.jsonl")
    assert bad["source"].endswith("in.jsonl:3") and bad["id"] is None
    rows[:2] = [json.dumps({"id": "p1", "abstract": C}), json.dumps({"id": "p2", "abstract": D})]
    inp.write_text("\n".join(rows) + "\n")
    r = cli("run", str(inp), "--limit", "1", out=out)            # stops before line 3
    assert r.exit_code == 0, r.stderr
    assert read_jsonl(tmp_path / "o.errors.jsonl") == [bad], "the unreached problem is still listed"
    # inputs shift down a line: the full rerun lists the problem at its line now, once
    inp.write_text(json.dumps({"id": "p0", "abstract": A}) + "\n" + "\n".join(rows) + "\n")
    assert cli("run", str(inp), out=out).exit_code == 1
    [now] = read_jsonl(tmp_path / "o.errors.jsonl")
    assert now["source"].endswith("in.jsonl:4")


def test_the_read_side_keeps_both_papers_and_both_failures(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _jsonl(tmp_path / "one.jsonl", [{"id": "p1", "abstract": A}, {"id": "p2", "abstract": C * 3},
                                    {"id": "p2", "abstract": D}])
    _jsonl(tmp_path / "two.jsonl", [{"id": "p1", "abstract": B}])
    out = tmp_path / "o.jsonl"
    assert cli("run", "one.jsonl", "--max-chars", "100", out=out).exit_code == 1
    assert cli("run", "two.jsonl", out=out).exit_code == 0
    from extract.records import load_records
    rs = load_records(out, warn=lambda m: None)
    assert sorted(p.text for p in rs.papers) == sorted([A, B])
    assert len(rs.failures) == 2 and {f.id for f in rs.failures} == {"p2"}


def test_an_output_written_before_configurations_were_recorded_still_resumes(cli, server, tmp_path):
    inp, out = _jsonl(tmp_path / "in.jsonl", [{"id": "p1", "abstract": A}]), tmp_path / "o.jsonl"
    assert cli("run", str(inp), out=out).exit_code == 0
    [rec] = read_jsonl(out)
    del rec["provenance"]["config"]                    # as an earlier version wrote it
    out.write_text(json.dumps(rec) + "\n")
    r = cli("run", str(inp), out=out)
    assert r.exit_code == 0 and "1 already done" in r.stderr
    r = cli("run", str(inp), *PLAIN, server=server, out=out)
    assert r.exit_code == 2 and "backend rules, now openai" in r.stderr


def test_output_index_holds_several_records_of_an_id_whatever_the_origin(tmp_path):
    from extract.resume import OutputIndex
    idx = OutputIndex({"backend": "rules"})
    odd = "we\x1fird\x1e.jsonl"                       # the separators of the compact form
    idx.append("p1", f"{odd}:1", A)
    idx.append("p1", "b.jsonl:1", B)
    assert idx.state("p1", A, f"{odd}:7") == "done" and idx.state("p1", B, "b.jsonl:2") == "done"
    assert idx.state("p1", C, "b.jsonl:1") == "changed" and idx.state("p1", C, "c.jsonl:1") == "new"
    idx.append("p1", "b.jsonl:3", C)                  # replaces b's record, keeps the other
    assert len(idx) == 2 and idx.dropped == 1 and not idx.keeps("p1", 2) and idx.keeps("p1", 1)
    idx.close()


def test_a_batch_whose_custom_ids_are_record_ids_is_matched_by_its_bodies(cli, server, tmp_path):
    """Batches submitted before custom_id became the request's digest still collect."""
    import openai
    small = _jsonl(tmp_path / "small.jsonl", [{"id": f"p{i}", "abstract": t} for i, t in enumerate((A, B, C), 1)])
    keep = tmp_path / "b.jsonl"
    common = ("--base-url", server.base_url, "--model", "test-model", "--cache-dir", str(tmp_path / "c"))
    assert cli("batch", "submit", str(small), "--keep", str(keep), "--dry-run", *common).exit_code == 0
    lines = read_jsonl(keep)
    keep.write_text("".join(json.dumps({**x, "custom_id": f"p{i}"}) + "\n" for i, x in enumerate(lines, 1)))
    client = openai.OpenAI(base_url=server.base_url, api_key="x")
    f = client.files.create(file=("b.jsonl", keep.read_bytes()), purpose="batch")
    b = client.batches.create(input_file_id=f.id, endpoint="/v1/chat/completions", completion_window="24h")
    assert server.wait_batch(b.id), "the fake server never finished the batch"
    assert client.batches.retrieve(b.id).status == "completed"
    out = tmp_path / "o.jsonl"
    r = cli("batch", "collect", b.id, str(small), "-o", str(out), *common)
    assert r.exit_code == 0 and "3 ok" in r.stderr, r.stderr
    assert [x["text"] for x in read_jsonl(out)] == [A, B, C]


# -- the configuration identity without a backend (the Ray driver's) ------------------------------

EXAMPLE = {"abstract": "We propose QuillNet, reaching 91.2% F1 on TreeBank.", "task": "parsing",
           "method_names": ["QuillNet"], "datasets": ["TreeBank"],
           "numbers": [{"text": "91.2%", "value": 91.2, "kind": "result", "metric": "F1",
                        "dataset": "TreeBank", "method": "QuillNet"}]}


def _configs(tmp_path):
    from extract.config import RunConfig
    examples = _jsonl(tmp_path / "examples.jsonl", [EXAMPLE])
    remote = dict(backend="openai", model="test-model", base_urls=("http://127.0.0.1:9/v1",), api_key="k")
    return {
        "rules": RunConfig(),
        "openai hybrid": RunConfig(**remote),
        "openai plain, json_schema, sampled": RunConfig(**remote, prompt="extract", mode="json_schema",
                                                         temperature=0.7, max_tokens=900),
        "openai, --decide rules": RunConfig(**remote, decide="rules"),
        "openai, --examples": RunConfig(**remote, examples=str(examples)),
        "openai plain, --examples": RunConfig(**remote, prompt="extract", examples=str(examples)),
    }


@pytest.mark.parametrize("name", list(_configs(Path("/nonexistent"))))
def test_run_identity_is_the_extractors_and_builds_no_backend(name, tmp_path, monkeypatch):
    from extract.backends.openai_compat import OpenAIBackend
    from extract.backends.rules import RulesBackend
    from extract.configured import run_identity
    from extract.pipeline import Extractor

    config = _configs(tmp_path)[name]
    want = Extractor(config).identity
    assert want["backend"] == config.backend and ("examples" in want) == bool(config.examples)

    def built(*args, **kwargs):
        raise AssertionError("a backend was built to compute the identity")
    for cls in (OpenAIBackend, RulesBackend):
        monkeypatch.setattr(cls, "__init__", built)
    monkeypatch.setattr("extract.configured.load_backend", built)
    assert run_identity(config) == want


def test_run_identity_of_a_backend_that_must_be_built_is_the_extractors():
    """The local backend's fingerprint holds its model file's digest: it is built (its
    model is not loaded), and the identity is still the Extractor's."""
    pytest.importorskip("llama_cpp")
    from extract.config import RunConfig
    from extract.configured import BackendFacts, run_identity
    from extract.pipeline import Extractor

    config = RunConfig(backend="local")
    assert BackendFacts.unbuilt(config) is None
    assert run_identity(config) == Extractor(config).identity


@pytest.mark.parametrize("bad,message", [
    (dict(model="m"), "runs no model"),                                    # rules with a model
    (dict(backend="openai", base_urls=("http://127.0.0.1:9/v1",)), "--model is required"),
    (dict(backend="openai", model="m", base_urls=("ftp://127.0.0.1:9/v1",)), "--base-url"),
    (dict(backend="openai", model="m"), "OPENAI_API_KEY"),                  # api.openai.com, no key
    (dict(backend_options={"x": "1"}), "takes no -O options"),
    (dict(examples="EXAMPLES"), "runs no model to show them to"),
])
def test_run_identity_refuses_what_the_extractor_refuses(bad, message, tmp_path):
    from extract.config import RunConfig
    from extract.configured import run_identity
    from extract.errors import UsageError
    from extract.pipeline import Extractor

    if bad.get("examples"):
        bad = {**bad, "examples": str(_jsonl(tmp_path / "examples.jsonl", [EXAMPLE]))}
    config = RunConfig(**bad)
    for make in (lambda: Extractor(config), lambda: run_identity(config)):
        with pytest.raises(UsageError, match=message):
            make()
