"""extract table: rows from the records' claims, views, formats, and records reading (extract.records)."""

from __future__ import annotations

import csv
import io
import json
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from extract.cli.table import table
from extract.names import name_key
from extract.records import load_records, paper_from_record
from extract.table import build_rows
from extract.table_render import format_number, render

FIXTURE = Path(__file__).parent / "fixtures" / "records-sample.jsonl"
DEV2 = Path(__file__).parent / "fixtures" / "dev2-records.jsonl"


def num(text, value, unit=None, kind="result", metric=None, dataset=None, method=None, about="", at=0):
    """A number of a hand-written record: ``at`` picks the occurrence of ``text``; metric, dataset
    and method are names in the abstract (method ``""``: the paper's own, unnamed)."""
    return dict(text=text, value=value, unit=unit, kind=kind, metric=metric, dataset=dataset, method=method,
                about=about, at=at)


def rec(id_: str, text: str, methods=(), datasets=(), numbers=(), **extra) -> dict:
    """A record in the exact `extract run` format (with claims), offsets computed from ``text``.
    Numbers are :func:`num` dicts or the old tuples (text, value, unit, kind, about)."""
    def span(s, at=0):
        i = -1
        for _ in range(at + 1):
            i = text.index(s, i + 1)
        return {"text": s, "start": i, "end": i + len(s), "status": "exact"}
    nums = []
    for n in numbers:
        if isinstance(n, tuple):
            n = num(n[0], n[1], n[2], n[3], about=n[4])
        d = span(n["text"], n["at"])
        d.update(value=n["value"], unit=n["unit"], kind=n["kind"], about=n["about"],
                 metric=span(n["metric"]) if n["metric"] else None,
                 dataset=span(n["dataset"]) if n["dataset"] else None,
                 method="" if n["method"] == "" else (span(n["method"]) if n["method"] else None))
        nums.append(d)
    r = {"id": id_, "source": f"x.txt:{id_}", "title": extra.pop("title", None), "text": text, "status": "ok",
         "extraction": {"task": extra.pop("task", "a task"), "contribution": extra.pop("contribution", "method"),
                        "method_names": [span(m) for m in methods], "datasets": [span(d) for d in datasets],
                        "numbers": nums},
         "dropped": [], "provenance": {}}
    r.update(extra)
    return r


def write(tmp_path: Path, records, name="out.jsonl") -> Path:
    p = tmp_path / name
    p.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return p


# ------------------------------------------------------------------ fixture sanity

def test_fixture_offsets_are_exact():
    n = 0
    for line in FIXTURE.read_text(encoding="utf-8").split("\n")[:-1]:  # not splitlines: U+2028 inside
        r = json.loads(line)
        if r["id"] == "synthetic#2":  # deliberately broken offsets (triage test material)
            continue
        for key in ("method_names", "datasets", "numbers"):
            for s in r["extraction"][key]:
                assert r["text"][s["start"]:s["end"]] == s["text"], (r["id"], s)
                n += 1
        for x in r["extraction"]["numbers"]:
            for c in ("metric", "dataset", "method"):
                assert c in x
                if isinstance(x[c], dict):
                    assert r["text"][x[c]["start"]:x[c]["end"]] == x[c]["text"], (r["id"], c, x[c])
            if x["dataset"]:  # a claim's dataset is one of the record's datasets
                assert x["dataset"] in r["extraction"]["datasets"]
    assert n > 80


# ------------------------------------------------------------------ numbers

