"""How many abstracts each rule of the rule tables fires on, over seeds/, tests/gold/*-abstracts.txt
and tests/gold/dev2/abstracts.jsonl:

    python bench/rule_firings.py [--max N]

Prints one line per rule (abstracts fired on, rule name), least used first; with ``--max N``
only the rules that fire on at most N abstracts.  A rule that fires on one abstract is a
memory of that abstract, not a rule (see the developers' guide).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from candidates_dump import corpus  # noqa: E402
from extract.candidates import find_candidates  # noqa: E402
from extract.candidates.rules import all_rules, trace  # noqa: E402


def firings() -> Counter:
    counts: Counter = Counter({r.name: 0 for table in all_rules().values() for r in table})
    for _, text in corpus():
        with trace() as fired:
            find_candidates(text)
        counts.update(fired)
    return counts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max", type=int, default=None)
    args = ap.parse_args(argv)
    n = len(corpus())
    for name, count in sorted(firings().items(), key=lambda kv: (kv[1], kv[0])):
        if args.max is None or count <= args.max:
            print(f"{count:4d}/{n}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
