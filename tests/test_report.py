"""extract report: one self-contained, escaped HTML file (no browser here; see test_report_browser)."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from extract.cli.report import report
from extract.records import load_records
from extract.report import build_data, render, script_json

FIXTURE = Path(__file__).parent / "fixtures" / "records-sample.jsonl"
HOSTILE = ["</script><script>alert(1)</script>", "<!--", "<img src=x onerror=alert(1)>", "]]>",
           "\u2028\u2029", "</SCRIPT >", "&lt;script&gt;", "<script", "\\u003c/script>"]


def data_block(page: str) -> str:
    m = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page, re.S)
    assert m, "no data block"
    return m.group(1)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=30)), max_size=6))
def test_script_json_cannot_break_out_and_round_trips(parts):
    obj = {"text": "".join(parts), "list": parts}
    s = script_json(obj)
    low = s.lower()
    assert "</script" not in low and "<!--" not in s and "<script" not in low
    assert "<" not in s and ">" not in s and "\u2028" not in s and "\u2029" not in s
    assert json.loads(s) == obj


def test_page_is_self_contained_and_escaped():
    rs = load_records(FIXTURE, warn=lambda m: None)
    page = render(rs, title="<b>T</b> & co")
    # exactly two script elements: the JSON data and the inline code; no external resources
    assert len(re.findall(r"<script\b", page, re.I)) == 2
    block = data_block(page)
    outside = page.replace(block, "")
    assert not re.search(r"<(?:script|img|link|iframe|object|embed)\b[^>]*\b(?:src|href)\s*=", outside, re.I)
    assert not re.search(r"https?://|@import|url\(", outside, re.I)
    assert "<title>&lt;b&gt;T&lt;/b&gt; &amp; co</title>" in page
    # the hostile abstract is only inside the data block, as escaped JSON (a hostile title is
    # also in a chart, HTML-escaped)
    assert "window.__pwned" not in outside.replace("&lt;script&gt;window.__pwned=1&lt;/script&gt;", "")
    data = json.loads(block)
    hostile = next(p for p in data["papers"] if p["id"] == "synthetic#1")
    assert "</script><script>window.__pwned=1</script>" in hostile["text"]
    assert '<img src=x onerror="window.__pwned=1">' in hostile["text"]


def test_csp_hashes_match_inline_code():
    page = render(load_records(FIXTURE, warn=lambda m: None))
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1)
    js = re.search(r"<script>(.*?)</script>", page, re.S).group(1)
    css = re.search(r"<style>(.*?)</style>", page, re.S).group(1)

    def h(s):
        return "sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()
    assert f"script-src '{h(js)}'" in csp and f"style-src '{h(css)}'" in csp
    assert "default-src 'none'" in csp
    assert "innerHTML" not in js and "eval(" not in js and "document.write" not in js


def test_data_matches_records():
    rs = load_records(FIXTURE, warn=lambda m: None)
    data = build_data(rs)
    assert [p["id"] for p in data["papers"]] == [p.id for p in rs.papers]
    for p, d in zip(rs.papers, data["papers"]):
        assert len(d["spans"]) == sum(1 for _, s in p.spans() if s.grounded)
        for field, a, b, status in d["spans"]:
            assert status in ("exact", "fuzzy") and field in ("method", "dataset", "result", "setting") and p.text[a:b]
    broken = next(d for d in data["papers"] if d["id"] == "synthetic#2")
    assert len(broken["spans"]) == 2  # the two numbers with wrong offsets are not highlighted
    assert data["rows"] and all(len(r) == 13 for r in data["rows"])
    stats = dict(data["meta"]["stats"])
    assert stats["papers"] == len(rs.papers) and stats["table rows"] == len(data["rows"])


def test_cli_writes_file_and_reports_failures(tmp_path):
    rec_path = tmp_path / "out.jsonl"
    rec_path.write_text(FIXTURE.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "out.errors.jsonl").write_text(
        json.dumps({"id": "lost#1", "source": "x.txt:3", "reason": "<schema> failure", "attempts": 3}) + "\n",
        encoding="utf-8")
    out = tmp_path / "report.html"
    r = CliRunner().invoke(report, [str(rec_path), "-o", str(out)], catch_exceptions=False)
    assert r.exit_code == 0 and r.stdout == "" and "wrote" in r.stderr
    data = json.loads(data_block(out.read_text(encoding="utf-8")))
    lost = next(p for p in data["papers"] if p["id"] == "lost#1")
    assert lost["failed"] and lost["reason"] == "<schema> failure" and lost["flags"][0]["code"] == "failed"
    # the header counts every paper, failed ones too, as the tab and `extract triage` do
    stats = dict(data["meta"]["stats"])
    assert stats["papers"] == len(data["papers"]) and stats["failed"] == 1


def test_cli_stdout_and_missing_file():
    r = CliRunner().invoke(report, [str(FIXTURE), "-o", "-"])
    assert r.exit_code == 0 and r.stdout.startswith("<!doctype html>")
    r = CliRunner().invoke(report, [str(FIXTURE)])  # not a terminal: HTML on stdout
    assert r.exit_code == 0 and r.stdout.startswith("<!doctype html>")
    r = CliRunner().invoke(report, ["/nonexistent.jsonl", "-o", "x.html"])
    assert r.exit_code == 2 and r.stderr.startswith("extract: error: ") and len(r.stderr.splitlines()) == 1


def _utf16_slice(text: str, a: int, b: int) -> str:
    return text.encode("utf-16-le")[2 * a:2 * b].decode("utf-16-le")


def test_offsets_are_utf16_for_the_browser():
    """Python offsets count code points; the page's JavaScript counts UTF-16 units."""
    rs = load_records(FIXTURE, warn=lambda m: None)
    data = build_data(rs)
    by_id = {p.id: p for p in rs.papers}
    astral = 0
    for d in data["papers"]:
        p = by_id.get(d["id"])
        if p is None:
            continue
        expected = [s.text for _, s in p.spans() if s.grounded]
        assert [_utf16_slice(d["text"], a, b) for _, a, b, _ in d["spans"]] == expected
        astral += any(ord(c) > 0xFFFF for c in d["text"])
    assert astral  # the fixture has an abstract with characters outside the BMP


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.tags, self.figures = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        a = dict(attrs)
        if tag == "figure":
            self.figures.append({"attrs": a, "text": [], "bars": [], "in_svg": []})
        if self.figures and tag == "g" and a.get("class") == "bar":
            self.figures[-1]["bars"].append(float(a["data-value"]))
        if self.figures and tag in ("svg", "text", "title", "figcaption", "rect", "g", "line"):
            self.figures[-1]["in_svg"].append(tag)
        assert "style" not in a, (tag, a)  # the CSP forbids style attributes

    def handle_data(self, data):
        if self.figures:
            self.figures[-1]["text"].append(data)


