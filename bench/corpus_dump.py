"""Dump the rules' decision and candidates for every abstract of a JSONL, one JSON line each.

    python bench/corpus_dump.py /tmp/corpus.jsonl OUT.jsonl [--profile N]

A speed change to the rule layer that is meant to change no output must leave this dump
byte-identical on the real corpus (``zcat ../shared/corpus/*.gz > /tmp/corpus.jsonl``;
``cmp before.jsonl after.jsonl``).  It also prints the CPU time (user + sys) per abstract
spent in ``decide`` (the dump's JSON encoding excluded).
With ``--profile N`` it instead profiles ``decide`` on the first N abstracts and prints the
top of the cumulative cProfile table.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if not os.environ.get("PYTHONPATH"):          # a base checkout given by PYTHONPATH wins
    sys.path.insert(0, str(ROOT))

from extract.candidates import find_candidates  # noqa: E402
from extract.decision import decide  # noqa: E402


def texts(path: str) -> list[tuple[str, str]]:
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                d = json.loads(line)
                out.append((d["id"], d.get("abstract") or ""))
    return out


def cpu() -> float:
    t = os.times()
    return t.user + t.system


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("out", nargs="?")
    ap.add_argument("--profile", type=int, default=0)
    a = ap.parse_args()
    rows = texts(a.corpus)
    if a.profile:
        import cProfile
        import pstats
        sample = [t for _, t in rows[:a.profile]]
        pr = cProfile.Profile()
        pr.enable()
        for t in sample:
            decide(t)
        pr.disable()
        pstats.Stats(pr).sort_stats("cumulative").print_stats(45)
        return 0
    spent = 0.0
    with open(a.out, "w", encoding="utf-8") as f:
        for key, text in rows:
            t0 = cpu()
            d = decide(text)
            spent += cpu() - t0
            c = find_candidates(text)
            f.write(json.dumps({"id": key, "candidates": dataclasses.asdict(c), "decide": d},
                               ensure_ascii=False, sort_keys=True) + "\n")
    print(f"{len(rows)} abstracts, {1000 * spent / max(1, len(rows)):.3f} ms CPU per abstract "
          f"in decide, load {os.getloadavg()[0]:.2f}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
