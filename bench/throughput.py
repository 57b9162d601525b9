"""Throughput of `extract run` against a loopback OpenAI-compatible server.

The server (tests/fakeserver.py) runs in its own process so it does not share the
client's GIL; it answers every request after ``--latency`` seconds.  With ``C`` requests
in flight the ceiling is ``C / latency`` records per second (32 / 0.1 s = 320/s); the
figure reported is the measured rate over that ceiling, the median of ``--repeat`` runs
(each with a fresh cache), with the best run and the steady-state rate (middle two thirds
of the records: no ramp-up, no tail) beside it.  The timed part is the run itself (inputs
read, requests, validation, grounding, cache writes, records written), as the pipeline
reports it (its CPU also counts building the backend); process start-up (imports) is
printed separately.

The client is CPU-bound (one event loop, ~2.3 ms of CPU per hybrid record: the openai SDK's
request path and its HTTP stack, instructor, the mapping of the answer, the cache and the
record; the rules' proposals ~2 ms more in the worker process: ~1.8 ms of rules per abstract
and the worker's start-up, during which the main process computes the first ones itself),
so the figure depends on what else the machine runs: each run
prints its client CPU per record (the main process's and the workers' apart) and how busy
other processes (the fake server included) kept the CPUs.  The run is driven as the
``extract`` command drives it: start-up's objects frozen for the collector (before the
peer's runs too), the backend built (counted in extract's CPU), then the command's
collector settings for the run (:func:`extract.cli.collector_for_run`, where the build has
it; the peer's next run gets Python's defaults back).

The peer is the hand-written loop a user would write instead: ``openai.AsyncOpenAI``, a
semaphore of ``C``, one JSON-mode request per abstract, ``json.loads`` of the answer, a JSONL
line written; same server, same abstracts (real ones from ``../shared/corpus/`` when it is
there, else synthetic).  Each repeat runs the peer and then extract's default remote path
(``--prompt auto``: the hybrid job, its proposals computed in the rules' worker pool), and
prints extract's rate and CPU per record as ratios to the peer's (CPU counts every process:
the client, and for extract its worker processes, not the server).

    .venv/bin/python bench/throughput.py                 # 600 abstracts, concurrency 32
    .venv/bin/python bench/throughput.py -n 2000 -c 64 --profile prof.out
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_WORDS = ("model training data language vision robust efficient sparse attention graph "
          "policy reward agent benchmark evaluation retrieval reasoning diffusion latent "
          "optimization convergence generalization transfer scaling inference memory token "
          "alignment safety kernel federated causal uncertainty calibration").split()
_DATASETS = ("ImageNet", "CIFAR-10", "MMLU", "GSM8K", "HumanEval", "COCO", "WikiText-103",
             "LiveCodeBench", "SQuAD", "OpenWebText")


def synth_abstract(i: int, rng: random.Random) -> str:
    """A synthetic abstract (~1,100 characters) with a named method, datasets and numbers;
    unique per ``i`` so every record is its own cache entry."""
    name = "".join(w.capitalize() for w in rng.sample(_WORDS, 2)) + f"Net{i}"
    body = " ".join(rng.choice(_WORDS) for _ in range(110))
    ds = rng.sample(_DATASETS, 2)
    return (f"We study {rng.choice(_WORDS)} {rng.choice(_WORDS)} for {rng.choice(_WORDS)} "
            f"systems. We propose {name}, a {rng.choice(_WORDS)} method that improves "
            f"accuracy by {rng.randint(1, 40)}.{rng.randint(0, 9)}% on {ds[0]} and "
            f"{rng.randint(1, 30)}% on {ds[1]}. {body.capitalize()}. Code is released "
            f"for abstract {i}.")


REAL = [ROOT.parent / "shared" / "corpus" / "papers-13-venues.jsonl.gz",
        ROOT.parent.parent / "shared" / "corpus" / "papers-13-venues.jsonl.gz"]


def real_abstracts(n: int) -> list[tuple[str, str | None]] | None:
    """(abstract, title) of the first ``n`` abstracts of the real corpus, or None where it is not
    (the title too: a real input has one, and both loops send it)."""
    import gzip
    for path in REAL:
        if path.exists():
            out = []
            with gzip.open(path, "rt", encoding="utf-8") as fh:
                for line in fh:
                    row = json.loads(line)
                    text = (row.get("abstract") or "").strip()
                    if text:
                        out.append((text, row.get("title")))
                    if len(out) == n:
                        break
            return out
    return None


def write_corpus(path: Path, n: int, seed: int = 0) -> Path:
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            fh.write(json.dumps({"id": f"a{i}", "abstract": synth_abstract(i, rng)}) + "\n")
    return path


def write_real_corpus(path: Path, n: int, seed: int = 0) -> tuple[Path, str]:
    """(the input JSONL, which abstracts it holds): real ones where the corpus is there."""
    rows = real_abstracts(n)
    what = f"real abstracts and their titles ({REAL[0].name})"
    if rows is None or len(rows) < n:
        rng = random.Random(seed)
        rows, what = [(synth_abstract(i, rng), None) for i in range(n)], "synthetic abstracts"
    with path.open("w", encoding="utf-8") as fh:
        for i, (text, title) in enumerate(rows):
            fh.write(json.dumps({"id": f"a{i}", "abstract": text, **({"title": title} if title else {})}) + "\n")
    return path, what


PEER_PROMPT = ("Extract from the research abstract a JSON object with task, contribution, "
               "method_names, datasets and numbers (text, value, unit, kind, metric, dataset, method).")


async def peer_loop(corpus: Path, url: str, concurrency: int, out: Path) -> int:
    """The hand-written AsyncOpenAI loop: the peer extract is measured against."""
    from openai import AsyncOpenAI

    rows = [json.loads(line) for line in corpus.open(encoding="utf-8")]
    texts = [f"Title: {r['title']}\n\n{r['abstract']}" if r.get("title") else r["abstract"] for r in rows]
    client = AsyncOpenAI(base_url=url, api_key="bench", max_retries=0)
    gate = asyncio.Semaphore(concurrency)

    async def one(i: int, text: str):
        async with gate:
            r = await client.chat.completions.create(
                model="bench-model", response_format={"type": "json_object"},
                messages=[{"role": "system", "content": PEER_PROMPT}, {"role": "user", "content": text}])
            return {"id": f"a{i}", "extraction": json.loads(r.choices[0].message.content)}

    try:
        results = await asyncio.gather(*(one(i, t) for i, t in enumerate(texts)))
    finally:
        await client.close()
    with out.open("w", encoding="utf-8") as fh:
        for rec in results:
            fh.write(json.dumps(rec) + "\n")
    return len(results)


def run_peer(corpus: Path, url: str, concurrency: int, out: Path) -> tuple[int, float, float]:
    """(records, seconds, CPU seconds of this process)."""
    cpu0, t0 = cpu_seconds(), time.monotonic()
    n = asyncio.run(peer_loop(corpus, url, concurrency, out))
    return n, time.monotonic() - t0, cpu_seconds() - cpu0


@contextmanager
def fake_server(latency: float, faults: float = 0.0):
    """tests/fakeserver.py in a child process; yields its base URL."""
    cmd = [sys.executable, str(ROOT / "tests" / "fakeserver.py"), "--latency", str(latency)]
    if faults:
        cmd += ["--faults", str(faults)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    try:
        url = proc.stdout.readline().strip()
        if not url.startswith("http"):
            raise RuntimeError("fake server did not start")
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


class _Clock:
    """A progress sink that notes when each record is settled (steady-state rate)."""

    def __init__(self):
        self.times: list[float] = []

    def update(self, n: int = 1) -> None:
        self.times.append(time.monotonic())


def run_once(corpus: Path, url: str, concurrency: int, cache_dir: Path, out: Path,
             use_cache: bool = True, clock: _Clock | None = None):
    """One in-process run, exactly as `extract run` drives it (the backend built, what
    exists then frozen for the collector, the run): (Summary, client CPU seconds of the
    backend's construction and the run, monotonic start of the run, CPU seconds of the
    worker processes)."""
    from extract.config import RunConfig
    from extract.inputs import expand, read_inputs
    from extract.output import RecordSink
    from extract.pipeline import Extractor

    config = RunConfig(backend="openai", model="bench-model", base_urls=(url,), api_key="bench",
                       concurrency=concurrency, cache_dir=cache_dir, use_cache=use_cache)
    files, _ = expand([corpus])
    cpu0, kids0, threshold = cpu_seconds(), children_seconds(), gc.get_threshold()
    extractor = Extractor(config)
    _as_the_command()
    try:
        with RecordSink(out) as sink:
            started = time.monotonic()
            summary = asyncio.run(extractor.run(read_inputs(files), sink, clock))
            return summary, cpu_seconds() - cpu0, started, children_seconds() - kids0
    finally:
        gc.set_threshold(*threshold)        # the peer's next run as a plain script's


def _as_the_command() -> None:
    """What the ``extract`` command does once the backend is built, in this build: its
    collector settings for the run (:func:`extract.cli.collector_for_run`); a build without
    it, nothing."""
    from extract import cli

    if hasattr(cli, "collector_for_run"):
        cli._OWN_PROCESS = True            # this process is the run's own, as the command's
        cli.collector_for_run()


def machine_busy_seconds() -> float:
    """CPU-seconds all processes have been busy (``/proc/stat``), to tell a contended
    run from a quiet one; 0 where there is no /proc."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return 0.0
    ticks = [int(x) for x in fields]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def cpu_seconds() -> float:
    """CPU of this process and of its children that ended (extract's worker processes are
    stopped, and so counted, when the run ends)."""
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime + children_seconds()


