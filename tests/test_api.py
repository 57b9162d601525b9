"""The one-call Python API, the read side, and RunConfig's environment."""

import asyncio
import json
from pathlib import Path

import pytest

import extract
from extract.config import RunConfig

FIXTURE = Path(__file__).parent / "fixtures" / "records-sample.jsonl"
TEXT = "We propose FlowNet, a solver that improves accuracy by 12.5% on ImageNet."


@pytest.fixture
def opts(server, tmp_path):
    return dict(backend="openai", base_urls=(server.base_url,), model="test-model",
                cache_dir=tmp_path / "cache")


def user_messages(server):
    return [m["content"] for r in server.requests if r["path"].endswith("/chat/completions")
            for m in r["body"]["messages"] if m["role"] == "user"]


def test_extract_returns_a_typed_record_and_sends_the_title(server, opts):
    rec = extract.extract(TEXT, title="FlowNet: fast flows", **opts)
    assert isinstance(rec, extract.Record) and rec.ok and rec.status == "ok"
    assert rec.extraction.method_names[0].text == "FlowNet"
    n = rec.extraction.numbers[0]
    assert (n.value, rec.text[n.start:n.end]) == (12.5, "12.5%")
    d = rec.to_dict()
    assert json.loads(json.dumps(d)) == d and d["title"] == "FlowNet: fast flows"
    assert d["provenance"]["backend"] == "openai"
    assert user_messages(server)[-1].startswith("Title: FlowNet: fast flows\nAbstract:\n")
    with pytest.raises(AttributeError):
        rec.id = "x"
    # no title: the title line is left out, and the cache keys differ
    extract.extract(TEXT, **opts)
    assert user_messages(server)[-1].startswith("Abstract:\n") and server.chat_count == 2
    again = extract.extract(TEXT, title="FlowNet: fast flows", **opts)
    assert again.provenance.cached is True and server.chat_count == 2


def test_extract_works_under_a_running_event_loop(server, opts):
    async def notebook_cell():
        return extract.extract(TEXT, **opts)
    rec = asyncio.run(notebook_cell())
    assert rec.ok


def test_extract_many_in_order_with_failures_as_records(server, opts):
    items = ["First: we introduce AlphaNet with 3% gains.", {"id": "p2", "abstract": TEXT, "doi": "10.1/x"},
             "   ", ("Third abstract names BetaNet.", "Third title")]
    recs = list(extract.extract_many(items, **opts))
    assert [r.id for r in recs] == ["item#1", "p2", "item#3", "item#4"]
    assert [r.status for r in recs] == ["ok", "ok", "skipped", "ok"]      # no abstract: skipped
    assert recs[1].meta.doi == "10.1/x" and recs[2].reason == "empty abstract"
    assert recs[3].title == "Third title"


def test_extract_raises_a_record_error_for_a_failed_abstract(server, opts):
    with pytest.raises(extract.RecordError, match="max-chars"):
        extract.extract("x" * 200, max_chars=100, **opts)
    with pytest.raises(extract.UsageError):
        extract.extract("", **opts)
    with pytest.raises(extract.UsageError, match="lone surrogate"):
        extract.extract("Bad \ud800 text.", **opts)


def test_run_config_from_env_honours_what_the_cli_honours(tmp_path):
    env = {"EXTRACT_BACKEND": "openai", "EXTRACT_MODEL": "m1", "EXTRACT_CACHE_DIR": str(tmp_path),
           "OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "OPENAI_API_KEY": "sk-x"}
    cfg = RunConfig.from_env(env)
    assert (cfg.backend, cfg.model, cfg.cache_dir, cfg.base_urls, cfg.api_key) == \
        ("openai", "m1", tmp_path, ("http://127.0.0.1:9/v1",), "sk-x")
    assert RunConfig.from_env(env, model="m2").model == "m2"
    # a key (or a base URL) alone never chooses the backend
    only_key = RunConfig.from_env({"OPENAI_API_KEY": "sk-x", "OPENAI_BASE_URL": "http://h/v1"})
    assert only_key.backend == RunConfig().backend and only_key.model is None
    with pytest.raises(extract.UsageError, match="unknown option"):
        RunConfig.from_env({}, modle="x")


def test_read_side_is_public(tmp_path):
    rs = extract.load_records(FIXTURE)
    assert rs.papers
    rows = extract.build_table(rs)
    assert rows and "dataset" in rows[0].as_dict()
    assert "ToyNet" in extract.build_table(FIXTURE, by="task", format="csv")
    items = extract.triage_records(FIXTURE)
    assert items and items[0].score >= items[-1].score
    assert json.loads(extract.triage_records(rs, format="json"))
    out = extract.write_report(rs, tmp_path / "r.html", title="T")
    assert "<html" in out.read_text().lower() and "ToyNet" in out.read_text()


def test_edited_prompt_is_read_again(tmp_path):
    from extract.prompting import load_prompt
    base = tmp_path / "p"
    (tmp_path / "p.system.txt").write_text("System one.")
    (tmp_path / "p.user.txt").write_text("Abstract:\n{abstract}")
    first = load_prompt(str(base))
    (tmp_path / "p.system.txt").write_text("System two, longer.")
    second = load_prompt(str(base))
    assert second.system == "System two, longer." and second.sha != first.sha


def test_prompt_render_with_and_without_title():
    from extract.prompting import load_prompt
    p = load_prompt("extract")
    _, user = p.render("Text with {title} inside.", "A {abstract}  title")
    assert user["content"].rstrip() == "Title: A {abstract} title\nAbstract:\nText with {title} inside."
    _, user = p.render("Plain.")
    assert user["content"].rstrip() == "Abstract:\nPlain."
    assert p.key_text("Plain.") == "Plain." and p.key_text("Plain.", "T") != "Plain."


def test_read_side_refuses_what_the_cli_refuses(tmp_path):
    """load_records on an input file returned an empty set silently (the CLI exits 2), and
    triage_records(format="xml") raised a bare KeyError."""
    inp = tmp_path / "abstracts.jsonl"
    inp.write_text(json.dumps({"id": "a", "abstract": "An input, not a record."}) + "\n")
    with pytest.raises(extract.InputError, match="is not a records file"):
        extract.load_records(inp)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert extract.load_records(empty).papers == []          # empty is empty, not an error
    rs = extract.load_records(FIXTURE)
    with pytest.raises(ValueError, match="unknown format 'xml'"):
        extract.triage_records(rs, format="xml")
    with pytest.raises(ValueError, match="unknown format"):
        extract.build_table(rs, format="xlsx")


def test_extract_sends_the_job_the_cli_sends(server, opts, cli, tmp_path):
    """A shared backend lent to a run keeps its kind: a capable remote model gets the hybrid
    job (the rules propose, the model decides) from the API as from `extract run`."""
    rec = extract.extract(TEXT, **opts).to_dict()
    inp = tmp_path / "one.txt"
    inp.write_text(TEXT + "\n")
    out = tmp_path / "out.jsonl"
    assert cli("run", str(inp), server=server, out=out).exit_code == 0
    ran = json.loads(out.read_text())
    assert rec["provenance"]["decided_by"] == ran["provenance"]["decided_by"] == "model"
    assert rec["provenance"]["prompt_sha"] == ran["provenance"]["prompt_sha"]
