"""``--backend rules``: the rule layer alone, deterministic, the same over one process or many."""

import asyncio
import json

import pytest

from conftest import SEEDS, read_jsonl

from extract.backends.rules import RulesBackend
from extract.decision import decide
from extract.config import RunConfig
from extract.inputs import expand, read_inputs
from extract.output import RecordSink
from extract.pipeline import Extractor


def run_rules(tmp_path, name, workers, inputs=SEEDS):
    config = RunConfig(backend="rules", cache_dir=tmp_path / f"cache-{name}", use_cache=False)
    out = tmp_path / f"{name}.jsonl"
    files, _ = expand([inputs])
    ex = Extractor(config, backend=RulesBackend(config, workers=workers))
    with RecordSink(out) as sink:
        summary = asyncio.run(ex.run(read_inputs(files), sink))
    return summary, read_jsonl(out)


def strip_time(records):
    for r in records:
        r["provenance"].pop("extracted_at")
    return records


def test_one_process_and_two_give_identical_records_in_input_order(tmp_path):
    s1, one = run_rules(tmp_path, "one", workers=1)
    s2, two = run_rules(tmp_path, "two", workers=2)
    assert s1.ok == s2.ok == 90 and s1.failed == s2.failed == 0
    assert json.dumps(strip_time(one)) == json.dumps(strip_time(two))
    assert sum(len(r["extraction"]["numbers"]) for r in one) > 50      # the rules do find things
    prov = one[0]["provenance"]
    assert prov["backend"] == "rules" and prov["decided_by"] == "rules" and prov["usage"]["total_tokens"] == 0


def test_rules_are_deterministic_and_grounded():
    text = ("We propose FooNet, which improves accuracy by 3.2% on ImageNet with 7B parameters. "
            "Code is released.")
    first, again = decide(text), decide(text)
    assert first == again
    assert [n["text"] for n in first["numbers"]] == ["3.2%", "7B"]
    assert first["method_names"] == ["FooNet"] and "ImageNet" in first["datasets"]
    assert first["numbers"][1]["value"] == 7e9


def test_default_backend_is_rules_and_needs_no_model(cli, tmp_path):
    assert RunConfig().backend == "rules"
    out = tmp_path / "o.jsonl"
    r = cli("run", str(SEEDS / sorted(p.name for p in SEEDS.iterdir())[0]), "--backend", "rules", out=out)
    assert r.exit_code == 0, r.stderr
    assert read_jsonl(out)
    summary = [line for line in r.stderr.splitlines() if " ok (" in line]
    assert summary and "tokens" not in summary[0]     # no model: no "0 tokens (0 prompt, ...)"


def test_custom_schema_is_refused_up_front(tmp_path, monkeypatch):
    mod = tmp_path / "myschema.py"
    mod.write_text("from pydantic import BaseModel\nclass Other(BaseModel):\n    title: str\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    config = RunConfig(backend="rules", schema="myschema:Other", use_cache=False,
                       cache_dir=tmp_path / "c")
    from extract.errors import UsageError
    with pytest.raises(UsageError, match="default schema only") as e:   # before any record
        Extractor(config, backend=RulesBackend(config, workers=1))
    assert "local" in str(e.value) and "openai" in str(e.value)


def test_a_model_is_refused():
    from extract.errors import UsageError
    with pytest.raises(UsageError, match="runs no model"):
        RulesBackend(RunConfig(backend="rules", model="x.gguf"))
