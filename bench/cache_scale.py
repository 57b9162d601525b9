"""Cached rerun rate and peak memory of `extract run` for large synthetic corpora.

For each size N (default 10,000 and 100,000 abstracts):

1. the corpus is written as JSONL (bench/throughput.py's synthetic abstracts);
2. the cache is filled: ``--fill direct`` (default) files, for every abstract, the entry a
   live run stores (the fake server's answer validated by the schema, under the key
   `Extractor.key` computes); ``--fill live`` runs `extract run` against the loopback
   server instead (slower: ~4 ms of client CPU per abstract);
3. `extract run` reruns the corpus in a child process with ``-o``, pointed at a port where
   nothing listens (so a cache miss would fail the record, not reach a model), and the
   child's wall time, its own run time (the summary line) and peak RSS (``wait4``) are
   reported.

    .venv/bin/python bench/cache_scale.py                   # 10k and 100k
    .venv/bin/python bench/cache_scale.py --sizes 1000 --fill live
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))

from throughput import fake_server, write_corpus  # noqa: E402

MODEL = "bench-model"
NOWHERE = "http://127.0.0.1:9/v1"          # discard port: nothing answers


def config_for(url: str, cache_dir: Path):
    from extract.config import RunConfig

    return RunConfig(backend="openai", model=MODEL, base_urls=(url,), api_key="bench",
                     concurrency=64, cache_dir=cache_dir)


def fill_direct(corpus: Path, cache_dir: Path) -> float:
    """File the entries a live run would, without the HTTP round trips."""
    from fakeserver import heuristic_answer

    from extract.inputs import Item, expand, read_inputs
    from extract.pipeline import Extractor

    started = time.perf_counter()
    ex = Extractor(config_for(NOWHERE, cache_dir))
    stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
    files, _ = expand([corpus])
    for item in read_inputs(files):
        if not isinstance(item, Item):
            continue
        obj = ex.schema.model_validate(heuristic_answer(item.text),
                                       context={"source": item.text, "lenient": True})
        ex.cache.set(ex.key(item.text), {
            "answer": obj.model_dump(mode="json"), "model": MODEL, "attempts": 1,
            "usage": {"prompt_tokens": 400, "completion_tokens": 60, "total_tokens": 460},
            "extracted_at": stamp})
    ex.cache.close()
    return time.perf_counter() - started


def extract_cmd(corpus: Path, out: Path, cache_dir: Path, url: str) -> list[str]:
    exe = Path(sys.executable).with_name("extract")
    launcher = ([str(exe)] if exe.exists() else
                [sys.executable, "-c", "import sys; from extract.cli import main; sys.exit(main())"])
    return [*launcher, "run", str(corpus), "-o", str(out), "--cache-dir", str(cache_dir),
            "--base-url", url, "--model", MODEL, "--concurrency", "64", "--no-progress",
            "--retries", "0"]


def run_child(cmd: list[str]) -> tuple[int, float, int, str]:
    """(exit status, wall seconds, peak RSS in MB, stderr) of one child process."""
    env = dict(os.environ, OPENAI_API_KEY="bench")
    env.pop("OPENAI_BASE_URL", None)
    with tempfile.TemporaryFile("w+") as err:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        return proc.returncode, wall, usage.ru_maxrss // 1024, err.read()


def run_seconds(stderr: str) -> float | None:
    """The run's own duration from the summary line ('..., 12.3 s')."""
    m = re.search(r", ([\d.]+) s\s*$", stderr.strip().splitlines()[-1] if stderr.strip() else "")
    return float(m.group(1)) if m else None


def bench(n: int, fill: str, tmp: Path) -> dict:
    corpus = write_corpus(tmp / f"corpus{n}.jsonl", n)
    cache_dir = tmp / f"cache{n}"
    if fill == "live":
        with fake_server(0.0) as url:
            code, fill_s, _, err = run_child(extract_cmd(corpus, tmp / f"fill{n}.jsonl", cache_dir, url))
            assert code == 0, err
            cmd_url = url
            code, wall, rss, err = run_child(extract_cmd(corpus, tmp / f"out{n}.jsonl", cache_dir, cmd_url))
    else:
        fill_s = fill_direct(corpus, cache_dir)
        code, wall, rss, err = run_child(extract_cmd(corpus, tmp / f"out{n}.jsonl", cache_dir, NOWHERE))
    lines = sum(1 for _ in (tmp / f"out{n}.jsonl").open())
    if code != 0 or lines != n or f"{n:,} cached" not in err.replace(f"({n} cached)", f"({n:,} cached)"):
        raise SystemExit(f"cached rerun of {n} did not complete from the cache (exit {code}):\n{err[-2000:]}")
    inner = run_seconds(err) or wall
    return {"n": n, "fill_s": fill_s, "wall_s": wall, "run_s": inner, "rss_mb": rss,
            "corpus_mb": corpus.stat().st_size / 2**20}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000,100000", help="comma-separated corpus sizes")
    ap.add_argument("--fill", choices=["direct", "live"], default="direct")
    ap.add_argument("--tmp", help="work directory (default: a temporary one)")
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory(dir=args.tmp) as tmp:
        rows = [bench(n, args.fill, Path(tmp)) for n in sizes]
    for r in rows:
        print(f"cache_scale: {r['n']:>7,} abstracts ({r['corpus_mb']:.0f} MB input): cached rerun "
              f"{r['n'] / r['run_s']:,.0f} records/s ({r['run_s']:.1f} s run, {r['wall_s']:.1f} s "
              f"with start-up), peak RSS {r['rss_mb']} MB; cache filled ({args.fill}) in "
              f"{r['fill_s']:.0f} s")
    if len(rows) > 1:
        a, b = rows[0], rows[-1]
        slope = (b["rss_mb"] - a["rss_mb"]) * 1024 / max(1, b["n"] - a["n"])
        print(f"cache_scale: memory grows {slope:.2f} KB per extra abstract "
              f"({a['rss_mb']} MB at {a['n']:,} -> {b['rss_mb']} MB at {b['n']:,})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
