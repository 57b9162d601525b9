"""Quality of the embedded backend's ``task`` phrase against the gold sets.

    python bench/task_phrase.py [--show] [--model] [--ceiling] [--eyeball FILE ...]

Scores the task phrase of every gold abstract (tests/gold/<set>-abstracts.txt with
<set>-gold.jsonl, and seeds/000_* with dev-gold.jsonl) by token F1 over lowercased content
words, per set and overall.  Without ``--model`` the phrase is what the pipeline gives with
no model: the rules' decision, else the first phrase offered to the model (``rules``).
``--model`` also runs the real embedded backend (about 1.2 s per abstract) and scores the
task of its answer.  ``--ceiling`` adds the best F1 any offered phrase reaches (what a
perfect chooser would get).  ``--eyeball`` prints the rule phrase for abstracts without
gold (no scores): for checking unseen abstracts for junk, never for tuning.
Figures go to stdout; progress to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from extract.decision import Policy, build_plan, map_answer  # noqa: E402
from extract.candidates.task import task_phrases  # noqa: E402
from extract.candidates import find_candidates  # noqa: E402
from extract.evaluate_claims import bag_f1  # noqa: E402
from extract.inputs import Item, read_inputs  # noqa: E402

GOLD_DIR = ROOT / "tests" / "gold"
STOP = set("""a an the of in on for to with and or by from at as via under across into over its
their our this that these those is are be using based toward towards through between within
without while when how what why whether do does can""".split())


def content_words(s: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9]+", s.lower()) if w not in STOP]


def token_f1(pred: str, gold: str) -> float:
    """Token F1 over content words (the shared multiset F1 of extract eval)."""
    return bag_f1(content_words(pred or ""), content_words(gold or ""))


def gold_sets() -> list[tuple[str, Path, Path]]:
    out = [("dev", next((ROOT / "seeds").glob("000_*.txt")), GOLD_DIR / "dev-gold.jsonl"),
           ("dev2", GOLD_DIR / "dev2" / "abstracts.jsonl", GOLD_DIR / "dev2" / "gold.jsonl")]
    for gold in sorted(GOLD_DIR.glob("*-gold.jsonl")):
        name = gold.name.removesuffix("-gold.jsonl")
        abstracts = GOLD_DIR / f"{name}-abstracts.txt"
        if abstracts.is_file():
            out.append((name, abstracts, gold))
    return out


def items_of(path: Path) -> list[Item]:
    return [e for e in read_inputs([path]) if isinstance(e, Item)]


def paired(abstracts: Path, gold: Path) -> list[tuple[Item, dict]]:
    golds = [json.loads(line) for line in gold.read_text(encoding="utf-8").splitlines() if line.strip()]
    items = items_of(abstracts)
    out = []
    for g in golds:
        item = next((i for i in items if i.text.startswith(g["first_words"])), None)
        if item is None:
            print(f"task_phrase: no abstract for gold {g['id']}", file=sys.stderr)
            continue
        out.append((item, g))
    return out


def rules_task(text: str) -> tuple[str, list[str]]:
    """The pipeline's task without a model (first offered phrase), and the phrases offered."""
    plan = build_plan(find_candidates(text), Policy(), text)
    offered = list(plan.schema["properties"].get("task", {}).get("enum", []))
    answer = {"task": offered[0]} if offered else {}
    return map_answer(plan, answer)["task"], offered or task_phrases(text)


def model_tasks(items: list[Item], policy: Policy) -> list[str]:
    from extract.backends.base import Job
    from extract.backends.local import LocalBackend
    from extract.config import RunConfig
    from extract.prompting import load_prompt, load_schema

    config = RunConfig(backend="local")
    backend = LocalBackend(config, policy)
    prompt, schema = load_prompt("extract"), load_schema(config.schema)  # the plain job
    out = []
    for n, item in enumerate(items, 1):
        job = Job(item.id, item.text, prompt.render(item.text), schema, {"source": item.text})
        try:
            answer = asyncio.run(backend.extract(job))
            out.append(answer.obj.export(item.text)[0]["task"])
        except Exception as e:  # a failed record scores 0, it does not stop the bench
            print(f"task_phrase: {item.id}: {type(e).__name__}: {e}", file=sys.stderr)
            out.append("")
        print(f"\rmodel {n}/{len(items)}", end="", file=sys.stderr)
    print(file=sys.stderr)
    return out


# A finite verb: an auxiliary, a modal, a copula, or a verb of the kinds abstracts state results and
# problems with, inflected ("achieves", "has been studied"): a clause, never a task (issue 17).
FINITE = re.compile(r"\b(?:is|are|was|were|has|have|had|can|could|may|might|must|should|will|would|do|"
                    r"does|did|achieves?|outperforms?|improves|requires|remains|relies|suffers|struggles|leads|"
                    r"allows|enables|makes|aims|seeks|tends|lacks|fails|shows|becomes|provides|offers|proposes|"
                    r"introduces|presents|develops|uses|depends|yields|reaches|reduces)\b", re.I)


