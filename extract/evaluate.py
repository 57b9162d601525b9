"""Score records (``extract run`` output) against gold annotations (dev-gold.jsonl format).

Pure: :func:`evaluate` takes parsed records and gold objects and returns an
:class:`EvalResult`; reading files is :func:`load_jsonl`.  Nothing is printed here.

Matching a gold object to a record, in order:

1. the same ``id``;
2. gold id ``PPP-n`` and a default record id ``<label>#n`` whose label's last path part
   starts with ``PPP`` (``tests/gold/blind-abstracts#3`` for ``bli-3``; labels are paths as
   given, :mod:`extract.inputs.paths`);
3. the gold ``first_words`` is a prefix of the record ``text``.

Unmatched gold objects count as all-misses (and a wrong contribution).  Names match
case-insensitively after unwrapping markdown/LaTeX wrappers and collapsing whitespace;
numbers match one-to-one by value (relative tolerance ``rel_tol``, for float rounding).
``result_numbers`` scores the kind == "result" subsets the same way.  Counts are micro
totals over all gold objects; ``macro_f1`` is the mean F1 of names, datasets and numbers.
The claim figures (result claims, dataset attachment, metric token F1, changes and compared
systems) are defined in
:mod:`extract.evaluate_claims`.

Precision with no predictions is 1.0 when nothing was missed, else 0.0 (recall likewise).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .errors import InputError
from .evaluate_claims import ClaimCounts, score_claims
from .grounding import unwrap

SPAN_FIELDS = ("method_names", "datasets", "numbers")


@dataclass
class PRF:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        if self.tp + self.fp == 0:
            return 1.0 if self.fn == 0 else 0.0
        return self.tp / (self.tp + self.fp)

    @property
    def recall(self) -> float:
        if self.tp + self.fn == 0:
            return 1.0 if self.fp == 0 else 0.0
        return self.tp / (self.tp + self.fn)

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def add(self, other: "PRF") -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn

    def as_dict(self) -> dict:
        return {"tp": self.tp, "fp": self.fp, "fn": self.fn, "precision": round(self.precision, 4),
                "recall": round(self.recall, 4), "f1": round(self.f1, 4)}


@dataclass
class EvalResult:
    method_names: PRF = field(default_factory=PRF)
    datasets: PRF = field(default_factory=PRF)
    numbers: PRF = field(default_factory=PRF)
    result_numbers: PRF = field(default_factory=PRF)
    claims: ClaimCounts = field(default_factory=ClaimCounts)
    contribution_correct: int = 0
    contribution_total: int = 0
    grounded: int = 0          # exported strings (claim spans included) whose offsets slice back to them
    exported: int = 0          # exported strings in all records
    gold_total: int = 0
    matched: int = 0
    unmatched_gold: list[str] = field(default_factory=list)
    unmatched_records: list[str] = field(default_factory=list)
    not_understood: list[str] = field(default_factory=list)   # records of another schema shape

    @property
    def contribution_accuracy(self) -> float:
        return self.contribution_correct / self.contribution_total if self.contribution_total else 0.0

    @property
    def grounded_rate(self) -> float:
        return self.grounded / self.exported if self.exported else 1.0

    @property
    def result_claims(self) -> PRF:
        c = self.claims
        return PRF(c.claims_tp, c.claims_fp, c.claims_fn)

    @property
    def changes(self) -> PRF:
        c = self.claims
        return PRF(c.change_tp, c.change_fp, c.change_fn)

    @property
    def compared_to(self) -> PRF:
        c = self.claims
        return PRF(c.compared_tp, c.compared_fp, c.compared_fn)

    @property
    def macro_f1(self) -> float:
        return (self.method_names.f1 + self.datasets.f1 + self.numbers.f1) / 3

    @property
    def has_claims(self) -> bool:
        """The gold has claim fields (metric, dataset, method) to score claims against (or
        no numbers at all, for which the claim figures are n/a anyway)."""
        return self.claims.gold_with_claims > 0 or self.claims.gold_numbers == 0

    def as_dict(self) -> dict:
        claims = self.has_claims       # without claim fields in the gold: null, not near zero
        return {
            "method_names": self.method_names.as_dict(),
            "datasets": self.datasets.as_dict(),
            "numbers": self.numbers.as_dict(),
            "result_numbers": self.result_numbers.as_dict(),
            "result_claims": self.result_claims.as_dict() if claims else None,
            "method_own_vs_none": {"own_as_none": self.claims.own_as_none,
                                   "none_as_own": self.claims.none_as_own} if claims else None,
            "gold_claim_fields": self.claims.gold_with_claims,
            "dataset_attachment": {"correct": self.claims.dataset_correct,
                                   "total": self.claims.dataset_total,
                                   "accuracy": round(self.claims.dataset_accuracy, 4)} if claims else None,
            "metric_f1": {"pairs": self.claims.metric_total,
                          "f1": round(self.claims.metric_f1, 4)} if claims else None,
            # absolute value or change: over value-matched gold numbers that carry value_type
            "changes": {**self.changes.as_dict(), "pairs": self.claims.labeled},
            "compared_to": {**self.compared_to.as_dict(), "pairs": self.claims.labeled},
            "contribution": {"correct": self.contribution_correct, "total": self.contribution_total,
                             "accuracy": round(self.contribution_accuracy, 4)},
            "grounded": {"grounded": self.grounded, "exported": self.exported,
                         "rate": round(self.grounded_rate, 4)},
            "macro_f1": round(self.macro_f1, 4),
            "gold": self.gold_total, "matched": self.matched,
            "unmatched_gold": list(self.unmatched_gold),
            "unmatched_records": len(self.unmatched_records),
            "not_understood": list(self.not_understood),
        }


# ---------------------------------------------------------------------------------------
# reading
# ---------------------------------------------------------------------------------------
def load_jsonl(path: str | Path, what: str = "file") -> list[dict]:
    """Objects of a JSONL file (or of the records shards of an `extract run --engine ray`
    directory); InputError (one line) if missing, unreadable or not JSONL."""
    p = Path(path)
    from .shards import is_shard_dir, shard_files, shard_lines

    if is_shard_dir(p):
        lines = [line for f in shard_files(p, "records") for _, line in shard_lines(f)]
        return _objects(lines, what, path)
    try:
        raw = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{what} not found: {path}") from None
    except IsADirectoryError:
        raise InputError(f"{what} is a directory: {path}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read {what} {path}: {e.__class__.__name__}") from None
    return _objects(raw.splitlines(), what, path)


def _objects(lines: list[str], what: str, path) -> list[dict]:
    out = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise InputError(f"{what} {path} line {n} is not JSON ({e.msg})") from None
        if not isinstance(obj, dict):
            raise InputError(f"{what} {path} line {n} is not a JSON object")
        out.append(obj)
    return out


# ---------------------------------------------------------------------------------------
# normalization and matching
# ---------------------------------------------------------------------------------------
def norm_name(s: str) -> str:
    """Case-insensitive comparison key: wrappers unwrapped, whitespace collapsed."""
    return " ".join(unwrap(str(s)).split()).lower()


def _as_float(v: Any) -> float | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        f = float(v)
        return f if math.isfinite(f) else None
    if isinstance(v, str):
        try:
            f = float(v.replace(",", ""))
        except ValueError:
            return None
        return f if math.isfinite(f) else None
    return None


def _close(a: float, b: float, rel_tol: float) -> bool:
    return math.isclose(a, b, rel_tol=rel_tol, abs_tol=1e-9)


def score_names(pred: Iterable[str], gold: Iterable[str]) -> PRF:
    p = {norm_name(x) for x in pred if str(x).strip()}
    g = {norm_name(x) for x in gold if str(x).strip()}
    return PRF(len(p & g), len(p - g), len(g - p))


def score_values(pred: list[float], gold: list[float], rel_tol: float = 1e-4) -> PRF:
    """One-to-one matching by value (greedy over sorted values is optimal for a tolerance)."""
    left = sorted(pred)
    tp = 0
    for g in sorted(gold):
        for i, p in enumerate(left):
            if _close(p, g, rel_tol):
                del left[i]
                tp += 1
                break
    return PRF(tp, len(pred) - tp, len(gold) - tp)


def _gid_parts(gid: str) -> tuple[str, str] | None:
    m = re.fullmatch(r"(.+)-(\d+)", gid or "")
    return (m.group(1), m.group(2)) if m else None


def _rid_parts(rid: str) -> tuple[str, str] | None:
    m = re.fullmatch(r"(.*?)#(\d+)", rid or "")
    return (m.group(1).rsplit("/", 1)[-1], m.group(2)) if m else None


def match_gold(records: list[dict], gold: list[dict]) -> list[tuple[dict, dict | None]]:
    """Each gold object paired with its record (None when nothing matches)."""
    by_id = {}
    for r in records:
        rid = r.get("id")
        if isinstance(rid, str):
            by_id.setdefault(rid, r)
    used: set[int] = set()
    pairs: list[tuple[dict, dict | None]] = []
    for g in gold:
        gid = str(g.get("id", ""))
        rec = by_id.get(gid)
        if rec is not None and id(rec) in used:
            rec = None
        if rec is None:
            parts = _gid_parts(gid)
            if parts:
                prefix, n = parts
                for r in records:
                    rp = _rid_parts(str(r.get("id", "")))
                    if rp and rp[1] == n and rp[0].startswith(prefix) and id(r) not in used:
                        rec = r
                        break
        if rec is None:
            fw = g.get("first_words")
            if isinstance(fw, str) and fw:
                for r in records:
                    txt = r.get("text")
                    if isinstance(txt, str) and txt.startswith(fw) and id(r) not in used:
                        rec = r
                        break
        if rec is not None:
            used.add(id(rec))
        pairs.append((g, rec))
    return pairs


# ---------------------------------------------------------------------------------------
# reading an extraction defensively
# ---------------------------------------------------------------------------------------
def _span_text(item: Any) -> str | None:
    if isinstance(item, str):
        return item
    if isinstance(item, dict) and isinstance(item.get("text"), str):
        return item["text"]
    return None


def _extraction(rec: dict) -> tuple[dict, bool]:
    """The record's extraction and whether it has the default schema's shape."""
    ext = rec.get("extraction")
    if not isinstance(ext, dict):
        return {}, False
    ok = all(isinstance(ext.get(k), list) for k in SPAN_FIELDS)
    return ext, ok


def _pred_numbers(ext: dict) -> tuple[list[float], list[float]]:
    values, results = [], []
    for n in ext.get("numbers") or []:
        if not isinstance(n, dict):
            continue
        v = _as_float(n.get("value"))
        if v is None:
            continue
        values.append(v)
        if n.get("kind") == "result":
            results.append(v)
    return values, results


def _grounding(rec: dict) -> tuple[int, int]:
    """(grounded, exported) over the spans of one record."""
    text = rec.get("text")
    ext = rec.get("extraction")
    if not isinstance(ext, dict):
        return 0, 0
    grounded = exported = 0
    for key in SPAN_FIELDS:
        items = ext.get(key)
        if not isinstance(items, list):
            continue
        claim_spans = [n.get(k) for n in items if key == "numbers" and isinstance(n, dict)
                       for k in ("metric", "dataset", "method", "compared_to") if isinstance(n.get(k), dict)]
        for it in list(items) + claim_spans:
            s = _span_text(it)
            if s is None:
                continue
            exported += 1
            if isinstance(it, dict) and isinstance(text, str):
                st, en = it.get("start"), it.get("end")
                if isinstance(st, int) and isinstance(en, int) and not isinstance(st, bool) \
                        and 0 <= st <= en <= len(text) and text[st:en] == s:
                    grounded += 1
    return grounded, exported


# ---------------------------------------------------------------------------------------
# the evaluation
# ---------------------------------------------------------------------------------------
def evaluate(records: Iterable[dict], gold: Iterable[dict], *, rel_tol: float = 1e-4) -> EvalResult:
    """Precision/recall/F1 of records against gold; see the module docstring."""
    records = [r for r in records if isinstance(r, dict)]
    gold = [g for g in gold if isinstance(g, dict)]
    res = EvalResult(gold_total=len(gold))
    for r in records:
        g_, e_ = _grounding(r)
        res.grounded += g_
        res.exported += e_
        if r.get("extraction") is not None and not _extraction(r)[1]:
            res.not_understood.append(str(r.get("id", "?")))
    pairs = match_gold(records, gold)
    matched_ids = set()
    for g, rec in pairs:
        g_methods = [x for x in g.get("method_names") or [] if isinstance(x, str)]
        g_datasets = [x for x in g.get("datasets") or [] if isinstance(x, str)]
        g_nums = [n for n in g.get("numbers") or [] if isinstance(n, dict)]
        g_values = [v for v in (_as_float(n.get("value")) for n in g_nums) if v is not None]
        g_results = [v for n in g_nums if n.get("kind") == "result"
                     for v in [_as_float(n.get("value"))] if v is not None]
        res.contribution_total += 1
        if rec is None:
            res.unmatched_gold.append(str(g.get("id", g.get("first_words", "?"))))
            ext: dict = {}
        else:
            res.matched += 1
            matched_ids.add(id(rec))
            ext, _ = _extraction(rec)
        p_methods = [s for s in (_span_text(x) for x in ext.get("method_names") or []) if s]
        p_datasets = [s for s in (_span_text(x) for x in ext.get("datasets") or []) if s]
        p_values, p_results = _pred_numbers(ext)
        res.method_names.add(score_names(p_methods, g_methods))
        res.datasets.add(score_names(p_datasets, g_datasets))
        res.numbers.add(score_values(p_values, g_values, rel_tol))
        res.result_numbers.add(score_values(p_results, g_results, rel_tol))
        res.claims.add(score_claims(ext.get("numbers"), g_nums, rel_tol, str(g.get("id", ""))))
        if rec is not None and isinstance(ext.get("contribution"), str) and \
                ext["contribution"].strip().lower() == str(g.get("contribution", "")).strip().lower():
            res.contribution_correct += 1
    res.unmatched_records = [str(r.get("id", "?")) for r in records if id(r) not in matched_ids]
    return res


def format_table(res: EvalResult) -> str:
    """A fixed-width text table of the result."""
    rows = [("field", "P", "R", "F1", "tp", "fp", "fn")]
    for name, prf in (("method_names", res.method_names), ("datasets", res.datasets),
                      ("numbers", res.numbers), ("result_numbers", res.result_numbers),
                      ("result_claims", res.result_claims)):
        if name == "result_claims" and not res.has_claims:
            rows.append((name, "n/a", "n/a", "n/a", "", "", ""))
            continue
        rows.append((name, f"{prf.precision:.3f}", f"{prf.recall:.3f}", f"{prf.f1:.3f}",
                     str(prf.tp), str(prf.fp), str(prf.fn)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
             for r in rows]
    lines.append("")
    lines.append(f"macro F1 (names, datasets, numbers)  {res.macro_f1:.3f}")
    c = res.claims

    def rate(value: float, total: int) -> str:   # a figure over nothing is not 1.000
        return f"{value:.3f}" if total else "  n/a"
    if res.has_claims:
        lines.append(f"own method vs no system              {c.own_as_none + c.none_as_own:5d}"
                     f"  ({c.own_as_none} own read as none, {c.none_as_own} none read as own; "
                     "result claims count them as agreeing)")
        lines.append(f"dataset attachment                   {rate(c.dataset_accuracy, c.dataset_total)}"
                     f"  ({c.dataset_correct}/{c.dataset_total} value-matched numbers naming a dataset)")
        lines.append(f"metric token F1                      {rate(c.metric_f1, c.metric_total)}"
                     f"  (over {c.metric_total} value-matched numbers)")
    else:
        lines.append("claims                                 n/a  (the gold has no claim fields: "
                     "no metric, dataset or method to score against)")
    for name, prf in (("changes (value_type)", res.changes), ("compared_to", res.compared_to)):
        lines.append(f"{name:<37}{rate(prf.f1, c.labeled)}  (F1, P {prf.precision:.3f} R {prf.recall:.3f}, "
                     f"tp {prf.tp} fp {prf.fp} fn {prf.fn} over {c.labeled} value-matched labeled numbers)")
    lines.append(f"contribution accuracy                {res.contribution_accuracy:.3f}"
                 f"  ({res.contribution_correct}/{res.contribution_total})")
    lines.append(f"grounded rate                        {rate(res.grounded_rate, res.exported)}"
                 f"  ({res.grounded}/{res.exported})")
    lines.append(f"gold matched                         {res.matched}/{res.gold_total}")
    return "\n".join(lines) + "\n"
