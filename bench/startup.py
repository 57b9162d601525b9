"""Start-up cost of the command: CPU seconds (user + system, the process and its children)
of `extract --help` and of a rules run on one abstract, the median of ``--repeat`` runs.

CPU time, not wall time: on a shared machine the wall clock measures the neighbours.  The
interpreter's own start (``python -c pass``) is printed beside it, and each figure as a
ratio of the 0.3 s target (issue 18).  What is imported is checked, not timed, by
tests/test_startup.py; ``python -X importtime`` shows where the time goes.

    .venv/bin/python bench/startup.py              # 7 runs each
    .venv/bin/python bench/startup.py --repeat 15
"""

from __future__ import annotations

import argparse
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=7)
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