@pytest.mark.parametrize("value,unit,text,expected", [
    (85229, None, "85,229", "85,229"),
    (11.25, "%", "11.25%", "11.25 %"),
    (79.0, "%", "79\\%", "79 %"),
    (650, "×", "\\sim650\\times", "650×"),
    (22, "×", "22-fold", "22×"),
    (80e9, "B", "80B", "80B"),
    (80, "B", "80B", "80B"),
    (0.6e9, None, "0.6B", "0.6B"),          # a fraction of the magnitude, as written
    (0.6e9, "B", "0.6B", "0.6B"),
    (1.5e6, None, "1.5M", "1.5M"),
    (0.5e3, None, "0.5k", "0.5k"),
    (13.2e6, "million", "13.2 million", "13.2 million"),
    (166, "hours", "166 hours", "166 hours"),
    (0.5, None, "0.5", "0.5"),
    (1234.5678, None, "1234.5678", "1,234.5678"),
    (0.1 + 0.2, None, "0.3", "0.3"),
    (-3.0, "pp", "-3 pp", "-3 pp"),
    (None, None, "$d=53$", "$d=53$"),
    # no unit given (the exporter normalizes value from the text and may leave unit empty)
    (80e9, None, "80B", "80B"),
    (13.2e6, None, "13.2 million", "13.2 million"),
    (22, None, "22-fold", "22×"),
    (650, None, "$\\sim650\\times$", "650×"),
    (1.5, None, "1.5 GPU hours", "1.5 GPU hours"),
    (8000, None, "d=8,000", "8,000"),
    (0.001, None, "10^{-3}", "0.001"),
    (40, None, "40\\%", "40 %"),
])
def test_format_number(value, unit, text, expected):
    assert format_number(value, unit, text) == expected


# ------------------------------------------------------------------ rows from claims

def run(args):
    return CliRunner().invoke(table, args, catch_exceptions=False)


def json_rows(tmp_path, records, *args) -> list[dict]:
    r = run([str(write(tmp_path, records)), "--format", "json", *args])
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


# "Dice 0.81 on Synapse" listed under ACDC; RPKD's "+12.46% (ImageNet-100)" under CIFAR-100
@pytest.mark.parametrize("text,claims", [
    ("We propose SegNet. Dice scores on Synapse and ACDC are 0.81 and 0.91, respectively.",
     [("0.81", "Synapse"), ("0.91", "ACDC")]),
    ("SegNet reaches Dice 0.81 on Synapse; on ACDC, where prior work reports 0.88, it reaches 0.91.",
     [("0.81", "Synapse"), ("0.88", "ACDC"), ("0.91", "ACDC")]),
    ("SegNet is trained on CIFAR-100 and ImageNet-100. It gains +8.3% over OFA on CIFAR-100 and +12.5% "
     "on the larger one.", [("+8.3%", "CIFAR-100"), ("+12.5%", "ImageNet-100")]),
])
def test_number_is_listed_under_its_records_dataset_not_the_nearest(tmp_path, text, claims):
    datasets = [d for d in ("Synapse", "ACDC", "CIFAR-100", "ImageNet-100") if d in text]
    r = rec("p1", text, ["SegNet"], datasets,
            [num(t, float(t.strip("+%")), "%" if "%" in t else None, metric="Dice" if "Dice" in text else "gains",
                 dataset=d, method="SegNet") for t, d in claims])
    rows = json_rows(tmp_path, [r])
    assert {(x["text"], x["dataset"]) for x in rows} == set(claims)
    md = run([str(write(tmp_path, [r], "m.jsonl"))]).stdout
    for t, d in claims:  # in the markdown, under its own dataset's heading
        section = md.split(f"### {d} (")[1].split("###")[0]
        assert f" {format_number(float(t.strip('+%')), '%' if '%' in t else None)} " in section


def test_a_setting_is_not_a_result_under_a_dataset(tmp_path):
    text = ("We pretrain FooViT on ImageNet-21k for 166 h. A 32B parameters model reaches 71.0% on MMLU, "
            "and FooViT reaches 84.5% top-1 accuracy on ImageNet-1k.")
    r = rec("p1", text, ["FooViT"], ["ImageNet-21k", "MMLU", "ImageNet-1k"], [
        num("166 h", 166, "h", "setting", method="FooViT"),
        num("32B", 32e9, "B", "setting", metric="parameters"),
        num("71.0%", 71.0, "%", "result", dataset="MMLU"),
        num("84.5%", 84.5, "%", "result", metric="top-1 accuracy", dataset="ImageNet-1k", method="FooViT")])
    rows = {x["text"]: x for x in json_rows(tmp_path, [r])}
    assert rows["166 h"]["dataset"] is None and rows["166 h"]["kind"] == "setting"
    assert rows["32B"]["dataset"] is None and rows["32B"]["kind"] == "setting"
    assert rows["71.0%"]["dataset"] == "MMLU"
    results = json_rows(tmp_path, [r], "--kind", "result")
    assert {x["text"] for x in results} == {"71.0%", "84.5%"}
    md = run([str(write(tmp_path, [r], "m.jsonl"))]).stdout
    assert "### ImageNet-21k" not in md  # no claim is on it
    assert "32B" not in md.split("### MMLU (")[1].split("###")[0]


