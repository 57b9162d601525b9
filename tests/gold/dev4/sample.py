"""The draw of dev4 and dev5 from ../shared/corpus/papers-13-venues.jsonl.gz (10,901 real abstracts).

    python3 tests/gold/dev4/sample.py [CORPUS]     # writes tests/gold/dev4/abstracts.jsonl and dev5/abstracts.jsonl

Per venue, in the corpus's own venue order: ``random.Random(2026).sample(entries, 6)`` (one generator
for the whole draw); the first three picks of each venue go to dev4 (the set rules may be written
while reading it), the last three to dev5 (held out: scored in aggregate, its abstracts not read to
write rules). Ids ``dev4-<venue>-<n>`` / ``dev5-<venue>-<n>``; title and abstract byte-identical to
the corpus. Nothing was picked or replaced by hand.
"""
import gzip
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT = HERE.parents[3] / "shared" / "corpus" / "papers-13-venues.jsonl.gz"


def main() -> None:
    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    by_venue: dict[str, list[dict]] = {}
    with gzip.open(corpus, "rt", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            by_venue.setdefault(row["venue"], []).append(row)
    rng = random.Random(2026)
    sets = {"dev4": [], "dev5": []}
    for venue, rows in by_venue.items():
        tag = "".join(ch for ch in venue.lower() if ch.isalnum())
        for i, row in enumerate(rng.sample(rows, 6)):
            name = "dev4" if i < 3 else "dev5"
            sets[name].append({"id": f"{name}-{tag}-{i % 3 + 1}", "venue": venue,
                               "title": row.get("title"), "abstract": row["abstract"]})
    for name, rows in sets.items():
        out = HERE.parent / name / "abstracts.jsonl"
        out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        print(f"{out}: {len(rows)} abstracts")


if __name__ == "__main__":
    main()
