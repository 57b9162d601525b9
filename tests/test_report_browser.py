"""The HTML report in a real headless Chromium (Debian's ``chromium``, driven by playwright).

Needs ``apt-get install -y chromium`` and ``pip install playwright`` (no ``playwright install``:
the system browser is used).  Skips with the reason when either is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from extract.records import load_records
from extract.report import build_data, render

pytestmark = pytest.mark.browser

FIXTURE = Path(__file__).parent / "fixtures" / "records-sample.jsonl"
CHROMIUM = os.environ.get("EXTRACT_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

playwright_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)", allow_module_level=True)


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        except Exception as e:  # a browser that cannot start here is an environment problem
            pytest.skip(f"Chromium at {CHROMIUM} does not start: {str(e).splitlines()[0]}")
        yield b
        b.close()


class Page:
    """A loaded report page that records console errors, page errors and dialogs."""

    def __init__(self, browser, path: Path):
        self.page = browser.new_page(viewport={"width": 1400, "height": 1000})
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("console", lambda m: self.errors.append(f"console.{m.type}: {m.text}")
                     if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.on("request", lambda r: None if r.url.startswith(("file:", "data:", "about:"))
                     else self.errors.append(f"network request: {r.url}"))
        t = time.perf_counter()
        self.page.goto(path.as_uri())
        self.page.wait_for_selector("html[data-ready='1']", timeout=30000)
        self.load_seconds = time.perf_counter() - t

    def close(self):
        self.page.close()


@pytest.fixture(scope="module")
def report_file(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "report.html"
    out.write_text(render(load_records(FIXTURE, warn=lambda m: None)), encoding="utf-8")
    return out


@pytest.fixture()
def page(browser, report_file):
    p = Page(browser, report_file)
    yield p
    p.close()


def test_loads_clean(page):
    assert page.errors == [] and page.dialogs == []
    assert page.page.locator("article.paper").count() == 20  # first page


def test_screenshot_of_a_real_run(browser, tmp_path, monkeypatch):
    """The README's screenshots: the report of a real run of the embedded default over dev2
    (``extract run tests/gold/dev2/abstracts.jsonl -o tests/fixtures/dev2-run.jsonl``), read by
    a path relative to the repository, as a user would give it.  EXTRACT_SCREENSHOT_DIR=docs
    keeps them."""
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    html_path = tmp_path / "dev2.html"
    html_path.write_text(render(load_records("tests/fixtures/dev2-run.jsonl", warn=lambda m: None),
                                title="Extraction report: 50 abstracts (CoRL, COLING, WACV), embedded model"),
                         encoding="utf-8")
    p = Page(browser, html_path)
    try:
        assert p.errors == []
        # the header names the records file as given, never an absolute path of this machine
        assert p.page.inner_text("#subtitle").startswith("tests/fixtures/dev2-run.jsonl · generated")
        shots = {}
        shots["report-papers.png"] = tmp_path / "papers.png"
        p.page.screenshot(path=str(shots["report-papers.png"]))
        p.page.click("#tab-table")
        assert p.page.locator("figure.chart").count() >= 3
        shots["report-table.png"] = tmp_path / "table.png"
        p.page.screenshot(path=str(shots["report-table.png"]))
        assert all(f.stat().st_size > 10_000 for f in shots.values()) and p.errors == []
        keep = os.environ.get("EXTRACT_SCREENSHOT_DIR")
        if keep:
            for name, f in shots.items():
                shutil.copy(f, Path(keep) / name)
    finally:
        p.close()


def test_highlights_match_records(page):
    rs = load_records(FIXTURE, warn=lambda m: None)
    expected = {p.id: sum(1 for _, s in p.spans() if s.grounded) for p in rs.papers}
    page.page.select_option("#paper-size", "50")
    got = page.page.evaluate("""() => {
        const out = {};
        document.querySelectorAll('article.paper').forEach(card => {
            const ids = new Set();
            card.querySelectorAll('.abstract mark[data-span]').forEach(m => ids.add(m.dataset.span));
            out[card.dataset.id] = ids.size;
        });
        return out;
    }""")
    assert got == expected
    assert sum(got.values()) > 80
    # every highlight's text is the span's text in the source
    texts = page.page.evaluate("""() => Array.from(document.querySelectorAll(
        'article[data-id="003_b67042f171de836b#2"] .abstract mark[data-field="setting"]')).map(m => m.textContent)""")
    assert "85,229" in texts and "d=53" in texts
    assert page.errors == []


def test_hostile_abstract_is_text(page):
    page.page.fill("#paper-filter", "synthetic#1")
    card = page.page.locator('article[data-id="synthetic#1"]')
    assert card.count() == 1
    abstract = card.locator(".abstract")
    text = abstract.text_content()
    assert "</script><script>window.__pwned=1</script>" in text
    assert '<img src=x onerror="window.__pwned=1">' in text
    assert abstract.locator("img, script, b").count() == 0
    assert page.page.evaluate("() => typeof window.__pwned") == "undefined"
    assert page.dialogs == [] and page.errors == []
    assert "<b>Hostile-Bench</b>" in card.locator(".side").text_content()


def _values(page):
    return page.page.evaluate("""() => Array.from(document.querySelectorAll('#cmp-table tbody td.num.value'))
        .map(td => td.dataset.value === undefined ? null : parseFloat(td.dataset.value))""")


def test_table_sorts(page):
    page.page.click("#tab-table")
    assert page.page.locator("#cmp-table").is_visible()
    page.page.click("th[data-key=value]")
    vals = _values(page)
    nums = [v for v in vals if v is not None]
    assert len(nums) > 20 and nums == sorted(nums)
    assert vals[: len(nums)] == nums  # empty values after the numbers
    assert page.page.get_attribute("th[data-key=value]", "aria-sort") == "ascending"
    page.page.click("th[data-key=value]")
    nums = [v for v in _values(page) if v is not None]
    assert nums == sorted(nums, reverse=True)
    page.page.click("th[data-key=paper]")
    papers = page.page.evaluate("() => Array.from(document.querySelectorAll('#cmp-table tbody tr td:last-child')).map(t => t.textContent)")
    collated = page.page.evaluate("""(xs) => xs.slice().sort(new Intl.Collator(undefined, {numeric: true,
        sensitivity: "base"}).compare)""", papers)
    assert papers == collated and len(set(papers)) > 5
    assert [p for i, p in enumerate(papers) if i == 0 or papers[i - 1] != p] == list(dict.fromkeys(papers))


def test_table_filters(page):
    rows = build_data(load_records(FIXTURE, warn=lambda m: None))["rows"]
    expected = sum(1 for r in rows if "imagenet" in " ".join(str(x) for x in r if x is not None).lower())
    page.page.click("#tab-table")
    page.page.fill("#table-filter", "ImageNet")
    shown = page.page.evaluate("() => Array.from(document.querySelectorAll('#cmp-table tbody tr')).map(tr => tr.textContent)")
    assert len(shown) == expected >= 3
    assert all("imagenet" in s.lower() for s in shown)
    page.page.select_option("#table-kind", "result")
    kinds = page.page.evaluate("() => Array.from(document.querySelectorAll('#cmp-table tbody tr td:nth-child(8)')).map(t => t.textContent)")
    assert kinds and set(kinds) == {"result"}
    page.page.fill("#table-filter", "no-such-thing-anywhere")
    assert page.page.locator("#cmp-table tbody tr").count() == 0
    assert page.page.locator("#table-empty").is_visible()
    # a paper in the table opens that paper
    page.page.fill("#table-filter", "acopula")
    page.page.select_option("#table-kind", "")
    page.page.locator("#cmp-table tbody button.pid").first.click()
    assert page.page.locator("#view-papers").is_visible()
    assert page.page.locator("article.paper").count() == 1
    assert page.errors == []


def test_highlights_after_characters_outside_the_bmp(page):
    """An emoji and 𝒳 before a span: the highlight still covers exactly the span's text."""
    rs = load_records(FIXTURE, warn=lambda m: None)
    paper = next(p for p in rs.papers if p.id == "synthetic#3")
    assert any(ord(c) > 0xFFFF for c in paper.text[: min(s.start for _, s in paper.spans())])
    page.page.fill("#paper-filter", "synthetic#3")
    got = page.page.evaluate("""() => Array.from(document.querySelectorAll(
        'article[data-id="synthetic#3"] .abstract mark[data-span]')).map(m => [m.dataset.field, m.textContent])""")
    want = sorted([("result" if f == "number" else f, s.text) for f, s in paper.spans()], key=lambda x: paper.text.index(x[1]))
    assert sorted(map(tuple, got)) == sorted(want)
    text = page.page.locator('article[data-id="synthetic#3"] .abstract').text_content()
    assert text == paper.text
    assert page.errors == []