def test_a_number_of_no_system_is_not_the_papers_method_result(tmp_path):
    text = "We propose FooNet. On ToyQA, human annotators reach 92.5%, while FooNet reaches 88.1%."
    r = rec("p1", text, ["FooNet"], ["ToyQA"], [
        num("92.5%", 92.5, "%", dataset="ToyQA"),
        num("88.1%", 88.1, "%", dataset="ToyQA", method="FooNet")])
    rows = {x["text"]: x for x in json_rows(tmp_path, [r])}
    assert rows["92.5%"]["method"] is None and rows["92.5%"]["method_role"] is None
    assert rows["88.1%"]["method"] == "FooNet" and rows["88.1%"]["method_role"] == "proposed"
    md = run([str(write(tmp_path, [r], "m.jsonl"))]).stdout
    line = next(ln for ln in md.splitlines() if "92.5 %" in ln)
    assert "FooNet" not in line and "| —" in line
    by_method = json_rows(tmp_path, [r], "--by", "method")
    assert [x["text"] for x in by_method if x["method"] == "FooNet"] == ["88.1%"]


def test_metric_is_a_span_of_the_abstract_or_empty(tmp_path):
    """The old 'Measures' column showed the rules' guesses ("creating", "versus"); the metric is
    the claim's span of the abstract, or null, and ``about`` is not a column."""
    text = "FooNet reaches 71.2% accuracy versus 60.1% for BarNet, creating a 3-fold gap."
    r = rec("p1", text, ["FooNet"], [], [
        num("71.2%", 71.2, "%", metric="accuracy", method="FooNet", about="versus"),
        num("60.1%", 60.1, "%", metric="accuracy", method="BarNet", about="bleu outperforming"),
        num("3-fold", 3, "×", metric=None, method="FooNet", about="creating")])
    p = write(tmp_path, [r])
    for fmt in ("markdown", "csv", "json", "html"):
        out = run([str(p), "--format", fmt]).stdout
        assert "creating" not in out.replace(text, "") and "bleu outperforming" not in out
        assert "Measures" not in out and "about" not in out
    rows = json_rows(tmp_path, [r])
    assert [x["metric"] for x in rows] == ["accuracy", "accuracy", None]
    assert {x["text"]: x["method_role"] for x in rows} == {"71.2%": "proposed", "60.1%": "compared", "3-fold": "proposed"}
    fixture = json.loads(run([str(FIXTURE), "--format", "json"]).stdout)
    texts = {p.title or p.id: p.text for p in load_records(FIXTURE, warn=lambda m: None).papers}
    assert any(x["metric"] for x in fixture)
    for x in fixture:
        assert x["metric"] is None or x["metric"] in " ".join(texts[x["paper"]].split()), x


def test_csv_and_json_keep_nulls_and_numbers(tmp_path):
    text = "We propose FooNet. It uses 85,229 images and reaches 71.25% on ToyQA with our unnamed loss at 0.5."
    r = rec("p1", text, ["FooNet"], ["ToyQA"], [
        num("85,229", 85229.0, None, "setting", metric="images"),
        num("71.25%", 71.25, "%", dataset="ToyQA", method="FooNet"),
        num("0.5", 0.5, None, "setting", method="")], title="FooNet: A Title")
    rows = json_rows(tmp_path, [r])
    first = rows[0] if rows[0]["text"] == "85,229" else next(x for x in rows if x["text"] == "85,229")
    assert first["value"] == 85229 and isinstance(first["value"], int)
    assert first["dataset"] is None and first["method"] is None and first["unit"] is None
    own = next(x for x in rows if x["text"] == "0.5")
    assert own["method"] == "" and own["method_role"] == "proposed" and own["value"] == 0.5
    assert {x["paper"] for x in rows} == {"FooNet: A Title"} and {x["paper_id"] for x in rows} == {"p1"}
    out = run([str(write(tmp_path, [r])), "--format", "csv"]).stdout
    got = list(csv.DictReader(io.StringIO(out)))
    assert list(got[0])[:7] == ["dataset", "method", "metric", "value", "unit", "kind", "paper"]
    c = next(x for x in got if x["text"] == "71.25%")
    assert c["value"] == "71.25" and c["dataset"] == "ToyQA" and c["paper"] == "FooNet: A Title"
    assert next(x for x in got if x["text"] == "85,229")["value"] == "85229"
    for fmt in ("csv", "json"):
        o = run([str(write(tmp_path, [r])), "--format", fmt]).stdout
        assert "(no method named)" not in o and "(no dataset named)" not in o and "—" not in o
        assert "71.25 %" not in o  # values are not preformatted


