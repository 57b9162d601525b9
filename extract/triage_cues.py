"""The lexical cues of reviewer triage (:mod:`extract.triage`): comparison, superlative,
reference, evaluation and metric words; the paper's own claim sentences; why a span or a
value does not match the abstract.  English-only and lexical: they point a reviewer at a
sentence, they do not judge it."""

from __future__ import annotations

import re

from .text import sentence_at
from .records import Paper, Span

COMPARISON = re.compile(
    r"(?i:(?<!rather\s)(?<!other\s)\bthan\b(?!\s*\$?\\?(?:sim\s*)?\d)|\b(?:outperform\w*|surpass\w*|beat(?:s|ing)?|exceed(?:s|ing)?|compared\s+(?:to|with|against)"
    r"|comparisons?\s+(?:to|with|against)|relative\s+to|versus|vs\.?|baselines?|prior\s+(?:work|methods?|art|approaches|models?|best)"
    r"|previous(?:ly)?\s+(?:best|methods?|work|approaches|models?|state)|existing\s+(?:methods?|approaches|baselines|models?|tools?)"
    r"|competing|competitors?|(?:state[- ]of[- ]the[- ]art|sota)\s+(?:methods?|approaches|baselines|models?|systems?))\b)"
    r"|\b(?i:over|against|above|below|beyond)\s+(?:the\s+)?(?:[A-Z][\w.+-]*|(?i:strong|standard|vanilla|conventional|classical|existing|prior|previous|competing|\w+-based|state[- ]of[- ]the[- ]art)\b)"
)
SUPERLATIVE = re.compile(
    r"(?i)\b(?:(?:state[- ]of[- ]the[- ]art|sota)(?!\s+(?:methods?|baselines?|models?|approaches|defen[cs]es|systems?|"
    r"techniques|algorithms|solutions|llms|detectors|attacks|competitors|alternatives|works?)\b)|significantly|significant\s+(?:improvements?|gains?|boosts?|reductions?|speed-?ups?|increases?|margins?)"
    r"|substantially|substantial\s+(?:improvements?|gains?|boosts?|reductions?|speed-?ups?)|dramatically|drastically|remarkabl[ey]"
    r"|unprecedented|superior|outperform(?:s|ed|ing)?|by\s+a\s+(?:large|wide|significant|clear)\s+margin|orders?\s+of\s+magnitude"
    r"|new\s+records?|best[- ]in[- ]class)\b")
DIGIT_QUANTITY = re.compile(r"\d(?:[\d.,]*\d)?\s*(?:\\?%|×|\\times|x\b|-?fold\b|points?\b|pp\b)")
#: What a change can be measured against, named or not ("over the baseline", "upon the current SOTA").
REFERENCE = re.compile(r"(?i)\b(?:over|than|upon|compared|versus|vs\.?|against|relative\s+to|outperform\w*|surpass\w*"
                        r"|baselines?|sota|state[- ]of[- ]the[- ]art|prior|previous(?:ly)?|existing|short\s+of)\b")
# An evaluation the paper reports (so a dataset could be named): "experiments", "evaluated on",
# "benchmarks", "datasets", "empirically", "we test"; not the bare noun "evaluation(s)", which
# is as often the paper's topic ("LLM evaluations are costly", "evaluation awareness").
EVALUATION = re.compile(r"(?i)\b(?:experiments?|evaluat(?:e|es|ed|ing)\b(?=(?:\s+\w+){0,4}?\s+(?:on|across|against|over|using|with)\b)"
                         r"|benchmarks?|datasets?|empirical(?:ly)?|we\s+(?:test|validate)\w*)\b")
# What a number measures, stated in words (the read side's lexical check: a result whose
# claim has no metric is flagged only when its sentence names none of these).
METRIC_WORDS = re.compile(
    r"(?i)(?<![\w-])(?:accuracy|accuracies|precision|recall|f1|f-?(?:score|measure)|auc|auroc|aupr|au-?pr|m?ap(?:@?\d+)?"
    r"|bleu|rouge(?:-\w+)?|meteor|cider|chrf|perplexity|ppl|[wc]er|eer|errors?|error\s+rates?|success(?:\s+rates?)?"
    r"|win\s*rates?|pass@\d+|exact\s+match|m?iou|dice|psnr|ssim|fid|lpips|latency|throughput|speed-?ups?|memory"
    r"|energy|rewards?|returns?|scores?|performance|ndcg(?:@\d+)?|mrr|hits@\d+|top-?\d+|correlation|agreement"
    r"|mae|mse|rmse|loss|gains?|improvements?|reductions?|faster|slower|fewer|less|more|higher|lower)(?![\w-])")


_OWN_VOICE = re.compile(r"(?i)\b(?:we|our|ours|this\s+(?:paper|work|study|article|report|thesis)|the\s+proposed)\b")
_RESULTS_OPENER = re.compile(r"(?i)^\W*(?:(?:extensive|comprehensive|empirical|experimental|numerical)\s+)?"
                             r"(?:experiments?|results?|evaluations?|simulations?|empirically|experimentally)\b")


_CONTINUES = re.compile(r"^\W*(?:it|its|this|these|they|their|such|both|moreover|furthermore|additionally|also)\b", re.I)


def own_sentences(p: Paper, bounds: list[tuple[int, int]]) -> set[int]:
    """Starts of the sentences that state the paper's own claims: those with a result number or
    one of its method names, those in its own voice, those opening with "Experiments/Results",
    and those that continue such a sentence ("It", "This", "Moreover", ...).  When none
    qualifies, every sentence does (an impersonal abstract)."""
    text, own = p.text, set()
    names = [re.compile(r"(?<!\w)" + re.escape(m.text) + r"(?!\w)") for m in p.methods if len(m.text.strip()) > 1]
    results = {sentence_at(bounds, n.start)[0] for n in p.numbers if n.kind == "result" and n.grounded}
    prev = False
    for a, b in bounds:
        seg = text[a:b]
        mine = (a in results or bool(_OWN_VOICE.search(seg)) or bool(_RESULTS_OPENER.match(seg))
                or any(rx.search(seg) for rx in names) or (prev and bool(_CONTINUES.match(seg))))
        if mine:
            own.add(a)
        prev = mine
    return own or {a for a, _ in bounds}


def span_problem(text: str, s: Span) -> str | None:
    if s.grounded:
        return None
    if not s.text or s.text not in text:
        return "not in the text"
    if s.start is None or s.end is None:
        return f"no offsets (occurs at {text.index(s.text)})"
    shown = text[s.start:s.end] if 0 <= s.start <= s.end <= len(text) else ""
    return f"offsets {s.start}-{s.end} read {shown!r}; it occurs at {text.index(s.text)}"


_NUMERAL = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+")
_SCALES = (1.0, 1e3, 1e6, 1e9, 1e12, 1e-2)


def value_problem(text: str, value: float | None) -> str | None:
    """Why ``value`` is not the number ``text`` states, or None.  Only judged when the text
    holds exactly one plain numeral (no exponent, fraction or range); a value may be the
    numeral times a power of 1000 ('80B' -> 8e10) or a percentage as a fraction."""
    if value is None:
        return None
    if re.search(r"[\^/]|\d\s*[eE][-+]?\d|\\frac|\d\s*[-–]\s*\d|\d\s*(?:to)\s*\d", text):
        return None
    nums = _NUMERAL.findall(text)
    if len(nums) != 1:
        return None
    x = float(nums[0].replace(",", ""))
    v = abs(value)
    if any(abs(v - x * k) <= 1e-6 * max(1.0, x * k) for k in _SCALES):
        return None
    return f"value {value:g} but the text says {nums[0]}"