def test_charts_render_in_the_browser(page):
    page.page.click("#tab-table")
    charts = page.page.evaluate("""() => Array.from(document.querySelectorAll('figure.chart[data-chart=comparison]'))
        .map(f => ({caption: f.querySelector('figcaption').textContent,
                    values: Array.from(f.querySelectorAll('g.bar')).map(g => parseFloat(g.dataset.value)),
                    widths: Array.from(f.querySelectorAll('g.bar rect')).map(r => r.getBoundingClientRect().width),
                    labels: Array.from(f.querySelectorAll('g.bar text.lab')).map(t => t.textContent),
                    fill: getComputedStyle(f.querySelector('g.bar rect')).fill,
                    visible: f.getBoundingClientRect().height > 40}))""")
    by = {c["caption"]: c for c in charts}
    assert set(by) == {"ADE20K · mIoU (%)", "DocPTBench · average accuracy drop (%)", "𝔻-Bench · <script>x</script>F1"}
    ade = by["ADE20K · mIoU (%)"]
    assert ade["values"] == [45.9, 38.5, 27.6] and ade["visible"]
    w = ade["widths"]  # bars from zero: widths proportional to the values
    assert w[0] > w[1] > w[2] > 0 and abs(w[0] / w[2] - 45.9 / 27.6) < 0.05
    assert ade["fill"] not in ("", "none", "rgb(0, 0, 0)")  # the hashed stylesheet styles the bars
    hostile = by["𝔻-Bench · <script>x</script>F1"]
    assert hostile["labels"] == ["𝒳Net", "BaseNet"]
    assert page.page.evaluate("() => typeof window.__pwned") == "undefined"
    counts = page.page.locator("figure.chart[data-chart=contributions] g.bar").count()
    assert counts == len({p.contribution for p in load_records(FIXTURE, warn=lambda m: None).papers})
    assert page.errors == []  # no CSP violation, no script error


