"""The Ray Data engine (``pip install 'extract-abstracts[ray]'``): `extract run` past one machine.

    import ray, extract.rayengine as xr
    ds = xr.read_abstracts(["papers/"])                  # or any Dataset of abstract rows
    out = xr.extract_dataset(ds, RunConfig(backend="rules"))
    out.filter(lambda r: r["kind"] == "record")          # r["line"]: the record's JSON line

:func:`extract_dataset` maps a Dataset of abstracts to a Dataset with one row per input:
``kind`` ("record", "error" or "skipped": already in ``done``), ``id``, ``line`` (the JSON
line `extract run` writes for it: the record, or the errors file's entry) and ``stats`` (on
each batch's last row: that batch's run summary, as JSON).  Each batch goes through
:meth:`extract.pipeline.Extractor.run`, the function `extract run` uses, with a sink that
keeps the lines: ids, records, error entries and the skip/re-extract decision are
`extract run`'s own.  Nothing is collected onto the driver.

The rules run as Ray tasks (one process per CPU, the rules' own pool off).  A model backend
runs in an actor pool (``map_batches`` with a callable class): each actor holds one client
and an event loop, with ``concurrency // actors`` requests in flight, so the cluster never
has more than ``--concurrency`` in flight; retries, re-asks and fail-fast are the backend's
as in `extract run` (a FatalBackendError fails the job; what was written is kept).

:func:`write_shards` writes JSONL (or Parquet) shards into a directory: ``records-*`` and
``errors-*``, each written to a temporary name and renamed, named by the run and a digest
of their ids (a retried write task replaces its own shard, never adds a second).  A killed
job rerun with the same directory skips what its records already hold (:func:`done_in`).
The answer cache is off on this path unless a cache directory is named: each node then
uses that path as its own (a per-node cache is never taken for a shared one).

Inputs (:func:`read_abstracts`) are read by `extract run`'s readers inside Ray tasks, one
task per file: the same ids and sources as `extract run`, ``.gz`` files decompressed by Ray,
Parquet rows as JSON objects; duplicate ids are found within a file, not across files.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict
from pathlib import Path

import pyarrow as pa
import ray
from ray.data import ActorPoolStrategy, Dataset
from ray.data.datasource import FileBasedDatasource

from .config import RunConfig
from .errors import FatalBackendError, UsageError
from .inputs import PARSERS, SUFFIX_FORMATS, FieldMap, Item, Problem, from_mapping
from .inputs.paths import name_parts
from .inputs.txt import read_txt
from .identity import Held, config_digest, origin, resume_state
from .output import record_line, text_digest
from .raysink import Shards, begin_run, done_in, write_shards

__all__ = ["read_abstracts", "input_files", "extract_dataset", "write_shards", "begin_run",
           "done_in", "Shards", "ITEM"]

ITEM = "_item"                      # read_abstracts' column: one Item or Problem, as JSON
KINDS = ("record", "error", "skipped")
_READERS = {**SUFFIX_FORMATS, ".parquet": "parquet"}
SUFFIXES = tuple(_READERS)
BATCH_ROWS = 512


# -- reading -------------------------------------------------------------------------------

#: What Ray's readers decompress (pyarrow), beyond the local path's gzip, bz2 and lzma
_COMPRESSIONS = (".gz", ".bz2", ".zst", ".lz4")


def _format(path: str) -> str | None:
    return _READERS.get(name_parts(os.path.basename(path), _COMPRESSIONS)[1])


def _stem(path: str) -> str:
    return name_parts(os.path.basename(path), _COMPRESSIONS)[0]


def input_files(inputs: Iterable[str | Path]) -> list[tuple[str, str, str]]:
    """(path for Ray, name in sources, label for default ids) per input file, in a stable
    order: files, directories (searched recursively; hidden entries skipped), globs, and
    URLs (passed to Ray as they are).  Labels follow `extract run`'s rule
    (:mod:`extract.inputs.paths`: the path as given, normalised, without the extension;
    clashing labels widened the same way)."""
    from .inputs.paths import _labels
    import glob

    out: list[tuple[str, str, str]] = []
    for raw in map(str, inputs):
        if "://" in raw:
            out.append((raw, raw, _stem(raw)))
            continue
        hits = sorted(glob.glob(raw)) if any(c in raw for c in "*?[") else [raw]
        if not hits:
            raise UsageError(f"{raw}: no file matches")
        for hit in hits:
            p = Path(hit)
            if p.is_dir():
                found = [f for f in sorted(p.rglob("*")) if f.is_file() and _format(f.name)
                         and not any(part.startswith(".") for part in f.relative_to(p).parts)]
                if not found:
                    raise UsageError(f"{p}: no input file in this directory")
                for f in found:
                    out.append((str(f.resolve()), str(f), _given(f)))
            elif p.is_file():
                if not _format(p.name):
                    raise UsageError(f"{p}: unsupported input type (use {', '.join(SUFFIXES)}, "
                                     "optionally .gz)")
                out.append((str(p.resolve()), str(p), _given(p)))
            else:
                raise UsageError(f"{p}: no such file or directory")
    local = _labels([(Path(name), label) for path, name, label in out if "://" not in path])
    return [(path, name, local.get(Path(name), label)) for path, name, label in out]


def _given(path: Path) -> str:
    """A local file's label: its path as given, normalised, without the extension (nor .gz)."""
    norm = Path(os.path.normpath(path))
    return (norm.parent / _stem(norm.name)).as_posix()


