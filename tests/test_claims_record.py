"""The claim fields in the record (schemas.paper export) and in `extract eval`."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from extract.cache import cache_key
from extract.cli import main
from extract.evaluate import evaluate
from extract.evaluate_claims import score_claims, token_f1
from extract.prompting import schema_json
from extract.schemas.paper import NumberMention, PaperExtraction

TEXT = ("We propose FooNet for planning. On BarBench, FooNet improves GPT-4o's success rate from "
        "31.2% to 58.7%, and FooNet reaches a success rate of 40.0% on QuxSet with 1e999 steps.")


def _export(**over):
    n = dict(text="58.7%", value=58.7, kind="result", metric="success rate", dataset="BarBench", method="FooNet")
    n.update(over)
    obj = PaperExtraction(task="planning with language models", contribution="method",
                          method_names=["FooNet"], datasets=["BarBench", "QuxSet"], numbers=[NumberMention(**n)])
    return obj.export(TEXT)


def test_claim_fields_are_spans_of_the_source():
    ext, dropped = _export()
    n = ext["numbers"][0]
    assert dropped == []
    for key in ("metric", "dataset", "method"):
        span = n[key]
        assert TEXT[span["start"]:span["end"]] == span["text"]
    assert n["dataset"] == ext["datasets"][0]             # the record's own dataset span
    assert n["method"] == ext["method_names"][0]


def test_metric_and_baseline_are_the_occurrences_nearest_the_number():
    ext, _ = _export(text="31.2%", value=31.2, method="GPT-4o")
    n = ext["numbers"][0]
    assert n["method"]["text"] == "GPT-4o"                 # a baseline not in method_names: still a span
    assert n["metric"]["start"] == TEXT.index("success rate")
    ext, _ = _export(text="40.0%", value=40.0, dataset="QuxSet")
    n = ext["numbers"][0]
    assert n["metric"]["start"] == TEXT.rindex("success rate")   # the second occurrence, next to 40.0%
    assert n["dataset"]["text"] == "QuxSet"


def test_dataset_not_in_the_record_is_null_and_empty_method_is_own():
    ext, dropped = _export(dataset="success rate", method="")
    n = ext["numbers"][0]
    assert n["dataset"] is None and n["method"] == "" and dropped == []
    ext, _ = _export(dataset=None, method=None, metric=None)
    n = ext["numbers"][0]
    assert n["dataset"] is None and n["method"] is None and n["metric"] is None


def test_ungrounded_claim_strings_are_dropped_not_invented():
    ext, dropped = _export(metric="top-1 accuracy", method="Claude-9")
    n = ext["numbers"][0]
    assert n["metric"] is None and n["method"] is None
    assert set(dropped) == {"top-1 accuracy", "Claude-9"}


@pytest.mark.parametrize("numeral", ["1e999", "1e309", "9" * 400])
def test_value_that_does_not_fit_a_float_is_null_with_a_note(numeral):
    text = f"We use {numeral} steps and 3 seeds."
    obj = PaperExtraction(task="a task of three words", contribution="method",
                          numbers=[NumberMention(text=numeral, value=1.0, kind="setting")])
    ext, _ = obj.export(text)
    n = ext["numbers"][0]
    assert n["value"] is None and n["value_note"] == "does not fit a 64-bit float"
    json.dumps(ext, allow_nan=False)                       # strict JSON: no Infinity
    ok, _ = PaperExtraction(task="a task of three words", contribution="method",
                            numbers=[NumberMention(text="3", value=3, kind="setting")]).export(text)
    assert "value_note" not in ok["numbers"][0] and math.isfinite(ok["numbers"][0]["value"])


def test_schema_change_changes_the_cache_key():
    """Answers cached before the claim fields existed are not reused: the schema's JSON is in the key."""
    from pydantic import create_model

    old_number = create_model("NumberMention", text=(str, ...), value=(float, ...), unit=(str | None, None),
                              kind=(str, ...), about=(str, ""))
    old = create_model("PaperExtraction", task=(str, ...), contribution=(str, ...),
                       method_names=(list[str], []), datasets=(list[str], []), numbers=(list[old_number], []))
    assert '"metric"' in schema_json(PaperExtraction) and '"metric"' not in schema_json(old)

    def key(model):
        from extract.prompting import sha256
        return cache_key(backend="local", fingerprint={}, prompt_sha="p", schema_sha=sha256(schema_json(model)),
                         reasks=0, text="t")
    assert key(PaperExtraction) != key(old)