def test_charts_are_inline_svg_escaped_and_match_the_claims():
    rs = load_records(FIXTURE, warn=lambda m: None)
    page = render(rs)
    outside = page.replace(data_block(page), "")
    t = _Tags()
    t.feed(outside)
    assert t.tags.count("script") == 2  # still only the data block and the code
    comparison = {(f["attrs"]["data-dataset"], f["attrs"]["data-metric"]): f for f in t.figures
                  if f["attrs"].get("data-chart") == "comparison"}
    assert set(comparison) == {("ADE20K", "mIoU"), ("DocPTBench", "average accuracy drop"),
                               ("𝔻-Bench", "<script>x</script>F1")}
    assert comparison[("ADE20K", "mIoU")]["bars"] == [45.9, 38.5, 27.6]
    hostile = comparison[("𝔻-Bench", "<script>x</script>F1")]
    assert "<script>x</script>F1" in "".join(hostile["text"])  # shown as text, never as markup
    assert hostile["bars"] == [88.5, 80.1] and "script" not in hostile["in_svg"]
    assert "&lt;script&gt;x&lt;/script&gt;F1" in outside and "<script>x</script>" not in outside
    contributions = next(f for f in t.figures if f["attrs"].get("data-chart") == "contributions")
    counts = Counter(p.contribution for p in rs.papers)
    assert sorted(contributions["bars"], reverse=True) == sorted(map(float, counts.values()), reverse=True)
    datasets = next(f for f in t.figures if f["attrs"].get("data-chart") == "datasets")
    assert datasets["bars"][0] == 2.0  # ImageNet-1K and ImageNet-1k merged: two papers


def test_hostile_title_is_escaped_in_table_rows_and_charts():
    rs = load_records(FIXTURE, warn=lambda m: None)
    page = render(rs)
    outside = page.replace(data_block(page), "")
    assert "window.__pwned" not in outside.replace("&lt;script&gt;window.__pwned=1&lt;/script&gt;", "")
    rows = json.loads(data_block(page))["rows"]
    assert any(r[6].startswith("<script>window.__pwned=1</script>Hostile") for r in rows)  # data, shown as text


def test_a_value_that_is_not_finite_keeps_the_page_and_table_strict_json(tmp_path):
    from test_table import num, rec
    r = rec("inf", "FooNet reaches 1e999 on ToyQA and 71.2% on ToyQA too.", ["FooNet"], ["ToyQA"],
            [num("1e999", float("inf"), None, "result", None, "ToyQA", "FooNet"),
             num("71.2%", 71.2, "%", "result", None, "ToyQA", "FooNet")])
    p = tmp_path / "inf.jsonl"
    ok = rec("fine", "FooNet reaches 71.2% on ToyQA.", ["FooNet"], ["ToyQA"],
             [num("71.2%", 71.2, "%", "result", None, "ToyQA", "FooNet")])
    # json.dumps writes Infinity: that line is not strict JSON
    p.write_text(json.dumps(r) + "\n" + json.dumps(ok) + "\n", encoding="utf-8")
    warned = []
    page = render(load_records(p, warn=warned.append))
    data = json.loads(data_block(page), parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
    # the bad line is skipped with a note, like any other bad line; the page keeps the rest
    assert [row[3] for row in data["rows"]] == [71.2] and any("inf.jsonl:1" in w for w in warned)
    from extract.cli.table import table
    out = CliRunner().invoke(table, [str(p), "--format", "json"])
    assert out.exit_code == 0
    json.loads(out.stdout, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
