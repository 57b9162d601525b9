"""Absolute value or change, and the system a change is measured against (claim_change), from
the rules to the record, `extract eval`, the table, the report's charts and triage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extract.candidates import find_candidates
from extract.candidates.claim_change import CHANGE_RULES, COMPARED_RULES, PARALLEL_RULE
from extract.candidates.claims import attach_claims
from extract.candidates.rules import trace
from extract.decision import decide
from extract.evaluate import evaluate, format_table
from extract.evaluate_claims import score_claims
from extract.records import paper_from_record
from extract.report_charts import comparison_charts
from extract.schemas.paper import NumberMention, PaperExtraction
from extract.table import build_rows
from extract.table_render import render_rows
from extract.triage import paper_flags

ROOT = Path(__file__).resolve().parents[1]
NAMES = ["FooNet", "PromptRank", "OFA", "LoRA", "GPT-4o"]
DATASETS = ["ChronusAV", "WMT14", "WMT16", "GLUE", "ImageNet"]


def changes(text: str, methods=("FooNet",), datasets=()) -> dict[str, tuple[str, str | None]]:
    """{number text: (value type, compared system)} with the rules' own number candidates."""
    nums = find_candidates(text).numbers
    out = {}
    for n, c in zip(nums, attach_claims(text, nums, list(methods), list(datasets) or
                                        [d for d in DATASETS if d in text])):
        if c.compared_to is not None:
            assert text[c.compared_to.start:c.compared_to.end] == c.compared_to.text   # a span
        out[n.text] = (c.value_type, c.compared_to.text if c.compared_to else None)
    return out


@pytest.mark.parametrize("name,example", [(r[0], r[1]) for r in CHANGE_RULES + (PARALLEL_RULE,)])
def test_every_value_type_rule_example_fires_its_rule(name, example):
    nums = find_candidates(example).numbers
    assert nums, example
    methods = [m for m in NAMES if m in example]
    claims = attach_claims(example, nums, methods[:1], [d for d in DATASETS if d in example])
    assert name in {c.change_rules[0] for c in claims}, (name, example, [c.change_rules for c in claims])


@pytest.mark.parametrize("name,example", [(r[0], r[1]) for r in COMPARED_RULES])
def test_every_compared_rule_example_fires_its_rule(name, example):
    nums = find_candidates(example).numbers
    claims = attach_claims(example, nums, ["FooNet"], [])
    assert name in {c.change_rules[1] for c in claims}, (name, example)


def test_rule_firings_are_traced_per_alternative():
    with trace() as fired:
        decide("FooNet outperforms PromptRank by 9.43% on average and needs 40% fewer FLOPs.")
    assert {"change:verb-by/outperform", "compared:compare-cue/outperform", "change:comparative/fewer"} <= fired


@pytest.mark.parametrize("text,want", [
    # changes and what they are measured against
    ("FooNet outperforms PromptRank by 9.43%, 7.68%, and 4.82% in F1@5.",
     {"9.43%": ("change", "PromptRank"), "7.68%": ("change", "PromptRank"), "4.82%": ("change", "PromptRank")}),
    ("FooNet gains +8.26% over OFA on ChronusAV.", {"+8.26%": ("change", "OFA")}),
    ("Compared with LoRA, FooNet improves accuracy by 5% on GLUE.", {"5%": ("change", "LoRA")}),
    ("FooNet reaches 91.2% top-1 accuracy, 3.1 points higher than GPT-4o.",
     {"91.2%": ("absolute", None), "3.1": ("change", "GPT-4o")}),
    ("FooNet is 2.5x faster and uses 40% fewer FLOPs than the baseline.",
     {"2.5x": ("change", None), "40%": ("change", None)}),
    ("FooNet improves BLEU by 2.1 on WMT14 and by 1.3 on WMT16.", {"2.1": ("change", None), "1.3": ("change", None)}),
    ("FooNet improves joint accuracy by 28.16% on MultiWOZ 2.0 and 8.41% on MultiWOZ 2.4.",    # a version's point
     {"28.16%": ("change", None), "8.41%": ("change", None)}),
    ("MLLMs show an average accuracy drop of 18% in end-to-end parsing and 12% in translation.",
     {"18%": ("change", None), "12%": ("change", None)}),
    ("FooNet outperforms them by margins of 4.8% mAP 5.4% AP50 and 3.9% mIoU.",
     {"4.8%": ("change", None), "5.4%": ("change", None), "3.9%": ("change", None)}),
    # absolute values
    ("On GLUE, FooNet attains within 0.8% of the performance of full fine-tuning, adding only 3.6% parameters.",
     {"0.8%": ("change", None), "3.6%": ("absolute", None)}),
    ("FooNet reaches 81.0% accuracy on CIFAR-10 (i.e., increased by 19.3 percent points), 35.3% accuracy on CIFAR-100.",
     {"81.0%": ("absolute", None), "35.3%": ("absolute", None)}),
    ("FooNet raises accuracy from 31.2% to 58.7% on ImageNet.", {"31.2%": ("absolute", None), "58.7%": ("absolute", None)}),
    ("FooNet reaches 91% success, compared to 73% for the baseline.", {"91%": ("absolute", None), "73%": ("absolute", None)}),
    ("We train on 224×224 images with 3 larger models.", {"224": ("absolute", None), "3": ("absolute", None)}),
])
def test_value_type_and_compared_system(text, want):
    got = changes(text)
    assert {k: got[k] for k in want} == want, got


