"""Triage (:mod:`extract.triage`) as text for a reviewer, JSON or CSV."""

from __future__ import annotations

import csv
import io
import json
from typing import Sequence

from .records import RecordSet
from .redact import printable
from .table_render import csv_cell
from .triage import FLAG_TYPES, Evidence, Triage, select, triage

FORMATS = ("text", "json", "csv")


def _one_line(ev: Evidence) -> str:
    if ev.context:
        return ev.context + (f"  [{ev.note}]" if ev.note else "")
    if ev.text:
        return f"{ev.text!r}: {ev.note}" if ev.note else repr(ev.text)
    return ev.note


def to_text(items: Sequence[Triage], max_evidence: int = 3, total: Sequence[Triage] | None = None) -> str:
    """The report a reviewer reads; ``total`` (all papers) for the summary when ``items`` is a
    selection of them."""
    every = list(total) if total is not None else list(items)
    n_failed = sum(t.failed for t in every)
    flagged = sum(t.score > 0 for t in every)
    counts: dict[str, int] = {}
    for t in every:
        for f in t.flags:
            counts[f.code] = counts.get(f.code, 0) + 1
    lines = [f"{len(every)} paper{'s' if len(every) != 1 else ''}, {flagged} flagged, {n_failed} failed"
             + (f"; showing {len(items)}." if len(items) != len(every) else ".")]
    if counts:
        lines.append("flags: " + ", ".join(f"{FLAG_TYPES[c].label} {k}" for c, k in
                                            sorted(counts.items(), key=lambda kv: (-FLAG_TYPES[kv[0]].weight, kv[0]))))
    width = max((len(str(t.score)) for t in items), default=1)
    pad = " " * (width + 2)
    for t in items:
        meta = " · ".join(x for x in (t.id if t.title else "", t.source, t.contribution, t.task) if x)
        lines.append("")
        lines.append(f"{t.score:>{width}}  {t.label}")
        if meta:
            lines.append(pad + meta)
        if not t.flags:
            lines.append(pad + "no flags")
        for f in t.flags:
            lines.append(pad + f"- {f.label} (+{f.points})" + (":" if f.evidence else ""))
            shown = [e for e in f.evidence if _one_line(e)][:max_evidence]
            for e in shown:
                lines.append(pad + "    " + _one_line(e))
            if len(f.evidence) > len(shown) and shown:
                lines.append(pad + "    " + f"(+{len(f.evidence) - len(shown)} more)")
    # ids, titles and evidence come from the input: no escape sequence reaches a terminal
    return "\n".join(printable(line) for line in lines) + "\n"


def to_json(items: Sequence[Triage], total=None) -> str:
    return json.dumps([t.as_dict() for t in items], ensure_ascii=False, indent=1) + "\n"


def to_csv(items: Sequence[Triage], total=None) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["id", "title", "source", "score", "flag", "weight", "points", "evidence", "start", "end",
                "context", "note"])
    for t in items:
        if not t.flags:
            w.writerow([csv_cell(c) for c in [t.id, t.title or "", t.source, t.score] + [""] * 8])
        for f in t.flags:
            for e in f.evidence or [Evidence("")]:
                w.writerow([csv_cell(c) for c in (t.id, t.title or "", t.source, t.score, f.code, f.weight,
                                                  f.points, e.text, e.start, e.end, e.context, e.note)])
    return buf.getvalue()


def render(rs: RecordSet, fmt: str = "text", top: int | None = None, min_score: int | None = None,
           only: str | None = None) -> str:
    writers = {"text": to_text, "json": to_json, "csv": to_csv}
    if fmt not in writers:
        raise ValueError(f"unknown format {fmt!r} (one of {', '.join(writers)})")
    every = triage(rs)
    items = select(every, top, min_score, only)
    return writers[fmt](items, total=every)
