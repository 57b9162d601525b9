"""Read a records JSONL file (the output of ``extract run``) and the errors file next to it.

Reading is forgiving: a line that is not JSON, not an object, or has no ``id``/``text`` is
skipped and reported on stderr (through ``warn``); a record whose ``extraction`` is not of the
default schema (a user's custom schema) is kept with empty fields and ``schema_ok=False``, and
counted in one summary line.  Spans are never trusted: each keeps its offsets, and
:attr:`Span.grounded` says whether ``text[start:end] == span.text``.

    records.jsonl          -> :class:`RecordSet.papers`
    records.errors.jsonl   -> :class:`RecordSet.failures` (RECORDS minus .jsonl plus .errors.jsonl)
"""

from __future__ import annotations

import io
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from . import jsonl
from .errors import InputError
from .identity import origin
from .outpaths import errors_path_for

Warn = Callable[[str], None]
STDIN = "-"       # the path that means standard input


def _stderr(msg: str) -> None:
    print(msg, file=sys.stderr)


@dataclass
class Span:
    """A string of the extraction with its offsets in the source (offsets may be missing/wrong)."""

    text: str
    start: int | None
    end: int | None
    status: str = ""
    grounded: bool = False  # text[start:end] == self.text

    def as_dict(self) -> dict:
        return {"text": self.text, "start": self.start, "end": self.end, "status": self.status}


@dataclass
class Number(Span):
    value: float | None = None
    unit: str | None = None
    kind: str = ""  # result | setting | "" (unknown)
    about: str = ""
    # The claim (schemas/paper.py): what the number measures, on which of the record's datasets,
    # by which system ("" = the paper's own unnamed approach; None = no system).
    metric: Span | None = None
    dataset: Span | None = None
    method: Span | str | None = None
    has_claims: bool = False  # the record carries the claim fields (older records do not)
    # "change" (a gain, drop, speedup: relative to a reference) or "absolute" (older records: absolute),
    # and the named system a change is measured against
    value_type: str = "absolute"
    compared_to: Span | None = None

    @property
    def is_change(self) -> bool:
        return self.value_type == "change"
    #: the hybrid job: whether the rules' reading of this number and the model's agree (None: one read it)
    rules_agree: bool | None = None

    def as_dict(self) -> dict:
        d = super().as_dict()
        d.update(value=self.value, unit=self.unit, kind=self.kind, about=self.about,
                 metric=self.metric.as_dict() if self.metric else None,
                 dataset=self.dataset.as_dict() if self.dataset else None,
                 method=self.method.as_dict() if isinstance(self.method, Span) else self.method,
                 value_type=self.value_type, compared_to=self.compared_to.as_dict() if self.compared_to else None)
        return d


@dataclass
class Paper:
    """One record of the records file, read into plain typed fields."""

    id: str
    text: str
    source: str = ""
    title: str | None = None
    status: str = "ok"
    task: str = ""
    contribution: str = ""
    methods: list[Span] = field(default_factory=list)
    datasets: list[Span] = field(default_factory=list)
    numbers: list[Number] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    schema_ok: bool = True  # False: the extraction is not of the default schema
    line: int = 0  # line number in the records file

    def spans(self) -> Iterable[tuple[str, Span]]:
        """Every span with its field name: ``method``, ``dataset`` or ``number``."""
        for s in self.methods:
            yield "method", s
        for s in self.datasets:
            yield "dataset", s
        for n in self.numbers:
            yield "number", n


@dataclass
class Failure:
    """One line of the errors file: a paper whose extraction failed."""

    id: str
    source: str = ""
    reason: str = ""
    attempts: int | None = None
    text: str | None = None
    line: int = 0


@dataclass
class RecordSet:
    path: Path
    papers: list[Paper] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    errors_path: Path | None = None
    foreign_schema: int = 0  # records kept with schema_ok=False
    skipped: int = 0  # entries of the errors file without an abstract (not failures)

    def __len__(self) -> int:
        """The number of records (papers); failures are in :attr:`failures`."""
        return len(self.papers)

    def __iter__(self):
        """The records (papers), in file order."""
        return iter(self.papers)


def _int(v) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _str(v) -> str:
    return v if isinstance(v, str) else ""


def _float(v) -> float | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    return None


