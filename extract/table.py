"""Comparison tables over a records file: who claims what number on which dataset with which method.

Views (``by``):

* ``dataset`` (default) - one row per (dataset, method, number), grouped by dataset (groups
  with numbers first, then by how many papers name the dataset);
* ``method``  - the same rows grouped by method;
* ``task``    - one row per paper (papers without datasets or numbers included).

An abstract does not say which number belongs to which dataset, so a number is attached to
the dataset named nearest to it *in the same sentence*, else to the paper's only dataset,
else to none ("(no dataset named)").  The method is the one named nearest in the same
sentence, else the paper's first-listed method.  A dataset (or method) that gets no number
still gets one row with an empty value, so every paper naming it is listed.  Names are merged
across papers by :mod:`extract.names`.  Spans whose offsets do not match the text are used
for names but not for placement.
"""

from __future__ import annotations

import bisect
import csv
import html
import io
import json
import re
from dataclasses import asdict, dataclass
from typing import Iterable, Sequence

from .names import NameIndex, clean, name_key
from .records import Number, Paper, Span

VIEWS = ("dataset", "method", "task")
FORMATS = ("markdown", "csv", "html", "json")
NO_DATASET = "(no dataset named)"
NO_METHOD = "(no method named)"

# --------------------------------------------------------------- numbers

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
    s = f"{v:,.6f}".rstrip("0").rstrip(".")
    return s


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
    """A number for a table: value with thousands separators and its unit (from ``text`` when
    no unit is given).

    ``(85229, None)`` -> ``85,229``; ``(11.25, '%')`` -> ``11.25 %``; ``(650, '×')`` -> ``650×``;
    ``(80e9, 'B')`` and ``(80e9, None, '80B')`` -> ``80B``; no value -> the text as written.
    """
    if value is None:
        return clean(text)
    u = (unit or "").strip() or unit_from_text(text)
    if u in _MAGNITUDE:
        scale = _MAGNITUDE[u]
        shown = value / scale if abs(value) >= scale * 0.999 else value
        return format_plain(shown) + ("" if len(u) <= 2 else " ") + u
    if u in _PERCENT:
        return format_plain(value) + " %"
    if u in _TIMES:
        return format_plain(value) + "×"
    if u in _POINTS:
        return format_plain(value) + " pp"
    return format_plain(value) + (" " + u if u else "")


# --------------------------------------------------------------- sentences

