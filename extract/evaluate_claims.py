"""Claim figures for ``extract eval``: is each number tied to the right metric, dataset and method?

A gold number and a predicted number are *paired* one-to-one by value (relative tolerance),
in text order, preferring a prediction with the same text.  Over the pairs:

* ``result_claims`` (P/R/F1): a gold ``kind == "result"`` number is recovered when a
  predicted result number with the same value names the same dataset and the same method.
  Names compare case-insensitively without wrappers; for the method, ``""`` (the paper's own
  unnamed approach) and null agree, and so do a null dataset and a missing one.  Predictions
  are the predicted result numbers (matched one-to-one, greedy in text order).
* ``dataset_attachment``: over paired gold numbers (any kind) whose gold ``dataset`` is not
  null, the share whose predicted dataset is the same name.
* ``metric_f1``: the mean, over paired gold numbers, of the token F1 between the predicted
  ``metric`` text and the gold one (lower-cased word tokens; both empty counts 1.0, one empty
  counts 0.0).
* ``changes`` (P/R/F1): over paired gold numbers that carry a ``value_type`` (tests/gold
  GUIDELINE.md, "Absolute value or change"), a predicted ``value_type == "change"`` against
  the gold one (a prediction without the field is absolute).
* ``compared_to`` (P/R/F1): over the same pairs, a predicted compared system counts when the
  gold names one and it is the same name; a predicted one where gold has none is a false
  positive, a gold one the prediction lacks or names otherwise a false negative.

Beside them, since ``""`` and null agree in ``result_claims``, how many paired gold result
numbers confuse the two each way: ``own_as_none`` (gold ``""``, the paper's own unnamed
method; predicted null, no system) and ``none_as_own`` (gold null, predicted ``""``).  And
``gold_with_claims``: gold numbers carrying a claim field at all; a gold file with none
has no claim figures (``extract eval`` says so instead of printing near-zero ones).

Gold stores names as strings (``metric`` ``""`` when the abstract does not say); records
store spans (``{"text", "start", "end", "status"}``), ``""`` or null.  Both are read here.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from .grounding import unwrap


CLAIM_FIELDS = ("metric", "dataset", "method")


@dataclass
class ClaimCounts:
    """Micro totals of the claim figures over all gold records."""

    claims_tp: int = 0
    claims_fp: int = 0
    claims_fn: int = 0
    dataset_correct: int = 0
    dataset_total: int = 0
    metric_sum: float = 0.0
    metric_total: int = 0
    labeled: int = 0              # paired gold numbers that carry value_type
    change_tp: int = 0
    change_fp: int = 0
    change_fn: int = 0
    compared_tp: int = 0
    compared_fp: int = 0
    compared_fn: int = 0
    misattached: list[dict] = field(default_factory=list)   # for diagnostics (bench, --json)
    own_as_none: int = 0          # gold method "" (the paper's own), predicted null (no system)
    none_as_own: int = 0          # gold method null, predicted ""
    gold_with_claims: int = 0     # gold numbers with a metric, dataset or method field
    gold_numbers: int = 0         # gold numbers with a value

    def add(self, other: "ClaimCounts") -> None:
        self.own_as_none += other.own_as_none
        self.none_as_own += other.none_as_own
        self.gold_with_claims += other.gold_with_claims
        self.gold_numbers += other.gold_numbers
        self.claims_tp += other.claims_tp
        self.claims_fp += other.claims_fp
        self.claims_fn += other.claims_fn
        self.dataset_correct += other.dataset_correct
        self.dataset_total += other.dataset_total
        self.metric_sum += other.metric_sum
        self.metric_total += other.metric_total
        for f in ("labeled", "change_tp", "change_fp", "change_fn", "compared_tp", "compared_fp", "compared_fn"):
            setattr(self, f, getattr(self, f) + getattr(other, f))
        self.misattached.extend(other.misattached)

    @property
    def dataset_accuracy(self) -> float:
        return self.dataset_correct / self.dataset_total if self.dataset_total else 1.0

    @property
    def metric_f1(self) -> float:
        return self.metric_sum / self.metric_total if self.metric_total else 1.0


def name_of(item: Any) -> str | None:
    """The comparison key of a claim field: a span dict or a string -> normalized text;
    null, a missing field or an empty string -> None."""
    if isinstance(item, dict):
        item = item.get("text")
    if not isinstance(item, str):
        return None
    key = " ".join(unwrap(item).split()).lower()
    return key or None


_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)


def token_f1(pred: str | None, gold: str | None) -> float:
    """Token F1 of two phrases (multiset overlap of lower-cased word tokens)."""
    return bag_f1(_TOKEN.findall((pred or "").lower()), _TOKEN.findall((gold or "").lower()))


def bag_f1(p: list[str], g: list[str]) -> float:
    """F1 of two token multisets; both empty agree (1.0), one empty is 0.0."""
    if not p and not g:
        return 1.0
    if not p or not g:
        return 0.0
    left, common = list(p), 0
    for t in g:
        if t in left:
            left.remove(t)
            common += 1
    if not common:
        return 0.0
    prec, rec = common / len(p), common / len(g)
    return 2 * prec * rec / (prec + rec)


def _value(v: Any) -> float | None:
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        return None
    try:
        f = float(str(v).replace(",", "")) if isinstance(v, str) else float(v)
    except ValueError:
        return None
    return f if math.isfinite(f) else None


def _close(a: float, b: float, rel_tol: float) -> bool:
    return math.isclose(a, b, rel_tol=rel_tol, abs_tol=1e-9)


def _numbers(items: Any) -> list[dict]:
    """The usable number entries (a dict with a finite value), in text order when offsets exist."""
    out = [n for n in items or [] if isinstance(n, dict) and _value(n.get("value")) is not None]
    if all(isinstance(n.get("start"), int) for n in out):
        out.sort(key=lambda n: n["start"])
    return out


def pair_numbers(pred: list[dict], gold: list[dict], rel_tol: float) -> list[tuple[dict, dict]]:
    """One-to-one (gold, predicted) pairs by value, gold in order; a prediction with the same
    text is preferred, then the first unused one."""
    used: set[int] = set()
    pairs = []
    for g in gold:
        gv = _value(g.get("value"))
        same = [i for i, p in enumerate(pred) if i not in used and _close(_value(p["value"]), gv, rel_tol)]
        if not same:
            continue
        gtext = str(g.get("text", "")).strip()
        i = next((i for i in same if str(pred[i].get("text", "")).strip() == gtext), same[0])
        used.add(i)
        pairs.append((g, pred[i]))
    return pairs


def _same_claim(p: dict, g: dict, rel_tol: float) -> bool:
    return (_close(_value(p["value"]), _value(g["value"]), rel_tol)
            and name_of(p.get("dataset")) == name_of(g.get("dataset"))
            and name_of(p.get("method")) == name_of(g.get("method")))


def score_claims(pred_numbers: Any, gold_numbers: Any, rel_tol: float = 1e-4,
                 record_id: str = "") -> ClaimCounts:
    """The claim counts of one record against its gold (see the module docstring)."""
    pred, gold = _numbers(pred_numbers), _numbers(gold_numbers)
    c = ClaimCounts()
    p_res = [p for p in pred if p.get("kind") == "result"]
    left = list(p_res)
    for g in (g for g in gold if g.get("kind") == "result"):
        hit = next((i for i, p in enumerate(left) if _same_claim(p, g, rel_tol)), None)
        if hit is None:
            c.claims_fn += 1
        else:
            del left[hit]
            c.claims_tp += 1
    c.claims_fp = len(left)
    c.gold_with_claims = sum(1 for g in gold if any(k in g for k in CLAIM_FIELDS))
    c.gold_numbers = len(gold)
    for g, p in pair_numbers(pred, gold, rel_tol):
        if g.get("kind") == "result" and "method" in g and p.get("kind") == "result":
            gm, pm = g.get("method"), p.get("method")
            c.own_as_none += gm == "" and pm is None
            c.none_as_own += gm is None and pm == ""
        gd = name_of(g.get("dataset"))
        if gd is not None:
            c.dataset_total += 1
            if name_of(p.get("dataset")) == gd:
                c.dataset_correct += 1
            else:
                c.misattached.append({"id": record_id, "text": g.get("text"), "gold": g.get("dataset"),
                                      "predicted": name_of(p.get("dataset"))})
        pm = p.get("metric")
        c.metric_sum += token_f1(pm.get("text") if isinstance(pm, dict) else pm, g.get("metric"))
        c.metric_total += 1
        if g.get("value_type") in ("absolute", "change"):
            _score_change(c, p, g)
    return c


def _score_change(c: ClaimCounts, p: dict, g: dict) -> None:
    """The value type and compared system of one pair (see the module docstring)."""
    c.labeled += 1
    gold_change, pred_change = g["value_type"] == "change", p.get("value_type") == "change"
    c.change_tp += gold_change and pred_change
    c.change_fp += pred_change and not gold_change
    c.change_fn += gold_change and not pred_change
    gc, pc = name_of(g.get("compared_to")), name_of(p.get("compared_to"))
    if gc is not None and pc == gc:
        c.compared_tp += 1
    else:
        c.compared_fp += pc is not None
        c.compared_fn += gc is not None