def _grounded(text: str, s: str, start: int | None, end: int | None) -> bool:
    return bool(s) and start is not None and end is not None and 0 <= start <= end <= len(text) \
        and text[start:end] == s


def _span(obj, text: str) -> Span | None:
    if isinstance(obj, str):  # a bare string: no offsets
        return Span(obj, None, None, "", False) if obj else None
    if not isinstance(obj, dict) or not isinstance(obj.get("text"), str):
        return None
    s, start, end = obj["text"], _int(obj.get("start")), _int(obj.get("end"))
    return Span(s, start, end, _str(obj.get("status")), _grounded(text, s, start, end))


def _number(obj, text: str) -> Number | None:
    base = _span(obj, text)
    if base is None or not isinstance(obj, dict):
        return None
    kind = _str(obj.get("kind"))
    method = obj.get("method")
    return Number(base.text, base.start, base.end, base.status, base.grounded,
                  value=_float(obj.get("value")), unit=obj.get("unit") if isinstance(obj.get("unit"), str) else None,
                  kind=kind if kind in ("result", "setting") else "", about=_str(obj.get("about")),
                  metric=_span(obj.get("metric"), text), dataset=_span(obj.get("dataset"), text),
                  method="" if method == "" else _span(method, text),
                  has_claims=any(k in obj for k in ("metric", "dataset", "method")),
                  value_type="change" if obj.get("value_type") == "change" else "absolute",
                  compared_to=_span(obj.get("compared_to"), text) if obj.get("value_type") == "change" else None,
                  rules_agree=obj["rules_agree"] if isinstance(obj.get("rules_agree"), bool) else None)


_DEFAULT_KEYS = {"task", "contribution", "method_names", "datasets", "numbers"}


def paper_from_record(obj: dict, line: int = 0) -> Paper:
    """Read one parsed record; never raises on odd shapes (``schema_ok`` tells)."""
    text = _str(obj.get("text"))
    ext = obj.get("extraction")
    paper = Paper(id=str(obj.get("id")), text=text, source=_str(obj.get("source")),
                  title=obj.get("title") if isinstance(obj.get("title"), str) else None,
                  status=_str(obj.get("status")) or "ok", line=line)
    dropped = obj.get("dropped")
    if isinstance(dropped, list):
        paper.dropped = [d if isinstance(d, str) else json.dumps(d) for d in dropped]
    if not isinstance(ext, dict) or not _DEFAULT_KEYS <= set(ext):
        paper.schema_ok = False
        if not isinstance(ext, dict):
            return paper
    ok = paper.schema_ok
    paper.task = " ".join(_str(ext.get("task")).split())
    paper.contribution = _str(ext.get("contribution"))
    for key, dest, make in (("method_names", paper.methods, _span), ("datasets", paper.datasets, _span),
                            ("numbers", paper.numbers, _number)):
        items = ext.get(key)
        if items is None:
            continue
        if not isinstance(items, list):
            ok = False
            continue
        for item in items:
            got = make(item, text)
            if got is None:
                ok = False
            else:
                dest.append(got)
    paper.schema_ok = ok
    return paper


def _read_shards(files: list[Path], warn: Warn, what: str) -> Iterable[tuple[int, dict]]:
    """As :func:`_read_jsonl`, over the shards of an `--engine ray` output directory."""
    from .shards import shard_lines

    try:
        for path in files:
            for n, text in shard_lines(path):
                try:
                    obj = jsonl.loads(text)
                except (ValueError, RecursionError) as e:
                    warn(f"{path}:{n}: {e}, skipped")
                    continue
                if not isinstance(obj, dict):
                    warn(f"{path}:{n}: not a JSON object, skipped")
                else:
                    yield n, obj
    except OSError as e:
        raise InputError(f"cannot read {what} {files[0].parent}: {e.strerror or e}") from None


def _read_jsonl(path: Path, warn: Warn, what: str, stream=None) -> Iterable[tuple[int, dict]]:
    """(line number, object) for each line that is a strict-JSON object; every other line
    (not JSON, NaN/Infinity, a number too large for a double, nesting too deep) is named
    through ``warn`` and skipped.  ``stream``: read it (stdin) instead of ``path``."""
    try:
        for line in jsonl.read(path if stream is None else stream):
            if not line.ok:
                warn(f"{path}:{line.number}: {line.error}, skipped")
            elif not isinstance(line.value, dict):
                warn(f"{path}:{line.number}: not a JSON object, skipped")
            else:
                yield line.number, line.value
    except OSError as e:
        raise InputError(f"cannot read {what} {path}: {e.strerror or e}") from None