def test_task_bound_message_agrees_with_the_check():
    with pytest.raises(ValueError, match="never more than 20"):
        PaperExtraction(task=" ".join(["word"] * 21), contribution="method")
    assert PaperExtraction(task=" ".join(["word"] * 20), contribution="method").task


# --- evaluation --------------------------------------------------------------------------
def _span(text, s):
    i = text.index(s)
    return {"text": s, "start": i, "end": i + len(s), "status": "exact"}


GOLD = [{"id": "g-1", "first_words": TEXT[:60], "task": "t", "contribution": "method",
         "method_names": ["FooNet"], "datasets": ["BarBench", "QuxSet"],
         "numbers": [
             {"text": "31.2%", "value": 31.2, "kind": "result", "about": "", "metric": "success rate",
              "dataset": "BarBench", "method": "GPT-4o"},
             {"text": "58.7%", "value": 58.7, "kind": "result", "about": "", "metric": "success rate",
              "dataset": "BarBench", "method": "FooNet"},
             {"text": "40.0%", "value": 40.0, "kind": "result", "about": "", "metric": "success rate",
              "dataset": "QuxSet", "method": ""},
             {"text": "1e999", "value": 5, "kind": "setting", "about": "", "metric": "steps",
              "dataset": None, "method": None}]}]


def _record(numbers):
    return {"id": "g-1", "text": TEXT, "extraction": {
        "task": "x", "contribution": "method", "method_names": [_span(TEXT, "FooNet")],
        "datasets": [_span(TEXT, "BarBench"), _span(TEXT, "QuxSet")], "numbers": numbers}}


def _num(text, value, kind, metric, dataset, method):
    n = {**_span(TEXT, text), "value": value, "unit": "%", "kind": kind, "about": ""}
    n["metric"] = _span(TEXT, metric) if metric else None
    n["dataset"] = _span(TEXT, dataset) if dataset else None
    n["method"] = _span(TEXT, method) if method else method
    return n


def test_result_claims_dataset_attachment_and_metric_f1_known_figures():
    rec = _record([
        _num("31.2%", 31.2, "result", "success rate", "BarBench", "GPT-4o"),   # right
        _num("58.7%", 58.7, "result", "success", "QuxSet", "FooNet"),         # wrong dataset, metric half
        _num("40.0%", 40.0, "result", None, "QuxSet", None),                  # null method == "": right
    ])
    res = evaluate([rec], GOLD)
    assert (res.result_claims.tp, res.result_claims.fp, res.result_claims.fn) == (2, 1, 1)
    assert (res.claims.dataset_correct, res.claims.dataset_total) == (2, 3)
    assert res.claims.metric_total == 3
    assert res.claims.metric_f1 == pytest.approx((1 + 2 / 3 + 0) / 3)
    d = res.as_dict()
    assert d["result_claims"]["f1"] == round(res.result_claims.f1, 4)
    assert d["dataset_attachment"] == {"correct": 2, "total": 3, "accuracy": round(2 / 3, 4)}
    assert set(d["metric_f1"]) == {"pairs", "f1"}


def test_claims_need_value_dataset_and_method_together():
    g = GOLD[0]["numbers"][:2]
    swapped = [{"value": 31.2, "kind": "result", "dataset": "BarBench", "method": "FooNet"},
               {"value": 58.7, "kind": "result", "dataset": "BarBench", "method": "GPT-4o"}]
    c = score_claims(swapped, g)
    assert (c.claims_tp, c.claims_fp, c.claims_fn) == (0, 2, 2)
    assert c.dataset_correct == 2                         # datasets right, methods swapped


