"""A self-contained HTML report: abstracts with highlighted spans, extractions, triage flags and
a sortable, filterable comparison table, in one file with no external resources.

The page is static HTML plus the data as JSON in ``<script type="application/json">`` and a
small vanilla script (``report_assets/report.js``) that renders it with DOM APIs only
(``textContent``, never ``innerHTML``), a page of papers at a time, so a few thousand papers
stay fast.  Every string from the source or the model is data, never markup:

* the JSON block has ``<``, ``>``, ``&``, U+2028 and U+2029 written as ``\\uXXXX`` escapes, so no
  ``</script>`` or ``<!--`` can end or alter it;
* the few strings put into the HTML itself (title, file name) go through :func:`html.escape`;
* a Content-Security-Policy allows only the page's own inline script and style (by hash), no
  network access at all.

The comparison table tab shows the claims (:mod:`extract.table`) with the pictures of
:mod:`extract.report_charts` above them (inline SVG made here, escaped like the rest).
Offsets in the data are UTF-16 code units, as the browser's strings count them (Python counts
code points: they differ after any character outside the BMP, such as an emoji or 𝒳).
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from datetime import datetime, timezone
from pathlib import Path

from .records import Number, Paper, RecordSet
from .report_charts import overview_html
from .table import Names, build_rows
from .table_render import OWN_UNNAMED, format_number
from .triage import FLAG_TYPES, Triage, triage

_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")


def utf16_offsets(text: str):
    """A function from a code-point offset of ``text`` to its UTF-16 offset (what JavaScript's
    ``String.slice`` counts)."""
    if not _ASTRAL.search(text):
        return lambda i: i
    acc = [0]
    for ch in text:
        acc.append(acc[-1] + (2 if ord(ch) > 0xFFFF else 1))
    return lambda i: acc[i]


def _asset(name: str) -> str:
    # next to this module (package data); works from a source tree, an editable install, a wheel
    return (Path(__file__).parent / "report_assets" / name).read_text(encoding="utf-8")


def script_json(obj) -> str:
    """JSON that is safe inside ``<script type="application/json">``."""
    s = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return (s.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _flags(t: Triage | None) -> list[dict]:
    if t is None:
        return []
    return [{"code": f.code, "label": f.label, "weight": f.weight, "points": f.points,
             "evidence": [{"text": e.text, "context": e.context, "marks": e.marks, "note": e.note}
                          for e in f.evidence]}
            for f in t.flags]


def _claim(n: Number, names: Names, paper_id: str) -> str:
    """The number's claim in words: 'mIoU · ADE20K · CanViT-B' (``about`` for older records)."""
    if not n.has_claims:
        return n.about
    method = names.method(n.method, paper_id)
    parts = [names.metric(n.metric, paper_id) or "metric not stated",
             names.dataset(n.dataset, paper_id) or "no single dataset",
             OWN_UNNAMED if method == "" else (method or "no system")]
    if n.is_change:
        compared = names.method(n.compared_to, paper_id)
        parts.append("change" + (f" vs {compared}" if compared else ""))
    return " · ".join(parts)


def _paper(p: Paper, t: Triage | None, names: Names) -> dict:
    spans = []
    u16 = utf16_offsets(p.text)
    for field, s in p.spans():
        if s.grounded:
            f = field if field != "number" else ("result" if getattr(s, "kind", "") == "result" else "setting")
            spans.append([f, u16(s.start), u16(s.end), s.status])
    return {
        "id": p.id, "source": p.source, "title": p.title, "text": p.text, "task": p.task,
        "contribution": p.contribution, "score": t.score if t else 0, "failed": False, "reason": "",
        "spans": spans,
        "methods": [[s.text, s.grounded] for s in p.methods],
        "datasets": [[s.text, s.grounded] for s in p.datasets],
        "numbers": [[format_number(n.value, n.unit, n.text), n.text, n.kind or "?", _claim(n, names, p.id),
                     n.grounded] for n in p.numbers],
        "dropped": p.dropped, "flags": _flags(t),
    }


def build_data(rs: RecordSet, title: str | None = None) -> dict:
    """Everything the page shows, as plain JSON-able data."""
    return _build(rs, title)[0]


