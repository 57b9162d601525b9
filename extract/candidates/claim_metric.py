"""Metric phrases of an abstract: what a number measures ("top-1 accuracy", "AUPR", "success rate").

:func:`metric_phrases` finds every phrase with a metric head from :data:`HEADS` (a measure
named in the text), widened left by at most two modifiers ("mean average accuracy", "policy
success rates", "top-1 accuracy").  Offsets are exact slices of the text.  The claims rules
(:mod:`extract.candidates.claims`) choose which phrase a number belongs to.

The lexicon is the one hand-written part: no library lists evaluation measures by name, and
the list must stay small and general (field-independent measures, not words of one paper).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..text.lexicon import FUNCTION_WORDS
from ..text.literal import folded

# Metric heads: measures named by a fixed word or acronym.  Longest alternatives first.
_HEADS = (
    r"attack\s+success\s+rates?|success\s+rates?|win\s+rates?|error\s+rates?|hit\s+rates?|"
    r"pass\s+rates?|hallucination\s+rates?|exact\s+match|top-?\d+\s+accuracy|accuracy|accuracies|"
    r"intersection[\s-]+over[\s-]+union|(?:micro|macro|weighted)-F1|(?:root\s+)?mean\s+(?:squared|absolute)\s+errors?|"
    r"area\s+under\s+the\s+(?:ROC\s+|precision-recall\s+)?curve|"
    r"F1(?:@\d+(?:\.\d+)?)?(?:[- ]scores?)?|F-?measure|precision(?:@\d+)?|recall(?:@\d+)?|"
    r"AUROC|AUPRC?|ROC-AUC|AUC|mAP(?:@\d+|50|75)?|AP(?:50|75)?|mIoU|IoU|Dice(?:\s+scores?)?|"
    r"BLEU(?:-\d)?|ROUGE(?:-[L\d])?|METEOR|CIDEr|perplexity|PPL|WER|CER|MAE|MSE|RMSE|ECE|"
    r"PSNR|SSIM|LPIPS|FID|FVD|NDCG(?:@\d+)?|MRR|Hits@\d+|pass@\d+|"
    r"frames\s+per\s+second|FPS|speed-?ups?|latency|throughput|memory(?:\s+(?:usage|footprint|consumption))?|"
    r"energy(?:\s+(?:consumption|overhead|use))?|FLOPs|MACs|parameters|params|"
    r"inference\s+time|training\s+time|run-?time|wall-?clock\s+time|"
    r"correlation|Spearman|Kendall|R\^?2|rewards?|returns?|"
    r"errors?|loss|robustness|consistency|complexity|overhead|cost|fidelity|coverage|"
    r"sensitivity|specificity|acceleration|stability|performance|scores?|"
    r"rates?(?!-)|ratios?(?!-)"        # with their noun (_widen): "detection rate", "pruning ratio"; alone, generic
)
# A loss named after a measure is part of its name: "accuracy drop", "performance gap" (a gain
# is not: "a 10% relative consistency improvement" measures consistency).
_CHANGE = r"(?:\s+(?:drops?|declines?|decreases?|gaps?|degradation))?"
# (the lookahead of the heads' first letters: re rejects the other positions fast)
HEADS = re.compile(rf"(?=[abcdefhiklmnoprstw])(?<![\w@-])(?:{_HEADS}){_CHANGE}(?![\w@])", re.IGNORECASE)
# HEADS lower-cased, for the fold of a text (literal.folded: same offsets, the same matches as HEADS
# on the text): its alternatives open with a case-sensitive letter, which re tests fast (2x faster).
_FOLDED_HEADS = re.compile(rf"(?<![\w@-])(?:{_HEADS.lower()}){_CHANGE}(?![\w@])")
# A few upper-case acronyms that are also ordinary words are only metrics in upper case.
_CASE_SENSITIVE = {w.lower(): w for w in "mAP AP MAE MSE ECE CER WER FID MRR AUC IoU PPL".split()}
# Words that may modify a head ("mean average accuracy", "policy success rate", "relative gain").
_MODIFIERS = set("""mean average avg relative absolute overall macro micro weighted balanced top-1 top-5 zero-shot
few-shot one-shot test validation classification segmentation detection retrieval generation diagnostic policy task
explanation computational energy inference training human-level end-to-end downstream multilingual reconstruction
prediction translation recognition tracking localization ranking reasoning answer image video text speech word
character token sample memory learnable trainable total peak median worst-case expected calibration""".split())
_WORD_BEFORE = re.compile(r"([A-Za-z][\w\-]*)\s+$")
# the measure a bare "score" is of, named before it: capitals, digits or a measure's marks ("F0.5",
# "Recall@1", "J&F", "PR-MOTA", "Inception")
_NAMED_BEFORE = re.compile(r"(?<![\w@&.\-])([A-Za-z][\w@&.\-]*\w)\s+$")
# ... when "score" is the noun, not the verb of a system that a value follows ("GPT-4o scores 41%",
# "ViTs score up to 95.4%")
_SCORE_VERB = re.compile(r"\s+(?:up\s+to\s+)?[$~≈∼]?\d", re.I)
_TRUE_FALSE = re.compile(r"\b(?:true|false)\s+$", re.I)
# not the noun of a rate or a ratio ("the rate", "a larger ratio of the images")
_NOT_RATE_NOUN = FUNCTION_WORDS | set("high higher low lower large larger small smaller great greater better worse faster "
                                      "slower".split())
_GENERIC = {"performance", "score", "scores", "errors", "error", "loss", "cost", "rate", "rates", "ratio", "ratios"}


@dataclass(frozen=True)
class Phrase:
    text: str
    start: int
    end: int
    head_start: int


def _widen(text: str, start: int, head: str = "") -> int:
    """The start of the phrase once up to two modifiers before ``start`` are included (a rate's
    or a ratio's noun first, whatever it is: "detection rate", "signal-to-noise ratio"; a bare
    score's named measure first: "an F0.5 score of", "the Smatch score (97.01)")."""
    if head.lower().startswith(("rate", "ratio")) and (m := _WORD_BEFORE.search(text[max(0, start - 40):start])) \
            and m[1].lower() not in _NOT_RATE_NOUN and not m[1][0].isupper():
        start -= len(m.group(0))
        if m[1].lower() in ("positive", "negative") and (m := _TRUE_FALSE.search(text[max(0, start - 20):start])):
            start -= len(m.group(0))            # "false positive rate"
    if head.lower() in ("score", "scores") and not _SCORE_VERB.match(text, start + len(head)) \
            and (m := _NAMED_BEFORE.search(text[max(0, start - 40):start])) \
            and m[1].lower() not in FUNCTION_WORDS and any(ch.isupper() or ch.isdigit() for ch in m[1]):
        start -= len(m.group(0))                # "an F0.5 score", "Recall@1 scores", "the Smatch score"
    for _ in range(2):
        m = _WORD_BEFORE.search(text[max(0, start - 40):start])
        if not m or m[1].lower() not in _MODIFIERS and not (m[1].isupper() and 2 <= len(m[1]) <= 6) \
                and not HEADS.fullmatch(m[1]):          # ("mAP scores": a measure's own word)
            break
        start -= len(m.group(0))
    return start


def metric_phrases(text: str) -> list[Phrase]:
    """Every metric phrase of ``text``, in order, not overlapping."""
    out: list[Phrase] = []
    for m in _FOLDED_HEADS.finditer(folded(text)):
        head = text[m.start():m.end()]
        word = head.split()[0] if " " in head else head
        if _CASE_SENSITIVE.get(word.lower(), word) != word:
            continue                # (a metric in this case only: "MAE", not "mae")
        s = _widen(text, m.start(), head)
        if out and s < out[-1].end:
            continue
        out.append(Phrase(text[s:m.end()], s, m.end(), m.start()))
    return out


def is_generic(p: Phrase) -> bool:
    """A head that names no particular measure on its own ("performance", "score")."""
    return p.text.lower() in _GENERIC
