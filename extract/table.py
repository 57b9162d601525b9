"""Comparison tables built from the record's claims: who claims what number, measuring what, on
which dataset, with which method.

Every number of a record is one row, read from its claim (``extraction.numbers[i]``: ``metric``,
``dataset``, ``method``, see ``schemas/paper.py``); nothing is attached by proximity.  A number
whose record says dataset X is listed under X; one whose dataset is null is listed under no
dataset; one whose method is null (a dataset size, a human baseline's score) belongs to no
system and is never shown as the paper's method.  Method ``""`` is the paper's own approach,
left unnamed by the abstract.

Columns: dataset, method, metric, value, unit, kind, paper (the title when the input had one,
else the id), plus ``paper_id``, ``method_role`` (``proposed`` for one of the paper's own
methods or its unnamed approach, ``compared`` for another named system, null for none),
``value_type`` (``absolute``, or ``change``: a gain, drop or speedup relative to something) and
``compared_to`` (the named system a change is measured against), the number as written, the
paper's task and contribution, and the number's offsets.  A change is never sorted among
absolute values: within a group the absolute rows come first, then the changes, and the
readable formats show a change in its own column.  Nulls stay
null and values stay numbers; only :mod:`extract.table_render`'s markdown and HTML show
readable placeholders.

Views (``by``): ``dataset``, ``method``, ``metric`` group the rows by that column (named groups
with the most papers first, the unnamed group last); ``task`` groups by the paper's task and
also lists each paper without numbers as one empty row, so every paper appears.  Names are
merged across papers by :mod:`extract.names` (the same name written differently, long form
vs acronym).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Iterable, Sequence

from .names import NameIndex, clean, name_key
from .records import Number, Paper, Span

VIEWS = ("dataset", "method", "metric", "task")
KINDS = ("result", "setting")


@dataclass
class Row:
    dataset: str | None
    method: str | None  # "" = the paper's own approach, unnamed; None = no system
    metric: str | None
    value: float | int | None
    unit: str | None
    kind: str | None
    paper: str  # the title when the record has one, else the id
    paper_id: str
    method_role: str | None = None  # "proposed" | "compared" | None
    value_type: str | None = None  # "absolute" | "change" (relative to compared_to); None: no number
    compared_to: str | None = None  # the named system a change is measured against
    text: str | None = None  # the number as written; None for a paper listed without numbers
    task: str | None = None
    contribution: str | None = None
    start: int | None = None
    end: int | None = None

    def as_dict(self) -> dict:
        return asdict(self)


FIELDS = list(Row.__dataclass_fields__)


def paper_label(p: Paper) -> str:
    """How a paper is named in tables, triage and the report: its title, else its id."""
    t = " ".join((p.title or "").split())
    return t or p.id


def number_value(v: float | None) -> float | int | None:
    """A value for JSON/CSV: integral floats as ints (85229, not 85229.0); a value that is not a
    finite number (``Infinity`` read from a hand-edited file) is None, so outputs stay strict JSON."""
    if v is None or v != v or v in (float("inf"), float("-inf")):
        return None
    if abs(v) < 2 ** 53 and float(v).is_integer():
        return int(v)
    return v


@dataclass
class Names:
    """Dataset, method and metric names merged across papers."""

    datasets: NameIndex
    methods: NameIndex
    metrics: NameIndex

    @classmethod
    def of(cls, papers: Iterable[Paper]) -> "Names":
        ds, ms, mx = NameIndex(), NameIndex(), NameIndex()
        for p in papers:
            ds.add(p.id, [s.text for s in p.datasets] + [n.dataset.text for n in p.numbers if n.dataset], p.text)
            ms.add(p.id, [s.text for s in p.methods]
                   + [n.method.text for n in p.numbers if isinstance(n.method, Span)]
                   + [n.compared_to.text for n in p.numbers if n.compared_to], p.text)
            mx.add(p.id, [n.metric.text for n in p.numbers if n.metric], p.text)
        return cls(ds, ms, mx)

    def __post_init__(self) -> None:
        self._shown = (self.datasets.displays(), self.methods.displays(), self.metrics.displays())

    def dataset(self, s: Span | None, paper_id: str) -> str | None:
        return self._show(0, self.datasets, s, paper_id)

    def method(self, s: Span | str | None, paper_id: str) -> str | None:
        return "" if s == "" else self._show(1, self.methods, s, paper_id)  # type: ignore[arg-type]

    def metric(self, s: Span | None, paper_id: str) -> str | None:
        return self._show(2, self.metrics, s, paper_id)

    def _show(self, i: int, index: NameIndex, s: Span | None, paper_id: str) -> str | None:
        if s is None or not s.text.strip():
            return None
        g = index.group(s.text, paper_id)
        return self._shown[i].get(g) or clean(s.text)


def method_role(p: Paper, n: Number, names: Names) -> str | None:
    """``proposed`` when the number belongs to one of the paper's methods (or its unnamed
    approach), ``compared`` when to another named system, None when to no system."""
    if n.method == "":
        return "proposed"
    if not isinstance(n.method, Span) or not n.method.text.strip():
        return None
    g = names.methods.group(n.method.text, p.id)
    own = {names.methods.group(m.text, p.id) for m in p.methods}
    return "proposed" if g in own else "compared"


def paper_rows(p: Paper, names: Names, bare: bool = False) -> list[Row]:
    """One row per number of ``p`` (and, with ``bare``, one empty row when it has none)."""
    label, task = paper_label(p), p.task or None
    rows = [Row(dataset=names.dataset(n.dataset, p.id), method=names.method(n.method, p.id),
                metric=names.metric(n.metric, p.id), value=number_value(n.value), unit=n.unit or None,
                kind=n.kind or None, paper=label, paper_id=p.id, method_role=method_role(p, n, names),
                value_type=n.value_type, compared_to=names.method(n.compared_to, p.id),
                text=n.text, task=task, contribution=p.contribution or None,
                start=n.start if n.grounded else None, end=n.end if n.grounded else None)
            for n in p.numbers]
    if bare and not rows:
        rows.append(Row(None, None, None, None, None, None, label, p.id, task=task,
                        contribution=p.contribution or None))
    return rows


def _group_key(r: Row, by: str):
    return r.task if by == "task" else getattr(r, by)


def _name_order(v) -> tuple:
    return (v is None, "" if v is None else name_key(v), "" if v is None else v)


def build_rows(papers: Sequence[Paper], by: str = "dataset", kind: str | None = None,
               names: Names | None = None) -> list[Row]:
    """Every row of view ``by``, sorted so that each group's rows are contiguous.

    ``kind`` keeps only numbers of that kind (``result`` or ``setting``).
    """
    if by not in VIEWS:
        raise ValueError(f"unknown view {by!r}")
    if kind is not None and kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    names = names or Names.of(papers)
    order = {p.id: i for i, p in enumerate(papers)}
    rows = [r for p in papers for r in paper_rows(p, names, bare=by == "task" and kind is None)
            if kind is None or r.kind == kind or r.text is None]
    papers_per: dict = {}
    for r in rows:
        papers_per.setdefault(_group_key(r, by), set()).add(r.paper_id)

    def within(r: Row) -> tuple:
        at = r.start if r.start is not None else 1 << 60
        kind_rank = KINDS.index(r.kind) if r.kind in KINDS else len(KINDS)
        kind_rank = (kind_rank, r.value_type == "change")     # changes after absolute values
        if by == "task":
            return (order[r.paper_id], at)
        first = {"dataset": r.metric, "metric": r.dataset, "method": r.dataset}[by]
        second = r.metric if by == "method" else None
        value = -r.value if isinstance(r.value, (int, float)) and by != "method" else 0
        return (kind_rank, _name_order(first), _name_order(second), r.value is None, value, order[r.paper_id], at)

    def group(r: Row) -> tuple:
        g = _group_key(r, by)
        unnamed = g is None or (by == "task" and not g)
        return (unnamed, g == "", -len(papers_per[g]) if by != "task" else 0, _name_order(g or None))
    rows.sort(key=lambda r: (group(r), within(r)))
    return rows


def without_claims(papers: Iterable[Paper]) -> int:
    """How many numbers come from records made before the claim fields existed."""
    return sum(1 for p in papers for n in p.numbers if not n.has_claims)


def only_kind(p: Paper, kind: str) -> Paper:
    return replace(p, numbers=[n for n in p.numbers if n.kind == kind])
