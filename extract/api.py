"""The one-call Python API: synchronous, in scripts and in notebooks.

    import extract
    rec = extract.extract("We propose FlowNet ... 12.5% on ImageNet.", title="FlowNet")
    rec.extraction.task, rec.extraction.numbers[0].value, rec.to_dict()
    for rec in extract.extract_many(["first abstract", {"id": "p2", "abstract": "..."}]):
        ...

Options are :class:`~extract.config.RunConfig` fields (``backend=``, ``model=``,
``base_urls=``, ``cache_dir=``, ...) applied over the environment, as the CLI does
(:meth:`RunConfig.from_env`); or pass ``config=RunConfig(...)`` to say everything.

Every coroutine runs on one event loop in a worker thread owned by this module, so the
calls work the same under a running loop (Jupyter) and without one, and a backend (the
embedded model, an HTTP client) is made once per configuration and reused.

The read side is public too: :func:`load_records`, :func:`build_table`, :func:`triage`,
:func:`write_report` are thin wrappers over :mod:`extract.records`, :mod:`extract.table`,
:mod:`extract.triage` and :mod:`extract.report`.
"""

from __future__ import annotations

import asyncio
import atexit
import queue
import threading
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from . import redact
from .backends.base import Backend, load_backend
from .config import RunConfig
from .errors import UsageError
from .inputs import FieldMap, Item, Problem, from_mapping
from .inputs.model import bad_text, missing_abstract

__all__ = ["Record", "Fields", "extract", "extract_many", "load_records", "build_table",
           "triage_records", "write_report"]


class Fields(Mapping):
    """A read-only view of a JSON object with attribute access (``f.task``, ``f["task"]``);
    nested objects and lists of objects are Fields too."""

    __slots__ = ("_data",)

    def __init__(self, data: Mapping):
        object.__setattr__(self, "_data", dict(data))

    @staticmethod
    def wrap(value: Any) -> Any:
        if isinstance(value, Mapping):
            return Fields(value)
        if isinstance(value, list):
            return tuple(Fields.wrap(v) for v in value)
        return value

    def __getitem__(self, key: str) -> Any:
        return Fields.wrap(self._data[key])

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, *_):
        raise AttributeError("records are read-only; use to_dict() for a copy")

    def __iter__(self):
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"Fields({self._data!r})"

    def to_dict(self) -> dict:
        import copy
        return copy.deepcopy(self._data)


class Record(Fields):
    """One record, as the JSONL line reads (``to_dict()``), with attribute access:
    ``id``, ``source``, ``title``, ``meta``, ``text``, ``status`` ("ok" or "error"),
    ``extraction`` (the schema's fields, grounded), ``dropped``, ``provenance``.  A failed
    record has ``id``, ``source``, ``title``, ``meta`` and ``text`` (None when the input had
    no readable abstract) too, then ``status``, ``kind`` ("record" or "input"), ``reason``
    and ``attempts``."""

    @property
    def ok(self) -> bool:
        return self._data.get("status") == "ok"

    def __repr__(self) -> str:
        d = self._data
        parts = [f"id={d.get('id')!r}", f"status={d.get('status')!r}"]
        ext = d.get("extraction")
        if d.get("status") == "ok" and isinstance(ext, Mapping):
            def texts(key):
                return [x.get("text") if isinstance(x, Mapping) else x for x in ext.get(key) or []]
            for key in ("task", "contribution"):
                if key in ext:
                    parts.append(f"{key}={_short(ext[key])!r}")
            for key, label in (("method_names", "methods"), ("datasets", "datasets"), ("numbers", "numbers")):
                if key in ext:
                    shown = texts(key)
                    parts.append(f"{label}={shown[:5]!r}" + (f" (+{len(shown) - 5})" if len(shown) > 5 else ""))
            if not any(k in ext for k in ("task", "method_names", "numbers")):   # a custom schema
                parts.append(f"extraction={_short(ext)!r}")
        else:
            parts += [f"{k}={_short(d[k])!r}" for k in ("kind", "reason") if d.get(k) is not None]
        return f"Record({', '.join(parts)})"


def _short(value: Any, width: int = 60) -> Any:
    if isinstance(value, str) and len(value) > width:
        return value[: width - 1] + "…"
    if isinstance(value, Mapping):
        return _short(str(dict(value)), width)
    return value


# -- one loop in one worker thread ----------------------------------------------------------

