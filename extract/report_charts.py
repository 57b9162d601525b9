"""Small inline SVG charts for the HTML report, made here in Python (no script, no library).

* one bar chart per dataset × metric (× unit) × value type with two or more result values: a
  bar per value, labelled by method and paper, coloured by whose number it is (the paper's own
  method, another named system, or no system named).  Absolute values and changes (gains,
  drops, speedups: relative to something, labelled "vs" the system when one is named) never
  share a chart: a 3.1-point gain is not a score beside 45.3;
* the number of papers per dataset and per contribution type.

Every text (names, titles, metrics) goes through :func:`html.escape`; shapes carry presentation
attributes and classes only (no ``style`` attribute), so the page's Content-Security-Policy,
which allows only its hashed stylesheet, holds.  Written by hand because a charting library
would bring a script or a stylesheet the CSP forbids, for a few rectangles.
"""

from __future__ import annotations

import html
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

from .records import Paper
from .table import Row
from .table_render import OWN_UNNAMED, format_number

MAX_BARS = 15  # per chart; the rest are counted under it
MAX_CHARTS = 40
LABEL_W, BAR_W, VALUE_W, BAR_H, GAP, PAD = 250, 210, 80, 16, 6, 6
ROLE_LABEL = {"proposed": "the paper's own method", "compared": "another named system", None: "no system named"}


@dataclass
class Bar:
    label: str  # method — paper
    value: float
    shown: str
    role: str | None
    paper_id: str


@dataclass
class Chart:
    dataset: str
    metric: str
    unit: str | None
    bars: list[Bar]
    hidden: int = 0  # values beyond MAX_BARS
    paper: str | None = None  # the one paper all values come from (then bars name methods only)
    value_type: str = "absolute"  # "change": every bar is a gain, drop or speedup

    @property
    def title(self) -> str:
        return (f"{self.dataset} · {self.metric}" + (f" ({self.unit})" if self.unit else "")
                + (" · change" if self.value_type == "change" else ""))


def _short(s: str, n: int) -> str:
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1].rstrip() + "…"


def comparison_charts(rows: Iterable[Row], limit: int = MAX_CHARTS) -> list[Chart]:
    """The dataset × metric × value type groups of result rows with two or more numeric values,
    the groups with the most papers first."""
    groups: dict[tuple, list[Row]] = {}
    for r in rows:
        if r.kind == "result" and r.dataset and r.metric and isinstance(r.value, (int, float)):
            groups.setdefault((r.dataset, r.metric, r.unit, r.value_type or "absolute"), []).append(r)
    charts = []
    for (ds, metric, unit, value_type), rs in groups.items():
        if len(rs) < 2:
            continue
        rs = sorted(rs, key=lambda r: -r.value)
        one_paper = len({r.paper_id for r in rs}) == 1
        bars = []
        for r in rs[:MAX_BARS]:
            who = OWN_UNNAMED if r.method == "" else (r.method or "(no system)")
            who += f" vs {r.compared_to}" if r.compared_to else ""
            bars.append(Bar(who if one_paper else f"{who} — {r.paper}", float(r.value),
                            format_number(r.value, r.unit, r.text or ""),
                            r.method_role if r.method is not None else None, r.paper_id))
        charts.append(Chart(ds, metric, unit, bars, max(0, len(rs) - MAX_BARS),
                            rs[0].paper if one_paper else None, value_type))
    charts.sort(key=lambda c: (-len({b.paper_id for b in c.bars}), -len(c.bars), c.title.casefold()))
    return charts[:limit]


