"""extract.evaluate and `extract eval`: hand-made records against gold with known figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from extract.cli import main
from extract.evaluate import PRF, evaluate, load_jsonl, match_gold, score_names, score_values
from extract.errors import InputError

GOLD_DIR = Path(__file__).parent / "gold"

TEXT1 = "We propose FooNet and evaluate it on BarBench, improving accuracy by 3.2% with 85,229 samples."
TEXT2 = "We study the Baz problem and prove a bound; the rate is 0.5 on QuxSet."

GOLD = [
    {"id": "abc-1", "first_words": TEXT1[:60], "task": "t", "contribution": "method",
     "method_names": ["FooNet"], "datasets": ["BarBench"],
     "numbers": [{"text": "3.2%", "value": 3.2, "kind": "result", "about": ""},
                 {"text": "85,229", "value": 85229.0, "kind": "setting", "about": ""}]},
    {"id": "abc-2", "first_words": TEXT2[:60], "task": "t", "contribution": "theory",
     "method_names": [], "datasets": ["QuxSet"],
     "numbers": [{"text": "0.5", "value": 0.5, "kind": "result", "about": ""}]},
]


def _span(text, s, **kw):
    i = text.index(s)
    return {"text": s, "start": i, "end": i + len(s), "status": "exact", **kw}


def _rec(rid, text, contribution, methods, datasets, numbers):
    return {"id": rid, "text": text, "status": "ok",
            "extraction": {"task": "x", "contribution": contribution,
                           "method_names": methods, "datasets": datasets, "numbers": numbers}}


def _records():
    r1 = _rec("abc_9f#1", TEXT1, "method",
              [_span(TEXT1, "FooNet"), _span(TEXT1, "BarBench")],          # one wrong method
              [_span(TEXT1, "**BarBench**".strip("*"))],
              [_span(TEXT1, "3.2%", value=3.2, kind="result"),
               _span(TEXT1, "85,229", value=85229.00000001, kind="result")])  # kind wrong, value rounding
    r2 = _rec("other#7", TEXT2, "analysis", [], [],                          # matched by first words
              [{"text": "0.5", "start": 0, "end": 3, "value": 0.5, "kind": "result"}])  # bad offsets
    return [r1, r2]


def test_prf_properties():
    p = PRF(2, 1, 1)
    assert (p.precision, p.recall) == (2 / 3, 2 / 3)
    assert p.f1 == pytest.approx(2 / 3)
    assert PRF().precision == PRF().recall == 1.0 and PRF().f1 == 1.0
    assert PRF(0, 0, 3).precision == 0.0 and PRF(0, 2, 0).recall == 0.0


def test_score_names_unwraps_and_ignores_case():
    assert score_names(["**HSQ**", "hyper-spherical  quantization", "X"],
                       ["HSQ", "Hyper-Spherical Quantization"]) == PRF(2, 1, 0)
    assert score_names(["\\texttt{LenCal}"], ["lencal"]) == PRF(1, 0, 0)


def test_score_values_one_to_one_with_tolerance():
    assert score_values([1.0, 1.0, 2.00001], [1.0, 2.0, 3.0]) == PRF(2, 1, 1)
    assert score_values([3e-4 + 1e-19], [0.0003]) == PRF(1, 0, 0)


def test_evaluate_known_figures():
    res = evaluate(_records(), GOLD)
    assert res.matched == 2 and res.unmatched_gold == []
    assert res.method_names == PRF(1, 1, 0)
    assert res.datasets == PRF(1, 0, 1)
    assert res.numbers == PRF(3, 0, 0)
    assert res.result_numbers == PRF(2, 1, 0)
    assert res.contribution_correct == 1 and res.contribution_total == 2
    assert (res.grounded, res.exported) == (5, 6)          # the 0.5 of record 2 has bad offsets
    assert res.macro_f1 == pytest.approx((2 / 3 + 2 / 3 + 1.0) / 3)
    d = res.as_dict()
    assert d["numbers"]["f1"] == 1.0 and d["contribution"]["accuracy"] == 0.5


def test_unmatched_gold_counts_as_misses():
    res = evaluate(_records()[:1], GOLD)
    assert res.unmatched_gold == ["abc-2"]
    assert res.datasets == PRF(1, 0, 1) and res.numbers == PRF(2, 0, 1)
    assert res.contribution_total == 2


def test_matching_rules():
    g = [{"id": "000-3", "first_words": "zzz"}, {"id": "x-1", "first_words": "Hello wor"},
         {"id": "000-1"}]
    recs = [{"id": "000_810fdc#3", "text": "a"}, {"id": "q#5", "text": "Hello world"},
            {"id": "000-1", "text": "b"}, {"id": "001_ab#1", "text": "c"}]
    pairs = match_gold(recs, g)
    assert [r["id"] if r else None for _, r in pairs] == ["000_810fdc#3", "q#5", "000-1"]


def test_custom_schema_records_do_not_crash():
    recs = [{"id": "abc_1#1", "text": TEXT1, "extraction": {"title": "x", "authors": ["a"]}},
            {"id": "abc_1#2", "text": TEXT2, "extraction": "not a dict"}, "junk"]
    res = evaluate(recs, GOLD)
    assert res.matched == 2 and res.method_names == PRF(0, 0, 1)
    assert res.not_understood == ["abc_1#1", "abc_1#2"]


def test_load_jsonl_errors(tmp_path):
    with pytest.raises(InputError):
        load_jsonl(tmp_path / "missing.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"a": 1}\n[1, 2]\n')
    with pytest.raises(InputError, match="line 2"):
        load_jsonl(bad)


def _write(tmp_path, name, objs):
    p = tmp_path / name
    p.write_text("".join(json.dumps(o) + "\n" for o in objs))
    return str(p)


def test_cli_table_and_json(tmp_path):
    recs = _write(tmp_path, "recs.jsonl", _records())
    gold = _write(tmp_path, "gold.jsonl", GOLD)
    runner = CliRunner()
    out = runner.invoke(main, ["eval", recs, "--gold", gold])
    assert out.exit_code == 0, out.output
    assert "method_names" in out.stdout and "grounded rate" in out.stdout
    out = runner.invoke(main, ["eval", recs, "--gold", gold, "--json"])
    assert out.exit_code == 0
    d = json.loads(out.stdout)
    assert d["method_names"]["precision"] == 0.5 and d["numbers"]["f1"] == 1.0


def test_cli_reports_unmatched_on_stderr(tmp_path):
    recs = _write(tmp_path, "recs.jsonl", _records()[:1])
    gold = _write(tmp_path, "gold.jsonl", GOLD)
    out = CliRunner().invoke(main, ["eval", recs, "--gold", gold, "--json"])
    assert out.exit_code == 0
    assert "abc-2" in out.stderr and "abc-2" in json.loads(out.stdout)["unmatched_gold"]


@pytest.mark.parametrize("which", ["records", "gold"])
def test_cli_missing_or_invalid_file_exits_2(tmp_path, which):
    good = _write(tmp_path, "ok.jsonl", GOLD)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    for broken in (str(tmp_path / "missing.jsonl"), str(bad)):
        args = ["eval", broken, "--gold", good] if which == "records" else ["eval", good, "--gold", broken]
        out = CliRunner().invoke(main, args)
        assert out.exit_code == 2
        assert len(out.stderr.strip().splitlines()) == 1 and "error" in out.stderr


@pytest.mark.parametrize("swap", ["both gold", "swapped", "both records"])
def test_cli_refuses_files_of_the_wrong_kind(tmp_path, swap):
    """Swapped or wrong files used to be scored as all misses, exit 0 ("1.000 grounded")."""
    recs = _write(tmp_path, "recs.jsonl", _records())
    gold = _write(tmp_path, "gold.jsonl", GOLD)
    args = {"both gold": [gold, gold], "swapped": [gold, recs], "both records": [recs, recs]}[swap]
    out = CliRunner().invoke(main, ["eval", args[0], "--gold", args[1]])
    assert out.exit_code == 2, out.output
    assert out.stdout == ""
    line = out.stderr.strip()
    assert len(line.splitlines()) == 1 and line.startswith("extract: error:")
    assert "swap" in line


def test_text_table_says_n_a_for_a_figure_over_nothing():
    """'metric token F1 1.000 (over 0 ...)' and 'grounded rate 1.000 (0/0)' read as perfect."""
    from extract.evaluate import format_table
    rec = _rec("abc_9f#2", TEXT2, "theory", [], [], [])
    gold = [{**GOLD[1], "numbers": [], "datasets": []}]
    text = format_table(evaluate([rec], gold))
    assert "metric token F1                        n/a  (over 0 value-matched numbers)" in text
    assert "grounded rate                          n/a  (0/0)" in text
    assert "dataset attachment                     n/a" in text
    assert "the gold has no claim fields" in format_table(evaluate(_records(), GOLD))
    # GOLD has no claim fields: its claim figures are n/a (issue 19); with a metric field each:
    claimed = [{**g, "numbers": [{**n, "metric": ""} for n in g["numbers"]]} for g in GOLD]
    scored = format_table(evaluate(_records(), claimed))
    assert "metric token F1                      1.000  (over 3" in scored
    assert "grounded rate                        0.833  (5/6)" in scored


def test_shipped_gold_files_are_valid():
    for name in ("dev-gold.jsonl", "written-gold.jsonl", "holdout-gold.jsonl", "fresh-gold.jsonl",
                 "extra-gold.jsonl", "final-gold.jsonl", "sixth-gold.jsonl", "blind-gold.jsonl"):
        gold = load_jsonl(GOLD_DIR / name)
        stem = name.replace("-gold.jsonl", "-abstracts.txt")
        texts = None
        if (GOLD_DIR / stem).exists():
            lines = (GOLD_DIR / stem).read_text().split("\n")[1:]
            texts = [line for line in lines if line.strip()]
            assert len(texts) == len(gold)
        for i, g in enumerate(gold):
            assert set(g) == {"id", "first_words", "task", "contribution", "method_names", "datasets", "numbers"}
            assert g["contribution"] in {"method", "benchmark", "dataset", "analysis", "theory", "system"}
            if texts is not None:
                t = texts[i]
                assert t.startswith(g["first_words"])
                for s in g["method_names"] + g["datasets"] + [n["text"] for n in g["numbers"]]:
                    assert s in t, s
