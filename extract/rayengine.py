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
import contextlib
import hashlib
import io
import json
import os
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, fields as dc_fields
from pathlib import Path

import pyarrow as pa
import ray
from ray.data import ActorPoolStrategy, Dataset
from ray.data.datasource import Datasink, FileBasedDatasource

from .config import RunConfig
from .errors import FatalBackendError, UsageError
from .inputs import FieldMap, Item, Problem, from_mapping
from .inputs.bib import read_bib
from .inputs.csvfmt import read_csv
from .inputs.jsonfmt import read_json, read_jsonl
from .inputs.txt import read_txt
from .output import record_line, text_digest
from .shards import next_run, shard_files, shard_lines

ITEM = "_item"                      # read_abstracts' column: one Item or Problem, as JSON
KINDS = ("record", "error", "skipped")
SUFFIXES = (".txt", ".jsonl", ".ndjson", ".json", ".csv", ".bib", ".parquet")
_READERS = {".txt": "txt", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "json", ".csv": "csv",
            ".bib": "bib", ".parquet": "parquet"}
BATCH_ROWS = 512


# -- reading -------------------------------------------------------------------------------

def _format(path: str) -> str | None:
    name = path.lower()
    for comp in (".gz", ".bz2", ".zst", ".lz4"):
        if name.endswith(comp):
            name = name[: -len(comp)]
    return _READERS.get(os.path.splitext(name)[1])


def _stem(path: str) -> str:
    name = os.path.basename(path)
    for comp in (".gz", ".bz2", ".zst", ".lz4"):
        if name.lower().endswith(comp):
            name = name[: -len(comp)]
    return os.path.splitext(name)[0]


def input_files(inputs: Iterable[str | Path]) -> list[tuple[str, str, str]]:
    """(path for Ray, name in sources, label for default ids) per input file, in a stable
    order: files, directories (searched recursively; hidden entries skipped), globs, and
    URLs (passed to Ray as they are).  Labels follow `extract run`'s rule (path relative
    to the argument, without the extension)."""
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
                    rel = f.relative_to(p).as_posix()
                    out.append((str(f.resolve()), str(f), rel[: len(rel) - len(f.name)] + _stem(f.name)))
            elif p.is_file():
                if not _format(p.name):
                    raise UsageError(f"{p}: unsupported input type (use {', '.join(SUFFIXES)}, "
                                     "optionally .gz)")
                out.append((str(p.resolve()), str(p), _stem(p.name)))
            else:
                raise UsageError(f"{p}: no such file or directory")
    return out


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
            reader = {"jsonl": read_jsonl, "json": read_json, "csv": read_csv, "bib": read_bib}[fmt]
            yield from reader(lines, name, label, self._fields)

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

    def __init__(self, done: Mapping[str, str]):
        self.done_map, self.rows = done, []
        self.done, self.errors_path = set(), None

    def state(self, rid: str, text: str) -> str:
        have = self.done_map.get(rid)
        if have is None:
            return "new"
        if have == text_digest(text):
            self.rows.append({"kind": "skipped", "id": rid, "line": None})
            return "done"
        return "changed"

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
            if config.backend == "rules":
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

    done = ray.get(done) if isinstance(done, ray.ObjectRef) else (done or {})
    entries = [_entry(row, fields) for row in batch.to_pylist()]
    sink = _Lines(done)
    extractor = Extractor(config, backend=_backend(config))
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
                    done: Mapping[str, str] | None = None, actors: int | None = None) -> Dataset:
    """``ds``'s abstracts (``read_abstracts`` rows, or mappings with an id, title and
    abstract as `extract run` reads a JSON object) as rows ``kind, id, line, stats`` (see the
    module docstring).  ``done``: id -> text digest of records already written (skipped).
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


# -- writing -------------------------------------------------------------------------------

def _summary_fields() -> set[str]:
    from .pipeline import Summary

    return {f.name for f in dc_fields(Summary)}


def add_stats(total: dict, stats: dict) -> dict:
    for k, v in stats.items():
        if k == "tokens":
            tok = total.setdefault("tokens", {})
            for t, n in v.items():
                tok[t] = tok.get(t, 0) + int(n or 0)
        elif isinstance(v, (int, float)) and not isinstance(v, bool) and k not in ("exit_code",):
            total[k] = total.get(k, 0) + v
        elif k == "stopped" and v:
            total.setdefault("stopped", v)
    return total


RUN_FILE, LOCK_FILE = ".run", ".lock"


@contextlib.contextmanager
def _locked(out: str | Path, exclusive: bool):
    """``out``'s lock: write tasks hold it shared to rename a shard, a new run exclusively
    to take over the directory, so a task of a killed job that outlives its driver
    never adds a shard once a rerun has read what is done."""
    import fcntl

    fd = os.open(os.path.join(str(out), LOCK_FILE), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)


def current_run(out: str | Path) -> str | None:
    try:
        return Path(out, RUN_FILE).read_text().strip() or None
    except FileNotFoundError:
        return None


def begin_run(out: str | Path) -> str:
    """Take ``out`` over for a new run (r0001, r0002, ...): from now on only this run's
    tasks add shards.  Call before :func:`done_in`."""
    Path(out).mkdir(parents=True, exist_ok=True)
    with _locked(out, exclusive=True):
        run = next_run(out, current_run(out))
        tmp = Path(out, f".{RUN_FILE}.tmp")
        tmp.write_text(run + "\n")
        os.replace(tmp, Path(out, RUN_FILE))
    return run


def _atomic(path: Path, data: bytes, run: str) -> None:
    """Write ``path`` whole under a temporary name, then rename it in, if ``run`` still
    owns the directory (else the shard is dropped: a newer run redoes its records)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    with _locked(path.parent, exclusive=False):
        if current_run(path.parent) == run:
            os.replace(tmp, path)
            return
    tmp.unlink(missing_ok=True)


