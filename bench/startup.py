"""Start-up cost of the command: CPU seconds (user + system, the process and its children)
of `extract --help` and of a rules run on one abstract, the median of ``--repeat`` runs.

CPU time, not wall time: on a shared machine the wall clock measures the neighbours.  The
interpreter's own start (``python -c pass``) is printed beside it, and each figure as a
ratio of the 0.3 s target (issue 18).  What is imported is checked, not timed, by
tests/test_startup.py; ``python -X importtime`` shows where the time goes.

``--parts`` splits the one-abstract rules run (in one process, ``EXTRACT_WORKERS=1``) into
what it imports (click, asyncio, pydantic with the modules its first model loads, the rule
layer, each other part of extract), the run itself, and the regular-expression compilation
inside both (``re``'s compiler timed, attributed to the module that asked for the pattern):
the rule layer's own at import and at its first abstract, apart from the rest.  The probe
handles the cyclic collector as the ``extract`` command does (``extract.cli.entry``: paused
for the imports, then ``gc.freeze()``, and again at the end); what the process spent besides
its parts (the interpreter's start and exit) is the process's CPU less the parts' total.

    .venv/bin/python bench/startup.py              # 7 runs each
    .venv/bin/python bench/startup.py --repeat 15
    .venv/bin/python bench/startup.py --parts
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
TARGET = 0.3
ABSTRACT = ("We propose FlowNet, a recurrent flow estimator. On Sintel it lowers the end-point "
            "error by 12% and reaches 91.2% accuracy on KITTI.\n")


def cpu_of(argv: list[str], stdin: str = "", env: dict | None = None) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(argv, input=stdin, capture_output=True, text=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}: {proc.stderr[-500:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


#: run in a fresh interpreter: CPU seconds of each part, and of re's compiler by (phase, module)
PROBE = r"""
import gc, json, re, sys, time
from re import _compiler
gc.disable()                     # as extract.cli.entry: the imports uncollected, then frozen
T = time.process_time
t_start = T()
regex, phase, _compile = {}, ["import"], _compiler.compile


def timed_compile(p, flags=0):
    t = T()
    try:
        return _compile(p, flags)
    finally:
        f = sys._getframe(1)
        while f is not None and f.f_globals.get("__name__", "").partition(".")[0] in ("re", "importlib"):
            f = f.f_back
        key = phase[0] + " " + (f.f_globals.get("__name__", "?") if f is not None else "?")
        regex[key] = regex.get(key, 0.0) + T() - t


_compiler.compile = timed_compile
parts = {}


def part(name, *modules):
    t = T()
    for m in modules:
        __import__(m)
    parts[name] = T() - t


part("click", "click")
part("asyncio", "asyncio")
part("pydantic (and what its first model loads)", "pydantic", "pydantic.main", "pydantic.json_schema",
     "pydantic.functional_validators", "pydantic._internal._generate_schema", "pydantic.plugin._loader",
     "pydantic.types", "annotated_types")
part("rule layer (extract.text, extract.candidates)", "extract.text", "extract.candidates",
     "extract.candidates.claims")
for m in ("extract.schemas.paper", "extract.decision", "extract.hybrid", "extract.inputs", "extract.cache",
          "extract.output", "extract.pipeline", "extract.backends.rules", "extract.cli.run"):
    part(m, m)
from extract.cli import main
gc.freeze()
gc.enable()
phase[0] = "run"
t = T()
try:
    main(sys.argv[1:], prog_name="extract")
except SystemExit:
    pass
gc.freeze()
parts["the run (one abstract)"] = T() - t
parts["total (this process, the interpreter's start aside)"] = T() - t_start
print(json.dumps({"parts": parts, "regex": regex}), file=sys.__stderr__)
"""


def parts(repeat: int, env: dict) -> None:
    """Medians of the probe's parts over ``repeat`` runs."""
    runs = []
    total = "total (this process, the interpreter's start aside)"
    for k in range(repeat + 1):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        proc = subprocess.run([sys.executable, "-c", PROBE, "run", "-", "-q", "--no-cache"], input=ABSTRACT,
                              capture_output=True, text=True, env={**env, "EXTRACT_WORKERS": "1"})
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode != 0:
            raise SystemExit(proc.stderr[-2000:])
        if k:                                            # the first one warms the bytecode
            runs.append(json.loads(proc.stderr.strip().splitlines()[-1]))
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            runs[-1]["parts"]["the interpreter's start and exit"] = cpu - runs[-1]["parts"][total]
            runs[-1]["parts"]["the process (CPU user+sys)"] = cpu
    med = lambda vals: statistics.median(list(vals) + [0.0] * (len(runs) - len(vals)))
    print(f"one-abstract rules run in one process, parts (CPU ms, median of {repeat}):")
    for name in runs[0]["parts"]:
        print(f"  {name:55s} {1000 * med([r['parts'][name] for r in runs]):6.1f}")
    for ph in ("import", "run"):
        keys = {k for r in runs for k in r["regex"] if k.startswith(ph + " ")}
        per = {k.split(" ", 1)[1]: med([r["regex"][k] for r in runs if k in r["regex"]]) for k in keys}
        rules = {m: v for m, v in per.items() if m.startswith(("extract.candidates", "extract.text"))}
        print(f"  regex compilation at {ph}: {1000 * sum(per.values()):.1f} ms, of which the rule layer "
              f"{1000 * sum(rules.values()):.1f} ms:")
        for m, v in sorted(rules.items(), key=lambda kv: -kv[1])[:6]:
            print(f"      {m:45s} {1000 * v:5.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--parts", action="store_true", help="split the one-abstract run into its parts")
    args = ap.parse_args()
    exe = str(BIN / "extract")
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "EXTRACT_CACHE_DIR": str(Path(tmp) / "cache")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)         # as installed: bytecode cached
        cases = [
            ("python -c pass (the interpreter)", [sys.executable, "-c", "pass"], "", env),
            ("extract --help", [exe, "--help"], "", env),
            ("extract run - (rules, one abstract, cache)", [exe, "run", "-", "-q"], ABSTRACT, env),
            ("extract run - --no-cache (rules, one abstract)", [exe, "run", "-", "-q", "--no-cache"],
             ABSTRACT, env),
            ("  the same, EXTRACT_WORKERS=1 (no process pool)", [exe, "run", "-", "-q", "--no-cache"],
             ABSTRACT, {**env, "EXTRACT_WORKERS": "1"}),
        ]
        if args.parts:
            return parts(args.repeat, env)
        for _, argv, stdin, e in cases:                  # warm: bytecode written, files cached
            cpu_of(argv, stdin, e)
        try:
            load = os.getloadavg()[0]
        except OSError:  # pragma: no cover
            load = float("nan")
        print(f"start-up CPU (user+sys), median of {args.repeat}; load average {load:.1f} "
              f"on {os.cpu_count()} CPUs")
        for label, argv, stdin, e in cases:
            runs = [cpu_of(argv, stdin, e) for _ in range(args.repeat)]
            med = statistics.median(runs)
            print(f"  {label:50s} {med:6.3f} s  (min {min(runs):.3f}; {med / TARGET:.2f}x the "
                  f"{TARGET} s target)")


if __name__ == "__main__":
    main()