class _Worker:
    def __init__(self):
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.backends: dict[tuple, Backend] = {}

    def loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                self._loop = asyncio.new_event_loop()
                threading.Thread(target=self._loop.run_forever, name="extract-api",
                                 daemon=True).start()
            return self._loop

    def run(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop()).result()

    def close(self) -> None:
        if self._loop is None:
            return
        async def shut():
            for b in self.backends.values():
                try:
                    await b.aclose()
                except Exception:  # pragma: no cover - closing at exit
                    pass
        try:
            asyncio.run_coroutine_threadsafe(shut(), self._loop).result(timeout=5)
        except Exception:  # pragma: no cover
            pass
        self._loop.call_soon_threadsafe(self._loop.stop)


_WORKER = _Worker()
atexit.register(_WORKER.close)


class _Kept(Backend):
    """A shared backend lent to one run: the run's ``aclose`` does not close it."""

    def __init__(self, inner: Backend):   # noqa: D107 - no config of its own
        self._inner = inner
        self.config = inner.config
        self.name = inner.name
        self.max_concurrency = inner.max_concurrency
        self.any_schema = inner.any_schema
        # the class attributes the core reads: the API sends what the CLI sends
        self.hybrid = inner.hybrid
        self.describes_model = inner.describes_model

    def fingerprint(self):
        return self._inner.fingerprint()

    async def extract(self, job):
        return await self._inner.extract(job)

    def expect_batch(self) -> None:
        self._inner.expect_batch()

    async def aclose(self) -> None:
        return None

    def __getattr__(self, name):
        return getattr(self._inner, name)


def _config(options: dict) -> RunConfig:
    config = options.pop("config", None)
    if config is not None:
        if options:
            return config.with_(**options)
        return config
    return RunConfig.from_env(**options)


def _extractor(config: RunConfig):
    from .pipeline import Extractor

    key = (config, config.api_key)
    backend = _WORKER.backends.get(key)
    if backend is None:
        backend = load_backend(config)
        _WORKER.backends[key] = backend
    return Extractor(config, backend=_Kept(backend))


def _item(obj, n: int) -> Item | Problem:
    src = f"<python>:{n}"
    if isinstance(obj, Item):
        return obj
    if isinstance(obj, str):
        reason = bad_text(obj)
        return Problem(src, reason, f"item#{n}") if reason else Item(f"item#{n}", src, obj.strip())
    if isinstance(obj, Mapping):
        return from_mapping(obj, "item", n, src)
    if isinstance(obj, tuple) and len(obj) == 2 and all(isinstance(x, (str, type(None))) for x in obj):
        text, title = obj
        return Item(f"item#{n}", src, (text or "").strip(), title)
    # one unusable item is an error record, never a raise for the whole batch
    return Problem(src, f"item {n}: give a string, a mapping with an 'abstract' or 'text' field, "
                   f"a (text, title) pair or an Item; got {type(obj).__name__}", f"item#{n}")


def _described(entry: Item | Problem, obj) -> dict:
    """The input's title, meta and text, for its record if it fails.  An item that could not
    be read (a :class:`Problem`) still gives what its mapping holds."""
    if isinstance(entry, Item):
        return {"title": entry.title, "meta": dict(entry.meta or {}), "text": entry.text or None}
    if isinstance(obj, Mapping):
        # read again with the abstract made harmless: the same title and meta rules as an Item
        keys = {str(k).strip().lower(): k for k in obj}
        text_key = FieldMap().pick(keys, "text")
        again = from_mapping({**obj, (text_key if text_key is not None else "text"): "x"}, "item", 0, "")
        if isinstance(again, Item):
            return {"title": again.title, "meta": dict(again.meta or {}), "text": None}
    return {"title": None, "meta": {}, "text": None}


def extract(text: str, title: str | None = None, **options) -> Record:
    """Extract one abstract; raises :class:`~extract.errors.RecordError` if it fails
    (``BackendError`` / ``UsageError`` when the backend or options are unusable)."""
    if not isinstance(text, str) or not text.strip():
        raise UsageError("extract() needs the abstract as a non-empty string")
    for what in (text, title or ""):
        reason = bad_text(what)
        if reason:
            raise UsageError(f"extract(): the {'abstract' if what is text else 'title'} has {reason}")
    config = _config(options)
    item = Item("item#1", "<python>:1", text.strip(), title or None)

    async def one():
        ex = _extractor(config)
        try:
            record, _, _ = await ex.extract(item)
            return record
        finally:
            ex.cache.close()
    return Record(_WORKER.run(one()))


