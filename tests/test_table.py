"""extract table, name merging (extract.names) and records reading (extract.records)."""

from __future__ import annotations

import csv
import io
import json
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st

from extract.cli.table import table
from extract.names import NameIndex, find_abbreviations, is_acronym_of, name_key
from extract.records import errors_path_for, load_records, paper_from_record
from extract.table import NO_DATASET, build_rows, build_task_rows, format_number, render

FIXTURE = Path(__file__).parent / "fixtures" / "records-sample.jsonl"


def rec(id_: str, text: str, methods=(), datasets=(), numbers=(), **extra) -> dict:
    """A record in the exact `extract run` format, offsets computed from ``text``."""
    def span(s):
        i = text.index(s)
        return {"text": s, "start": i, "end": i + len(s), "status": "exact"}
    nums = []
    for n in numbers:
        d = span(n[0])
        d.update(value=n[1], unit=n[2], kind=n[3], about=n[4])
        nums.append(d)
    r = {"id": id_, "source": f"x.txt:{id_}", "title": None, "text": text, "status": "ok",
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


# ------------------------------------------------------------------ names

@pytest.mark.parametrize("a,b", [
    ("MIMIC-IV", "mimic iv"), ("**MIMIC-IV**", "MIMIC-IV"), ("\\texttt{acopula}", "acopula"),
    ("`EvalAwareBench`", "evalawarebench"), ("the ImageNet-1K dataset", "ImageNet-1k"),
    ("CA-GRPO", "CA GRPO"), ("__HSQ__", "HSQ"), ("Kolmogorov–Arnold", "Kolmogorov Arnold"),
])
def test_key_merges_same_name_written_differently(a, b):
    assert name_key(a) == name_key(b)


@pytest.mark.parametrize("a,b", [("CIFAR-10", "CIFAR-100"), ("ImageNet-1k", "ImageNet-21k"),
                                 ("GPT-4", "GPT-3"), ("MIMIC-III", "MIMIC-IV")])
def test_key_keeps_different_names_apart(a, b):
    assert name_key(a) != name_key(b)


_TEXT = st.text(alphabet=st.characters(codec="ascii", categories=("L", "N", "P", "S", "Zs")), min_size=1, max_size=40)


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_key_is_idempotent(s):
    assert name_key(name_key(s)) == name_key(s)


@settings(max_examples=300, deadline=None)
@given(_TEXT.filter(lambda s: any(c.isalnum() for c in s)),
       st.sampled_from(["**{}**", "`{}`", "\\texttt{{{}}}", "\\textbf{{{}}}", "__{}__", "{}", " {} "]))
def test_key_is_stable_under_wrappers_and_case(s, wrapper):
    k = name_key(s)
    assert name_key(wrapper.format(s)) == k
    assert name_key(s.upper()) == k
    assert name_key(s.lower()) == k


def test_acronyms_found_in_text():
    text = ("We propose Hyper-Spherical Quantization (HSQ), and Cross-Acoustic Group Relative Policy "
            "Optimization (CA-GRPO) for Kolmogorov–Arnold Networks (KANs), e.g. (see Table 1).")
    pairs = find_abbreviations(text)
    assert ("Hyper-Spherical Quantization", "HSQ") in pairs
    assert ("Cross-Acoustic Group Relative Policy Optimization", "CA-GRPO") in pairs
    assert ("Kolmogorov–Arnold Networks", "KANs") in pairs
    assert all(short not in ("see", "Table") for _, short in pairs)


def test_acronym_check():
    assert is_acronym_of("HSQ", "Hyper-Spherical Quantization")
    assert is_acronym_of("DrPO", "Drifting Preference Optimization")
    assert not is_acronym_of("CIFAR-10", "CIFAR-100")
    assert not is_acronym_of("CanViT", "CanViT-B")
    assert not is_acronym_of("HSQ", "Hierarchical Quantization")


def test_long_form_and_acronym_merge_across_papers():
    idx = NameIndex()
    idx.add("p1", ["Hyper-Spherical Quantization", "HSQ"], "We propose Hyper-Spherical Quantization (HSQ).")
    idx.add("p2", ["HSQ"], "We compare against HSQ on ImageNet.")
    idx.add("p3", ["hyper-spherical quantization"], "Prior work on hyper-spherical quantization ...")
    g = {idx.group("HSQ", "p2"), idx.group("Hyper-Spherical Quantization", "p1"),
         idx.group("hyper-spherical quantization", "p3"), idx.group("**HSQ**")}
    assert len(g) == 1
    assert idx.display(g.pop()) == "HSQ"  # used by two papers; each long-form spelling by one


def test_display_is_most_frequent_surface():
    idx = NameIndex()
    for i, n in enumerate(["ImageNet-1k", "ImageNet-1K", "imagenet-1k", "ImageNet-1k"]):
        idx.add(f"p{i}", [n])
    assert idx.display(idx.group("IMAGENET 1K")) == "ImageNet-1k"


def test_ambiguous_acronym_merges_only_inside_its_paper():
    idx = NameIndex()
    idx.add("a", ["Segment Anything Model", "SAM"], "the Segment Anything Model (SAM) is ...")
    idx.add("b", ["Sharpness-Aware Minimization", "SAM"], "Sharpness-Aware Minimization (SAM) finds ...")
    idx.add("c", ["SAM"], "We use SAM.")
    assert idx.group("SAM", "a") == idx.group("Segment Anything Model", "a")
    assert idx.group("SAM", "b") == idx.group("Sharpness-Aware Minimization", "b")
    assert idx.group("Segment Anything Model", "a") != idx.group("Sharpness-Aware Minimization", "b")
    assert idx.group("SAM", "c") not in (idx.group("SAM", "a"), idx.group("SAM", "b"))


@settings(max_examples=100, deadline=None)
@example([["Hyper-Spherical Quantization", "HSQ"], ["HSQ", "ImageNet"], ["hyper spherical quantization"]])
@example([["Segment Anything Model", "SAM"], ["Sharpness-Aware Minimization", "SAM"], ["SAM"]])
@given(st.lists(st.lists(_TEXT.filter(lambda s: any(c.isalnum() for c in s)), min_size=1, max_size=4),
                min_size=1, max_size=5))
def test_merging_is_idempotent(papers):
    """Merging the display names of the groups again yields the same groups, same names."""
    idx = NameIndex()
    for i, names in enumerate(papers):
        idx.add(f"p{i}", names)
    shown = idx.displays()
    again = NameIndex()
    for i, names in enumerate(papers):
        again.add(f"p{i}", [shown[idx.group(n, f"p{i}")] for n in names])
    shown2 = again.displays()
    for i, names in enumerate(papers):
        for n in names:
            d = shown[idx.group(n, f"p{i}")]
            assert shown2[again.group(d, f"p{i}")] == d
    assert len(shown2) == len(shown)


# ------------------------------------------------------------------ rows

def test_number_goes_to_nearest_dataset_in_its_sentence():
    text = ("We introduce FooNet. FooNet reaches 81.5% on AlphaSet and 62.0% on BetaSet. "
            "It uses 7 layers.")
    p = paper_from_record(rec("p1", text, ["FooNet"], ["AlphaSet", "BetaSet"],
                              [("81.5%", 81.5, "%", "result", "accuracy"), ("62.0%", 62.0, "%", "result", "accuracy"),
                               ("7", 7, None, "setting", "layers")]))
    rows = {(r.text, r.dataset) for r in build_rows([p])}
    assert ("81.5%", "AlphaSet") in rows and ("62.0%", "BetaSet") in rows
    assert ("7", NO_DATASET) in rows  # two datasets, none in its sentence


def test_fixture_dataset_view_merges_across_papers():
    rs = load_records(FIXTURE, warn=lambda m: None)
    rows = build_rows(rs.papers, "dataset")
    by = {}
    for r in rows:
        by.setdefault(r.dataset, set()).add(r.paper)
    # ImageNet-1K (one paper) and ImageNet-1k (another) are one dataset; CIFAR-10 != CIFAR-100
    imagenet = [k for k in by if name_key(k) == "imagenet1k"]
    assert len(imagenet) == 1 and len(by[imagenet[0]]) == 2
    assert "CIFAR-10" in by and "CIFAR-100" in by and by["CIFAR-10"] != by["CIFAR-100"]
    # grouped: each dataset's rows are contiguous, the no-dataset group comes last
    seen, last = [], None
    for r in rows:
        if r.dataset != last:
            assert r.dataset not in seen
            seen.append(r.dataset)
            last = r.dataset
    assert seen[-1] == NO_DATASET


def test_task_view_lists_every_paper():
    rs = load_records(FIXTURE, warn=lambda m: None)
    rows = build_task_rows(rs.papers)
    assert sorted(r.paper for r in rows) == sorted(p.id for p in rs.papers)
    bare = [p.id for p in rs.papers if not p.datasets and not p.numbers]
    assert bare and all(any(r.paper == b for r in rows) for b in bare)


# ------------------------------------------------------------------ CLI, every format

def run(args):
    return CliRunner().invoke(table, args, catch_exceptions=False)


def test_markdown_default_is_grouped_and_aligned():
    r = run([str(FIXTURE)])
    assert r.exit_code == 0
    out = r.stdout
    assert out.startswith("### ")
    assert "| 85,229 |" in out and "11.25 %" in out
    for block in out.split("### ")[1:]:
        lines = [ln for ln in block.splitlines() if ln.startswith("|")]
        assert len(lines) >= 3 and len({len(ln) for ln in lines}) == 1, block  # aligned columns
        assert lines[1].startswith("| ---") and "-: |" in lines[1]  # value column right-aligned
    assert "<script>" not in out  # names that look like HTML are neutralised in markdown


@pytest.mark.parametrize("by", ["dataset", "method", "task"])
def test_csv(by):
    r = run([str(FIXTURE), "--by", by, "--format", "csv"])
    assert r.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert rows
    assert ("paper" in rows[0]) and (("dataset" in rows[0]) or by == "task")
    if by == "task":
        assert len(rows) == 26


def test_json():
    r = run([str(FIXTURE), "--format", "json", "--kind", "result"])
    assert r.exit_code == 0
    rows = json.loads(r.stdout)
    assert rows and all(x["kind"] == "result" and x["shown"] for x in rows)
    vals = {(x["dataset"], x["value"]) for x in rows}
    assert ("MIMIC-IV", 85229) not in vals  # a setting, filtered out
    assert any(x["text"] == "+8.26\\%" and x["dataset"] == "CIFAR-100" for x in rows)


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


def test_missing_or_unreadable_file_exits_2(tmp_path):
    for bad in (tmp_path / "nope.jsonl", tmp_path):
        r = CliRunner().invoke(table, [str(bad)])
        assert r.exit_code == 2
        assert r.stdout == ""
        assert len(r.stderr.strip().splitlines()) == 1 and r.stderr.startswith("extract: error: ")


def test_bad_choice_is_a_usage_error():
    r = CliRunner().invoke(table, [str(FIXTURE), "--format", "xlsx"])
    assert r.exit_code == 2


def test_unwritable_output_exits_2(tmp_path):
    r = CliRunner().invoke(table, [str(FIXTURE), "-o", str(tmp_path / "no" / "such" / "dir.md")])
    assert r.exit_code == 2 and "cannot write" in r.stderr


# ------------------------------------------------------------------ robust reading

def test_garbage_lines_and_foreign_schema_are_reported_not_fatal(tmp_path):
    good = rec("g1", "ToyNet gets 70% on ToyQA.", ["ToyNet"], ["ToyQA"],
               [("70%", 70, "%", "result", "accuracy")])
    custom = {"id": "c1", "text": "Some abstract.", "extraction": {"sentiment": "positive"}}
    weird = rec("w1", "WeirdNet on WeirdSet.", ["WeirdNet"], ["WeirdSet"])
    weird["extraction"]["numbers"] = "not a list"
    weird["extraction"]["datasets"].append({"start": 1})
    lines = [json.dumps(good), "{not json", "[1, 2]", json.dumps({"no": "id"}), json.dumps(custom),
             json.dumps(weird), ""]
    p = tmp_path / "mixed.jsonl"
    p.write_text("\n".join(lines), encoding="utf-8")
    msgs = []
    rs = load_records(p, warn=msgs.append)
    assert [x.id for x in rs.papers] == ["g1", "c1", "w1"]
    assert not rs.papers[1].schema_ok and not rs.papers[2].schema_ok
    assert rs.papers[2].datasets[0].text == "WeirdSet"
    text = "\n".join(msgs)
    assert "mixed.jsonl:2: not JSON" in text and ":3: not a JSON object" in text and ":4: not a record" in text
    assert "2 record(s) do not follow the default schema" in text
    for by in ("dataset", "method", "task"):
        for fmt in ("markdown", "csv", "html", "json"):
            assert render(rs.papers, by, fmt)
    r = CliRunner().invoke(table, [str(p), "--by", "task"])
    assert r.exit_code == 0 and "c1" in r.stdout and "not JSON" in r.stderr


def test_errors_path_and_duplicates(tmp_path):
    assert errors_path_for(Path("a/out.jsonl")) == Path("a/out.errors.jsonl")
    assert errors_path_for(Path("out.txt")) == Path("out.txt.errors.jsonl")
    a = rec("d", "A text.")
    b = rec("d", "A newer text.")
    p = write(tmp_path, [a, b])
    (tmp_path / "out.errors.jsonl").write_text(
        json.dumps({"id": "d", "reason": "old failure"}) + "\n" + json.dumps({"id": "f", "reason": "timeout", "attempts": 3})
        + "\n" + json.dumps({"id": None, "source": "in.csv:7", "kind": "input", "reason": "empty text"}) + "\n",
        encoding="utf-8")
    msgs = []
    rs = load_records(p, warn=msgs.append)
    assert [x.text for x in rs.papers] == ["A newer text."] and any("duplicate id" in m for m in msgs)
    assert [f.id for f in rs.failures] == ["f", "in.csv:7"] and rs.failures[0].attempts == 3
