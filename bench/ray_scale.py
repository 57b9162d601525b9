"""The rules over N real abstracts: the Ray engine (local Ray) against the process pool.

The corpus (``../shared/corpus/papers-13-venues.jsonl.gz``, 10,901 abstracts) is repeated
with new ids (``<id>~<k>``) up to ``-n`` abstracts, written as JSONL shards (Ray reads one
task per file); each engine runs as a whole process on the same machine, `--no-cache`:

    extract run IN/ -o out.jsonl                  # the process pool (EXTRACT_WORKERS: all cores)
    extract run IN/ -o out/ --engine ray          # a local Ray on all cores

Printed per engine: wall seconds, abstracts per second, CPU seconds (user + system of the
process and the children it waited for: the pool's workers, not Ray's, so Ray's figure is
its driver's) and per abstract, the load average over the run
(sampled every 5 s: the machine may be shared), the peak resident memory of the process
tree (summed over its processes, Ray's daemons included); then the ratio Ray / pool and
whether the records are identical (ids, extraction; ``extracted_at`` and ``cached`` aside).

``--work DIR`` keeps the inputs, outputs and each engine's figures there: a rerun reuses
them, so the engines can be run apart (``--engines pool`` now, ``--engines ray`` later)
and compared at the end (``--engines none``).

    .venv/bin/python bench/ray_scale.py                    # 100,000 abstracts
    .venv/bin/python bench/ray_scale.py -n 20000 --files 8
    .venv/bin/python bench/ray_scale.py --work /tmp/rs --engines pool
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = next((d / "shared" / "corpus" / "papers-13-venues.jsonl.gz" for d in ROOT.parents
               if (d / "shared" / "corpus" / "papers-13-venues.jsonl.gz").is_file()),
              ROOT.parent / "shared" / "corpus" / "papers-13-venues.jsonl.gz")
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def build(n: int, files: int, where: Path) -> Path:
    """``files`` JSONL files of ``n`` abstracts (both engines read the same files, so the
    records' sources match too); kept in ``where/in`` for a rerun with the same sizes."""
    d = where / "in"
    stamp = d / ".sizes"
    if stamp.is_file() and stamp.read_text() == f"{n} {files}":
        return d
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    rows = [json.loads(line) for line in gzip.open(CORPUS, "rt", encoding="utf-8") if line.strip()]
    outs = [open(d / f"part-{k:03d}.jsonl", "w", encoding="utf-8") for k in range(files)]
    for i in range(n):
        row = dict(rows[i % len(rows)])
        row["id"] = f"{row['id']}~{i // len(rows)}"
        outs[i * files // n].write(json.dumps(row, ensure_ascii=False) + "\n")
    for fh in outs:
        fh.close()
    stamp.write_text(f"{n} {files}")
    return d


def _tree(root: int) -> list[int]:
    """``root`` and its descendants (from /proc)."""
    kids: dict[int, list[int]] = {}
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                with open(f"/proc/{p}/stat") as fh:
                    ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            kids.setdefault(ppid, []).append(int(p))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo += kids.get(pid, [])
    return out


def _rss(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/statm") as fh:
                total += int(fh.read().split()[1]) * PAGE
        except (OSError, ValueError, IndexError):
            pass
    return total


def timed(argv: list[str], env: dict) -> dict:
    """Run ``argv``; its wall and CPU seconds, the mean load average, the peak RSS of its tree."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    loads, peak, stop = [], [0], threading.Event()

    def sample() -> None:
        while not stop.wait(5.0):
            loads.append(os.getloadavg()[0])
            if os.path.isdir("/proc"):
                peak[0] = max(peak[0], _rss(_tree(proc.pid)))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    err = proc.stderr.read()
    proc.wait()
    stop.set()
    sampler.join()
    wall = time.monotonic() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)}: exit {proc.returncode}\n{err[-3000:]}")
    return {"wall": wall,
            "cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
            "load": sum(loads) / len(loads) if loads else os.getloadavg()[0],
            "load_min": min(loads, default=0.0), "load_max": max(loads, default=0.0),
            "peak_rss": peak[0], "line": err.strip().splitlines()[-1] if err.strip() else "",
            "when": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())}


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


def records_of(work: Path, engine: str):
    if engine == "pool":
        yield from (work / "pool.jsonl").read_text(encoding="utf-8").splitlines()
    else:
        for p in sorted((work / "ray").glob("records-*.jsonl")):
            yield from p.read_text(encoding="utf-8").splitlines()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=100_000)
    ap.add_argument("--files", type=int, default=16, help="input shards (Ray reads one per task)")
    ap.add_argument("--work", type=Path, help="keep inputs, outputs and figures here (default: a temporary directory)")
    ap.add_argument("--engines", default="pool,ray", help="which to run now: pool,ray (the others' kept figures are shown)")
    args = ap.parse_args()
    exe = str(Path(sys.executable).parent / "extract")
    run_now = {e for e in args.engines.split(",") if e in ("pool", "ray")}
    with tempfile.TemporaryDirectory() as tmp:
        work = args.work or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        inp = build(args.n, args.files, work)
        env = {**os.environ, "EXTRACT_CACHE_DIR": str(work / "cache")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        figures_file = work / "figures.json"
        figures = json.loads(figures_file.read_text()) if figures_file.is_file() else {}
        commands = {"pool": [exe, "run", str(inp), "-o", str(work / "pool.jsonl"), "--no-cache"],
                    "ray": [exe, "run", str(inp), "-o", str(work / "ray"), "--engine", "ray", "--no-cache"]}
        for engine in ("pool", "ray"):
            if engine not in run_now:
                continue
            out = work / ("pool.jsonl" if engine == "pool" else "ray")
            shutil.rmtree(out, ignore_errors=True) if out.is_dir() else out.unlink(missing_ok=True)
            Path(str(work / "pool.jsonl") + ".errors.jsonl").unlink(missing_ok=True) if engine == "pool" else None
            figures[engine] = {**timed(commands[engine], env), "n": args.n, "files": args.files}
            figures[engine]["records"] = list(digest(records_of(work, engine)))  # as JSON keeps it
            figures_file.write_text(json.dumps(figures, indent=1))
        print(f"{args.n:,} abstracts in {args.files} files, rules, --no-cache, whole process; "
              f"{os.cpu_count()} CPUs")
        for engine, label in (("pool", "process pool"), ("ray", "Ray (local)")):
            f = figures.get(engine)
            if not f:
                print(f"  {label}: not run")
                continue
            print(f"  {label + ':':14s} {f['wall']:7.1f} s  {f['n'] / f['wall']:6.1f}/s  CPU {f['cpu']:7.1f} s "
                  f"({1000 * f['cpu'] / f['n']:.1f} ms/abstract)  load {f['load']:.1f} "
                  f"({f['load_min']:.1f}-{f['load_max']:.1f})  peak RSS {f['peak_rss'] / 2**20:,.0f} MiB  "
                  f"[{f['when']} UTC]  {f['line']}")
        if figures.get("pool") and figures.get("ray"):
            a, b = figures["pool"], figures["ray"]
            print(f"  Ray / pool: throughput {a['wall'] / b['wall']:.2f}x, CPU {b['cpu'] / a['cpu']:.2f}x; "
                  f"records identical: {a['records'] == b['records']} "
                  f"({a['records'][0]:,} and {b['records'][0]:,} records)")


if __name__ == "__main__":
    main()