def load_records(path: str | Path, *, errors_path: str | Path | None = None, warn: Warn = _stderr) -> RecordSet:
    """Read ``path`` and, if it exists, the errors file next to it.

    ``path`` ``"-"`` is standard input (``extract run x | extract table -``); it has no errors
    file next to it (give ``errors_path`` to read one).  Raises :class:`InputError` (exit 2)
    when ``path`` is missing or unreadable.  A failure whose paper also has a record (it
    succeeded on a later resume) is not reported as failed.  A paper is its id and its input
    (:mod:`extract.identity`): the same id from two inputs is two papers.
    """
    stream = None
    shards = None
    if str(path) == STDIN:
        stream = getattr(sys.stdin, "buffer", None) or io.BytesIO(sys.stdin.read().encode("utf-8"))
    path = Path("<stdin>") if stream is not None else Path(path)
    if stream is None and path.is_dir():
        from .shards import is_shard_dir, shard_files

        if not is_shard_dir(path):
            raise InputError(f"cannot read records {path}: is a directory (and holds no shards "
                             "of `extract run --engine ray`)")
        shards = {k: shard_files(path, k) for k in ("records", "errors")}
    rs = RecordSet(path=path)
    by_id: dict[tuple, int] = {}
    lines = _read_jsonl(path, warn, "records", stream) if shards is None else \
        _read_shards(shards["records"], warn, "records")
    for n, obj in lines:
        if not isinstance(obj.get("id"), (str, int)) or not isinstance(obj.get("text"), str):
            warn(f"{path}:{n}: not a record (needs 'id' and 'text'), skipped")
            continue
        paper = paper_from_record(obj, n)
        if not paper.schema_ok:
            rs.foreign_schema += 1
        key = (paper.id, origin(paper.source))
        if key in by_id:
            warn(f"{path}:{n}: duplicate id {paper.id!r}; the later record is used")
            rs.papers[by_id[key]] = paper
            continue
        by_id[key] = len(rs.papers)
        rs.papers.append(paper)
    if rs.foreign_schema:
        warn(f"{path}: {rs.foreign_schema} record(s) do not follow the default schema; "
             "fields that could not be read are left empty")
    if errors_path is not None:
        epath = Path(errors_path)
    elif stream is not None:
        epath = None                    # stdin has no errors file next to it
    else:
        epath = errors_path_for(path) if shards is None else path
    if epath is not None and (epath.is_file() or (shards is not None and errors_path is None
                                                  and shards["errors"])):
        rs.errors_path = epath
        seen: set[tuple] = set()
        done = {k[0] for k in by_id}
        errors = _read_jsonl(epath, warn, "errors file") if epath.is_file() else \
            _read_shards(shards["errors"], warn, "errors file")
        for n, obj in errors:
            # an input-level failure may have no id (id: null): name it by its source
            has_id = isinstance(obj.get("id"), (str, int)) and not isinstance(obj.get("id"), bool)
            fid = str(obj["id"]) if has_id else (_str(obj.get("source")) or f"{epath.name}:{n}")
            where = origin(obj.get("source"))
            is_input = obj.get("kind") == "input"      # a bad line: never one of the records
            if has_id and not is_input and ((fid, where) in by_id or (where is None and fid in done)):
                continue
            if obj.get("status") == "skipped":      # an entry without an abstract: not a failure
                rs.skipped += 1
                continue
            key = (fid, _str(obj.get("source"))) if is_input else (fid, where)
            if key in seen:
                continue
            seen.add(key)
            rs.failures.append(Failure(
                id=fid, source=_str(obj.get("source")), reason=_str(obj.get("reason")) or "unknown",
                attempts=_int(obj.get("attempts")),
                text=obj.get("text") if isinstance(obj.get("text"), str) else None, line=n))
    elif errors_path is not None:
        raise InputError(f"cannot read errors file {epath}: not found")
    return rs
