"""The rules over N real abstracts: the Ray engine (local Ray) against the process pool.

The corpus (``../shared/corpus/papers-13-venues.jsonl.gz``, 10,901 abstracts) is repeated
with new ids (``<id>~<k>``) up to ``-n`` abstracts, written as JSONL.gz shards (Ray reads
one task per file); each engine runs as a whole process on the same machine, `--no-cache`:

    extract run IN/ -o out.jsonl                  # the process pool (EXTRACT_WORKERS: all cores)
    extract run IN/ -o out/ --engine ray          # a local Ray on all cores

Printed: wall seconds, abstracts per second, the ratio Ray / pool, the load average, and
whether the records are identical (ids, extraction; ``extracted_at`` and ``cached`` aside).

    .venv/bin/python bench/ray_scale.py                    # 100,000 abstracts
    .venv/bin/python bench/ray_scale.py -n 20000 --files 8
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = next((d / "shared" / "corpus" / "papers-13-venues.jsonl.gz" for d in ROOT.parents
               if (d / "shared" / "corpus" / "papers-13-venues.jsonl.gz").is_file()),
              ROOT.parent / "shared" / "corpus" / "papers-13-venues.jsonl.gz")


def build(n: int, files: int, where: Path) -> Path:
    rows = [json.loads(line) for line in gzip.open(CORPUS, "rt", encoding="utf-8") if line.strip()]
    d = where / "in"
    d.mkdir()
    outs = [gzip.open(d / f"part-{k:03d}.jsonl.gz", "wt", encoding="utf-8") for k in range(files)]
    for i in range(n):
        row = dict(rows[i % len(rows)])
        row["id"] = f"{row['id']}~{i // len(rows)}"
        outs[i * files // n].write(json.dumps(row, ensure_ascii=False) + "\n")
    for fh in outs:
        fh.close()
    return d


def timed(argv: list[str], env: dict) -> tuple[float, str]:
    t = time.monotonic()
    proc = subprocess.run(argv, capture_output=True, text=True, env=env)
    wall = time.monotonic() - t
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)}: exit {proc.returncode}\n{proc.stderr[-3000:]}")
    return wall, proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""


def digest(lines) -> tuple[int, str]:
    recs = {}
    for line in lines:
        rec = json.loads(line)
        rec["provenance"].pop("extracted_at", None), rec["provenance"].pop("cached", None)
        recs[rec["id"]] = json.dumps(rec, sort_keys=True)
    h = hashlib.sha256()
    for k in sorted(recs):
        h.update(recs[k].encode("utf-8", "surrogatepass"))
    return len(recs), h.hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=100_000)
    ap.add_argument("--files", type=int, default=16, help="input shards (Ray reads one per task)")
    args = ap.parse_args()
    exe = str(Path(sys.executable).parent / "extract")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        inp = build(args.n, args.files, tmp)
        env = {**os.environ, "EXTRACT_CACHE_DIR": str(tmp / "cache")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        # Both read the same JSONL files (extract run reads no .gz), so sources match too.
        plain = tmp / "plain"
        plain.mkdir()
        for f in sorted(inp.iterdir()):
            (plain / f.name.replace(".gz", "")).write_bytes(gzip.open(f).read())
        load0 = os.getloadavg()[0]
        pool_wall, pool_line = timed([exe, "run", str(plain), "-o", str(tmp / "pool.jsonl"), "--no-cache"], env)
        ray_wall, ray_line = timed([exe, "run", str(plain), "-o", str(tmp / "ray"), "--engine", "ray",
                                    "--no-cache"], env)
        load1 = os.getloadavg()[0]
        a = digest((tmp / "pool.jsonl").read_text().splitlines())
        b = digest(line for p in sorted((tmp / "ray").glob("records-*.jsonl"))
                   for line in p.read_text().splitlines())
    print(f"{args.n:,} abstracts in {args.files} files, rules, --no-cache, whole process; "
          f"{os.cpu_count()} CPUs, load average {load0:.1f} -> {load1:.1f}")
    print(f"  process pool: {pool_wall:7.1f} s  {args.n / pool_wall:6.0f}/s   {pool_line}")
    print(f"  Ray (local):  {ray_wall:7.1f} s  {args.n / ray_wall:6.0f}/s   {ray_line}")
    print(f"  Ray / pool throughput: {pool_wall / ray_wall:.2f}x; records identical: {a == b} "
          f"({a[0]:,} and {b[0]:,} records)")


if __name__ == "__main__":
    main()
