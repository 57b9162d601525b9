"""Claim figures of the default rules and of the embedded model on the annotated sets (dev2, dev).

    python bench/claims.py [--rules-only | --gold-names] [--memo FILE.json] [--set dev2|dev] [--json] [--diag]

Runs every abstract of each set through :class:`extract.backends.local.LocalBackend` with the
embedded model's policy (``--rules-only``: ``RULES_POLICY``, the rules' decision of the
default ``--backend rules``, no model call), writes nothing, and prints per set:
names/datasets/numbers/result-numbers F1, contribution accuracy, and the claim figures of ``extract eval``: result-claims P/R/F1,
dataset attachment accuracy, metric token F1, and changes / compared_to F1 (absolute value or
change, and a change's compared system) where the gold carries them.

``--gold-names`` measures the claims rules alone: the rules' numbers (kind hints) with the
gold method and dataset names and contribution, so name-finding errors do not count.

``--memo FILE`` keeps the model's completions in a JSON file keyed by a digest of the request
(messages + JSON schema): a rerun after a change to the claims rules, which never changes what
the model is asked, gives the same figures as a full run in a fraction of the time.  A change
to the candidate layer changes the requests, so those are asked again.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from extract.backends.base import Job  # noqa: E402
from extract.backends.local import LocalBackend  # noqa: E402
from extract.decision import RULES_POLICY, Policy  # noqa: E402
from extract.config import RunConfig  # noqa: E402
from extract.evaluate import evaluate, load_jsonl  # noqa: E402
from extract.inputs import Item, expand, read_inputs  # noqa: E402
from extract.prompting import load_prompt, load_schema  # noqa: E402
from extract.record import build_record  # noqa: E402

GOLD = ROOT / "tests" / "gold"
SETS = {
    "dev2": (GOLD / "dev2" / "abstracts.jsonl", GOLD / "dev2" / "gold.jsonl"),
    "dev": (ROOT / "seeds" / "000_810fdc4303f22573.txt", GOLD / "dev-gold.jsonl"),
}


def items_of(path: Path) -> list[Item]:
    files, _ = expand([path])
    return [e for e in read_inputs(files) if isinstance(e, Item)]


def memoize(backend: LocalBackend, memo: dict) -> None:
    complete = backend.complete

    def cached(messages, schema):
        key = hashlib.sha256(json.dumps([messages, schema], sort_keys=True).encode()).hexdigest()
        if key not in memo:
            memo[key] = list(complete(messages, schema))
        content, usage = memo[key]
        return content, usage

    backend.complete = cached


async def run(backend: LocalBackend, items: list[Item], config: RunConfig) -> list[dict]:
    prompt, schema = load_prompt("extract"), load_schema(config.schema)  # the plain job
    records = []
    for item in items:
        job = Job(item.id, item.text, prompt.render(item.text), schema, {"source": item.text})
        answer = await backend.extract(job)
        records.append(build_record(item, answer.obj, {"backend": backend.name}))
    return records


def gold_name_records(items: list[Item], gold: list[dict]) -> list[dict]:
    """Records whose names are the gold ones and whose claims come from the claims rules."""
    from extract.candidates import find_candidates
    from extract.candidates.claims import attach_claims
    from extract.evaluate import match_gold

    records = [{"id": it.id, "text": it.text} for it in items]
    out = []
    for g, rec in match_gold(records, gold):
        if rec is None:
            continue
        text = rec["text"]
        nums = find_candidates(text).numbers
        claims = attach_claims(text, nums, g["method_names"], g["datasets"], contribution=g["contribution"])
        numbers = [{"text": n.text, "value": n.value, "kind": n.kind_hint, "start": n.start, **c.fields()}
                   for n, c in zip(nums, claims)]
        out.append({**rec, "extraction": {"task": g["task"], "contribution": g["contribution"],
                                          "method_names": g["method_names"], "datasets": g["datasets"],
                                          "numbers": numbers}})
    return out


def figures(records: list[dict], gold: list[dict]) -> dict:
    res = evaluate(records, gold)
    c = res.claims
    return {"abstracts": res.gold_total, "matched": res.matched,
            "methods_f1": round(res.method_names.f1, 3), "datasets_f1": round(res.datasets.f1, 3),
            "numbers_f1": round(res.numbers.f1, 3), "result_numbers_f1": round(res.result_numbers.f1, 3),
            "contribution": round(res.contribution_accuracy, 3),
            "claims_p": round(res.result_claims.precision, 3), "claims_r": round(res.result_claims.recall, 3),
            "claims_f1": round(res.result_claims.f1, 3),
            "dataset_attachment": round(c.dataset_accuracy, 3),
            "dataset_attachment_n": f"{c.dataset_correct}/{c.dataset_total}",
            "metric_f1": round(c.metric_f1, 3),
            # absolute value or change, and a change's compared system (gold with value_type)
            "changes_f1": round(res.changes.f1, 3) if c.labeled else None,
            "compared_f1": round(res.compared_to.f1, 3) if c.labeled else None}


def diagnose(records: list[dict], gold: list[dict]) -> None:
    """Every gold number beside the predicted claim fields, for reading errors."""
    from extract.evaluate import match_gold
    from extract.evaluate_claims import name_of, pair_numbers

    for g, rec in match_gold(records, gold):
        if rec is None:
            continue
        pairs = pair_numbers([n for n in rec["extraction"]["numbers"] if n.get("value") is not None],
                             g["numbers"], 1e-4)
        for gn, pn in pairs:
            pm = pn.get("metric")
            got = (name_of(pm), name_of(pn.get("dataset")), name_of(pn.get("method")),
                   pn.get("value_type", "absolute"), name_of(pn.get("compared_to")))
            want = (name_of(gn.get("metric")), name_of(gn.get("dataset")), name_of(gn.get("method")),
                    gn.get("value_type", pn.get("value_type", "absolute")), name_of(gn.get("compared_to")))
            if got != want:
                print(f"{g['id']:8} {gn['text']:>10} {gn['kind'][0]}  metric {got[0]!r}/{want[0]!r}  "
                      f"dataset {got[1]!r}/{want[1]!r}  method {got[2]!r}/{want[2]!r}  "
                      f"value {got[3]}/{want[3]} vs {got[4]!r}/{want[4]!r}", file=sys.stderr)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules-only", action="store_true", help="the rules' decision (RULES_POLICY: --backend rules, the default): no model call")
    ap.add_argument("--gold-names", action="store_true", help="the claims rules alone, with gold names")
    ap.add_argument("--memo", type=Path, help="JSON file of model completions reused across runs")
    ap.add_argument("--set", choices=sorted(SETS), action="append", help="default: every set")
    ap.add_argument("--json", action="store_true", help="one JSON object per set")
    ap.add_argument("--diag", action="store_true", help="list claim disagreements on stderr")
    args = ap.parse_args()

    config = RunConfig(backend="local")
    backend = LocalBackend(config, RULES_POLICY if args.rules_only else Policy())
    memo = json.loads(args.memo.read_text()) if args.memo and args.memo.is_file() else {}
    memoize(backend, memo)
    rows = []
    for name in args.set or ["dev2", "dev"]:
        abstracts, gold_path = SETS[name]
        gold = load_jsonl(gold_path)
        started = time.perf_counter()
        if args.gold_names:
            records = gold_name_records(items_of(abstracts), gold)
        else:
            records = asyncio.run(run(backend, items_of(abstracts), config))
        mode = "gold-names" if args.gold_names else "rules-only" if args.rules_only else "embedded"
        fig = {"set": name, "mode": mode,
               **figures(records, gold), "seconds": round(time.perf_counter() - started, 1)}
        rows.append(fig)
        if args.diag:
            diagnose(records, gold)
    if args.memo:
        args.memo.write_text(json.dumps(memo))
    if args.json:
        for r in rows:
            print(json.dumps(r))
        return 0
    cols = ["set", "mode", "numbers_f1", "result_numbers_f1", "methods_f1", "datasets_f1", "contribution",
            "claims_p", "claims_r", "claims_f1", "dataset_attachment", "dataset_attachment_n", "metric_f1",
            "changes_f1", "compared_f1"]
    widths = [max(len(c), *(len(str(r[c])) for r in rows)) for c in cols]
    print("  ".join(c.rjust(w) for c, w in zip(cols, widths)))
    for r in rows:
        print("  ".join(str(r[c]).rjust(w) for c, w in zip(cols, widths)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
