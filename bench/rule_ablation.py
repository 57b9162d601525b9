"""Which rules are redundant: take out one rule at a time and count the abstracts whose output changes.

    python bench/rule_ablation.py --corpus /tmp/corpus.jsonl -n 2000     # a seeded sample of the corpus
    python bench/rule_ablation.py -n 0                                   # the local sets (seeds/, tests/gold/)
    python bench/rule_ablation.py --corpus /tmp/corpus.jsonl -n 0 --record   # the record only, every abstract

For every rule of the tables (``extract.candidates.rules.all_rules()``: numbers, names, roles,
contribution, task) the rule's test is made false, the rule layer's caches are cleared, and the
abstracts are dumped again the way ``bench/candidates_dump.py`` dumps them (candidates, task phrases,
``decide``; each abstract read with its title, as the corpus row gives it); an abstract counts as
changed when its dump differs from the dump with every rule in (``--record``: when the record
``decide`` makes differs, what a user gets; the candidates' cues and scores aside).
A rule whose removal changes fewer than 10 of the corpus's 10,901 abstracts is covered by the others
(issue 17 item 5: "remove what the above made redundant"); judge its removal on dev3 beside dev2
(``python3 ../shared/eval/score_dev3.py``) before taking it out. The rules of the claims tables
(``metric:``, ``dataset:``, ``method:``) and of the value type (``change:``, ``compared:``) are taken
out of their table in turn; the rules whose table entry documents a decision made in code (the
contribution and task tables, some name rules: they call ``rules.fire(name)``) are not ablated: a
rule that still fires with its test false (on the sample or on its own example) is reported as not
ablatable.

Written by hand: the rule engine is this project's own (``extract.candidates.rules``), so no
library knows its tables.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

import candidates_dump  # noqa: E402  (bench/candidates_dump.py: the dump and the corpus readers)

from extract.candidates import claim_change, claims, rules  # noqa: E402
from extract.decision import decide  # noqa: E402

#: The claims and value-type tables: (name, example, test) entries, taken out of the tuple in turn
CLAIM_TABLES = {"metric": (claims, "METRIC_RULES"), "dataset": (claims, "DATASET_RULES"),
                "method": (claims, "METHOD_RULES"), "change": (claim_change, "CHANGE_RULES"),
                "compared": (claim_change, "COMPARED_RULES")}


def _never(_ctx: object) -> bool:
    return False


def clear_caches() -> None:
    """Clear every ``lru_cache`` of the rule layer (a cached answer would hide the rule taken out)."""
    for name, mod in list(sys.modules.items()):
        if name.startswith(("extract.candidates", "extract.text", "extract.decision")):
            for obj in vars(mod).values():
                if callable(getattr(obj, "cache_clear", None)):
                    obj.cache_clear()


TITLES: dict[str, str] = {}     # each abstract's title, by id (the title rules read it)


def dump(text: str, title: str | None = None, record: bool = False) -> str:
    """One abstract's dump (``record``: the record ``decide`` makes only); an error is a change too
    (the last number rule gives every number a kind: without it the others leave some kindless)."""
    try:
        got = decide(text, title=title) if record else candidates_dump.one(text, title)
        return json.dumps(got, sort_keys=True, ensure_ascii=False)
    except Exception as e:  # noqa: BLE001  (a rule taken out may break what relies on it)
        return f"error: {type(e).__name__}"


def dumps(rows: list[tuple[str, str]], record: bool = False) -> list[str]:
    clear_caches()
    return [dump(text, TITLES.get(key), record) for key, text in rows]


def ablate(rows: list[tuple[str, str]], only: set[str] | None = None,
           record: bool = False) -> list[tuple[str, str, int | None]]:
    """(table, rule, abstracts changed) for every rule (or the rules named in ``only``), fewest
    changes first; None for a rule its table's test does not decide (it fires with the test false).
    ``record``: an abstract changes when its record does (not its candidates' cues and scores)."""
    base = dumps(rows, record)
    out, seen = [], set()
    for table, entries in rules.all_rules().items():
        for rule in entries:
            if id(rule) in seen or (only is not None and rule.name not in only):
                continue
            seen.add(id(rule))
            test = rule.test
            object.__setattr__(rule, "test", _never)      # Rule is frozen; restored below
            try:
                with rules.trace() as fired:
                    after = dumps(rows, record)
                    dump(rule.example, rule.title or None, record)      # fires its rule (tests check it): tells even where the sample does not
                # a rule that still fires is decided by code that calls rules.fire(name), not by its
                # table entry's test (the contribution and task tables, some name rules): not ablatable here
                changed = None if rule.name in fired else sum(a != b for a, b in zip(base, after))
            finally:
                object.__setattr__(rule, "test", test)
            out.append((table, rule.name, changed))
    for table, (mod, attr) in CLAIM_TABLES.items():
        entries = getattr(mod, attr)
        for entry in entries:
            if only is not None and f"{table}:{entry[0]}" not in only:
                continue
            setattr(mod, attr, tuple(e for e in entries if e is not entry))
            try:
                changed = sum(a != b for a, b in zip(base, dumps(rows, record)))
            finally:
                setattr(mod, attr, entries)
            out.append(("claims", f"{table}:{entry[0]}", changed))
    return sorted(out, key=lambda r: (r[2] is None, r[2] or 0, r[0], r[1]))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, help="a JSONL of abstracts (default: the local sets)")
    ap.add_argument("-n", type=int, default=2000, help="a seeded random sample of this many (0: all)")
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--only", help="a comma-separated list of rule names (default: every rule)")
    ap.add_argument("--record", action="store_true", help="compare the record (decide) only")
    a = ap.parse_args(argv)
    rows = candidates_dump.jsonl(a.corpus, TITLES) if a.corpus else candidates_dump.corpus()
    if a.n and a.n < len(rows):
        rows = random.Random(a.seed).sample(rows, a.n)
    result = ablate(rows, set(a.only.split(",")) if a.only else None, record=a.record)
    print(f"| table | rule | abstracts changed of {len(rows)} |\n|---|---|---|")
    for table, name, changed in result:
        print(f"| {table} | `{name}` | {'not ablatable (decided in code)' if changed is None else changed} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