class _Collect:
    """What :meth:`Extractor.run` writes to: records and errors, in input order, into a
    queue the caller's thread reads.  A failed record carries its input's title, meta and
    text (``inputs``, by source, filled as the items are read), as a successful one does."""

    def __init__(self, q: queue.Queue):
        self.q = q
        self.done: set = set()
        self.errors_path = None
        self.inputs: dict[str, dict] = {}

    def record(self, rec: dict) -> None:
        self.inputs.pop(rec.get("source"), None)
        self.q.put(("record", rec))

    def error(self, err: dict) -> None:
        if isinstance(err.get("reason"), str):    # a server may echo the key in its message
            err = {**err, "reason": redact.mask(err["reason"])}
        given = self.inputs.pop(err.get("source"), None) or {}
        self.q.put(("record", {"id": err.get("id"), "source": err.get("source"),
                               "title": given.get("title"), "meta": given.get("meta", {}),
                               "text": given.get("text"), **err}))

    def reached(self, source, rid=None) -> None:
        pass

    def state(self, rid, text, source=None) -> str:
        """Nothing is resumed in memory: every item is new."""
        return "new"


def extract_many(items: Iterable, **options) -> Iterator[Record]:
    """Extract many abstracts, ``concurrency`` at a time, yielding a :class:`Record` per item
    in input order.  An item is a string, a mapping (``abstract``/``text``, optional ``id``,
    ``title``, other fields kept as ``meta``), a ``(text, title)`` pair or an
    :class:`~extract.inputs.Item`.  A failed item is yielded as a record with
    ``status == "error"`` (``"skipped"`` for an item without an abstract) and a ``reason``:
    one bad abstract never stops the others."""
    config = _config(options)
    q: queue.Queue = queue.Queue()   # unbounded: a consumer that stops never blocks the loop
    end = object()
    sink = _Collect(q)

    def entries():
        seen: set[str] = set()
        for n, obj in enumerate(items, start=1):
            entry = _item(obj, n)
            sink.inputs[entry.source] = _described(entry, obj)
            if isinstance(entry, Item):
                skip = missing_abstract(entry)
                if skip is not None:
                    entry = skip
                elif entry.id in seen:
                    entry = Problem(entry.source, f"duplicate id {entry.id!r}", entry.id)
                else:
                    seen.add(entry.id)
            yield entry

    async def go():
        try:
            ex = _extractor(config)
            summary = await ex.run(entries(), sink)
            q.put(("summary", summary))
        except BaseException as e:   # handed to the caller's thread
            q.put(("raise", e))
        finally:
            q.put((end, None))

    # The items are read on the worker thread, as the run asks for them; records come back
    # through the queue and are yielded here, in input order, while the run goes on.
    future = asyncio.run_coroutine_threadsafe(go(), _WORKER.loop())
    try:
        while True:
            kind, value = q.get()
            if kind is end:
                break
            if kind == "raise":
                raise value
            if kind == "record":
                yield Record(value)
    finally:
        future.cancel()


# -- the read side ----------------------------------------------------------------------------

def load_records(path: str | Path, *, errors_path: str | Path | None = None, warn=None):
    """A records file (plus its errors file) as a :class:`~extract.records.RecordSet`."""
    from .errors import InputError
    from .records import load_records as _load

    notes: list[str] = []
    rs = _load(path, errors_path=errors_path, warn=lambda m: (notes.append(m), warn and warn(m)))
    if not rs.papers and not rs.failures and notes:      # as the CLI: an input file, say
        raise InputError(f"{path} is not a records file (no line is a record of `extract run`; "
                         f"first: {notes[0]})")
    return rs


def _record_set(records):
    from .records import RecordSet
    return records if isinstance(records, RecordSet) else load_records(records)


def build_table(records, by: str = "dataset", format: str | None = None, *,
                kind: str | None = None):
    """The comparison table of a RecordSet or a records file: its rows (``Row`` objects, one
    per claimed number), or the rendered text with ``format`` (markdown, csv, html, json).
    ``kind`` keeps only ``result`` or ``setting`` numbers."""
    from . import table as _table

    rows = _table.build_rows(_record_set(records).papers, by, kind)
    if format is None:
        return rows
    from .table_render import render_rows
    return render_rows(rows, by, format)


def triage_records(records, format: str | None = None, *, top: int | None = None,
                   min_score: int | None = None):
    """Papers to read or question first (``Triage`` objects, highest score first), or the
    rendered text with ``format`` (text, json, csv)."""
    from . import triage as _triage

    rs = _record_set(records)
    if format is not None:
        from .triage_render import render
        return render(rs, format, top, min_score)
    return _triage.select(_triage.triage(rs), top, min_score)


def write_report(records, path: str | Path, title: str | None = None) -> Path:
    """Write the self-contained HTML report of ``records`` to ``path`` (atomically)."""
    import os
    import tempfile

    from .report import render

    html = render(_record_set(records), title)
    target = Path(path)
    fd, tmp = tempfile.mkstemp(dir=target.parent if str(target.parent) else ".",
                               prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(html)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target