def _build(rs: RecordSet, title: str | None) -> tuple[dict, str]:
    """The page's data and its static charts (HTML with inline SVG)."""
    tri = {t.id: t for t in triage(rs)}
    names = Names.of(rs.papers)
    papers = [_paper(p, tri.get(p.id), names) for p in rs.papers]
    for f in rs.failures:
        t = tri.get(f.id)
        papers.append({"id": f.id, "source": f.source, "title": None, "text": f.text or "", "task": "",
                       "contribution": "", "score": t.score if t else 0, "failed": True,
                       "reason": f.reason, "spans": [], "methods": [], "datasets": [], "numbers": [],
                       "dropped": [], "flags": _flags(t)})
    table = build_rows(rs.papers, "dataset", names=names)
    # [dataset, method, metric, value, unit, kind, paper label, paper id, value shown, method role,
    #  change, change shown, compared to]: an absolute value in 3/8, a change in 10/11, never both
    rows = []
    for r in table:
        shown, change = format_number(r.value, r.unit, r.text or ""), r.value_type == "change"
        rows.append([r.dataset, r.method, r.metric, None if change else r.value, r.unit, r.kind, r.paper, r.paper_id,
                     None if change else shown, r.method_role, r.value if change else None,
                     shown if change else None, r.compared_to])
    n_spans = sum(len(p["spans"]) for p in papers)
    n_results = sum(1 for p in rs.papers for n in p.numbers if n.kind == "result")
    n_numbers = sum(len(p.numbers) for p in rs.papers)
    stats = [["papers", len(papers)], ["failed", len(rs.failures)],   # papers: failed ones included
             ["flagged", sum(1 for p in papers if p["score"] > 0)], ["highlighted spans", n_spans],
             ["numbers", n_numbers], ["results", n_results], ["table rows", len(rows)]]
    return {
        "meta": {"title": title or f"Extraction report: {rs.path.name}", "source": str(rs.path),
                 "generated": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "stats": stats},
        "flagTypes": [{"code": f.code, "label": f.label, "weight": f.weight, "description": f.description}
                      for f in FLAG_TYPES.values()],
        "papers": papers,
        "rows": rows,
    }, overview_html(rs.papers, table, names)


def _sha256(s: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(s.encode("utf-8")).digest()).decode("ascii")


_BODY = """<header class="top">
<h1 id="title">{title}</h1>
<div class="sub" id="subtitle"></div>
<div class="stats" id="stats"></div>
<div class="legend" id="legend"></div>
<nav class="tabs" role="tablist">
<button type="button" role="tab" id="tab-papers" data-view="papers" aria-selected="true">Papers</button>
<button type="button" role="tab" id="tab-table" data-view="table" aria-selected="false">Comparison table</button>
</nav>
</header>
<noscript><p class="empty">This report renders its data with JavaScript; enable it to see the papers.</p></noscript>
<main>
<section id="view-papers">
<div class="chips" id="flag-chips" aria-label="filter by triage flag"></div>
<div class="controls">
<input type="search" id="paper-filter" placeholder="Filter papers: id, words of the abstract, task, names" aria-label="filter papers">
<label class="count">Order <select id="paper-sort"><option value="score">triage score</option><option value="file">file order</option></select></label>
<label class="count">Per page <select id="paper-size"><option>10</option><option selected>20</option><option>50</option><option>100</option></select></label>
</div>
<div class="pager" id="paper-pager-top"></div>
<div id="paper-list"></div>
<div class="pager" id="paper-pager"></div>
</section>
<section id="view-table" hidden>
{charts}<div class="controls">
<input type="search" id="table-filter" placeholder="Filter rows: dataset, method, metric, paper" aria-label="filter table">
<label class="count">Kind <select id="table-kind"><option value="">all</option><option value="result">result</option><option value="setting">setting</option></select></label>
<span class="count">Click a column header to sort; a paper opens its abstract.</span>
</div>
<div class="table-wrap"><table class="cmp" id="cmp-table"><thead><tr></tr></thead><tbody></tbody></table>
<div class="empty" id="table-empty" hidden>No row matches.</div></div>
<div class="pager" id="table-pager"></div>
</section>
</main>
"""


def render(rs: RecordSet, title: str | None = None) -> str:
    """The whole report page as one HTML string."""
    data, charts = _build(rs, title)
    css, js = _asset("report.css"), _asset("report.js")
    csp = (f"default-src 'none'; script-src '{_sha256(js)}'; style-src '{_sha256(css)}'; "
           "img-src data:; base-uri 'none'; form-action 'none'")
    body = _BODY.format(title=html.escape(data["meta"]["title"]), charts=charts)
    return (
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{html.escape(csp, quote=False)}\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{html.escape(data['meta']['title'])}</title>\n"
        f"<style>{css}</style>\n</head>\n<body>\n{body}"
        f"<script type=\"application/json\" id=\"report-data\">{script_json(data)}</script>\n"
        f"<script>{js}</script>\n</body>\n</html>\n"
    )