def test_token_f1():
    assert token_f1("top-1 accuracy", "Top-1 accuracy") == 1.0
    assert token_f1(None, "") == 1.0 and token_f1("", "AUC") == 0.0 and token_f1("AUC", None) == 0.0
    assert token_f1("success rate", "average success rate") == pytest.approx(0.8)


def _write(tmp_path, name, objs):
    p = tmp_path / name
    p.write_text("".join(json.dumps(o) + "\n" for o in objs))
    return str(p)


def test_cli_prints_claim_figures_in_text_and_json(tmp_path):
    recs = _write(tmp_path, "r.jsonl", [_record([_num("31.2%", 31.2, "result", "success rate", "BarBench", "GPT-4o")])])
    gold = _write(tmp_path, "g.jsonl", GOLD)
    out = CliRunner().invoke(main, ["eval", recs, "--gold", gold])
    assert out.exit_code == 0, out.output
    assert "result_claims" in out.stdout and "dataset attachment" in out.stdout and "metric token F1" in out.stdout
    d = json.loads(CliRunner().invoke(main, ["eval", recs, "--gold", gold, "--json"]).stdout)
    assert d["result_claims"]["tp"] == 1 and d["dataset_attachment"]["total"] == 1


def test_cli_no_matched_gold_exits_2(tmp_path):
    other = {"id": "zzz#9", "text": "Something else entirely.", "extraction": None}
    recs = _write(tmp_path, "r.jsonl", [other])
    gold = _write(tmp_path, "g.jsonl", GOLD)
    out = CliRunner().invoke(main, ["eval", recs, "--gold", gold])
    assert out.exit_code == 2
    assert "wrong files?" in out.stderr and len(out.stderr.strip().splitlines()) <= 2
    assert "Exit codes" in CliRunner().invoke(main, ["eval", "--help"]).stdout


# --- the remote path: a model's claim fields, through a real HTTP server ----------------------
def test_remote_answer_claims_are_grounded_and_an_invented_metric_is_reasked(cli, server, tmp_path):
    from conftest import PLAIN, read_jsonl, write_abstracts

    src = write_abstracts(tmp_path / "in.jsonl", [TEXT])
    number = {"text": "31.2%", "value": 31.2, "unit": "%", "kind": "result", "about": "baseline rate",
              "dataset": "BarBench", "method": "GPT-4o"}
    answer = {"task": "verifying plans of language models", "contribution": "method",
              "method_names": ["FooNet"], "datasets": ["BarBench", "QuxSet"]}
    invented = {**answer, "numbers": [{**number, "metric": "top-1 accuracy"}]}
    good = {**answer, "numbers": [{**number, "metric": "success rate"},
                                  {"text": "40.0%", "value": 40.0, "kind": "result", "metric": "success rate",
                                   "dataset": "QuxSet", "method": ""}]}
    server.push({"payload": invented}, {"payload": good})
    out = tmp_path / "o.jsonl"
    assert cli("run", str(src), *PLAIN, server=server, out=out).exit_code == 0
    rec = read_jsonl(out)[0]
    assert rec["provenance"]["attempts"] == 2                     # "top-1 accuracy" is not in the abstract
    assert "top-1 accuracy" in json.dumps(server.requests[1]["body"]["messages"])
    first, second = rec["extraction"]["numbers"]
    assert first["method"]["text"] == "GPT-4o" and first["dataset"]["text"] == "BarBench"
    assert second["method"] == "" and second["metric"]["start"] == TEXT.rindex("success rate")
    for n in (first, second):
        for key in ("metric", "dataset", "method"):
            if isinstance(n[key], dict):
                assert TEXT[n[key]["start"]:n[key]["end"]] == n[key]["text"]
