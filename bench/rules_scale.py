"""Throughput and memory of ``--backend rules`` over a large JSONL, whole process.

    python bench/rules_scale.py [--n 100000] [--workers 1,2]
    python bench/rules_scale.py --corpus ../shared/corpus/papers-13-venues.jsonl.gz --workers 2,1   # as it is

Builds an N-abstract JSONL from the real abstracts in seeds/ and tests/gold (each row a
distinct id; texts cycle), runs ``extract run FILE --backend rules --no-cache -o OUT`` as a
child process per worker count, and prints abstracts/s (whole process: start-up, reading,
rules, grounding, writing), the peak RSS of the process tree, the ratio to the 300/s
target, and whether every run's records are identical (timestamps aside).  With
``--corpus`` the given JSONL is run as it is, compressed or not (``../shared/corpus/papers-13-venues.jsonl.gz``:
the real corpus; `extract run` decompresses it as it reads).  The machine may be shared: each run also prints
the CPU time of the whole process tree (user + sys, the workers included) per abstract, and
the rate that CPU time allows on 2 cores, beside the load average.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 300.0


def corpus() -> list[str]:
    sys.path.insert(0, str(ROOT))
    from extract.inputs import Item, expand, read_inputs

    files, _ = expand([ROOT / "seeds", ROOT / "tests/gold/dev2/abstracts.jsonl"])
    return [e.text for e in read_inputs(files) if isinstance(e, Item)]


def build(path: Path, n: int) -> None:
    texts = corpus()
    with path.open("w") as f:
        for i in range(n):
            f.write(json.dumps({"id": f"r{i}", "abstract": texts[i % len(texts)]}) + "\n")


def digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open() as f:
        for line in f:
            rec = json.loads(line)
            rec["provenance"].pop("extracted_at", None)
            h.update(json.dumps(rec, sort_keys=True).encode())
    return h.hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--corpus", type=Path, help="run this JSONL as it is (no --n)")
    args = ap.parse_args()
    exe = Path(sys.executable).parent / "extract"
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "in.jsonl"
        if args.corpus:
            src = args.corpus
            sys.path.insert(0, str(ROOT))
            from extract.inputs import count_inputs, expand
            args.n = count_inputs(expand([src])[0]) or 0
        else:
            build(src, args.n)
        digests = {}
        for w in [int(x) for x in args.workers.split(",")]:
            out = Path(tmp) / f"out{w}.jsonl"
            env = dict(os.environ, EXTRACT_WORKERS=str(w))
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            load0 = os.getloadavg()[0]
            t0 = time.perf_counter()
            subprocess.run([str(exe), "run", str(src), "--backend", "rules", "--no-cache",
                            "--cache-dir", str(Path(tmp) / "cache"), "-o", str(out)],
                           check=True, env=env, stderr=subprocess.DEVNULL)
            dt = time.perf_counter() - t0
            rss = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
            c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)
            rate = args.n / dt
            bound = args.n / (cpu / min(2, w + 1))  # the rate this CPU allows on 2 cores
            digests[w] = digest(out)
            print(f"workers={w}: {args.n:,} abstracts in {dt:.1f} s = {rate:,.0f}/s "
                  f"({rate / TARGET:.2f}x the {TARGET:.0f}/s target), peak RSS of a process {rss:.0f} MiB; "
                  f"CPU (all processes) {cpu:.1f} s = {1000 * cpu / args.n:.2f} ms per abstract, "
                  f"{bound:,.0f}/s on 2 free cores ({bound / TARGET:.2f}x); load average "
                  f"{load0:.1f} -> {os.getloadavg()[0]:.1f}")
        print("identical output across worker counts:", len(set(digests.values())) == 1)


if __name__ == "__main__":
    main()