def problems(task: str) -> list[str]:
    """What is wrong with a task phrase by the guideline's form (empty when fine)."""
    bad = []
    if FINITE.search(task):
        bad.append("finite verb")
    n = len(task.split())
    if n < 3 or n > 12:
        bad.append(f"{n} words")
    if re.search(r"[\\$*_{}`]|\*\*", task):
        bad.append("markup")
    if n <= 2 and re.fullmatch(r"[\w\-]*[A-Z0-9][\w\-]*", task.replace(" ", "")):
        bad.append("bare name")
    return bad


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--show", action="store_true", help="print each abstract's phrase and gold")
    ap.add_argument("--model", action="store_true", help="also run the embedded model (slow)")
    ap.add_argument("--policy", default="{}", help="JSON overrides of extract.decision.Policy for --model "
                    "(e.g. '{\"task_from_hint\": false}': the model picks among the offered phrases)")
    ap.add_argument("--ceiling", action="store_true", help="best F1 among the offered phrases")
    ap.add_argument("--eyeball", nargs="*", type=Path, help="abstract files without gold to print")
    ap.add_argument("--corpus", type=int, metavar="N", help="the rule phrase of N abstracts drawn (seed 17) "
                    "from ../shared/corpus/papers-13-venues.jsonl.gz, flagged, and how many have a form problem")
    args = ap.parse_args()

    if args.corpus:
        import gzip
        import random
        with gzip.open(ROOT.parent.parent / "shared" / "corpus" / "papers-13-venues.jsonl.gz", "rt") as f:
            texts = [t for t in (json.loads(line).get("abstract") for line in f) if t]
        flagged = 0
        for text in random.Random(17).sample(texts, args.corpus):
            task, _ = rules_task(text)
            flag = ",".join(problems(task))
            flagged += bool(flag)
            print(f"{task}\t{flag}")
        print(f"{flagged} of {args.corpus} corpus task phrases with a form problem")
        return 0

    if args.eyeball:
        for path in args.eyeball:
            for item in items_of(path):
                task, _ = rules_task(item.text)
                flag = ",".join(problems(task))
                print(f"{item.id}\t{task}\t{flag}")
        return 0

    rows, total = [], {"rules": [], "model": [], "ceiling": []}
    bad_forms = 0
    for name, abstracts, gold in gold_sets():
        pairs = paired(abstracts, gold)
        rule_out = [rules_task(item.text) for item, _ in pairs]
        scores = [token_f1(t, g["task"]) for (t, _), (_, g) in zip(rule_out, pairs)]
        bad_forms += sum(bool(problems(t)) for t, _ in rule_out)
        row = {"set": name, "n": len(pairs), "rules": sum(scores) / len(scores)}
        total["rules"] += scores
        if args.ceiling:
            ceil = [max([token_f1(p, g["task"]) for p in offered] or [0.0])
                    for (_, offered), (_, g) in zip(rule_out, pairs)]
            row["ceiling"] = sum(ceil) / len(ceil)
            total["ceiling"] += ceil
        model_out = None
        if args.model:
            t0 = time.perf_counter()
            model_out = model_tasks([item for item, _ in pairs], Policy(**json.loads(args.policy)))
            mscores = [token_f1(t, g["task"]) for t, (_, g) in zip(model_out, pairs)]
            row["model"] = sum(mscores) / len(mscores)
            row["model_s"] = round(time.perf_counter() - t0, 1)
            total["model"] += mscores
            bad_forms += sum(bool(problems(t)) for t in model_out)
        rows.append(row)
        if args.show:
            for i, ((item, g), (t, offered)) in enumerate(zip(pairs, rule_out)):
                print(f"  {g['id']:8s} {scores[i]:.2f} rule: {t}")
                if model_out is not None:
                    print(f"  {'':8s} {token_f1(model_out[i], g['task']):.2f} model: {model_out[i]}")
                print(f"  {'':8s}      gold: {g['task']}")
                if args.ceiling and len(offered) > 1:
                    print(f"  {'':8s}      offered: {' | '.join(offered)}")
    cols = [c for c in ("rules", "ceiling", "model") if total[c]]
    print(f"{'set':10s} {'n':>3s} " + " ".join(f"{c:>8s}" for c in cols))
    for row in rows:
        print(f"{row['set']:10s} {row['n']:3d} " + " ".join(f"{row[c]:8.3f}" for c in cols))
    n = len(total["rules"])
    print(f"{'all':10s} {n:3d} " + " ".join(f"{sum(total[c]) / n:8.3f}" for c in cols))
    print(f"task phrases with a form problem (words, markup, bare name, finite verb): {bad_forms}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
