"""The shards `extract run --engine ray` writes into its output directory, read without Ray.

``records-<run>-<digest>.jsonl`` (or ``.parquet``: columns ``id`` and ``line``) hold
records, ``errors-<run>-<digest>.*`` the errors file's entries; each line exactly as
`extract run` writes it.  Runs are numbered (``r0001``, ``r0002``, ...), so sorted names
list older runs first.  A shard is renamed into place complete: there are no torn ones.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

KINDS = ("records", "errors")
SUFFIXES = (".jsonl", ".parquet")


def shard_files(out: str | Path, kind: str) -> list[Path]:
    """The shards of ``kind`` ("records" or "errors") in ``out``, oldest run first."""
    return sorted(p for p in Path(out).glob(f"{kind}-*") if p.suffix in SUFFIXES and p.is_file())


def is_shard_dir(path: str | Path) -> bool:
    p = Path(path)
    return p.is_dir() and any(shard_files(p, k) for k in KINDS)


def shard_lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, JSON line) of one shard (Parquet: row number, its ``line``)."""
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        for n, line in enumerate(pq.read_table(path, columns=["line"]).column("line").to_pylist(), 1):
            yield n, line
        return
    with path.open("r", encoding="utf-8", errors="surrogateescape") as fh:
        for n, line in enumerate(fh, 1):
            if line.strip():
                yield n, line.rstrip("\n")


def next_run(out: str | Path, last: str | None = None) -> str:
    """The name of the next run's shards in ``out``: r0001, r0002, ... (after ``last`` and
    every run whose shards are there)."""
    names = [p.name.split("-")[1] for k in KINDS for p in shard_files(out, k) if p.name.count("-") >= 2]
    runs = [int(n[1:]) for n in names + [last or ""] if n[:1] == "r" and n[1:].isdigit()]
    return f"r{max(runs, default=0) + 1:04d}"
