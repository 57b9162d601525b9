"""Honest defaults: which backend and model, said on stderr; backends by entry point with
their own options; progress, quiet/verbose/json; the schema forms; the cache from env."""

import json

import pytest
from click.testing import CliRunner

from conftest import SECRET, read_jsonl, write_abstracts
from extract.cli import main
from extract.cli.run import build_config
from extract.config import RunConfig

ABSTRACTS = ["We propose FlowNet, which improves accuracy by 12.5% on ImageNet.",
             "We introduce EvalAwareBench; 11.25% of variance comes from the generator."]


def invoke(*argv, env=None, input=None):
    return CliRunner().invoke(main, list(argv), env=env, input=input, catch_exceptions=False)


def test_an_exported_key_alone_never_switches_the_backend(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    args = [None, None, (), "tools", 8, None, False, None, RunConfig.schema, "extract", 2, 6,
            60.0, 1024, 20000, None, 0.0]
    cfg = build_config(*args)
    assert cfg.backend == RunConfig.backend and cfg.model is None     # old code: openai, gpt-4o-mini
    monkeypatch.setenv("EXTRACT_BACKEND", "openai")
    monkeypatch.setenv("EXTRACT_MODEL", "my-model")
    cfg = build_config(*args)
    assert (cfg.backend, cfg.model, cfg.base_urls) == ("openai", "my-model", ("http://127.0.0.1:9/v1",))


def test_openai_backend_needs_an_explicit_model(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    inp = write_abstracts(tmp_path / "a.jsonl", ABSTRACTS[:1])
    r = invoke("run", str(inp), "--backend", "openai", "--cache-dir", str(tmp_path / "c"))
    assert r.exit_code == 2 and "--model is required" in r.stderr and "gpt-4o-mini" not in r.stderr


def test_the_run_says_which_backend_and_model_on_stderr(cli, server, tmp_path):
    inp = write_abstracts(tmp_path / "a.jsonl", ABSTRACTS)
    r = cli("run", str(inp), server=server, out=tmp_path / "o.jsonl")
    assert r.exit_code == 0, r.stderr
    assert f"extract: backend openai, model test-model at {server.base_url}" in r.stderr
    assert SECRET not in r.stderr


def test_unknown_backend_lists_the_installed_ones(tmp_path):
    inp = write_abstracts(tmp_path / "a.jsonl", ABSTRACTS[:1])
    r = invoke("run", str(inp), "--backend", "nosuch")
    assert r.exit_code == 2
    assert r.stderr.startswith("extract: error: unknown backend 'nosuch' (installed: ")
    assert "local" in r.stderr and "openai" in r.stderr


PLUGIN = '''
from pydantic import BaseModel, ConfigDict, Field
from extract.backends.base import Answer, Backend


class EchoBackend(Backend):
    """A plugin backend: answers from the text, with its own options."""
    name = "echo"
    max_concurrency = 2

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid")
        contribution: str = "method"
        words: int = Field(3, ge=1)

    def fingerprint(self):
        return {"echo": 1, **self.options.model_dump()}

    async def extract(self, job):
        task = " ".join(job.text.split()[: self.options.words])
        obj = job.response_model.model_validate(
            {"task": task, "contribution": self.options.contribution, "method_names": [],
             "datasets": [], "numbers": []}, context=job.context)
        return Answer(obj, attempts=1, usage={}, model="echo-1")
'''


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """An installed plugin package: a module plus a dist-info with an entry point."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "echo_plugin.py").write_text(PLUGIN)
    dist = site / "echo_plugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: echo-plugin\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[extract.backends]\necho = echo_plugin:EchoBackend\n")
    monkeypatch.syspath_prepend(str(site))
    return site


def test_a_plugin_backend_runs_with_its_own_options(plugin, tmp_path):
    inp = write_abstracts(tmp_path / "a.jsonl", ABSTRACTS)
    out = tmp_path / "o.jsonl"
    r = invoke("run", str(inp), "--backend", "echo", "-O", "words", "2", "--backend-option",
               "contribution", "analysis", "-o", str(out), "--cache-dir", str(tmp_path / "c"))
    assert r.exit_code == 0, r.stderr
    recs = read_jsonl(out)
    assert [x["extraction"]["task"] for x in recs] == ["We propose", "We introduce"]
    assert {x["extraction"]["contribution"] for x in recs} == {"analysis"}
    assert "with contribution=analysis, words=2" in r.stderr
    bad = invoke("run", str(inp), "--backend", "echo", "-O", "colour", "red")
    assert bad.exit_code == 2 and "has no option colour (its options: contribution, words)" in bad.stderr
    bad = invoke("run", str(inp), "--backend", "echo", "-O", "words", "zero")
    assert bad.exit_code == 2 and "-O words:" in bad.stderr
    bad = invoke("run", str(inp), "--backend", "openai", "--model", "m", "--base-url",
                 "http://127.0.0.1:9/v1", "-O", "x", "1")
    assert bad.exit_code == 2 and "takes no -O options" in bad.stderr


def test_json_summary_quiet_and_verbose(cli, server, tmp_path):
    inp = write_abstracts(tmp_path / "a.jsonl", ABSTRACTS)
    out = tmp_path / "o.jsonl"
    r = cli("run", str(inp), "--json", "-q", server=server, out=out)
    assert r.exit_code == 0 and r.stderr == ""
    summary = json.loads(r.stdout.strip().splitlines()[-1])
    assert summary["ok"] == 2 and summary["exit_code"] == 0 and summary["model"] == "test-model"
    assert summary["output"] == str(out)
    r = cli("run", str(inp), "--json", server=server)          # records on stdout, summary on stderr
    assert len(r.stdout.strip().splitlines()) == 2
    assert json.loads(r.stderr.strip().splitlines()[-1])["cached"] == 2
    r = cli("run", str(inp), "-v", server=server, out=tmp_path / "o2.jsonl")
    assert "no header" not in r.stderr and "extract: cache " in r.stderr and "schema " in r.stderr


def test_progress_has_a_total_and_stays_on_screen(cli, server, tmp_path):
    inp = write_abstracts(tmp_path / "a.jsonl", ABSTRACTS)
    r = cli("run", str(inp), "--progress", server=server, out=tmp_path / "o.jsonl")
    assert r.exit_code == 0
    assert "2/2" in r.stderr and "done" in r.stderr        # total known, bar left at the end


def test_progress_starts_with_a_loading_stage(capsys):
    from extract.cli.progress import Progress
    p = Progress(3, True, stage="loading model")
    first = capsys.readouterr().err
    p.update(1)
    p.close()
    assert "loading model" in first and "0/3" in first


def test_cache_dir_from_the_environment(cli, server, tmp_path, monkeypatch):
    inp = write_abstracts(tmp_path / "a.jsonl", ABSTRACTS[:1])
    where = tmp_path / "envcache"
    r = CliRunner().invoke(main, ["run", str(inp), "--base-url", server.base_url, "--model", "m"],
                           env={"EXTRACT_CACHE_DIR": str(where)}, catch_exceptions=False)
    assert r.exit_code == 0, r.stderr
    assert where.is_dir() and any(where.iterdir())
    r = CliRunner().invoke(main, ["cache", "stats", "--format", "json"],
                           env={"EXTRACT_CACHE_DIR": str(where)})
    assert json.loads(r.stdout)["entries"] == 1


SCHEMA = '''
from pydantic import BaseModel, Field


class Paper(BaseModel):
    """Pull out only the task of the paper, in at most eight words."""
    task: str = Field(description="the research problem, as a short noun phrase")
'''


@pytest.mark.parametrize("form", ["path", "module"])
def test_schema_as_a_file_or_a_module_on_the_cwd(cli, server, tmp_path, monkeypatch, form):
    (tmp_path / "my_schema.py").write_text(SCHEMA)
    monkeypatch.chdir(tmp_path)
    server.responder = lambda body: {"task": "a task"}
    inp = write_abstracts(tmp_path / "a.jsonl", ABSTRACTS[:1])
    ref = "./my_schema.py:Paper" if form == "path" else "my_schema:Paper"
    r = cli("run", str(inp), "--schema", ref, server=server, out=tmp_path / f"o-{form}.jsonl")
    assert r.exit_code == 0, r.stderr
    assert f"schema {ref}, prompt 'generic' with the schema's docstring" in r.stderr
    system = next(m["content"] for m in server.requests[-1]["body"]["messages"] if m["role"] == "system")
    assert "Pull out only the task of the paper" in system
    assert "- task: the research problem, as a short noun phrase" in system
    assert "method_names" not in system          # not the paper prompt


def test_schema_errors_are_one_line(tmp_path, monkeypatch):
    (tmp_path / "my_schema.py").write_text(SCHEMA)
    monkeypatch.chdir(tmp_path)
    for ref, msg in [("./my_schema.py:Nope", "no class Nope in ./my_schema.py (models there: Paper)"),
                     ("my_schema:Nope", "no class Nope in my_schema"),
                     ("./missing.py:Paper", "no such file"),
                     ("nomodule_xyz:Paper", "cannot import nomodule_xyz")]:
        r = invoke("schema", "--schema", ref)
        assert r.exit_code == 2 and r.stderr.startswith("extract: error: ") and msg in r.stderr, r.stderr
        assert "Traceback" not in r.stderr


def test_outputs_are_never_read_back_as_inputs(cli, server, tmp_path):
    d = tmp_path / "in"
    d.mkdir()
    write_abstracts(d / "a.jsonl", ABSTRACTS)
    same = cli("run", str(d / "a.jsonl"), server=server, out=d / "a.jsonl")
    assert same.exit_code == 2 and "is also an input" in same.stderr
    both = cli("run", str(d), "--errors", str(tmp_path / "o.jsonl"), server=server, out=tmp_path / "o.jsonl")
    assert both.exit_code == 2 and "is the same file as -o" in both.stderr
    out = d / "out.jsonl"
    for _ in range(2):                     # the second run scans the folder holding its -o
        r = cli("run", str(d), server=server, out=out)
        assert r.exit_code == 0, r.stderr
    assert len(read_jsonl(out)) == 2


def test_the_txt_reading_is_said_on_stderr(cli, server, tmp_path):
    inp = tmp_path / "plain.txt"
    inp.write_text("\n\n".join(ABSTRACTS) + "\n")
    r = cli("run", str(inp), server=server, out=tmp_path / "o.jsonl")
    assert r.exit_code == 0 and len(read_jsonl(tmp_path / "o.jsonl")) == 2
    assert f"{inp}: no header line; abstracts separated by blank lines" in r.stderr