_SENT_END = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[A-Z(\[$\\\"'*`])")
# A period after these does not end a sentence ("Fig. 3", "et al. Their", "e.g. ImageNet").
_ABBREV = re.compile(r"(?:\b(?:e\.g|i\.e|et al|cf|vs|Fig|Figs|Sec|Eq|Eqs|Tab|Art|No|Ref|approx|resp|etc|Dr|Prof|St|Vol|pp)"
                     r"|\b[A-Z])\.[\"')\]]?\s+$")


def sentence_bounds(text: str) -> list[int]:
    """Start offsets of the sentences of ``text`` (first is 0)."""
    out = [0]
    for m in _SENT_END.finditer(text):
        if not _ABBREV.search(text, max(0, m.start() - 12), m.end()):
            out.append(m.end())
    return out


def sentence_at(text: str, bounds: Sequence[int], pos: int) -> tuple[int, int]:
    i = bisect.bisect_right(bounds, pos) - 1
    end = bounds[i + 1] if i + 1 < len(bounds) else len(text)
    return bounds[i], end


# --------------------------------------------------------------- rows

@dataclass
class Row:
    dataset: str
    method: str
    shown: str  # formatted value with unit ("" when the row has no number)
    value: float | None
    unit: str | None
    text: str  # the number as written
    kind: str
    about: str
    paper: str
    task: str = ""
    start: int | None = None
    end: int | None = None

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class TaskRow:
    task: str
    contribution: str
    methods: list[str]
    datasets: list[str]
    results: list[str]
    settings: list[str]
    paper: str

    def as_dict(self) -> dict:
        return asdict(self)


def index_names(papers: Iterable[Paper]) -> tuple[NameIndex, NameIndex]:
    """Dataset and method name indexes over all papers."""
    ds, ms = NameIndex(), NameIndex()
    for p in papers:
        ds.add(p.id, [s.text for s in p.datasets], p.text)
        ms.add(p.id, [s.text for s in p.methods], p.text)
    return ds, ms


def _groups(paper: Paper, spans: list[Span], index: NameIndex) -> list[tuple[str, list[tuple[int, int]]]]:
    """The paper's name groups in first-listed order, each with every place in the text where
    one of its surface forms occurs (not only the offsets the extraction gave)."""
    out: dict[str, list[tuple[int, int]]] = {}
    for s in spans:
        places = out.setdefault(index.group(s.text, paper.id), [])
        if s.grounded:
            places.append((s.start, s.end))
        if s.text.strip():
            for m in re.finditer(re.escape(s.text), paper.text):
                a, b = m.span()
                if (a == 0 or not paper.text[a - 1].isalnum() or not s.text[0].isalnum()) and \
                        (b == len(paper.text) or not paper.text[b].isalnum() or not s.text[-1].isalnum()):
                    places.append((a, b))
    return list(out.items())


def _nearest(groups: list[tuple[str, list[tuple[int, int]]]], lo: int, hi: int, n: Number) -> str | None:
    best, best_d = None, None
    for g, places in groups:
        for a, b in places:
            if a < lo or b > hi:
                continue
            d = n.start - b if b <= n.start else (a - n.end if a >= n.end else 0)
            if best_d is None or d < best_d:
                best, best_d = g, d
    return best


def paper_rows(p: Paper, ds: NameIndex, ms: NameIndex, dnames: dict, mnames: dict) -> list[Row]:
    """The (dataset, method, number) rows of one paper, plus one empty row per unused name pair."""
    dgroups, mgroups = _groups(p, p.datasets, ds), _groups(p, p.methods, ms)
    primary = mgroups[0][0] if mgroups else None
    bounds = sentence_bounds(p.text)
    rows, used_d, used_m = [], set(), set()
    for n in p.numbers:
        dg = mg = None
        if n.grounded:
            lo, hi = sentence_at(p.text, bounds, n.start)
            dg = _nearest(dgroups, lo, hi, n)
            mg = _nearest(mgroups, lo, hi, n)
        if dg is None and len(dgroups) == 1:
            dg = dgroups[0][0]
        if mg is None:
            mg = primary
        used_d.add(dg)
        used_m.add(mg)
        rows.append(Row(dataset=dnames.get(dg, NO_DATASET) if dg else NO_DATASET,
                        method=mnames.get(mg, NO_METHOD) if mg else NO_METHOD,
                        shown=format_number(n.value, n.unit, n.text), value=n.value, unit=n.unit,
                        text=n.text, kind=n.kind, about=n.about, paper=p.id, task=p.task,
                        start=n.start if n.grounded else None, end=n.end if n.grounded else None))
    for dg, _ in dgroups:
        if dg not in used_d:
            used_m.add(primary)
            rows.append(Row(dnames.get(dg, dg), mnames.get(primary, NO_METHOD) if primary else NO_METHOD,
                            "", None, None, "", "", "", p.id, p.task))
    for mg, _ in mgroups:
        if mg not in used_m:
            rows.append(Row(NO_DATASET, mnames.get(mg, mg), "", None, None, "", "", "", p.id, p.task))
    return rows


def _casekey(s: str) -> str:
    return s.casefold()


def build_rows(papers: Sequence[Paper], by: str = "dataset", with_empty: bool = True) -> list[Row]:
    """Every row of the dataset or method view, grouped (sorted) by ``by``; ``with_empty=False``
    leaves out the rows that only say a paper names a dataset/method (no number)."""
    if by not in ("dataset", "method"):
        raise ValueError(f"unknown view {by!r}")
    ds, ms = index_names(papers)
    dnames, mnames = ds.displays(), ms.displays()
    rows: list[Row] = []
    order: dict[str, int] = {}
    for i, p in enumerate(papers):
        order[p.id] = i
        rows.extend(paper_rows(p, ds, ms, dnames, mnames))
    key = (lambda r: r.dataset) if by == "dataset" else (lambda r: r.method)
    empty = NO_DATASET if by == "dataset" else NO_METHOD
    papers_per: dict[str, set] = {}
    with_numbers: set[str] = set()
    for r in rows:
        papers_per.setdefault(key(r), set()).add(r.paper)
        if r.shown:
            with_numbers.add(key(r))
    rows = [r for r in rows if r.shown or (with_empty and key(r) != empty)]  # nothing to say
    # groups: named before "(no ... named)", with numbers before without, most papers first
    rows.sort(key=lambda r: (key(r) == empty, key(r) not in with_numbers, -len(papers_per[key(r)]),
                             _casekey(key(r)), not r.shown, order[r.paper],
                             r.start if r.start is not None else 1 << 60))
    return rows


def build_task_rows(papers: Sequence[Paper]) -> list[TaskRow]:
    """One row per paper, sorted by task, every paper included."""
    ds, ms = index_names(papers)
    dnames, mnames = ds.displays(), ms.displays()
    out = []
    for p in papers:
        methods = list(dict.fromkeys(mnames.get(g, g) for g, _ in _groups(p, p.methods, ms)))
        datasets = list(dict.fromkeys(dnames.get(g, g) for g, _ in _groups(p, p.datasets, ds)))

        def fmt(n: Number) -> str:
            s = format_number(n.value, n.unit, n.text)
            return f"{s} ({n.about})" if n.about else s
        out.append(TaskRow(p.task or "(no task)", p.contribution, methods, datasets,
                           [fmt(n) for n in p.numbers if n.kind == "result"],
                           [fmt(n) for n in p.numbers if n.kind != "result"], p.id))
    out.sort(key=lambda r: (r.task == "(no task)", name_key(r.task), r.paper))  # markup ignored
    return out


# --------------------------------------------------------------- rendering

COLUMNS = {  # view -> (header, Row attribute, right-aligned)
    "dataset": [("Dataset", "dataset", False), ("Method", "method", False), ("Value", "shown", True),
                ("Kind", "kind", False), ("Measures", "about", False), ("Paper", "paper", False)],
    "method": [("Method", "method", False), ("Dataset", "dataset", False), ("Value", "shown", True),
               ("Kind", "kind", False), ("Measures", "about", False), ("Paper", "paper", False)],
    "task": [("Task", "task", False), ("Type", "contribution", False), ("Methods", "methods", False),
             ("Datasets", "datasets", False), ("Results", "results", False), ("Paper", "paper", False)],
}


MAX_LISTED = 3  # results listed per paper in the markdown/HTML task view (CSV/JSON: all)


def _cell(v) -> str:
    if isinstance(v, list):
        more = len(v) - MAX_LISTED
        v = "; ".join(v[:MAX_LISTED]) + (f"; (+{more} more)" if more > 0 else "")
    return " ".join(str(v if v is not None else "").split())


_TAG_START = re.compile(r"<(?=[A-Za-z/!?])")


def _md_escape(s: str) -> str:
    """Pipes would split the cell, and ``<tag`` would render as HTML; the rest stays as written."""
    return _TAG_START.sub("&lt;", s.replace("|", "\\|"))


def _md_table(headers: list[tuple[str, bool]], body: list[list[str]]) -> str:
    cells = [[_md_escape(c) for c in row] for row in body]
    widths = [max([len(h)] + [len(r[i]) for r in cells] + [3]) for i, (h, _) in enumerate(headers)]
    line = lambda cs: "| " + " | ".join(  # noqa: E731
        c.rjust(w) if right else c.ljust(w) for c, w, (_, right) in zip(cs, widths, headers)) + " |"
    sep = "| " + " | ".join(("-" * (w - 1) + ":") if right else "-" * w
                            for w, (_, right) in zip(widths, headers)) + " |"
    return "\n".join([line([h for h, _ in headers]), sep] + [line(r) for r in cells])


def _grouped(rows: list, attr: str) -> list[tuple[str, list]]:
    groups: list[tuple[str, list]] = []
    for r in rows:
        g = getattr(r, attr)
        if not groups or groups[-1][0] != g:
            groups.append((g, []))
        groups[-1][1].append(r)
    return groups


def to_markdown(rows: list, by: str) -> str:
    cols = COLUMNS[by]
    if by == "task":
        return _md_table([(h, r) for h, _, r in cols], [[_cell(getattr(x, a)) for _, a, _ in cols] for x in rows]) + "\n"
    inner = cols[1:]
    parts = []
    for name, grp in _grouped(rows, cols[0][1]):
        n = len({r.paper for r in grp})
        parts.append(f"### {_md_escape(name)} ({n} paper{'s' if n != 1 else ''})\n\n"
                     + _md_table([(h, r) for h, _, r in inner],
                                 [[_cell(getattr(x, a)) for _, a, _ in inner] for x in grp]))
    return "\n\n".join(parts) + "\n" if parts else ""


def to_csv(rows: list, by: str) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    if by == "task":
        w.writerow(["task", "contribution", "methods", "datasets", "results", "settings", "paper"])
        for r in rows:
            w.writerow([r.task, r.contribution, "; ".join(r.methods), "; ".join(r.datasets),
                        "; ".join(r.results), "; ".join(r.settings), r.paper])
    else:
        fields = list(Row.__dataclass_fields__)
        w.writerow(fields)
        for r in rows:
            w.writerow(["" if getattr(r, f) is None else getattr(r, f) for f in fields])
    return buf.getvalue()


def to_json(rows: list, by: str) -> str:
    return json.dumps([r.as_dict() for r in rows], ensure_ascii=False, indent=1) + "\n"


_HTML_CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1d2330;margin:2rem}
table{border-collapse:collapse;margin:0 0 1.5rem;min-width:40rem}
th,td{padding:.3rem .7rem;border-bottom:1px solid #e3e6ec;text-align:left;vertical-align:top}
th{background:#f4f6f9;font-weight:600}td.none{color:#8a919e}th.num,td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
h2{font-size:1.05rem;margin:1.2rem 0 .4rem}h2 small{color:#6b7280;font-weight:400}
"""


def to_html(rows: list, by: str, title: str = "Comparison table") -> str:
    e = html.escape
    cols = COLUMNS[by]

    def table(cs, items) -> str:
        head = "".join(f'<th class="num">{e(h)}</th>' if right else f"<th>{e(h)}</th>" for h, _, right in cs)

        def td(v: str, right: bool) -> str:
            cls = "num" if right else ("none" if v in (NO_DATASET, NO_METHOD) else "")
            return f'<td class="{cls}">{e(v)}</td>' if cls else f"<td>{e(v)}</td>"
        body = "".join("<tr>" + "".join(td(_cell(getattr(x, a)), right) for _, a, right in cs) + "</tr>\n"
                       for x in items)
        return f"<table><thead><tr>{head}</tr></thead><tbody>\n{body}</tbody></table>\n"

    if by == "task":
        content = table(cols, rows)
    else:
        content = ""
        for name, grp in _grouped(rows, cols[0][1]):
            n = len({r.paper for r in grp})
            content += f"<h2>{e(name)} <small>{n} paper{'s' if n != 1 else ''}</small></h2>\n" + table(cols[1:], grp)
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{e(title)}</title>'
            f"<style>{_HTML_CSS}</style></head><body>\n<h1>{e(title)}</h1>\n{content}</body></html>\n")


def render(papers: Sequence[Paper], by: str = "dataset", fmt: str = "markdown", with_empty: bool = True) -> str:
    """The table of ``papers`` in view ``by`` as ``fmt`` text."""
    if by not in VIEWS:
        raise ValueError(f"unknown view {by!r}")
    rows = build_task_rows(papers) if by == "task" else build_rows(papers, by, with_empty)
    return {"markdown": to_markdown, "csv": to_csv, "html": to_html, "json": to_json}[fmt](rows, by)