def children_seconds() -> float:
    """CPU of the child processes of this one that ended (the worker processes)."""
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return c.ru_utime + c.ru_stime


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=600, help="abstracts")
    ap.add_argument("-c", "--concurrency", type=int, default=32)
    ap.add_argument("--latency", type=float, default=0.1, help="server seconds per answer")
    ap.add_argument("--repeat", type=int, default=5, help="runs (fresh cache each); the "
                    "median is the figure reported")
    ap.add_argument("--profile", help="write a cProfile of the first run here")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    import extract.backends.openai_compat  # noqa: F401  (imports timed separately)
    import extract.pipeline  # noqa: F401
    import_s = time.perf_counter() - t0
    gc.freeze()         # start-up's objects, as the extract command does (the peer's runs too)
    ceiling = args.concurrency / args.latency
    rows = []
    peers = []
    with tempfile.TemporaryDirectory() as tmp, fake_server(args.latency) as url:
        tmp = Path(tmp)
        corpus, what = write_real_corpus(tmp / "corpus.jsonl", args.n)
        for k in range(args.repeat):
            n, secs, pcpu = run_peer(corpus, url, args.concurrency, tmp / f"peer{k}.jsonl")
            peers.append({"rate": n / secs, "cpu_ms": 1000 * pcpu / n})
            print(f"throughput: run {k + 1}: peer (hand-written AsyncOpenAI loop) "
                  f"{peers[-1]['rate']:.1f} records/s, CPU {peers[-1]['cpu_ms']:.2f} ms per record")
            prof = None
            if args.profile and k == 0:
                import cProfile
                prof = cProfile.Profile()
                prof.enable()
            clock, busy0 = _Clock(), machine_busy_seconds()
            summary, cpu, started, kids = run_once(corpus, url, args.concurrency, tmp / f"cache{k}",
                                             tmp / f"out{k}.jsonl", clock=clock)
            if prof is not None:
                prof.disable()
                prof.dump_stats(args.profile)
            others = max(0.0, machine_busy_seconds() - busy0 - cpu) / summary.seconds
            lines = sum(1 for _ in (tmp / f"out{k}.jsonl").open())
            if summary.ok != args.n or lines != args.n:
                print(f"throughput: run {k + 1}: only {summary.ok} ok, {lines} lines", file=sys.stderr)
                return 1
            ts = [t - started for t in clock.times]
            lo, hi = len(ts) // 6, len(ts) * 5 // 6
            steady = (hi - lo) / (ts[hi - 1] - ts[lo - 1]) if hi - lo > 1 else float("nan")
            rows.append({"rate": summary.ok / summary.seconds, "seconds": summary.seconds,
                         "steady": steady, "first": ts[0], "cpu_ms": 1000 * cpu / args.n,
                         "workers_ms": 1000 * kids / args.n})
            print(f"throughput: run {k + 1}: {rows[-1]['rate']:.1f} records/s "
                  f"({summary.seconds:.2f} s; first record at {ts[0] * 1000:.0f} ms; steady "
                  f"{steady:.0f}/s; client CPU {rows[-1]['cpu_ms']:.2f} ms per record: main process "
                  f"{rows[-1]['cpu_ms'] - rows[-1]['workers_ms']:.2f}, workers {rows[-1]['workers_ms']:.2f}; other "
                  f"processes, server included, busy {others:.2f} of {os.cpu_count()} CPUs)")
    med = sorted(rows, key=lambda r: r["rate"])[len(rows) // 2]
    peer = sorted(peers, key=lambda r: r["rate"])[len(peers) // 2]
    peer_cpu = sorted(r["cpu_ms"] for r in peers)[len(peers) // 2]
    ext_cpu = sorted(r["cpu_ms"] for r in rows)[len(rows) // 2]
    best = max(rows, key=lambda r: r["rate"])
    steady = sorted(r["steady"] for r in rows)[len(rows) // 2]
    print(f"throughput: {args.n} abstracts, concurrency {args.concurrency}, server latency "
          f"{args.latency * 1000:.0f} ms (ceiling {ceiling:.0f}/s), {args.repeat} runs, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    print(f"throughput: median {med['rate']:.1f} records/s: ratio {med['rate'] / ceiling:.2f} "
          f"(target >= 0.80); best {best['rate'] / ceiling:.2f}; steady-state (middle two "
          f"thirds of the records) {steady / ceiling:.2f}")
    print(f"throughput: client CPU {med['cpu_ms']:.2f} ms per record (main process "
          f"{med['cpu_ms'] - med['workers_ms']:.2f}, worker processes {med['workers_ms']:.2f}); imports {import_s:.2f} s "
          f"(process start-up, not in the ratio)")
    print(f"throughput: {what}; against the hand-written AsyncOpenAI loop (median "
          f"{peer['rate']:.1f} records/s, {peer_cpu:.2f} ms CPU per record): rate "
          f"{med['rate'] / peer['rate']:.2f}x (target >= 0.9), CPU per record {ext_cpu / peer_cpu:.2f}x "
          f"(target <= 1.5; worker processes counted)")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)
    sys.exit(main())