def test_compared_system_is_never_the_gainer_and_generic_acronyms_are_no_system():
    got = changes("FooNet improves GPT-4o's accuracy by 4% on GLUE.", methods=("FooNet",))
    assert got["4%"] == ("change", "GPT-4o")
    got = changes("FooNet improves GPT-4o's accuracy by 4% over SOTA.", methods=("FooNet",))
    assert got["4%"] == ("change", None)            # its own reference follows it, unnamed
    got = changes("FooNet cuts error by 30% over SPR and by 27% over deep learning based SotA methods.")
    assert (got["30%"], got["27%"]) == (("change", "SPR"), ("change", None))
    assert changes("FooNet beats LSTMs by 3% and SNN-based models by 12%.") == {"3%": ("change", None),
                                                                              "12%": ("change", None)}
    got = changes("FooNet outperforms PromptRank by 9.4%.", methods=("PromptRank",))
    assert got["9.4%"] == ("change", None)          # the number's own method is not its reference
    assert changes("FooNet beats LLMs by 12%.")["12%"] == ("change", None)


def test_rules_decision_carries_the_fields():
    fields = decide("We propose FooNet. FooNet outperforms PromptRank by 9.43% and reaches 71.2% F1 on Inspec.")
    by = {n["text"]: n for n in fields["numbers"]}
    assert (by["9.43%"]["value_type"], by["9.43%"]["compared_to"]) == ("change", "PromptRank")
    assert (by["71.2%"]["value_type"], by["71.2%"]["compared_to"]) == ("absolute", None)


# --- the record --------------------------------------------------------------------------
TEXT = "We propose FooNet. FooNet outperforms PromptRank by 9.43% and reaches 71.2% F1 on Inspec."


def _export(**over):
    n = dict(text="9.43%", value=9.43, kind="result", metric="F1", dataset=None, method="FooNet",
             value_type="change", compared_to="PromptRank")
    n.update(over)
    return PaperExtraction(task="keyphrase extraction with language models", contribution="method",
                           method_names=["FooNet"], datasets=["Inspec"], numbers=[NumberMention(**n)]).export(TEXT)


def test_export_grounds_the_compared_system():
    ext, dropped = _export()
    n = ext["numbers"][0]
    assert dropped == [] and n["value_type"] == "change"
    assert TEXT[n["compared_to"]["start"]:n["compared_to"]["end"]] == "PromptRank"


@pytest.mark.parametrize("over", [{"value_type": "absolute"}, {"compared_to": "FooNet"}, {"compared_to": None},
                                  {"compared_to": " "}])
def test_export_compared_system_only_for_a_change_against_another_system(over):
    ext, _ = _export(**over)
    assert ext["numbers"][0]["compared_to"] is None


def test_default_is_absolute_and_a_bad_value_type_is_rejected():
    assert NumberMention(text="1", value=1, kind="result").value_type == "absolute"
    with pytest.raises(ValueError):
        NumberMention(text="1", value=1, kind="result", value_type="gain")