def _encode(entry: Item | Problem) -> str:
    if isinstance(entry, Problem):
        return json.dumps({"problem": True, "id": entry.id, "source": entry.source,
                           "reason": entry.reason}, ensure_ascii=False)
    return json.dumps({"id": entry.id, "source": entry.source, "text": entry.text,
                       "title": entry.title, "meta": dict(entry.meta) if entry.meta else None},
                      ensure_ascii=False)


def _decode(s: str) -> Item | Problem:
    d = json.loads(s)
    if d.get("problem"):
        return Problem(d["source"], d["reason"], d.get("id"))
    return Item(d["id"], d["source"], d["text"], d.get("title"), d.get("meta"))


class _Abstracts(FileBasedDatasource):
    """Input files read by `extract run`'s readers, in Ray read tasks."""

    def __init__(self, files: list[tuple[str, str, str]], fields: FieldMap | None,
                 input_format: str | None):
        super().__init__([f for f, _, _ in files])
        self._names = {os.path.abspath(f) if "://" not in f else f: (n, lab) for f, n, lab in files}
        self._fields, self._format = fields, input_format

    def _entries(self, f, path: str) -> Iterator[Item | Problem]:
        name, label = self._names.get(path) or self._names.get(os.path.abspath(path)) or (path, _stem(path))
        fmt = self._format or _format(path)
        if fmt == "parquet":
            import pyarrow.parquet as pq

            n = 0
            for batch in pq.ParquetFile(pa.BufferReader(f.read())).iter_batches():  # (a stream: not seekable)
                for row in batch.to_pylist():
                    n += 1
                    yield from_mapping(row, label, n, f"{name}:{n}", self._fields)
            return
        lines = io.TextIOWrapper(io.BufferedReader(f), encoding="utf-8-sig",
                                 errors="surrogateescape", newline="")
        if fmt == "txt":
            yield from read_txt(lines, name, label, None)
        else:
            yield from PARSERS[fmt](lines, name, label, self._fields)

    def _read_stream(self, f, path: str):
        seen: set[str] = set()           # duplicate ids within the file, as extract run finds them
        rows: list[str] = []
        for entry in self._entries(f, path):
            if isinstance(entry, Item):
                if not entry.text:
                    entry = Problem(entry.source, "empty abstract", entry.id)
                elif entry.id in seen:
                    entry = Problem(entry.source, f"duplicate id {entry.id!r}", entry.id)
                else:
                    seen.add(entry.id)
            rows.append(_encode(entry))
            if len(rows) >= BATCH_ROWS:
                yield pa.table({ITEM: rows})
                rows = []
        if rows:
            yield pa.table({ITEM: rows})


def read_abstracts(inputs: Iterable[str | Path], fields: FieldMap | None = None, *,
                   input_format: str | None = None) -> Dataset:
    """A Dataset of the abstracts in ``inputs`` (see :func:`input_files`), one ``_item`` row
    each, read as `extract run` reads them."""
    files = input_files(inputs)
    if not files:
        raise UsageError("no input files")
    return ray.data.read_datasource(_Abstracts(files, fields, input_format))


# -- extracting ----------------------------------------------------------------------------

def _entry(row: Mapping, fields: FieldMap | None) -> Item | Problem:
    if row.get(ITEM) is not None:
        return _decode(row[ITEM])
    entry = from_mapping(row, "row", 0, "<dataset>", fields)
    if isinstance(entry, Item) and entry.id == "row#0":
        return Problem("<dataset>", "no id field: a Dataset row needs an id (or read files with "
                       "extract.rayengine.read_abstracts)")
    if isinstance(entry, Item) and not entry.text:
        return Problem(entry.source, "empty abstract", entry.id)
    return entry


