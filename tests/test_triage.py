"""extract triage: every flag fires on a record built for it and not on one built to pass."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from extract.cli.triage import triage as triage_cmd
from extract.records import load_records, paper_from_record
from extract.triage import FLAG_TYPES, paper_flags, triage
from extract.triage_render import render

from test_table import num, rec, write

FIXTURE = Path(__file__).parent / "fixtures" / "records-sample.jsonl"

# A record that raises nothing: dataset named, results with a baseline, numbers grounded.
CLEAN_TEXT = ("We propose FooNet for question answering. On ToyQA, FooNet reaches 71.2% accuracy, "
              "4.1 points higher than BarNet, using 7 layers.")


def clean(**kw):
    base = dict(methods=["FooNet"], datasets=["ToyQA"],
                numbers=[num("71.2%", 71.2, "%", "result", "accuracy", "ToyQA", "FooNet"),
                         num("4.1 points", 4.1, "pp", "result", "accuracy", "ToyQA", "FooNet"),
                         num("7", 7, None, "setting", "layers", None, "FooNet")])
    base.update(kw)
    text = base.pop("text", CLEAN_TEXT)
    base["numbers"] = [n if isinstance(n, tuple) else
                       dict(n, **{k: None for k in ("metric", "dataset", "method") if n[k] and n[k] not in text})
                       for n in base["numbers"]]
    return rec("p", text, **base)


def codes(record) -> set[str]:
    return {f.code for f in paper_flags(paper_from_record(record))}


def flag(record, code):
    return next(f for f in paper_flags(paper_from_record(record)) if f.code == code)


def test_clean_record_has_no_flags():
    assert codes(clean()) == set()


def test_partial():
    r = clean()
    r["dropped"] = ["ToyQA-v2"]
    f = flag(r, "partial")
    assert f.evidence[0].text == "ToyQA-v2" and f.weight == FLAG_TYPES["partial"].weight
    assert "partial" not in codes(clean())


def test_number_not_in_source_offsets_and_absent():
    r = clean()
    r["extraction"]["numbers"][0]["start"] += 1
    r["extraction"]["numbers"][0]["end"] += 1
    r["extraction"]["numbers"][2]["text"] = "9"  # not in the text at all
    f = flag(r, "number_not_in_source")
    notes = [e.note for e in f.evidence]
    assert len(notes) == 2 and "offsets" in notes[0] and "not in the text" in notes[1]
    r2 = clean()
    del r2["extraction"]["numbers"][0]["start"]
    assert "number_not_in_source" in codes(r2)
    assert "number_not_in_source" not in codes(clean())


def test_value_mismatch():
    r = clean()
    r["extraction"]["numbers"][0]["value"] = 7.12  # '71.2%' read wrong
    f = flag(r, "value_mismatch")
    assert f.evidence[0].text == "71.2%" and "7.12" in f.evidence[0].note
    ok = clean(text="FooNet on ToyQA: 85,229 items, 80B parameters, 0.5% error, 10^{-3} rate, better than BarNet.",
               numbers=[("85,229", 85229, None, "setting", "items"), ("80B", 8e10, "B", "setting", "params"),
                        ("0.5%", 0.005, "%", "result", "error"), ("10^{-3}", 0.001, None, "setting", "rate")])
    assert "value_mismatch" not in codes(ok)
    bad = clean(text="FooNet on ToyQA: 85,229 items, better than BarNet.",
                numbers=[("85,229", 85.229, None, "setting", "items")])
    assert "value_mismatch" in codes(bad)
    assert "value_mismatch" not in codes(clean())


def test_name_not_in_source():
    r = clean()
    r["extraction"]["datasets"][0]["start"] = 0
    assert "name_not_in_source" in codes(r)
    assert "name_not_in_source" not in codes(clean())


@pytest.mark.parametrize("text,fires", [
    ("We propose FooNet. On ToyQA, FooNet reaches 71.2% accuracy, 4.1 points with 7 layers.", True),
    ("We propose FooNet. On ToyQA, FooNet reaches 71.2% accuracy, 4.1 points above average with 7 layers.", True),
    ("We propose FooNet. On ToyQA, FooNet reaches 71.2% accuracy, 4.1 points above BarNet with 7 layers.", False),
    ("We propose FooNet. On ToyQA, FooNet reaches 71.2% accuracy, 4.1 points over BarNet with 7 layers.", False),
    ("We propose FooNet. On ToyQA, FooNet outperforms prior methods: 71.2% accuracy, 4.1 points, 7 layers.", False),
    ("We propose FooNet. On ToyQA, rather than more than 3 layers, FooNet reaches 71.2% with 4.1 points, 7 layers.", True),
    ("We propose FooNet. Compared with the baseline, FooNet on ToyQA reaches 71.2% (4.1 points) with 7 layers.", False),
])
def test_no_comparison(text, fires):
    r = clean(text=text)
    assert ("no_comparison" in codes(r)) is fires
    if fires:
        ev = flag(r, "no_comparison").evidence
        assert len(ev) == 1 and "«71.2%»" in ev[0].context and "«4.1 points»" in ev[0].context


def test_no_comparison_needs_a_result():
    r = clean(numbers=[("7", 7, None, "setting", "layers")],
              text="FooNet on ToyQA uses 7 layers.")
    assert "no_comparison" not in codes(r)


def test_unsupported_superlative():
    r = clean(text=CLEAN_TEXT + " FooNet achieves state-of-the-art results and significantly improves robustness.")
    f = flag(r, "unsupported_superlative")
    assert len(f.evidence) == 1  # one sentence, both words marked
    assert "«state-of-the-art»" in f.evidence[0].context and "«significantly»" in f.evidence[0].context
    r2 = clean(text="We propose FooNet. On ToyQA, FooNet significantly outperforms BarNet: 71.2% accuracy, "
                    "4.1 points, 7 layers.")
    assert "unsupported_superlative" not in codes(r2)  # the number is in the same sentence
    assert "unsupported_superlative" not in codes(clean())


def test_superlative_about_others_is_not_a_claim():
    r = clean(text=CLEAN_TEXT + " It stays robust against state-of-the-art defenses.")
    assert "unsupported_superlative" not in codes(r)
    r = clean(text=CLEAN_TEXT + " It sets a new state of the art on reasoning.")
    assert "unsupported_superlative" in codes(r)


def test_superlative_in_background_sentences_is_not_counted():
    background = ("Large language models achieve state-of-the-art results and significantly improve "
                  "reasoning. Existing methods substantially degrade under noise. ")
    r = clean(text=background + CLEAN_TEXT)
    assert "unsupported_superlative" not in codes(r)
    r = clean(text=background + CLEAN_TEXT + " Our approach dramatically improves robustness.")
    f = flag(r, "unsupported_superlative")
    assert [e.text for e in f.evidence] == ["dramatically"]


def test_comparison_cue_in_background_is_not_a_baseline():
    text = ("Prior methods outperform simple baselines on ToyQA. We propose FooNet. FooNet reaches 71.2% "
            "accuracy, 4.1 points with 7 layers.")
    assert "no_comparison" in codes(clean(text=text))


def test_a_compared_system_in_the_claims_is_a_baseline():
    text = "We propose FooNet. On ToyQA, FooNet reaches 71.2% accuracy and BarNet 4.1 points less, with 7 layers."
    r = clean(text=text, methods=["FooNet"],
              numbers=[num("71.2%", 71.2, "%", "result", "accuracy", "ToyQA", "FooNet"),
                       num("4.1 points", 4.1, "pp", "result", "accuracy", "ToyQA", "BarNet"),
                       num("7", 7, None, "setting", "layers", None, "FooNet")])
    assert "no_comparison" not in codes(r)
    r["extraction"]["numbers"][1]["method"] = r["extraction"]["numbers"][0]["method"]
    assert "no_comparison" in codes(r)


UNSTATED = ("We propose FooNet for question answering on ToyQA. FooNet reaches 71.2%, "
            "4.1 points over BarNet, using 7 layers.")


def test_result_without_metric_or_dataset():
    r = clean(text=UNSTATED, numbers=[num("71.2%", 71.2, "%", "result", None, "ToyQA", "FooNet"),
                                      num("4.1 points", 4.1, "pp", "result", "accuracy", None, "FooNet"),
                                      num("7", 7, None, "setting", None, None, "FooNet")])
    assert flag(r, "result_no_metric").evidence[0].text == "71.2%"
    assert [e.text for e in flag(r, "result_no_dataset").evidence] == ["4.1 points"]
    no_ds = clean(text="We propose FooNet. Experiments show that FooNet reaches 71.2% accuracy.",
                  datasets=[], numbers=[num("71.2%", 71.2, "%", "result", "accuracy", None, "FooNet")])
    assert "result_no_dataset" not in codes(no_ds) and "no_dataset" in codes(no_ds)  # said once
    old = clean()
    for n in old["extraction"]["numbers"]:
        for k in ("metric", "dataset", "method"):
            del n[k]
    assert not ({"result_no_metric", "result_no_dataset"} & codes(old))  # records made before claims


def test_per_item_flags_widen_the_score():
    one = clean(text=UNSTATED, numbers=[num("71.2%", 71.2, "%", "result", None, "ToyQA", "FooNet")])
    three = clean(text=UNSTATED, numbers=[num(t, v, u, "result", None, "ToyQA", "FooNet")
                           for t, v, u in (("71.2%", 71.2, "%"), ("4.1 points", 4.1, "pp"), ("7", 7, None))])
    score = {k: sum(f.points for f in paper_flags(paper_from_record(r))) for k, r in (("one", one), ("three", three))}
    w = FLAG_TYPES["result_no_metric"].weight
    assert score["one"] == w and score["three"] == 3 * w


def test_fixture_scores_spread():
    items = triage(load_records(FIXTURE, warn=lambda m: None))
    assert len({t.score for t in items}) >= 7


def test_settings_only():
    r = clean(numbers=[("7", 7, None, "setting", "layers")])
    f = flag(r, "settings_only")
    assert f.evidence[0].text == "7" and f.evidence[0].note == "layers"
    assert "settings_only" not in codes(clean())


def test_no_numbers_and_no_dataset_and_theory_exemption():
    text = "We propose FooNet and evaluate it in experiments on question answering."
    r = clean(text=text, datasets=[], numbers=[])
    assert {"no_numbers", "no_dataset"} <= codes(r)
    assert flag(r, "no_dataset").evidence[0].text in ("evaluate", "experiments")
    r["extraction"]["contribution"] = "theory"
    assert not ({"no_numbers", "no_dataset"} & codes(r))
    assert not ({"no_numbers", "no_dataset"} & codes(clean()))


def test_other_schema_is_shown_not_scored(tmp_path):
    p = write(tmp_path, [{"id": "c", "text": "Some abstract.", "extraction": {"sentiment": "positive"}}])
    (t,) = triage(load_records(p, warn=lambda m: None))
    assert [f.code for f in t.flags] == ["other_schema"] and t.score == 0


def test_failed_from_errors_file_and_ordering(tmp_path):
    ok = clean()
    bad = clean()
    bad["id"] = "q"
    bad["dropped"] = ["x"]
    bad["extraction"]["datasets"] = []
    p = write(tmp_path, [ok, bad])
    (tmp_path / "out.errors.jsonl").write_text(
        json.dumps({"id": "f1", "source": "x.txt:9", "reason": "schema failure", "attempts": 3}) + "\n",
        encoding="utf-8")
    items = triage(load_records(p, warn=lambda m: None))
    assert [t.id for t in items] == ["f1", "q", "p"]
    assert items[0].failed and items[0].flags[0].code == "failed"
    assert "schema failure" in items[0].flags[0].evidence[0].note
    # (the text names ToyQA and reports no evaluation beyond it: no "no dataset named")
    assert items[1].score == FLAG_TYPES["partial"].weight
    assert items[2].score == 0


def test_fixture_text_names_every_paper():
    rs = load_records(FIXTURE, warn=lambda m: None)
    out = render(rs, "text")
    for p in rs.papers:
        assert f"  {p.id}" in out
    first = out.split("\n\n")[1]
    assert "synthetic#2" in first  # highest score first


def run(args):
    return CliRunner().invoke(triage_cmd, args, catch_exceptions=False)


def test_cli_text_json_csv(tmp_path):
    r = run([str(FIXTURE)])
    assert r.exit_code == 0 and "27 papers" in r.stdout
    assert "\n  CanViT: Toward Active-Vision Foundation Models\n" in r.stdout.replace(r.stdout.split("CanViT")[0].split("\n")[-1], "  ", 1) or \
        any(ln.endswith("  CanViT: Toward Active-Vision Foundation Models") for ln in r.stdout.splitlines())
    j = json.loads(run([str(FIXTURE), "--format", "json"]).stdout)
    assert len(j) == 27 and j[0]["score"] >= j[-1]["score"]
    assert next(t for t in j if t["id"] == "004_9fdd52dbfd5434f6#5")["title"].startswith("CanViT")
    assert all(f["evidence"] for t in j for f in t["flags"])
    rows = list(csv.DictReader(io.StringIO(run([str(FIXTURE), "--format", "csv"]).stdout)))
    assert {"id", "score", "flag", "weight", "evidence", "start", "end", "context"} <= set(rows[0])
    assert {r["id"] for r in rows} == {t["id"] for t in j}
    out = tmp_path / "t.txt"
    assert run([str(FIXTURE), "-o", str(out)]).exit_code == 0 and out.read_text().startswith("27 papers")


def test_cli_missing_file():
    r = CliRunner().invoke(triage_cmd, ["/nonexistent/records.jsonl"])
    assert r.exit_code == 2 and r.stderr.startswith("extract: error: ") and r.stdout == ""


def test_top_and_min_score():
    every = json.loads(run([str(FIXTURE), "--format", "json"]).stdout)
    top = json.loads(run([str(FIXTURE), "--format", "json", "--top", "3"]).stdout)
    assert top == every[:3]
    s = every[5]["score"]
    some = json.loads(run([str(FIXTURE), "--format", "json", "--min-score", str(s)]).stdout)
    assert some == [t for t in every if t["score"] >= s] and 0 < len(some) < len(every)
    text = run([str(FIXTURE), "--top", "2"]).stdout
    assert text.startswith("27 papers") and "showing 2" in text
    assert CliRunner().invoke(triage_cmd, [str(FIXTURE), "--top", "0"]).exit_code == 2


def test_not_a_records_file_exits_2_with_one_line(tmp_path):
    inputs = tmp_path / "abstracts.jsonl"
    inputs.write_text(json.dumps({"id": "a", "text": "An abstract.", "title": "T"}) + "\n"
                      + json.dumps({"id": "b", "text": "Another."}) + "\n", encoding="utf-8")
    txt = tmp_path / "notes.txt"
    txt.write_text("just some text\nover two lines\n", encoding="utf-8")
    for bad in (inputs, txt):
        r = CliRunner().invoke(triage_cmd, [str(bad)])
        assert r.exit_code == 2 and r.stdout == ""
        assert len(r.stderr.strip().splitlines()) == 1 and "not a records file" in r.stderr, r.stderr


README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def test_readme_triage_flags_section_matches_the_flags():
    """README "Triage flags" is written by hand; it must list every flag with its weight."""
    section = README.split("### Triage flags", 1)[1].split("\n#", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0].startswith("`"):
            rows[cells[0].strip("`")] = (cells[1], cells[2])
    assert set(rows) == set(FLAG_TYPES)
    for code, f in FLAG_TYPES.items():
        assert rows[code][0] == str(f.weight), code
        assert rows[code][1] == ("yes" if f.per_item else "no"), code


def test_help_explains_every_flag_and_points_to_the_readme():
    out = CliRunner().invoke(triage_cmd, ["--help"]).stdout
    assert "Triage flags" in out
    for code, f in FLAG_TYPES.items():
        line = next(ln for ln in out.splitlines() if ln.strip().startswith(code + " "))
        assert f"+{f.weight}" in line and len(line.split(f"+{f.weight}", 1)[1].strip()) > 15


def test_the_papers_own_method_by_its_acronym_is_not_a_baseline():
    text = ("We propose Hyper-Spherical Quantization (HSQ). On ToyQA, HSQ reaches 71.2% accuracy, "
            "4.1 points with 7 layers.")
    r = clean(text=text, methods=["Hyper-Spherical Quantization"],
              numbers=[num("71.2%", 71.2, "%", "result", "accuracy", "ToyQA", "HSQ"),
                       num("4.1 points", 4.1, "pp", "result", "accuracy", "ToyQA", "HSQ")])
    assert "no_comparison" in codes(r)


def test_module_docstring_lists_every_flag_with_its_weight():
    import extract.triage as mod
    for code, f in FLAG_TYPES.items():
        line = next(ln for ln in mod.__doc__.splitlines() if ln.startswith(f"``{code}``"))
        assert line.split()[1:3] == [str(f.weight), "yes" if f.per_item else "no"], code


# -- issue 19: a flag names only what the paper's text lacks, not the extractor's misses ----------

def test_a_result_whose_sentence_names_a_listed_dataset_is_not_without_dataset():
    text = "We propose FooNet. It yields a 549× improvement on FILM over BarNet."
    r = clean(text=text, datasets=["FILM"], numbers=[num("549×", 549, "×", "result", "improvement", None, "FooNet")])
    assert "result_no_dataset" not in codes(r)
    r = clean(text=text + " Speed is up 3× too.", datasets=["FILM"],
              numbers=[num("3×", 3, "×", "result", "Speed", None, "FooNet")])
    assert "result_no_dataset" in codes(r)          # that sentence names no dataset


def test_a_stated_metric_is_not_result_without_metric():
    text = "We propose FooNet, which improves top-1 accuracy by 2.5% over BarNet."
    r = clean(text=text, datasets=[], numbers=[num("2.5%", 2.5, "%", "result", None, None, "FooNet")])
    assert "result_no_metric" not in codes(r)
    text = "We propose FooNet, which is 2.5% ahead of BarNet."
    r = clean(text=text, datasets=[], numbers=[num("2.5%", 2.5, "%", "result", None, None, "FooNet")])
    assert "result_no_metric" in codes(r)


def test_the_word_evaluations_alone_does_not_call_for_a_dataset():
    text = ("Frontier models can tell evaluations from deployment. We propose FooNet, a probe of "
            "this awareness, and find that it reaches 11.25% of variance.")
    r = clean(text=text, datasets=[], numbers=[num("11.25%", 11.25, "%", "result", "variance", None, "FooNet")])
    assert "no_dataset" not in codes(r)
    r = clean(text=text + " Experiments confirm it.", datasets=[],
              numbers=[num("11.25%", 11.25, "%", "result", "variance", None, "FooNet")])
    assert flag(r, "no_dataset").evidence[0].text == "Experiments"