def test_records_without_the_fields_read_as_absolute():
    text = "FooNet improves accuracy by 5%."
    rec = {"id": "a", "text": text, "extraction": {"task": "t", "contribution": "method", "method_names": [],
           "datasets": [], "numbers": [{"text": "5%", "start": 28, "end": 30, "value": 5, "kind": "result"}]}}
    n = paper_from_record(rec).numbers[0]
    assert n.value_type == "absolute" and n.compared_to is None and not n.is_change


# --- extract eval ------------------------------------------------------------------------
def _num(text, value, vt=None, compared=None, **kw):
    d = {"text": text, "value": value, "kind": "result", "metric": "", "dataset": None, "method": None, **kw}
    if vt is not None:
        d.update(value_type=vt, compared_to=compared)
    return d


def test_eval_scores_changes_and_compared_systems():
    gold = [_num("9.43%", 9.43, "change", "PromptRank"), _num("71.2%", 71.2, "absolute"),
            _num("5%", 5, "change"), _num("3x", 3, "change", "OFA")]
    pred = [_num("9.43%", 9.43, "change", {"text": "PromptRank", "start": 0, "end": 10}),
            _num("71.2%", 71.2, "change", "GPT-4o"),     # a score read as a gain: fp, and a compared fp
            _num("5%", 5),                                # no field: absolute, a missed change
            _num("3x", 3, "change", None)]                # compared system missed
    c = score_claims(pred, gold)
    assert (c.labeled, c.change_tp, c.change_fp, c.change_fn) == (4, 2, 1, 1)
    assert (c.compared_tp, c.compared_fp, c.compared_fn) == (1, 1, 1)


def test_eval_without_labels_says_na():
    rec = {"id": "x", "text": "it reaches 5%", "extraction": {"task": "t", "contribution": "method",
           "method_names": [], "datasets": [], "numbers": [_num("5%", 5)]}}
    res = evaluate([rec], [{"id": "x", "first_words": "it", "contribution": "method", "method_names": [],
                            "datasets": [], "numbers": [_num("5%", 5)]}])
    assert res.claims.labeled == 0 and "changes (value_type)                   n/a" in format_table(res)
    assert res.as_dict()["changes"]["pairs"] == 0