@pytest.mark.parametrize("by", ["dataset", "method", "metric"])
def test_views_group_rows_contiguously(by):
    rs = load_records(FIXTURE, warn=lambda m: None)
    rows = build_rows(rs.papers, by)
    assert len(rows) == sum(len(p.numbers) for p in rs.papers)
    seen, last = [], object()
    for r in rows:
        g = getattr(r, by)
        if g != last:
            assert g not in seen, (by, g)
            seen.append(g)
            last = g
    assert seen[-1] is None  # the unnamed group comes last


def test_fixture_dataset_view_merges_across_papers():
    rs = load_records(FIXTURE, warn=lambda m: None)
    by = {}
    for r in build_rows(rs.papers, "dataset"):
        by.setdefault(r.dataset, set()).add(r.paper_id)
    imagenet = [k for k in by if k and name_key(k) == "imagenet1k"]  # ImageNet-1K and ImageNet-1k
    assert len(imagenet) == 1 and len(by[imagenet[0]]) == 2


def test_gold_claims_come_out_as_rows():
    """On 50 real abstracts whose records carry the gold claims, every row says what the gold says."""
    rs = load_records(DEV2, warn=lambda m: None)
    rows = build_rows(rs.papers, "dataset")
    gold = {}
    for line in (Path(__file__).parent / "gold" / "dev2" / "gold.jsonl").open(encoding="utf-8"):
        g = json.loads(line)
        for n in g["numbers"]:
            gold.setdefault((g["id"], n["text"]), []).append(n)
    assert len(rows) == sum(len(v) for v in gold.values()) > 50
    for r in rows:
        g = gold[(r.paper_id, r.text)][0]
        assert (r.dataset is None) == (g["dataset"] is None) and name_key(r.dataset or "") == name_key(g["dataset"] or "")
        assert (r.method is None) == (g["method"] is None) and name_key(r.method or "") == name_key(g["method"] or "")


def test_task_view_lists_every_paper():
    rs = load_records(FIXTURE, warn=lambda m: None)
    rows = build_rows(rs.papers, "task")
    assert {r.paper_id for r in rows} == {p.id for p in rs.papers}
    bare = [p.id for p in rs.papers if not p.numbers]
    assert bare and all(sum(r.paper_id == b for r in rows) == 1 for b in bare)


# ------------------------------------------------------------------ CLI, every format

def test_markdown_default_is_grouped_and_aligned():
    r = run([str(FIXTURE)])
    assert r.exit_code == 0
    out = r.stdout
    assert out.startswith("### ")
    assert "| 1,300 |" in out and "11.25 %" in out
    for block in out.split("### ")[1:]:
        lines = [ln for ln in block.splitlines() if ln.startswith("|")]
        if any(ord(c) > 0xFFFF or c in "🚀" for c in block):
            continue  # wide characters: aligned in characters, not in screen columns
        assert len(lines) >= 3 and len({len(ln) for ln in lines}) == 1, block  # aligned columns
        assert lines[0].split("|")[1].strip() == "Method" and "Metric" in lines[0] and "Paper" in lines[0]
        assert lines[1].startswith("| ---") and "-: |" in lines[1]  # value column right-aligned
    assert "<script>" not in out  # names that look like HTML are neutralised in markdown
    assert "| CanViT: Toward Active-Vision Foundation Models |" in out  # the title, not the id


