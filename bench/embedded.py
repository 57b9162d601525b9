"""Benchmark of the embedded backend on the seed abstracts.

    python bench/embedded.py [--inputs PATH...] [--gold GOLD.jsonl] [--model PATH.gguf]
                             [--limit N] [--out records.jsonl] [--cli]

Runs every abstract of ``--inputs`` (default: seeds/) through :class:`extract.backends.local.LocalBackend` directly (one
model load, no cache), writes the records, and prints to stdout: seconds total and per
abstract, the time spent inside llama.cpp completion calls and llama.cpp's own compute time
for the same tokens (prompt + generation), peak RSS, and - when ``extract.evaluate``
exists - the eval figures against ``--gold`` (default: tests/gold/dev-gold.jsonl, which
annotates seeds/000).  ``--cli`` also times ``extract run seeds/
--backend local`` end to end (a fresh cache directory, so nothing is cached).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from extract.backends.base import Job  # noqa: E402
from extract.backends.local import LocalBackend  # noqa: E402
from extract.decision import Policy  # noqa: E402
from extract.config import RunConfig  # noqa: E402
from extract.inputs import Item, expand, read_inputs  # noqa: E402
from extract.prompting import load_prompt, load_schema  # noqa: E402
from extract.record import build_record  # noqa: E402

GOLD = ROOT / "tests" / "gold" / "dev-gold.jsonl"


def seed_items(limit: int | None, inputs: list[Path] | None = None) -> list[Item]:
    files, _ = expand(inputs or [ROOT / "seeds"])
    items = [e for e in read_inputs(files) if isinstance(e, Item)]
    return items[:limit] if limit else items


async def run_direct(backend: LocalBackend, items: list[Item], config: RunConfig) -> tuple[list[dict], list[dict]]:
    prompt, schema = load_prompt("extract"), load_schema(config.schema)  # the plain job
    records, errors = [], []
    for item in items:
        job = Job(item.id, item.text, prompt.render(item.text), schema, {"source": item.text})
        try:
            answer = await backend.extract(job)
        except Exception as e:  # a record error is a result here, not a crash
            errors.append({"id": item.id, "reason": f"{type(e).__name__}: {e}"})
            continue
        provenance = {"backend": backend.name, "model": answer.model, "prompt_sha": prompt.sha,
                      "attempts": answer.attempts, "usage": answer.usage}
        records.append(build_record(item, answer.obj, provenance))
    return records, errors


def grounded_rate(records: list[dict]) -> float:
    total = ok = 0
    for r in records:
        ex = r["extraction"]
        for key in ("method_names", "datasets", "numbers"):
            for span in ex.get(key, []):
                total += 1
                ok += r["text"][span["start"]:span["end"]] == span["text"]
    return ok / total if total else 1.0


def evaluate(records_path: Path, gold: Path = GOLD) -> dict | None:
    """The gold figures from ``extract.evaluate`` (None when it or the gold is missing)."""
    try:
        from extract.evaluate import evaluate as ev, load_jsonl
    except ImportError:
        return None
    if not gold.is_file():
        return None
    res = ev(load_jsonl(records_path), load_jsonl(gold))
    return {"grounded_rate": round(res.grounded_rate, 4), "macro_f1": round(res.macro_f1, 4),
            "method_f1": round(res.method_names.f1, 4), "dataset_f1": round(res.datasets.f1, 4),
            "numbers_f1": round(res.numbers.f1, 4), "result_numbers_f1": round(res.result_numbers.f1, 4),
            "contribution_accuracy": round(res.contribution_accuracy, 4),
            "gold_matched": f"{res.matched}/{res.gold_total}"}


def run_cli(model: str | None, limit: int | None) -> tuple[float, int, dict | None]:
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-c", "import sys; from extract.cli import main; sys.exit(main())",
               "run", str(ROOT / "seeds"), "-o",
               str(Path(tmp) / "out.jsonl"), "--backend", "local", "--cache-dir", str(Path(tmp) / "cache")]
        if model:
            cmd += ["--model", model]
        if limit:
            cmd += ["--limit", str(limit)]
        started = time.perf_counter()
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        seconds = time.perf_counter() - started
        tail = proc.stderr.strip().splitlines()[-1:] or [""]
        print(f"cli: exit {proc.returncode}: {tail[0]}", file=sys.stderr)
        out = Path(tmp) / "out.jsonl"
        scores = evaluate(out) if out.is_file() else None
        return seconds, proc.returncode, scores


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--inputs", type=Path, nargs="+", help="abstract files or directories (default: seeds/)")
    ap.add_argument("--gold", type=Path, default=GOLD, help="gold records to score against")
    ap.add_argument("--model", help="a .gguf file (default: the packaged model)")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--out", type=Path, help="write the records here (default: a temp file)")
    ap.add_argument("--cli", action="store_true", help="also time `extract run` end to end")
    ap.add_argument("--policy", default="{}", help="JSON overrides of extract.decision.Policy")
    args = ap.parse_args()

    config = RunConfig(backend="local", model=args.model)
    policy = Policy(**json.loads(args.policy))
    items = seed_items(args.limit, args.inputs)
    started = time.perf_counter()
    backend = LocalBackend(config, policy)
    backend.llm()
    load_s = time.perf_counter() - started
    t0 = time.perf_counter()
    records, errors = asyncio.run(run_direct(backend, items, config))
    total = time.perf_counter() - t0
    perf = backend.perf()
    raw = (perf.get("prompt_ms", 0) + perf.get("eval_ms", 0)) / 1000
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    out = args.out or Path(tempfile.mkstemp(suffix=".jsonl")[1])
    with out.open("w", encoding="utf-8") as fh:
        for r in records:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    tokens = {k: sum(r["provenance"]["usage"].get(k, 0) for r in records)
              for k in ("prompt_tokens", "completion_tokens")}
    figures = {
        "model": backend.model_name, "policy": policy.as_dict(),
        "abstracts": len(items), "ok": len(records), "failed": len(errors),
        "load_seconds": round(load_s, 2), "seconds_total": round(total, 2),
        "seconds_per_abstract": round(total / max(1, len(items)), 3),
        "llama_call_seconds": round(backend.llama_seconds, 2),
        "llama_cpp_compute_seconds": round(raw, 2),
        "call_over_compute": round(backend.llama_seconds / raw, 3) if raw else None,
        "total_over_compute": round(total / raw, 3) if raw else None,
        "prompt_tokens_sent": tokens["prompt_tokens"], "prompt_tokens_evaluated": perf.get("prompt_tokens"),
        "completion_tokens": tokens["completion_tokens"],
        "llama_perf": perf,
        "peak_rss_mb": round(rss_mb, 1), "grounded_rate": round(grounded_rate(records), 4),
        "records": str(out),
    }
    if errors:
        figures["errors"] = errors[:5]
    scores = evaluate(out, args.gold)
    if scores is not None:
        figures["eval"] = scores
    if args.cli:
        cli_s, code, cli_scores = run_cli(args.model, args.limit)
        figures["cli_exit"] = code
        figures["cli_eval"] = cli_scores
        figures["cli_seconds_total"] = round(cli_s, 2)
        figures["cli_seconds_per_abstract"] = round(cli_s / max(1, len(items)), 3)
    print(json.dumps(figures, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