def _svg(bars: Sequence[tuple[str, float, str, str]], aria: str) -> str:
    """Horizontal bars: (label, value, shown value, css class) each, zero line where it falls."""
    e = html.escape
    vals = [v for _, v, _, _ in bars]
    lo, hi = min(0.0, *vals), max(0.0, *vals)
    if hi == lo:
        hi = lo + 1.0
    scale = BAR_W / (hi - lo)
    x0 = LABEL_W + (0 - lo) * scale
    height = PAD * 2 + len(bars) * (BAR_H + GAP) - GAP
    width = LABEL_W + BAR_W + VALUE_W
    out = [f'<svg class="bars" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" role="img" aria-label="{e(aria)}">']
    for i, (label, v, shown, cls) in enumerate(bars):
        y = PAD + i * (BAR_H + GAP)
        a, b = sorted((x0, LABEL_W + (v - lo) * scale))
        w = max(b - a, 1.0)
        ty = y + BAR_H - 4
        vx = (a + w + 4) if v >= 0 else (a - 4)
        anchor = "start" if v >= 0 else "end"
        out.append(f'<g class="bar" data-value="{v!r}"><title>{e(label)}: {e(shown)}</title>'
                   f'<text class="lab" x="{LABEL_W - 6}" y="{ty}" text-anchor="end">{e(_short(label, 36))}</text>'
                   f'<rect class="{cls}" x="{a:.1f}" y="{y}" width="{w:.1f}" height="{BAR_H}" rx="2"/>'
                   f'<text class="val" x="{vx:.1f}" y="{ty}" text-anchor="{anchor}">{e(shown)}</text></g>')
    out.append(f'<line class="zero" x1="{x0:.1f}" x2="{x0:.1f}" y1="0" y2="{height}"/></svg>')
    return "".join(out)


def chart_html(c: Chart) -> str:
    e = html.escape
    bars = [(b.label, b.value, b.shown, f"role-{b.role or 'none'}") for b in c.bars]
    more = f'<div class="more">+{c.hidden} more value{"s" if c.hidden != 1 else ""}</div>' if c.hidden else ""
    return (f'<figure class="chart" data-chart="comparison" data-dataset="{e(c.dataset)}" data-metric="{e(c.metric)}" '
            f'data-value-type="{e(c.value_type)}">'
            f"<figcaption>{e(c.title)}</figcaption>"
            + (f'<div class="from">in {e(c.paper)}</div>' if c.paper else "")
            + f"{_svg(bars, c.title)}{more}</figure>")


def count_html(kind: str, caption: str, counts: Counter, top: int = 15) -> str:
    items = counts.most_common()
    shown, rest = items[:top], items[top:]
    if not shown:
        return ""
    bars = [(name, float(n), str(n), "count") for name, n in shown]
    more = f'<div class="more">+{len(rest)} more</div>' if rest else ""
    return (f'<figure class="chart" data-chart="{kind}"><figcaption>{html.escape(caption)}</figcaption>'
            f"{_svg(bars, caption)}{more}</figure>")


def overview_html(papers: Sequence[Paper], rows: Sequence[Row], names) -> str:
    """Papers per dataset (merged names) and per contribution type, then the comparison charts."""
    per_dataset: Counter = Counter()
    for p in papers:
        for d in {names.dataset(s, p.id) for s in p.datasets} - {None}:
            per_dataset[d] += 1
    per_type = Counter(p.contribution or "(none)" for p in papers)
    charts = comparison_charts(rows)
    legend = "".join(f'<span class="key"><svg width="12" height="12" aria-hidden="true"><rect class="role-{k}" '
                     f'width="12" height="12" rx="2"/></svg> {html.escape(v)}</span>'
                     for k, v in (("proposed", ROLE_LABEL["proposed"]), ("compared", ROLE_LABEL["compared"]),
                                  ("none", ROLE_LABEL[None])))
    grid = "".join(chart_html(c) for c in charts)
    return ('<div class="overview">'
            + count_html("datasets", "Papers per dataset", per_dataset)
            + count_html("contributions", "Papers per contribution type", per_type) + "</div>\n"
            + (f'<details class="charts" open><summary>{len(charts)} comparison chart{"s" if len(charts) != 1 else ""}'
               f" (dataset × metric with two or more results; gains and other changes apart from scores)</summary>"
               f'<div class="legend">{legend}</div><div class="chart-grid">{grid}</div></details>\n' if charts else ""))