def test_dev_and_dev2_gold_carry_the_fields_on_every_number():
    for path in (ROOT / "tests/gold/dev-gold.jsonl", ROOT / "tests/gold/dev2/gold.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            g = json.loads(line)
            for n in g["numbers"]:
                assert n["value_type"] in ("absolute", "change"), (g["id"], n)
                assert n["compared_to"] is None or (n["value_type"] == "change" and n["compared_to"] != n["method"])


# --- table, report charts, triage --------------------------------------------------------
CHART_TEXT = "On QuALITY, LongMix reaches 45.3 F1 and BaseMix 41.0 F1; LongMix improves F1 by 3.1 points over BaseMix."


def _paper(pid: str, numbers: list[dict], text: str = CHART_TEXT):
    def span(s, nth=0):
        i = -1
        for _ in range(nth + 1):
            i = text.index(s, i + 1)
        return {"text": s, "start": i, "end": i + len(s)}
    nums = []
    for n in numbers:
        d = {**span(n["text"], n.get("nth", 0)), "value": n["value"], "unit": None, "kind": "result",
             "metric": span("F1"), "dataset": span("QuALITY"), "method": span(n["method"]),
             "value_type": n.get("value_type", "absolute")}
        if n.get("compared_to"):
            d["compared_to"] = span(n["compared_to"], 1)
        nums.append(d)
    return paper_from_record({"id": pid, "text": text, "extraction": {
        "task": "long-context reading", "contribution": "method", "method_names": [span("LongMix")],
        "datasets": [span("QuALITY")], "numbers": nums}})


PAPERS = [_paper("a", [{"text": "45.3", "value": 45.3, "method": "LongMix"},
                       {"text": "41.0", "value": 41.0, "method": "BaseMix"},
                       {"text": "3.1", "value": 3.1, "method": "LongMix", "value_type": "change",
                        "compared_to": "BaseMix"}])]


def test_table_keeps_changes_in_their_own_column_after_absolute_values():
    rows = build_rows(PAPERS, "dataset")
    assert [(r.text, r.value_type) for r in rows] == [("45.3", "absolute"), ("41.0", "absolute"), ("3.1", "change")]
    assert rows[2].compared_to == "BaseMix"
    md = render_rows(rows, "dataset", "markdown")
    head, _, *body = [ln for ln in md.splitlines() if ln.startswith("|")]
    cols = [c.strip() for c in head.strip("|").split("|")]
    cells = [dict(zip(cols, (c.strip() for c in ln.strip("|").split("|")))) for ln in body]
    assert cols[2:5] == ["Value", "Change", "vs"]
    assert (cells[0]["Value"], cells[0]["Change"]) == ("45.3", "—")
    assert (cells[2]["Value"], cells[2]["Change"], cells[2]["vs"]) == ("—", "3.1", "BaseMix")
    csv_head = render_rows(rows, "dataset", "csv").splitlines()[0].split(",")
    assert "value_type" in csv_head and "compared_to" in csv_head


def test_report_never_charts_a_change_beside_scores():
    rows = build_rows(PAPERS + [_paper("b", [{"text": "45.3", "value": 45.3, "method": "LongMix"},
                                              {"text": "3.1", "value": 3.1, "method": "LongMix",
                                               "value_type": "change", "compared_to": "BaseMix"}])], "dataset")
    charts = comparison_charts(rows)
    assert sorted((c.value_type, len(c.bars)) for c in charts) == [("absolute", 3), ("change", 2)]
    change = next(c for c in charts if c.value_type == "change")
    assert change.title.endswith("· change") and all("vs BaseMix" in b.label for b in change.bars)


def test_report_rows_hold_a_change_apart_from_the_value():
    from extract.report import build_data
    from extract.records import RecordSet
    rows = build_data(RecordSet(Path("x.jsonl"), papers=PAPERS))["rows"]
    change = next(r for r in rows if r[10] is not None)
    assert change[3] is None and change[8] is None and change[10] == 3.1 and change[12] == "BaseMix"
    assert all(r[10] is None and r[3] is not None for r in rows if r is not change)


def test_triage_asks_what_an_unreferenced_change_is_measured_against():
    text = "We propose FooNet. FooNet improves accuracy by 5% on GLUE."
    rec = {"id": "t", "text": text, "extraction": {"task": "t", "contribution": "method",
           "method_names": [{"text": "FooNet", "start": 11, "end": 17}], "datasets": [
               {"text": "GLUE", "start": text.index("GLUE"), "end": text.index("GLUE") + 4}],
           "numbers": [{"text": "5%", "start": text.index("5%"), "end": text.index("5%") + 2, "value": 5,
                        "kind": "result", "metric": None, "dataset": None, "method": None, "value_type": "change"}]}}
    assert "change_no_reference" in {f.code for f in paper_flags(paper_from_record(rec))}
    rec2 = json.loads(json.dumps(rec).replace("on GLUE.", "on GLUE over the baseline model."))
    rec2["text"] = text.replace("on GLUE.", "on GLUE over the baseline model.")
    assert "change_no_reference" not in {f.code for f in paper_flags(paper_from_record(rec2))}
    rec3 = json.loads(json.dumps(rec))
    rec3["extraction"]["numbers"][0]["value_type"] = "absolute"
    assert "change_no_reference" not in {f.code for f in paper_flags(paper_from_record(rec3))}


# --- the hybrid job: the model can set them ----------------------------------------------
HYBRID_ABSTRACT = ("We propose FooNet, which improves top-1 accuracy by 3.2% on BarBench over the "
                   "MegaBaseline model, using 120 GPUs.")


def _hybrid_answer(n1: dict) -> dict:
    return {"task": "image classification with tokenizers", "contribution": "method",
            "names": {}, "more_methods": [], "more_datasets": [],
            "numbers": {"@N1": {"kind": "result", "metric": "top-1 accuracy", "dataset": None, "method": "FooNet", **n1},
                        "@N2": {"kind": "setting", "metric": "GPUs", "dataset": None, "method": None}}}


def test_hybrid_mapping_takes_the_models_reading_only_where_the_policy_says():
    from extract import hybrid
    p = hybrid.propose(HYBRID_ABSTRACT)
    assert "; change vs " in p.listing().splitlines()[-2]         # the rules' reading is shown
    model = hybrid.answer_model(p, hybrid.contributions(PaperExtraction))

    def n1(decision: dict, combine) -> tuple:
        ans = model.model_validate(_hybrid_answer(decision), context={"source": p.text})
        n = hybrid.to_fields(p, ans, combine)["numbers"][0]
        return n["value_type"], n["compared_to"]
    rules, by_model = hybrid.Combine.everything("rules"), hybrid.Combine.everything("model")
    assert n1({}, rules) == n1({}, by_model) == ("change", "MegaBaseline")        # no answer: the rules'
    assert n1({"value_type": "absolute", "compared_to": "MegaBaseline"}, by_model) == ("absolute", None)
    assert n1({"value_type": "absolute"}, rules) == ("change", "MegaBaseline")
    assert n1({"value_type": "change", "compared_to": None}, by_model) == ("change", None)


def test_hybrid_answer_reaches_the_record_as_a_span(cli, server, tmp_path):
    from conftest import read_jsonl
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps({"id": "p1", "abstract": HYBRID_ABSTRACT}) + "\n")
    server.push({"payload": _hybrid_answer({"value_type": "change", "compared_to": "MegaBaseline"})})
    out = tmp_path / "out.jsonl"
    r = cli("run", str(inp), "--prompt", "hybrid", "--decide", "model", server=server, out=out)
    assert r.exit_code == 0, r.stderr
    n1, n2 = read_jsonl(out)[0]["extraction"]["numbers"]
    assert n1["value_type"] == "change" and n2["value_type"] == "absolute" and n2["compared_to"] is None
    span = n1["compared_to"]
    assert HYBRID_ABSTRACT[span["start"]:span["end"]] == "MegaBaseline"


