"""On how many real abstracts each absolute-or-change cue fires (extract/candidates/claim_change.py):

    python bench/change_firings.py [--corpus FILE.jsonl.gz] [--limit N] [--samples K] [--json]

Runs the rules' decision (the default ``--backend rules``) on every abstract of the corpus
(default ``../shared/corpus/papers-13-venues.jsonl.gz``, 10,901 real abstracts of 13 venues,
no gold) and counts, for every alternative of every rule (``change:<rule>/<cue>``,
``compared:<rule>/<cue>``), the abstracts it fires on; with ``--samples K``, K numbers each
cue decided, in context, for reading their precision.  An alternative that fires on fewer than
10 abstracts describes those abstracts, not English: it is generalized or removed unless the
guideline (tests/gold/GUIDELINE.md, "Absolute value or change") names its pattern.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from extract.candidates import find_candidates  # noqa: E402
from extract.candidates.claim_change import CHANGE_RULES, COMPARED_RULES, PARALLEL_RULE  # noqa: E402
from extract.candidates.rules import trace  # noqa: E402
from extract.decision import decide  # noqa: E402

CORPUS = ROOT.parent.parent / "shared" / "corpus" / "papers-13-venues.jsonl.gz"


def abstracts(path: Path, limit: int | None) -> list[str]:
    out = []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            if line.strip():
                out.append(json.loads(line)["abstract"])
            if limit and len(out) >= limit:
                break
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--samples", type=int, default=0, help="numbers shown per cue, in context")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if not args.corpus.is_file():
        print(f"change_firings: no corpus at {args.corpus}", file=sys.stderr)
        return 2
    texts = abstracts(args.corpus, args.limit)
    counts: Counter = Counter()
    numbers: Counter = Counter()        # absolute / change over every number
    samples: dict[str, list[str]] = {}
    rng = random.Random(7)
    started = time.perf_counter()
    for text in texts:
        cands = find_candidates(text)
        with trace() as fired:
            fields = decide(text, cands)
        mine = {f for f in fired if f.startswith(("change:", "compared:"))}
        counts.update(mine)
        for n in fields["numbers"]:
            numbers[n.get("value_type", "absolute")] += 1
        if args.samples:
            _sample(text, fields, samples, sorted(cands.numbers, key=lambda c: c.start))
    seconds = time.perf_counter() - started
    names = [f"change:{r[0]}" for r in CHANGE_RULES + (PARALLEL_RULE,)] + [f"compared:{r[0]}" for r in COMPARED_RULES]
    rows = sorted(counts.items(), key=lambda kv: (kv[0].split("/")[0], -kv[1], kv[0]))
    silent = [n for n in names if not any(k.split("/")[0] == n for k in counts)]
    if args.json:
        print(json.dumps({"abstracts": len(texts), "seconds": round(seconds, 1), "numbers": dict(numbers),
                          "firings": dict(rows), "never_fired": silent}, indent=1))
        return 0
    print(f"{len(texts)} abstracts, {seconds:.0f} s; numbers: {numbers['change']} change, "
          f"{numbers['absolute']} absolute")
    for name, k in rows:
        flag = "  (<10)" if k < 10 else ""
        print(f"{k:6d}  {name}{flag}")
    for n in silent:
        print(f"     0  {n}  (never)")
    for cue, xs in sorted(samples.items()):
        print(f"\n## {cue} ({len(xs)} numbers)")
        for x in rng.sample(xs, min(args.samples, len(xs))):
            print("   ", x)
    return 0


def _sample(text: str, fields: dict, samples: dict, cands) -> None:
    """Every number in context, under the rule that decided its value type."""
    from extract.candidates.claims import attach_claims
    kinds = [n["kind"] for n in sorted(fields["numbers"], key=lambda d: d["text"] and text.find(d["text"]))]
    claims = attach_claims(text, cands, fields["method_names"], fields["datasets"],
                           kinds=kinds if len(kinds) == len(cands) else None, contribution=fields["contribution"])
    for c, cl in zip(cands, claims):
        key = f"change:{cl.change_rules[0]}" if cl.value_type == "change" else "absolute"
        key += " (compared)" if cl.compared_to else ""
        shown = " ".join(f"{text[max(0, c.start - 80):c.start]}[[{text[c.start:c.end]}]]{text[c.end:c.end + 50]}".split())
        samples.setdefault(key, []).append(shown + (f"  -> vs {cl.compared_to.text}" if cl.compared_to else ""))


if __name__ == "__main__":
    sys.exit(main())
