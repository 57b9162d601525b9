"""The draw of dev6 from ../shared/corpus/papers-13-venues.jsonl.gz (10,901 real abstracts).

    python3 tests/gold/dev6/sample.py [CORPUS]     # writes tests/gold/dev6/abstracts.jsonl

Per venue, in the corpus's own venue order, from the entries that are in neither dev4 nor dev5
(tests/gold/dev4/sample.py): ``random.Random(2027).sample(entries, 3)`` (one generator for the whole
draw). Ids ``dev6-<venue>-<n>``; title and abstract byte-identical to the corpus. dev6 is held out like
dev5: scored in aggregate, its abstracts and the tool's errors on them not read to write rules.
Nothing was picked or replaced by hand.
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
    drawn = set()
    for name in ("dev4", "dev5"):
        for line in (HERE.parent / name / "abstracts.jsonl").read_text(encoding="utf-8").splitlines():
            drawn.add(json.loads(line)["abstract"])
    by_venue: dict[str, list[dict]] = {}
    with gzip.open(corpus, "rt", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if row["abstract"] not in drawn:
                by_venue.setdefault(row["venue"], []).append(row)
    rng, rows_out = random.Random(2027), []
    for venue, rows in by_venue.items():
        tag = "".join(ch for ch in venue.lower() if ch.isalnum())
        for i, row in enumerate(rng.sample(rows, 3), 1):
            rows_out.append({"id": f"dev6-{tag}-{i}", "venue": venue, "title": row.get("title"),
                             "abstract": row["abstract"]})
    out = HERE / "abstracts.jsonl"
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows_out), encoding="utf-8")
    print(f"{out}: {len(rows_out)} abstracts")


if __name__ == "__main__":
    main()