class Shards(Datasink):
    """JSONL (or Parquet) shards of :func:`extract_dataset`'s rows in ``out``:
    ``records-<run>-<digest>`` and ``errors-<run>-<digest>``."""

    def __init__(self, out: str | Path, run: str, parquet: bool = False):
        self.out, self.run, self.parquet = str(out), run, parquet
        self.result: dict = {}

    def _write(self, kind: str, ids: list[str], lines: list[str]) -> None:
        digest = hashlib.sha256("\n".join(ids).encode("utf-8", "surrogatepass")).hexdigest()[:16]
        path = Path(self.out) / f"{kind}-{self.run}-{digest}.{'parquet' if self.parquet else 'jsonl'}"
        if self.parquet:
            import pyarrow.parquet as pq

            buf = pa.BufferOutputStream()
            pq.write_table(pa.table({"id": ids, "line": lines}), buf)
            _atomic(path, buf.getvalue().to_pybytes(), self.run)
        else:
            _atomic(path, "".join(line + "\n" for line in lines).encode("utf-8", "surrogatepass"), self.run)

    def write(self, blocks, ctx) -> dict:
        recs: tuple[list, list] = ([], [])
        errs: tuple[list, list] = ([], [])
        total: dict = {}
        for block in blocks:
            table = block if isinstance(block, pa.Table) else pa.Table.from_pandas(block)
            for kind, rid, line, stats in zip(*(table.column(c).to_pylist()
                                               for c in ("kind", "id", "line", "stats"))):
                if kind == "record":
                    recs[0].append(rid), recs[1].append(line)
                elif kind == "error":
                    errs[0].append(rid or json.loads(line).get("source") or ""), errs[1].append(line)
                if stats:
                    add_stats(total, json.loads(stats))
        if recs[1]:
            self._write("records", *recs)
        if errs[1]:
            self._write("errors", *errs)
        return total

    def on_write_complete(self, write_result) -> None:
        total: dict = {}
        for part in write_result.write_returns:
            add_stats(total, part)
        self.result = total


def done_in(out: str | Path) -> dict[str, str]:
    """id -> text digest of the records the shards in ``out`` hold (a rerun skips them).
    Left-over temporary files of a killed job are removed."""
    d = Path(out)
    with _locked(d, exclusive=True):          # no task of this run writes yet: stale temporaries
        for tmp in d.glob(".*.tmp"):
            tmp.unlink(missing_ok=True)
    done: dict[str, str] = {}
    for path in shard_files(d, "records"):
        for _, line in shard_lines(path):
            rec = json.loads(line)
            if rec.get("status") == "ok" and "id" in rec:
                done[str(rec["id"])] = text_digest(rec["text"] if isinstance(rec.get("text"), str) else "")
    return done


def write_shards(ds: Dataset, out: str | Path, run: str | None = None, *,
                 parquet: bool = False) -> dict:
    """Write :func:`extract_dataset`'s rows into ``out`` as run ``run`` (default: a new one,
    :func:`begin_run`); return the run's summed counts."""
    sink = Shards(out, run or begin_run(out), parquet)
    ds.write_datasink(sink)
    keep = _summary_fields()
    return {k: v for k, v in sink.result.items() if k in keep}
