"""Dump the rule layer's output (candidates, task phrases, the rules' decision) as JSON.

    python bench/candidates_dump.py OUT.json                          # seeds/ and tests/gold/
    python bench/candidates_dump.py OUT.jsonl --corpus /tmp/corpus.jsonl
    python bench/candidates_dump.py --corpus /tmp/corpus.jsonl --profile 1000

A change to the rule layer that is meant to change no behaviour (a refactor, a speed-up) must
leave this dump byte-identical (``cmp before.json after.json``): on the local abstracts, and
on the real corpus (``zcat ../shared/corpus/*.gz > /tmp/corpus.jsonl``; one JSON line per
abstract, read with its title, with the CPU time per abstract spent in ``decide`` printed on stderr).  With
``PYTHONPATH`` set, that checkout's ``extract`` is dumped (a base build, for the comparison).
``--profile N`` profiles ``decide`` on the first N abstracts instead and prints the top of the
cumulative cProfile table.
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

from extract.candidates import find_candidates, select_names  # noqa: E402
from extract.candidates.task import final_task, task_candidates, task_phrases  # noqa: E402
from extract.decision import decide  # noqa: E402


def corpus() -> list[tuple[str, str]]:
    """(id, abstract) of every abstract in seeds/*.txt, tests/gold/*-abstracts.txt and
    tests/gold/dev2/abstracts.jsonl."""
    out = []
    files = sorted((ROOT / "seeds").glob("*.txt")) + sorted((ROOT / "tests" / "gold").glob("*-abstracts.txt"))
    for f in files:
        lines = f.read_text(encoding="utf-8").split("\n")[1:]
        out += [(f"{f.name}#{n}", t) for n, t in enumerate((x for x in lines if x.strip()), 1)]
    return out + jsonl(ROOT / "tests" / "gold" / "dev2" / "abstracts.jsonl")


def jsonl(path: str | Path, titles: dict | None = None) -> list[tuple[str, str]]:
    """(id, abstract) of a JSONL of ``{"id": ..., "abstract": ...}`` objects (``titles``: filled
    with each row's ``title``, by id, when given)."""
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                d = json.loads(line)
                out.append((str(d.get("id", n)), d.get("abstract") or ""))
                if titles is not None and d.get("title"):
                    titles[out[-1][0]] = d["title"]
    return out


def one(text: str, title: str | None = None) -> dict:
    c = find_candidates(text, title)
    out = dataclasses.asdict(c)
    out["selected"] = select_names(c.names)
    out["task_candidates"] = [t._asdict() for t in task_candidates(text)]
    out["task_phrases"] = task_phrases(text)
    out["final_task"] = final_task(c.task_hint, text)
    out["decide"] = decide(text, c, title=title)
    return out


def cpu() -> float:
    t = os.times()
    return t.user + t.system


def profile(rows: list[tuple[str, str]]) -> None:
    import cProfile
    import pstats

    pr = cProfile.Profile()
    pr.enable()
    for _, text in rows:
        decide(text)
    pr.disable()
    pstats.Stats(pr).sort_stats("cumulative").print_stats(45)


def dump_lines(rows: list[tuple[str, str]], out: Path, titles: dict | None = None) -> None:
    """One sorted-key JSON line per abstract (read with its title, from ``titles`` by id); the
    CPU of ``decide`` alone on stderr."""
    spent, titles = 0.0, titles or {}
    with open(out, "w", encoding="utf-8") as f:
        for key, text in rows:
            t0 = cpu()
            decide(text, title=titles.get(key))
            spent += cpu() - t0
            f.write(json.dumps({"id": key, **one(text, titles.get(key))}, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"{len(rows)} abstracts, {1000 * spent / max(1, len(rows)):.3f} ms CPU per abstract "
          f"in decide, load {os.getloadavg()[0]:.2f}", file=sys.stderr)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", type=Path)
    ap.add_argument("--corpus", type=Path, help="a JSONL of abstracts, dumped one JSON line each")
    ap.add_argument("--profile", type=int, default=0, metavar="N")
    a = ap.parse_args(argv)
    if not a.profile and a.out is None:
        ap.error("give OUT (or --profile N)")
    titles: dict = {}
    rows = jsonl(a.corpus, titles) if a.corpus else corpus()
    if a.profile:
        profile(rows[:a.profile])
    elif a.corpus:
        dump_lines(rows, a.out, titles)
    else:
        a.out.write_text(json.dumps({key: one(text) for key, text in rows}, indent=1, ensure_ascii=False,
                                    sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