def test_a_change_against_a_named_system_is_a_comparison_for_triage():
    text = "We propose FooNet. FooNet gains 3.1 F1 on GLUE; BarNet trails."
    at = text.index("3.1")
    num = {"text": "3.1", "start": at, "end": at + 3, "value": 3.1, "kind": "result",
           "metric": {"text": "F1", "start": at + 4, "end": at + 6}, "dataset": None,
           "method": {"text": "FooNet", "start": 19, "end": 25}, "value_type": "change",
           "compared_to": {"text": "BarNet", "start": text.index("BarNet"), "end": text.index("BarNet") + 6}}
    rec = {"id": "t", "text": text, "extraction": {"task": "t", "contribution": "method",
           "method_names": [{"text": "FooNet", "start": 11, "end": 17}], "datasets": [], "numbers": [num]}}
    assert "no_comparison" not in {f.code for f in paper_flags(paper_from_record(rec))}
    num["value_type"], num["compared_to"] = "absolute", None
    assert "no_comparison" in {f.code for f in paper_flags(paper_from_record(rec))}


def test_a_title_case_name_is_a_compared_system():
    """"over Faster R-CNN", "than Polygon-RNN++", "compared to Hard Thresholding": a Title Case name
    of up to three words; "over naive Monte Carlo sampling methods" is a class of systems."""
    got = changes("FooNet shows a 6% AP improvement over the Faster R-CNN baseline and is 10x faster than "
                  "Polygon-RNN++.")
    assert got["6%"] == ("change", "Faster R-CNN") and got["10x"] == ("change", "Polygon-RNN++")
    got = changes("FooNet achieves 10% higher accuracy compared to Hard Thresholding.")
    assert got["10%"] == ("change", "Hard Thresholding")
    got = changes("FooNet accelerates evaluation by 20 times over naive Monte Carlo sampling methods.")
    assert got["20"] == ("change", None)


def test_a_range_is_compared_jointly_not_paired():
    """"3-35x speedup over A and B" is one quantity against two systems: no single one; a list of
    two is paired in order."""
    got = changes("FooNet achieves 3-35x measured speedup over MinkowskiNet and KPConv.")
    assert got["3"] == ("change", None) and got["35x"] == ("change", None)
    got = changes("FooNet is 3x and 35x faster than MinkowskiNet and KPConv, respectively.")
    assert got == {"3x": ("change", "MinkowskiNet"), "35x": ("change", "KPConv")}
