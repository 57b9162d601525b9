"""Dump the rule layer's output for every abstract in seeds/ and tests/gold/ as JSON.

    python bench/candidates_dump.py OUT.json

A refactor of the rule layer that is meant to change no behaviour must leave this dump
byte-identical (``cmp before.json after.json``).
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from extract.candidates import find_candidates, select_names  # noqa: E402
from extract.candidates.task import final_task, task_candidates, task_phrases  # noqa: E402


def corpus() -> list[tuple[str, str]]:
    """(id, abstract) of every abstract in seeds/*.txt, tests/gold/*-abstracts.txt and
    tests/gold/dev2/abstracts.jsonl."""
    out = []
    files = sorted((ROOT / "seeds").glob("*.txt")) + sorted((ROOT / "tests" / "gold").glob("*-abstracts.txt"))
    for f in files:
        lines = f.read_text(encoding="utf-8").split("\n")[1:]
        out += [(f"{f.name}#{n}", t) for n, t in enumerate((x for x in lines if x.strip()), 1)]
    for line in (ROOT / "tests" / "gold" / "dev2" / "abstracts.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            d = json.loads(line)
            out.append((d["id"], d["abstract"]))
    return out


def one(text: str) -> dict:
    c = find_candidates(text)
    out = dataclasses.asdict(c)
    out["selected"] = select_names(c.names)
    out["task_candidates"] = [dataclasses.asdict(t) for t in task_candidates(text)]
    out["task_phrases"] = task_phrases(text)
    out["final_task"] = final_task(c.task_hint, text)
    return out


def dump() -> dict:
    return {key: one(text) for key, text in corpus()}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    Path(argv[0]).write_text(json.dumps(dump(), indent=1, ensure_ascii=False, sort_keys=True) + "\n",
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