@pytest.mark.parametrize("by", ["dataset", "method", "metric", "task"])
def test_csv(by):
    r = run([str(FIXTURE), "--by", by, "--format", "csv"])
    assert r.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert rows and {"dataset", "method", "metric", "value", "unit", "kind", "paper"} <= set(rows[0])
    if by == "task":
        assert len({x["paper_id"] for x in rows}) == 27


def test_json_kind_filter():
    r = run([str(FIXTURE), "--format", "json", "--kind", "result"])
    assert r.exit_code == 0
    rows = json.loads(r.stdout)
    assert rows and all(x["kind"] == "result" for x in rows)
    assert not any(x["text"] == "85,229" for x in rows)  # a setting, filtered out
    assert any(x["text"] == "+8.26\\%" and x["dataset"] == "CIFAR-100" and x["method"] == "RPKD" for x in rows)


class _Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.text = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.text.append(data)


def test_html_is_escaped_and_complete(tmp_path):
    out = tmp_path / "t.html"
    r = run([str(FIXTURE), "--format", "html", "-o", str(out)])
    assert r.exit_code == 0 and r.stdout == ""
    page = out.read_text(encoding="utf-8")
    p = _Collect()
    p.feed(page)
    assert "script" not in p.tags and "img" not in p.tags and "b" not in p.tags
    assert "EvilNet</script><script>window.__pwned=1</script>" in "".join(p.text)
    assert p.tags.count("table") >= 10


def test_records_without_claims_are_said(tmp_path):
    r = rec("old", "FooNet reaches 70% on ToyQA.", ["FooNet"], ["ToyQA"], [("70%", 70, "%", "result", "accuracy")])
    for k in ("metric", "dataset", "method"):
        del r["extraction"]["numbers"][0][k]
    res = run([str(write(tmp_path, [r])), "--format", "json"])
    assert res.exit_code == 0 and "without claim fields" in res.stderr
    assert json.loads(res.stdout)[0]["dataset"] is None


def test_task_view_markdown_is_one_table_with_a_task_column():
    out = run([str(DEV2), "--by", "task"]).stdout
    lines = out.splitlines()
    assert lines[0].startswith("| Task ") and "###" not in out
    assert len(lines) == 2 + len(build_rows(load_records(DEV2, warn=lambda m: None).papers, "task"))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["12.5%", "0.81", "7", "85,229", "3.2×"]),
                          st.sampled_from([None, "AlphaSet", "BetaBench", "GammaQA"]),
                          st.sampled_from([None, "", "FooNet", "BarNet", "BazLM"]),
                          st.sampled_from([None, "accuracy", "F1"]),
                          st.sampled_from(["result", "setting"])), min_size=1, max_size=6))
def test_rows_say_exactly_what_the_claims_say(claims):
    """Whatever the claims, each number is one row carrying its own dataset, method and metric."""
    parts = [f"{t} ({n})" for n, (t, *_) in enumerate(claims)]
    text = "FooNet and BarNet and BazLM on AlphaSet, BetaBench and GammaQA; accuracy and F1: " + ", ".join(parts) + "."
    numbers = [num(t, float(i), None, kind, metric, ds, m, at=0) for i, (t, ds, m, metric, kind) in enumerate(claims)]
    for i, n in enumerate(numbers):  # each number is its own occurrence
        n["text"] = parts[i]
    p = paper_from_record(rec("p", text, ["FooNet"], ["AlphaSet", "BetaBench", "GammaQA"], numbers))
    for by in ("dataset", "method", "metric", "task"):
        rows = build_rows([p], by)
        assert sorted(r.value for r in rows) == list(range(len(claims)))
        for r in rows:
            t, ds, m, metric, kind = claims[r.value]
            assert (r.dataset, r.method, r.metric, r.kind) == (ds, m, metric, kind)
            assert r.method_role == (None if m is None else "proposed" if m in ("", "FooNet") else "compared")
        out = json.loads(render([p], by, "json"))
        assert [x["value"] for x in out] == [r.value for r in rows]
