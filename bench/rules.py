"""Figures of the rule layer alone against gold: ``python bench/rules.py ABSTRACTS GOLD.jsonl
[--threshold 0.5]``.

ABSTRACTS is a seed-format text file (a header line, then one abstract per non-empty line)
or a JSONL file of ``{"abstract": ...}`` (or ``"text"``) objects such as
``tests/gold/dev2/abstracts.jsonl``.

Builds one record per abstract from the candidates (names with score >= threshold, split by
:func:`select_names`; every number with its ``kind_hint``; the contribution hint) and scores
it with :func:`extract.evaluate.evaluate`; also prints how many gold names are among the
candidates at all (the ceiling a backend choosing among candidates can reach).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from extract.candidates import find_candidates, select_names  # noqa: E402
from extract.errors import ExtractError  # noqa: E402
from extract.evaluate import evaluate, format_table, load_jsonl, norm_name  # noqa: E402


def abstracts_of(path: str | Path) -> list[str]:
    """Abstracts of a seed-format file (header line, then non-empty lines) or of a JSONL file
    of objects with an ``abstract`` or ``text`` field."""
    path = Path(path)
    if path.suffix == ".jsonl":
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        return [r.get("abstract", r.get("text", "")) for r in rows]
    lines = path.read_text(encoding="utf-8").split("\n")[1:]
    return [line for line in lines if line.strip()]


def records_from_candidates(path: str | Path, threshold: float = 0.5) -> list[dict]:
    stem = Path(path).stem
    out = []
    for n, text in enumerate(abstracts_of(path), 1):
        c = find_candidates(text)
        methods, datasets = select_names(c.names, threshold)
        by_text = {x.text: x for x in c.names}

        def spans(names: list[str]) -> list[dict]:
            return [{"text": s, "start": by_text[s].start, "end": by_text[s].end, "status": "exact"}
                    for s in names]

        out.append({"id": f"{stem}#{n}", "text": text, "status": "ok", "extraction": {
            "task": c.task_hint or "", "contribution": c.contribution_hint,
            "method_names": spans(methods), "datasets": spans(datasets),
            "numbers": [{"text": x.text, "value": x.value, "unit": x.unit, "kind": x.kind_hint,
                         "about": x.about_hint, "start": x.start, "end": x.end, "status": "exact"}
                        for x in c.numbers]}})
    return out


def name_ceiling(records: list[dict], gold: list[dict]) -> tuple[int, int, float]:
    """(gold names found among all candidates, gold names, candidates per abstract)."""
    texts = [r["text"] for r in records]
    found = total = ncand = 0
    for text in texts:
        ncand += len(find_candidates(text).names)
    for g in gold:
        text = next((t for t in texts if t.startswith(g.get("first_words", "\0"))), None)
        cands = {norm_name(x.text) for x in find_candidates(text).names} if text else set()
        for s in list(g.get("method_names") or []) + list(g.get("datasets") or []):
            total += 1
            found += norm_name(s) in cands
    return found, total, ncand / max(len(texts), 1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python bench/rules.py", description=__doc__)
    ap.add_argument("abstracts")
    ap.add_argument("gold")
    ap.add_argument("--threshold", type=float, default=0.5)
    args = ap.parse_args(argv)
    try:
        records = records_from_candidates(args.abstracts, args.threshold)
        gold = load_jsonl(args.gold, "gold file")
    except (OSError, ValueError, ExtractError) as e:
        print(f"rules: error: {e}", file=sys.stderr)
        return 2
    res = evaluate(records, gold)
    sys.stdout.write(format_table(res))
    found, total, per = name_ceiling(records, gold)
    print(f"gold names among candidates          {found}/{total}  ({per:.1f} name candidates/abstract)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
