"""The comparison table (:mod:`extract.table`) as markdown, CSV, JSON or a standalone HTML page.

CSV and JSON carry the rows as they are: nulls are null (an empty CSV cell), values are
numbers, every field of :class:`extract.table.Row` is a column.  Markdown and HTML are for
reading: the value is shown with its unit (``85,229``, ``11.25 %``, ``650×``, ``80B``), a
change (a gain, drop or speedup) in a Change column beside Value with the system it is
measured against (``vs``), and nulls get a readable placeholder (``—``; ``(unnamed, own)`` for the paper's own unnamed
approach).  Markdown pastes into a draft: one ``###`` section per group (one table with a Task column
for ``--by task``), aligned columns, pipes and tag-like ``<`` escaped.
"""

from __future__ import annotations

import csv
import html
import io
import json
import math
import re
from typing import Sequence

from .names import clean
from .table import FIELDS, Row, build_rows

FORMATS = ("markdown", "csv", "html", "json")
NONE = "—"
PAPER_CHARS = 60  # a longer title is shortened in markdown/HTML cells (CSV/JSON keep it whole)
OWN_UNNAMED = "(unnamed, own)"
GROUP_NONE = {"dataset": "(no single dataset)", "method": "(no system)", "metric": "(metric not stated)",
              "task": "(no task)"}

# --------------------------------------------------------------- numbers for reading

