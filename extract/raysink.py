"""The Ray engine's output: shards of :func:`extract.rayengine.extract_dataset`'s rows in a
directory (:mod:`extract.shards` reads them without Ray), and what a rerun skips."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from dataclasses import fields as dc_fields
from pathlib import Path

import pyarrow as pa
from ray.data import Dataset
from ray.data.datasource import Datasink

from .output import text_digest
from .shards import next_run, shard_files, shard_lines


def _summary_fields() -> set[str]:
    from .summary import Summary

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


def done_in(out: str | Path, current: dict | None = None) -> dict[str, list]:
    """The records the shards in ``out`` hold, by id: ``id -> [[origin, text digest, config
    digest], ...]`` (:mod:`extract.identity`'s parts; a rerun skips what they hold).
    ``current``: the configuration of this run (``Extractor.identity``); shards made with
    another one are refused (:class:`UsageError`, exit 2: this engine has no ``--redo``, so
    never a silent mix).  Left-over temporary files of a killed job are removed."""
    from .errors import UsageError
    from .identity import config_digest, differences, origin, record_config

    d = Path(out)
    drop_stale(d)                             # no task of this run writes yet: every temporary is stale
    want = config_digest(current) if current is not None else ""
    done: dict[str, list] = {}
    other, example = 0, None
    for path in shard_files(d, "records"):
        for _, line in shard_lines(path):
            rec = json.loads(line)
            if rec.get("status") != "ok" or "id" not in rec:
                continue
            held = ""
            if current is not None:
                ident = record_config(rec, current)
                held = config_digest(ident)
                if held != want:
                    other += 1
                    example = example or ident
            text = rec["text"] if isinstance(rec.get("text"), str) else ""
            done.setdefault(str(rec["id"]), []).append([origin(rec.get("source")), text_digest(text), held])
    if other:
        raise UsageError(f"{d} holds {other:,} records made with another configuration "
                         f"({differences(example, current)}); write to a new -o DIR")
    return done


def drop_stale(out: str | Path, run: str = "") -> None:
    """Remove the temporaries left in ``out`` by tasks of runs other than ``run`` (all of them
    when ``run`` is ""): a task of a killed job that outlived it and died between writing one
    and dropping it.  None is ever renamed in once another run owns the directory (:func:`_atomic`)."""
    d = Path(out)
    with _locked(d, exclusive=True):
        for tmp in d.glob(".*.tmp"):
            if not run or f"-{run}-" not in tmp.name:
                tmp.unlink(missing_ok=True)


def write_shards(ds: Dataset, out: str | Path, run: str | None = None, *,
                 parquet: bool = False) -> dict:
    """Write :func:`extract_dataset`'s rows into ``out`` as run ``run`` (default: a new one,
    :func:`begin_run`); return the run's summed counts."""
    sink = Shards(out, run or begin_run(out), parquet)
    ds.write_datasink(sink)
    drop_stale(out, sink.run)
    keep = _summary_fields()
    return {k: v for k, v in sink.result.items() if k in keep}