def test_flag_chip_filters_papers(page):
    page.page.click('button.chip[data-flag="partial"]')
    ids = page.page.evaluate("() => Array.from(document.querySelectorAll('article.paper')).map(a => a.dataset.id)")
    assert ids == ["synthetic#2"]


def test_three_thousand_papers_stay_fast(browser, tmp_path):
    lines = FIXTURE.read_text(encoding="utf-8").split("\n")[:-1]
    records = tmp_path / "big.jsonl"
    with records.open("w", encoding="utf-8") as fh:
        for i in range(3000):
            r = json.loads(lines[i % len(lines)])
            r["id"] = f"big#{i + 1}"
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    html_path = tmp_path / "big.html"
    t = time.perf_counter()
    html_path.write_text(render(load_records(records, warn=lambda m: None)), encoding="utf-8")
    build = time.perf_counter() - t
    p = Page(browser, html_path)
    try:
        assert p.errors == []
        nodes = p.page.evaluate("() => document.getElementsByTagName('*').length")
        p.page.click("#tab-table")
        t = time.perf_counter()
        p.page.click("th[data-key=value]")
        p.page.fill("#table-filter", "ImageNet")
        interact = time.perf_counter() - t
        # the figures are printed, not asserted (a loaded machine's seconds are not the
        # report's): what keeps it fast is that it is paginated, checked here
        print(f"3000 papers: build {build:.2f}s, load {p.load_seconds:.2f}s, {nodes} DOM nodes, "
              f"sort+filter {interact:.2f}s")
        assert nodes < 20_000  # paginated, not thousands of cards at once
        rows = p.page.locator("#cmp-table tbody tr")
        assert 0 < rows.count() <= 100, rows.count()      # one page of the table, sorted and filtered
        assert all("imagenet" in t.lower() for t in rows.all_text_contents())
        vals = [v for v in _values(p) if v is not None]
        assert vals and vals == sorted(vals)
        p.page.click("#tab-papers")
        assert 0 < p.page.locator("article.paper").count() <= 20     # one page of papers
    finally:
        p.close()


def test_empty_and_failed_only_reports_load(browser, tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    (tmp_path / "empty.errors.jsonl").write_text(json.dumps(
        {"id": "f#1", "source": "x.txt:2", "reason": "<img src=x onerror=alert(1)> schema failure",
         "attempts": 3, "text": "An abstract </script> that failed."}) + "\n", encoding="utf-8")
    out = tmp_path / "empty.html"
    out.write_text(render(load_records(empty, warn=lambda m: None)), encoding="utf-8")
    p = Page(browser, out)
    try:
        assert p.errors == [] and p.dialogs == []
        card = p.page.locator('article[data-id="f#1"]')
        assert card.count() == 1
        assert "<img src=x onerror=alert(1)> schema failure" in card.text_content()
        assert "An abstract </script> that failed." in card.text_content()
        p.page.click("#tab-table")
        assert p.page.locator("#table-empty").is_visible()
    finally:
        p.close()