class _Lines:
    """The sink :meth:`Extractor.run` writes one batch to: its lines, in input order."""

    def __init__(self, done: Mapping[str, list], config: str = ""):
        self.done_map, self.rows, self.config = done, [], config
        self.done, self.errors_path = set(), None

    def state(self, rid: str, text: str, source: str | None = None) -> str:
        held = self.done_map.get(rid)
        if not held:
            return "new"
        state = resume_state([Held(o, t, c, 0) for o, t, c in held], origin(source),
                             text_digest(text), self.config)
        if state == "done":
            self.rows.append({"kind": "skipped", "id": rid, "line": None})
        return state

    def reached(self, source, rid=None) -> None:
        pass

    def attempted(self, rid) -> None:
        pass

    def record(self, rec: dict) -> None:
        self.rows.append({"kind": "record", "id": str(rec["id"]), "line": record_line(rec)})

    def error(self, err: dict) -> None:
        self.rows.append({"kind": "error", "id": None if err.get("id") is None else str(err["id"]),
                          "line": json.dumps(err, ensure_ascii=False)})


_SHARED: dict = {}
_LOCK = threading.Lock()


def _backend(config: RunConfig):
    """One backend per process and configuration (the rules in this process: Ray owns the cores)."""
    from .api import _Kept
    from .backends.base import load_backend

    key = (config, config.api_key)
    with _LOCK:
        if key not in _SHARED:
            # Ray owns the cores: no rules worker pool (nor hybrid proposal pool) per task or actor
            os.environ["EXTRACT_WORKERS"] = "1"
            _SHARED[key] = load_backend(config)
        return _Kept(_SHARED[key])


def _loop() -> asyncio.AbstractEventLoop:
    with _LOCK:
        loop = _SHARED.get("loop")
        if loop is None:
            loop = _SHARED["loop"] = asyncio.new_event_loop()
        return loop


def _run_batch(batch: pa.Table, config: RunConfig, fields, done) -> pa.Table:
    from .pipeline import Extractor

    if isinstance(done, ray.ObjectRef):          # fetched once per process, not per batch
        with _LOCK:
            key = ("done", done.hex())
            if key not in _SHARED:
                _SHARED[key] = ray.get(done)
            done = _SHARED[key]
    done = done or {}
    entries = [_entry(row, fields) for row in batch.to_pylist()]
    extractor = Extractor(config, backend=_backend(config))
    sink = _Lines(done, config_digest(extractor.identity))
    summary = _loop().run_until_complete(extractor.run(entries, sink, note=lambda m: None))
    if summary.exit_code == 3:                   # the backend is unusable: stop the job
        raise FatalBackendError(summary.stopped or "the backend stopped the run")
    stats = [None] * len(sink.rows)
    if stats:
        stats[-1] = json.dumps(asdict(summary))
    else:                                    # nothing to say but the counts: one skipped row
        sink.rows.append({"kind": "skipped", "id": None, "line": None})
        stats = [json.dumps(asdict(summary))]
    return pa.table({"kind": [r["kind"] for r in sink.rows], "id": [r["id"] for r in sink.rows],
                     "line": [r["line"] for r in sink.rows], "stats": stats})


class _Client:
    """An actor of the pool: one backend client, one event loop, its share of --concurrency."""

    def __init__(self, config: RunConfig, fields, done):
        self.config, self.fields, self.done = config, fields, done

    def __call__(self, batch: pa.Table) -> pa.Table:
        return _run_batch(batch, self.config, self.fields, self.done)


def extract_dataset(ds: Dataset, config: RunConfig, *, fields: FieldMap | None = None,
                    done: Mapping[str, list] | None = None, actors: int | None = None) -> Dataset:
    """``ds``'s abstracts (``read_abstracts`` rows, or mappings with an id, title and
    abstract as `extract run` reads a JSON object) as rows ``kind, id, line, stats`` (see the
    module docstring).  ``done``: :func:`done_in` of the output (what is already written is skipped).
    A model backend runs in ``actors`` actors (default: as many as the cluster's CPUs, at
    most ``config.concurrency``), each with its share of ``config.concurrency``."""
    if config.max_tokens_total is not None or config.limit is not None:
        raise UsageError("--max-tokens-total and --limit are not supported with --engine ray")
    done_ref = ray.put(dict(done)) if done else None
    if config.backend == "rules":
        return ds.map_batches(_run_batch, batch_format="pyarrow", batch_size=BATCH_ROWS,
                              fn_kwargs={"config": config, "fields": fields, "done": done_ref})
    if actors is None:
        cpus = int(ray.cluster_resources().get("CPU", 1)) if ray.is_initialized() else 1
        actors = max(1, min(config.concurrency, cpus))
    actors = max(1, min(actors, config.concurrency))
    share = config.with_(concurrency=max(1, config.concurrency // actors))
    return ds.map_batches(_Client, batch_format="pyarrow", batch_size=max(64, 8 * share.concurrency),
                          fn_constructor_args=(share, fields, done_ref),
                          compute=ActorPoolStrategy(size=actors), num_cpus=0.5)
