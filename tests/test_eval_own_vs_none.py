"""extract eval (issue 19): "" (the paper's own unnamed method) and null (no system) agree in
the headline result-claims figure, and the confusions are counted beside it, each way; a
gold file without claim fields says it has none instead of printing near-zero figures."""

from __future__ import annotations

import json

from click.testing import CliRunner

from extract.cli import main
from extract.evaluate import evaluate, format_table

TEXT = "Our method reaches 40.0% on QuxSet; the dataset has 12 tasks and humans reach 70.5% on QuxSet."


def _span(s):
    i = TEXT.index(s)
    return {"text": s, "start": i, "end": i + len(s), "status": "exact"}


def _num(text, value, method, kind="result"):
    return {**_span(text), "value": value, "unit": "%", "kind": kind, "about": "",
            "metric": None, "dataset": _span("QuxSet"), "method": method}


RECORD = {"id": "g-1", "text": TEXT, "extraction": {
    "task": "x", "contribution": "method", "method_names": [], "datasets": [_span("QuxSet")],
    "numbers": [_num("40.0%", 40.0, None),        # gold "": own method read as no system
                _num("70.5%", 70.5, "")]}}        # gold null: humans read as the paper's own

GOLD = {"id": "g-1", "first_words": TEXT[:40], "task": "t", "contribution": "method",
        "method_names": [], "datasets": ["QuxSet"], "numbers": [
            {"text": "40.0%", "value": 40.0, "kind": "result", "metric": "", "dataset": "QuxSet", "method": ""},
            {"text": "70.5%", "value": 70.5, "kind": "result", "metric": "", "dataset": "QuxSet", "method": None}]}


def test_headline_claims_keep_agreeing_and_the_confusions_are_counted_each_way():
    res = evaluate([RECORD], [GOLD])
    assert (res.result_claims.tp, res.result_claims.fp, res.result_claims.fn) == (2, 0, 0)   # as before
    assert (res.claims.own_as_none, res.claims.none_as_own) == (1, 1)
    d = res.as_dict()
    assert d["method_own_vs_none"] == {"own_as_none": 1, "none_as_own": 1}
    assert "own method vs no system" in format_table(res)


def test_a_right_reading_confuses_nothing():
    right = json.loads(json.dumps(RECORD))
    right["extraction"]["numbers"][0]["method"] = ""
    right["extraction"]["numbers"][1]["method"] = None
    res = evaluate([right], [GOLD])
    assert (res.claims.own_as_none, res.claims.none_as_own) == (0, 0)


def test_gold_without_claim_fields_says_so(tmp_path):
    bare = {k: v for k, v in GOLD.items()}
    bare["numbers"] = [{k: v for k, v in n.items() if k not in ("metric", "dataset", "method")}
                       for n in GOLD["numbers"]]
    recs, gold = tmp_path / "r.jsonl", tmp_path / "g.jsonl"
    recs.write_text(json.dumps(RECORD) + "\n")
    gold.write_text(json.dumps(bare) + "\n")
    r = CliRunner().invoke(main, ["eval", str(recs), "--gold", str(gold)])
    assert r.exit_code == 0, r.output
    assert "has no claim fields" in r.stderr
    row = next(line for line in r.stdout.splitlines() if line.startswith("result_claims"))
    assert row.split()[1:] == ["n/a", "n/a", "n/a"]
    assert "dataset attachment" not in r.stdout
    d = json.loads(CliRunner().invoke(main, ["eval", str(recs), "--gold", str(gold), "--json"]).stdout)
    assert d["result_claims"] is None and d["dataset_attachment"] is None and d["gold_claim_fields"] == 0
    assert d["numbers"]["f1"] == 1.0          # the other figures are scored as ever