_MAGNITUDE = {"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "G": 1e9, "T": 1e12, "bn": 1e9,
              "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_TIMES = {"×", "x", "X", "times", "\\times", "fold", "-fold"}
_PERCENT = {"%", "\\%", "percent", "per cent"}
_POINTS = {"pp", "p.p.", "percentage points", "percentage point", "points", "pts"}


def format_plain(v: float) -> str:
    """85229 -> '85,229'; 11.25 -> '11.25'; 0.000012 -> '1.2e-05'."""
    if v != v or v in (float("inf"), float("-inf")):
        return str(v)
    if v == int(v) and abs(v) < 1e15:
        return f"{int(v):,}"
    if abs(v) < 1e-3:
        return f"{v:.3g}"
    return f"{v:,.6f}".rstrip("0").rstrip(".")


_NUMERAL = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _written(text: str) -> float | None:
    """The first numeral of a number's text ('0.6B' -> 0.6, '1,300' -> 1300), or None."""
    m = _NUMERAL.search(text or "")
    try:
        return float(m.group(0).replace(",", "")) if m else None
    except ValueError:
        return None


_TAIL = re.compile(r"\d([^\d]*)$")


def unit_from_text(text: str) -> str:
    """The unit a number's text writes after its last digit, when no unit was given:
    '80B' -> 'B', '22-fold' -> '×', '1.5 GPU hours' -> 'GPU hours', '85,229' -> ''."""
    if re.search(r"\\?%", text):
        return "%"
    m = _TAIL.search(text.strip().rstrip("$").strip())
    tail = m.group(1) if m else ""
    tail = re.sub(r"\\(?:times)\b", "×", tail)
    tail = re.sub(r"[\\${}~]|^\s*-", " ", tail).strip()
    if tail in ("fold", "×", "x", "X", "times"):
        return "×"
    if tail and len(tail.split()) <= 3 and re.fullmatch(r"[A-Za-zµμ°][\w\s°/-]*", tail):
        return tail
    return ""


def format_number(value: float | None, unit: str | None, text: str = "") -> str:
    """A number for reading: value with thousands separators and its unit (from ``text`` when
    no unit is given).  ``(85229, None)`` -> ``85,229``; ``(11.25, '%')`` -> ``11.25 %``;
    ``(80e9, 'B')`` -> ``80B``; no value -> the text as written."""
    if value is None:
        return clean(text or "")
    u = (unit or "").strip() or unit_from_text(text)
    if u in _MAGNITUDE:
        scale = _MAGNITUDE[u]
        written = _written(text)
        if written is not None and math.isclose(abs(value), written * scale, rel_tol=1e-6):
            shown = value / scale          # '0.6B' stored as 6e8: shown as written
        elif written is not None and math.isclose(abs(value), written, rel_tol=1e-6):
            shown = value                  # a value left unscaled (80 with unit 'B')
        else:
            shown = value / scale if abs(value) >= scale * 0.999 else value
        return format_plain(shown) + ("" if len(u) <= 2 else " ") + u
    if u in _PERCENT:
        return format_plain(value) + " %"
    if u in _TIMES:
        return format_plain(value) + "×"
    if u in _POINTS:
        return format_plain(value) + " pp"
    return format_plain(value) + (" " + u if u else "")


# --------------------------------------------------------------- readable cells

# view -> (header, attribute, right-aligned); the group column is the first.  An absolute value
# is under Value, a change (a gain, drop or speedup) under Change with what it is measured against.
_READ_COLUMNS = [("Dataset", "dataset", False), ("Method", "method", False), ("Metric", "metric", False),
                 ("Value", "shown", True), ("Change", "change", True), ("vs", "compared_to", False),
                 ("Kind", "kind", False), ("Paper", "paper", False)]


def columns(by: str) -> list[tuple[str, str, bool]]:
    key = "task" if by == "task" else by
    first = [c for c in _READ_COLUMNS if c[1] == key] or [("Task", "task", False)]
    return first + [c for c in _READ_COLUMNS if c[1] != key]


def cell(r: Row, attr: str) -> str:
    """A row's field for reading (placeholders for nulls)."""
    if attr in ("shown", "change"):
        mine = (r.value_type == "change") == (attr == "change")
        return format_number(r.value, r.unit, r.text or "") if r.text is not None and mine else NONE
    v = getattr(r, attr)
    if attr == "method" and v == "" and r.method_role == "proposed":
        return OWN_UNNAMED
    if v is None or v == "":
        return NONE
    v = " ".join(clean(str(v)).split())
    return v if attr != "paper" or len(v) <= PAPER_CHARS else v[: PAPER_CHARS - 1].rstrip() + "…"


def group_title(r: Row, by: str) -> str:
    v = r.task if by == "task" else getattr(r, by)
    if by == "method" and v == "":
        return OWN_UNNAMED
    return " ".join(clean(v).split()) if v else GROUP_NONE[by]


def grouped(rows: Sequence[Row], by: str) -> list[tuple[str, list[Row]]]:
    groups: list[tuple[str, list[Row]]] = []
    last = object()
    for r in rows:
        g = r.task if by == "task" else getattr(r, by)
        if not groups or g != last:
            groups.append((group_title(r, by), []))
            last = g
        groups[-1][1].append(r)
    return groups


def _papers(n: int) -> str:
    return f"{n} paper{'s' if n != 1 else ''}"


# --------------------------------------------------------------- formats

_TAG_START = re.compile(r"<(?=[A-Za-z/!?])")


def md_escape(s: str) -> str:
    """Pipes would split the cell, and ``<tag`` would render as HTML; the rest stays as written."""
    return _TAG_START.sub("&lt;", s.replace("|", "\\|"))


def md_table(headers: list[tuple[str, bool]], body: list[list[str]]) -> str:
    cells = [[md_escape(c) for c in row] for row in body]
    widths = [max([len(h)] + [len(r[i]) for r in cells] + [3]) for i, (h, _) in enumerate(headers)]

    def line(cs: list[str]) -> str:
        return "| " + " | ".join(c.rjust(w) if right else c.ljust(w)
                                 for c, w, (_, right) in zip(cs, widths, headers)) + " |"
    sep = "| " + " | ".join(("-" * (w - 1) + ":") if right else "-" * w
                            for w, (_, right) in zip(widths, headers)) + " |"
    return "\n".join([line([h for h, _ in headers]), sep] + [line(r) for r in cells])


def to_markdown(rows: Sequence[Row], by: str) -> str:
    if by == "task":  # tasks are mostly one paper each: one table, the task as its first column
        cols = columns(by)
        return md_table([(h, right) for h, _, right in cols],
                        [[cell(x, a) if a != "task" else group_title(x, by) for _, a, _ in cols] for x in rows]) \
            + "\n" if rows else ""
    inner = columns(by)[1:]
    parts = []
    for name, grp in grouped(rows, by):
        parts.append(f"### {md_escape(name)} ({_papers(len({r.paper_id for r in grp}))})\n\n"
                     + md_table([(h, right) for h, _, right in inner],
                                [[cell(x, a) for _, a, _ in inner] for x in grp]))
    return "\n\n".join(parts) + "\n" if parts else ""


# CSV injection (OWASP): a spreadsheet runs a cell that starts with = + - @ (or tab/CR
# before one) as a formula; a text cell so started gets a leading ' and is shown as text.
# Values stay numbers: a number, or a text that is only a numeral ("-0.76"), is no formula.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")
_PLAIN_NUMERAL = re.compile(r"[+-]?(?:\d+(?:[.,]\d+)*\.?\d*|\.\d+)(?:[eE][+-]?\d+)?%?\Z")


def csv_cell(v):
    """One CSV cell: None empty, numbers as they are, a text that a spreadsheet would run
    as a formula prefixed with ``'``."""
    if v is None:
        return ""
    if isinstance(v, str) and v.lstrip(" ").startswith(_FORMULA_START) and not _PLAIN_NUMERAL.match(v.strip()):
        return "'" + v
    return v


def to_csv(rows: Sequence[Row], by: str = "dataset") -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(FIELDS)
    for r in rows:
        w.writerow([csv_cell(getattr(r, f)) for f in FIELDS])
    return buf.getvalue()


def to_json(rows: Sequence[Row], by: str = "dataset") -> str:
    return json.dumps([r.as_dict() for r in rows], ensure_ascii=False, indent=1, allow_nan=False) + "\n"


_HTML_CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1d2330;margin:2rem}
table{border-collapse:collapse;margin:0 0 1.5rem;min-width:40rem}
th,td{padding:.3rem .7rem;border-bottom:1px solid #e3e6ec;text-align:left;vertical-align:top}
th{background:#f4f6f9;font-weight:600}td.none{color:#8a919e}th.num,td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
h2{font-size:1.05rem;margin:1.2rem 0 .4rem}h2 small{color:#6b7280;font-weight:400}
"""


def to_html(rows: Sequence[Row], by: str, title: str = "Comparison table") -> str:
    e = html.escape
    inner = columns(by)[1:]
    head = "".join(f'<th class="num">{e(h)}</th>' if right else f"<th>{e(h)}</th>" for h, _, right in inner)

    def td(v: str, right: bool) -> str:
        cls = "num" if right else ("none" if v in (NONE, OWN_UNNAMED) else "")
        return f'<td class="{cls}">{e(v)}</td>' if cls else f"<td>{e(v)}</td>"
    content = ""
    for name, grp in grouped(rows, by):
        body = "".join("<tr>" + "".join(td(cell(x, a), right) for _, a, right in inner) + "</tr>\n" for x in grp)
        content += (f"<h2>{e(name)} <small>{_papers(len({r.paper_id for r in grp}))}</small></h2>\n"
                    f"<table><thead><tr>{head}</tr></thead><tbody>\n{body}</tbody></table>\n")
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{e(title)}</title>'
            f"<style>{_HTML_CSS}</style></head><body>\n<h1>{e(title)}</h1>\n{content}</body></html>\n")


def render_rows(rows: Sequence[Row], by: str, fmt: str) -> str:
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}")
    return {"markdown": to_markdown, "csv": to_csv, "html": to_html, "json": to_json}[fmt](rows, by)


def render(papers, by: str = "dataset", fmt: str = "markdown", kind: str | None = None) -> str:
    """The table of ``papers`` in view ``by`` as ``fmt`` text."""
    return render_rows(build_rows(papers, by, kind), by, fmt)
