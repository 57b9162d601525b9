"""The draw of dev7 and dev8 from ../shared/corpus/papers-13-venues.jsonl.gz (10,901 real abstracts).

    python3 tests/gold/dev7/sample.py [CORPUS]     # writes tests/gold/dev7/abstracts.jsonl and dev8/abstracts.jsonl

Number-rich sets, for the claims: dev4-dev6 hold 13-22 numbers each, too few to tell one claims
rule from noise. Each set is the first 90 abstracts of a seeded shuffle of the corpus (Python's
``random.seed(S); random.shuffle(rows)``, corpus order first) that write at least two numerals as
standalone tokens, skipping the 249 abstracts of session 24's blind samples
(``earlier-blind-ids.txt``); dev8 also skips dev7's and those of dev4-dev6 (by text; dev7 holds
none of them either). dev7: seed 20261206,
read while writing rules (like dev4); dev8: seed 99120612, held out (like dev5: scored in aggregate,
its abstracts and the tool's errors on them not read). Ids ``dev7-<corpus id>``; title and abstract
byte-identical to the corpus. Nothing was picked or replaced by hand.
"""
import gzip
import json
import random
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
GOLD = HERE.parent
DEFAULT = HERE.parents[3] / "shared" / "corpus" / "papers-13-venues.jsonl.gz"
NUMERAL = re.compile(r"(?<![\w.-])\d[\d.,]*%?(?![\w-])")


def draw(rows: list[dict], seed: int, skip_ids: set[str], skip_texts: set[str]) -> list[dict]:
    rows = list(rows)
    random.seed(seed)
    random.shuffle(rows)
    out = []
    for row in rows:
        if row["id"] in skip_ids or row["abstract"][:80] in skip_texts:
            continue
        if len(NUMERAL.findall(row["abstract"])) >= 2:
            out.append(row)
            if len(out) == 90:
                break
    return out


def main() -> None:
    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    with gzip.open(corpus, "rt", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    earlier = set((HERE / "earlier-blind-ids.txt").read_text().split())
    labeled = {json.loads(line)["abstract"][:80] for name in ("dev4", "dev5", "dev6")
               for line in (GOLD / name / "abstracts.jsonl").open() if line.strip()}
    dev7 = draw(rows, 20261206, earlier, set())
    dev8 = draw(rows, 99120612, earlier | {r["id"] for r in dev7}, labeled)
    for name, picked in (("dev7", dev7), ("dev8", dev8)):
        with (GOLD / name / "abstracts.jsonl").open("w", encoding="utf-8") as fh:
            for row in picked:
                fh.write(json.dumps({"id": f"{name}-{row['id']}", "venue": row["venue"], "title": row["title"],
                                     "abstract": row["abstract"]}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
