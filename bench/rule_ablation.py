"""Which rules are redundant: take out one rule at a time and count the abstracts whose output changes.

    python bench/rule_ablation.py --corpus /tmp/corpus.jsonl -n 2000     # a seeded sample of the corpus
    python bench/rule_ablation.py -n 0                                   # the local sets (seeds/, tests/gold/)
    python bench/rule_ablation.py --corpus /tmp/corpus.jsonl -n 0 --record   # the record only, every abstract
    python bench/rule_ablation.py --score                                # the labeled sets' figures, each rule out

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

``--score`` asks what each rule is worth rather than whether it does anything: with each rule out
it scores the rules' records (``decide``, in this process) on the labeled sets (``--sets``: dev, dev2,
dev4-dev7 by default; dev8 is held out and dev3 sealed, so neither chooses a rule) the way ``extract
eval`` does, and prints the figures each removal moves: first the rules whose removal lowers none
and lifts one (what the sets say could go; read the abstracts it changes before taking one out, one
item on a set of 39 is 0.03), then the rest by what their removal costs.

Written by hand: the rule engine is this project's own (``extract.candidates.rules``), so no
library knows its tables.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Callable, Iterator

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

import candidates_dump  # noqa: E402  (bench/candidates_dump.py: the dump and the corpus readers)

from extract.candidates import claim_change, claims, rules  # noqa: E402
from extract.candidates.rules import Rule  # noqa: E402
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


def without_each(only: set[str] | None = None, probe: Callable[[Rule], None] | None = None
                 ) -> Iterator[tuple[str, str, bool]]:
    """Take out every rule of the tables in turn (or the rules named in ``only``); yields
    (table, rule, ablatable) with the rule out, and puts it back before the next.  ``probe`` is
    called on a table rule while it is out, under :func:`rules.trace`: a rule that still fires is
    decided by code that calls ``rules.fire(name)``, not by its table entry's test (the
    contribution and task tables, some name rules), and is yielded as not ablatable."""
    seen = set()
    for table, entries in rules.all_rules().items():
        for rule in entries:
            if id(rule) in seen or (only is not None and rule.name not in only):
                continue
            seen.add(id(rule))
            test = rule.test
            object.__setattr__(rule, "test", _never)      # Rule is frozen; restored below
            try:
                with rules.trace() as fired:
                    yield table, rule.name, True
                    if probe is not None:
                        probe(rule)
                if rule.name in fired:
                    yield table, rule.name, False
            finally:
                object.__setattr__(rule, "test", test)
    for table, (mod, attr) in CLAIM_TABLES.items():
        entries = getattr(mod, attr)
        for entry in entries:
            if only is not None and f"{table}:{entry[0]}" not in only:
                continue
            setattr(mod, attr, tuple(e for e in entries if e is not entry))
            try:
                yield "claims", f"{table}:{entry[0]}", True
            finally:
                setattr(mod, attr, entries)


def ablate(rows: list[tuple[str, str]], only: set[str] | None = None,
           record: bool = False) -> list[tuple[str, str, int | None]]:
    """(table, rule, abstracts changed) for every rule (or the rules named in ``only``), fewest
    changes first; None for a rule its table's test does not decide (it fires with the test false).
    ``record``: an abstract changes when its record does (not its candidates' cues and scores)."""
    base = dumps(rows, record)
    changed: dict[tuple[str, str], int | None] = {}
    for table, name, ablatable in without_each(
            only, probe=lambda r: dump(r.example, r.title or None, record)):   # fires its rule: tells even where the sample does not
        changed[table, name] = sum(a != b for a, b in zip(base, dumps(rows, record))) if ablatable else None
    return sorted(((t, n, c) for (t, n), c in changed.items()), key=lambda r: (r[2] is None, r[2] or 0, r[0], r[1]))


#: The labeled sets ``--score`` reads (the readable ones; dev8 is held out, dev3 sealed): (inputs, gold)
GOLD = ROOT.parent / "tests" / "gold"
SETS = {"dev": (next((ROOT.parent / "seeds").glob("000_*.txt"), None), GOLD / "dev-gold.jsonl"),
        **{s: (GOLD / s / "abstracts.jsonl", GOLD / s / "gold.jsonl") for s in ("dev2", "dev4", "dev5", "dev6", "dev7")}}
#: The figures ``--score`` compares: (name, the ``EvalResult.as_dict`` entry, its key)
FIGURES = (("methods", "method_names", "f1"), ("datasets", "datasets", "f1"), ("numbers", "numbers", "f1"),
           ("results", "result_numbers", "f1"), ("claims", "result_claims", "f1"),
           ("attachment", "dataset_attachment", "accuracy"), ("metric", "metric_f1", "f1"),
           ("value type", "changes", "f1"), ("compared", "compared_to", "f1"),
           ("contribution", "contribution", "accuracy"))


def labeled(names: list[str]) -> dict[str, tuple[list, list[dict]]]:
    """{set: (its abstracts as input items, its gold records)}."""
    from extract.evaluate import load_jsonl
    from extract.inputs import Item, read_inputs
    out = {}
    for name in names:
        if name not in SETS:
            raise SystemExit(f"unknown set {name!r} (one of {', '.join(SETS)})")
        inputs, gold = SETS[name]
        out[name] = ([x for x in read_inputs([Path(inputs)]) if isinstance(x, Item)], load_jsonl(gold, "gold"))
    return out


def _decided(text: str, title: str | None) -> dict:
    """The rules' record, or an empty one where a rule taken out breaks what relies on it."""
    try:
        return decide(text, title=title)
    except Exception:  # noqa: BLE001
        return {"task": None, "contribution": None, "method_names": [], "datasets": [], "numbers": []}


def figures(sets: dict[str, tuple[list, list[dict]]]) -> dict[tuple[str, str], float]:
    """{(set, figure): value} of the rules' records (``decide`` in this process) on each set."""
    from extract.evaluate import evaluate
    clear_caches()
    out = {}
    for name, (items, gold) in sets.items():
        recs = [{"id": it.id, "text": it.text, "status": "ok", "extraction": _decided(it.text, it.title)}
                for it in items]
        got = evaluate(recs, gold).as_dict()
        for fig, entry, key in FIGURES:
            out[name, fig] = got[entry][key] or 0.0
    return out


def score(sets: dict[str, tuple[list, list[dict]]], only: set[str] | None = None) -> list[tuple[str, str, dict | None]]:
    """(table, rule, {(set, figure): the change with the rule out}) for every rule whose removal
    moves a figure of the labeled ``sets`` (None: not ablatable)."""
    base = figures(sets)
    moved: dict[tuple[str, str], dict | None] = {}
    for table, name, ablatable in without_each(only, probe=lambda r: _decided(r.example, r.title or None)):
        moved[table, name] = {k: round(v - base[k], 4) for k, v in figures(sets).items()
                              if abs(v - base[k]) > 1e-9} if ablatable else None
    return [(t, n, d) for (t, n), d in moved.items()]


def print_score(result: list[tuple[str, str, dict | None]], sets: list[str]) -> None:
    """The rules whose removal lowers no figure and lifts one first (what the labeled sets say
    could go), then those that move nothing, then the rest by the sum of what their removal costs."""
    def cost(d: dict) -> float:
        return sum(d.values())
    free = [r for r in result if r[2] and min(r[2].values()) >= 0]
    still = [r for r in result if r[2] == {}]
    rest = sorted((r for r in result if r[2] and min(r[2].values()) < 0), key=lambda r: -cost(r[2]))
    print(f"Figures moved by taking each rule out, on {', '.join(sets)} (rules' records, in this process)\n")
    print("| table | rule | with the rule out |\n|---|---|---|")
    for table, name, d in free + rest:
        print(f"| {table} | `{name}` | {'; '.join(f'{s} {f} {v:+.3f}' for (s, f), v in sorted(d.items()))} |")
    print(f"\nMoving no figure ({len(still)}): {', '.join(f'`{n}`' for _, n, _ in still)}")
    print(f"Not ablatable (decided in code): {sum(d is None for *_, d in result)}")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, help="a JSONL of abstracts (default: the local sets)")
    ap.add_argument("-n", type=int, default=2000, help="a seeded random sample of this many (0: all)")
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--only", help="a comma-separated list of rule names (default: every rule)")
    ap.add_argument("--record", action="store_true", help="compare the record (decide) only")
    ap.add_argument("--score", action="store_true",
                    help="score the labeled sets with each rule out (instead of counting changed abstracts)")
    ap.add_argument("--sets", default="dev,dev2,dev4,dev5,dev6,dev7", help="the labeled sets --score reads")
    a = ap.parse_args(argv)
    only = set(a.only.split(",")) if a.only else None
    if a.score:
        names = a.sets.split(",")
        print_score(score(labeled(names), only), names)
        return 0
    rows = candidates_dump.jsonl(a.corpus, TITLES) if a.corpus else candidates_dump.corpus()
    if a.n and a.n < len(rows):
        rows = random.Random(a.seed).sample(rows, a.n)
    result = ablate(rows, only, record=a.record)
    print(f"| table | rule | abstracts changed of {len(rows)} |\n|---|---|---|")
    for table, name, changed in result:
        print(f"| {table} | `{name}` | {'not ablatable (decided in code)' if changed is None else changed} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
