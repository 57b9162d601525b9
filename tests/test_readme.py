"""The README's sample record, Python API example and backend recipes are true: checked
against real runs on the fake OpenAI-compatible server."""

import json
import re
import shlex
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import PLAIN, SECRET, write_abstracts
from extract.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
ABSTRACT = ("We introduce EvalAwareBench and find that 11.25% of accuracy variance on EvalAwareBench "
            "comes from the generator.")


def section(title: str) -> str:
    return README.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def shape(x):
    if isinstance(x, dict):
        return {k: shape(v) for k, v in x.items()}
    if isinstance(x, list):
        return [shape(x[0])] if x else []
    return None if x is None else type(x).__name__.replace("int", "float")


def same_shape(doc, real, path="record"):
    """Keys must match exactly; a null or an empty list in the README stands for any value."""
    if doc is None or doc == []:
        return
    assert type(doc) is type(real) or real is None, f"{path}: README {doc!r}, real {real!r}"
    if isinstance(doc, dict):
        assert set(doc) == set(real), f"{path}: README keys {sorted(doc)} vs real {sorted(real)}"
        for k in doc:
            same_shape(doc[k], real[k], f"{path}.{k}")
    elif isinstance(doc, list) and real:
        same_shape(doc[0], real[0], f"{path}[0]")


def test_readme_sample_record_has_the_shape_of_a_real_record(cli, server, tmp_path):
    sample = json.loads(section("The record").split("```json\n", 1)[1].split("```", 1)[0])
    server.responder = lambda body: {
        "task": "measuring evaluation awareness", "contribution": "benchmark",
        "method_names": ["EvalAwareBench"], "datasets": ["EvalAwareBench"],
        "numbers": [{"text": "11.25%", "value": 11.25, "unit": "%", "kind": "result",
                     "about": "share of variance", "metric": "accuracy",
                     "dataset": "EvalAwareBench", "method": None}]}
    inp = tmp_path / "seed.txt"
    inp.write_text("Header\n\n" + ABSTRACT + "\n")
    out = tmp_path / "out.jsonl"
    r = cli("run", str(inp), *PLAIN, server=server, out=out)
    assert r.exit_code == 0, r.stderr
    real = json.loads(out.read_text().splitlines()[0])
    sample["provenance"]["config"] = real["provenance"]["config"]    # the sample's is the rules'
    sample["provenance"].pop("decided_by")       # the plain request's record has none
    same_shape(shape(sample), shape(real))
    assert real["meta"] == sample["meta"] == {}


def test_readme_sample_record_is_what_the_default_backend_writes(tmp_path):
    """The sample is the rules' record of its seed (the default backend), not an old model's."""
    sample = json.loads(section("The record").split("```json\n", 1)[1].split("```", 1)[0])
    r = CliRunner().invoke(main, ["run", str(ROOT / "seeds" / "000_810fdc4303f22573.txt"), "-q",
                                  "--cache-dir", str(tmp_path / "c")], catch_exceptions=False)
    assert r.exit_code == 0, r.stderr
    real = next(json.loads(x) for x in r.stdout.splitlines()       # ids name the path as given
                if json.loads(x)["id"].endswith("/" + sample["id"]))
    same_shape(shape(sample), shape(real))
    assert real["source"].endswith(sample["source"].split("/", 1)[1])
    for key in ("backend", "model", "decided_by", "attempts", "usage"):
        assert sample["provenance"][key] == real["provenance"][key], key
    assert sample["extraction"]["contribution"] == real["extraction"]["contribution"]


def test_readme_python_example_runs(server, tmp_path, monkeypatch):
    code = section("Python API").split("```python\n", 1)[1].split("```", 1)[0]
    code = code.replace("http://127.0.0.1:8000/v1", server.base_url)
    monkeypatch.setenv("EXTRACT_BACKEND", "openai")
    monkeypatch.setenv("EXTRACT_MODEL", "test-model")
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("EXTRACT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "tests" / "fixtures" / "records-sample.jsonl", tmp_path / "out.jsonl")
    scope: dict = {}
    exec(compile(code, "README.md", "exec"), scope)
    assert scope["rec"].ok and scope["rows"] and scope["flagged"]
    assert (tmp_path / "report.html").stat().st_size > 1000


def recipes():
    table = section("Choosing a backend and model")
    rows = [line for line in table.splitlines() if line.startswith("| ") and "extract run " in line]
    out = []
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        cmd = re.search(r"`(?:OPENAI_API_KEY=\S+ )?(extract run [^`]+)`", cells[1]).group(1)
        mode = re.match(r"`(\w+)`", cells[2]).group(1)
        out.append(pytest.param(cmd, mode, id=cells[0].split(":")[0].split(" (")[0]))
    return out


@pytest.mark.parametrize("cmd,mode", recipes())
def test_backend_recipes_work_with_their_mode(cmd, mode, server, tmp_path, monkeypatch):
    """Each recipe's command, pointed at the fake server, runs with the mode it names and
    sends the request that mode means."""
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)       # the OpenAI row has no --base-url
    inp = write_abstracts(tmp_path / "in.jsonl", [ABSTRACT])
    argv = shlex.split(cmd)[1:]
    argv = [str(inp) if a == "IN" else str(tmp_path / "out.jsonl") if a == "OUT" else a for a in argv]
    argv = [re.sub(r"http://127\.0\.0\.1:\d+/v1", server.base_url, a) for a in argv]
    if "--mode" not in argv:
        assert mode == "tools"
    r = CliRunner().invoke(main, argv + ["--cache-dir", str(tmp_path / "c")], catch_exceptions=False)
    assert r.exit_code == 0, r.stderr
    body = server.requests[-1]["body"]
    if mode == "tools":
        assert body.get("tools")
    else:
        assert body["response_format"]["type"] == "json_schema" and not body.get("tools")
