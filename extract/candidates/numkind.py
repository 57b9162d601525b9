"""Kind (result | setting) and "about" guesses for a number, from the words around it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..text.sentences import sentence_at
from ..text.words import words_after, words_before


@dataclass
class Raw:
    start: int            # of the displayed text
    end: int
    core_start: int
    core_end: int
    value: float
    unit: str | None
    mult: float = 1.0
    signed: bool = False
    in_math: bool = False


# ---------------------------------------------------------------------------------------
# kind and about
# ---------------------------------------------------------------------------------------
_RESULT_CUES = re.compile(
    r"\b(?:improv\w*|gain\w*|boost\w*|increas\w*|reduc\w*|decreas\w*|drop\w*|declin\w*|outperform\w*|"
    r"achiev\w*|reach\w*|attain\w*|obtain\w*|surpass\w*|exceed\w*|beat\w*|speed-?ups?|faster|slower|"
    r"accura\w*|errors?|scores?|f1|auc|auroc|bleu|rouge|mae|mse|rmse|perplexity|ppl|rates?|"
    r"precision|recall|success|correlat\w*|explain\w*|accounts?|lower\w*|higher|better|fewer|less|"
    r"sav\w*|cut(?:s|ting)?|yield\w*|deliver\w*|margin|relative|absolute|average|mean|median|up|only|"
    r"match\w*|recover\w*|retain\w*|preserv\w*|acceleration|accelerat\w*|compress\w*|win|wins|"
    r"pass|solv\w*|top|state-of-the-art|sota|performance|perform\w*|degrad\w*|leads?|lift\w*|"
    r"advantage|hallucinat\w*|agreement|coverage|fidelity|efficien\w*|throughput|latency|"
    r"increment|percentage|fraction|share|proportion|variance|r2|significant\w*|p|r|rho|kappa)\b")
_STRONG_RESULT = re.compile(
    r"\b(?:improv\w*|gain\w*|boost\w*|reduc\w*|decreas\w*|drop\w*|outperform\w*|achiev\w*|"
    r"reach\w*|attain\w*|surpass\w*|exceed\w*|speed-?ups?|accura\w*|errors?|scores?|f1|auc|"
    r"correlat\w*|explain\w*|accounts?|sav\w*|lower\w*|higher|faster|yield\w*|win|cut(?:s|ting)?|"
    r"compress\w*|accelerat\w*|declin\w*|increas\w*|lift\w*)\b")
_SETTING_BEFORE = re.compile(
    r"(?:\b(?:trained|train|training|pretrained|pre-trained|fine-tuned|compris\w*|contain\w*|"
    r"consist\w*|includ\w*|spann\w*|across|over|with|using|of|from|among|covering|total|"
    r"budget|size|sized|dimension\w*|length|rank|batch|vocabulary|window|context|horizon|"
    r"collect\w*|curat\w*|gather\w*|annotat\w*|sampl\w*|generat\w*|evaluat\w*|on|in|for|"
    r"than|at|per|each|every|first|last|all|these|k|n|d|m|t|l|h)\s*)$")
_COUNT_NOUN_SINGULAR = {"gpu", "gpus", "bit", "layer", "dimensional", "dimension", "shot", "way",
                        "step", "token", "parameter", "node", "head", "billion", "million", "hour",
                        "day", "epoch", "iteration", "round", "language", "task", "model", "sample",
                        "example", "class", "domain", "agent", "user", "participant", "subject",
                        "patient", "image", "video", "document", "query", "question", "prompt",
                        "benchmark", "dataset", "game", "environment", "seed", "run", "trial",
                        "fold", "expert", "k", "core", "cpu", "tpu", "qubit", "pair", "frame",
                        "second", "minute", "year", "month", "week", "point", "item", "instance",
                        "sentence", "word", "character", "page", "file", "repository", "line",
                        "hop", "turn", "trajectory", "episode", "level", "category", "label",
                        "feature", "channel", "pixel", "resolution", "block", "annotator",
                        "worker", "client", "device", "scale", "size"}
_NOT_NOUNS = {"is", "was", "has", "does", "this", "its", "as", "us", "yes", "across", "less",
              "plus", "thus", "versus", "bias", "process", "access", "loss", "class", "gaussian",
              "analysis", "basis", "various", "previous", "numerous", "robustness", "progress",
              "success", "consensus", "corpus", "always", "whereas", "status", "focus", "miss",
              "unless", "address", "stress", "vs", "hypothesis", "diagnosis", "synthesis",
              "his", "perplexities", "series", "species", "chess", "glass"}
_FUNCTION = {"the", "a", "an", "of", "on", "in", "and", "or", "for", "to", "with", "by", "at",
             "from", "than", "while", "over", "up", "into", "per", "as", "its", "their", "our",
             "that", "which", "across", "only", "nearly", "about", "approximately",
             "roughly", "around", "almost", "more", "less", "respectively", "e", "g", "i",
             "when", "where", "is", "are", "was", "were", "be", "been", "has", "have", "this",
             "these", "those", "it", "we", "they", "also", "both", "each", "all", "same", "between"}


_STOP_ABOUT = {"while", "whereas", "compared", "relative", "respectively", "over", "versus", "vs",
               "when", "than", "and", "or", "but", "using", "which", "that", "higher", "lower",
               "better", "worse", "faster", "slower", "more", "less", "fewer"}


def count_noun_after(text: str, end: int) -> str | None:
    """The plural (or count) noun right after a number, allowing a few modifiers: '13,747
    realistic, multi-sentence consumer product queries' -> 'consumer product queries'."""
    seg = text[end:end + 90]
    m = re.match(r"\s*-\s*([A-Za-z]+)", seg)          # 8-bit, 2-layer, 7B-parameter
    if m:
        return m.group(1).lower()
    words = re.findall(r"[A-Za-z][A-Za-z0-9\-]*|[,.;:()]|\S", seg)
    phrase: list[str] = []
    for i, w in enumerate(words[:9]):
        lw = w.lower()
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if lw in ("and", "or") and phrase and nxt[:1].isalpha() and nxt.lower() not in _FUNCTION:
            continue                                    # 73 Python and TypeScript repositories
        if lw in (".", ";", ":", "(", ")") or lw in ("and", "or", "than", "of", "in", "on", "for",
                                                     "to", "with", "from", "by", "that", "which"):
            break
        if lw == ",":
            if not phrase:
                break
            continue
        if not w[0].isalpha():
            break
        phrase.append(w)
        if lw in _COUNT_NOUN_SINGULAR or (lw.endswith("s") and lw not in _NOT_NOUNS and len(lw) > 3
                                          and not lw.endswith("ous") and not lw.endswith("ss")) \
                or lw in ("data", "people", "criteria", "corpora", "phenomena", "children"):
            return " ".join(phrase[-4:])
        if lw in _FUNCTION:
            break
    return None


_COMPARATIVES = {"less", "more", "fewer", "higher", "lower", "better", "worse", "faster", "slower",
                 "smaller", "larger", "bigger", "shorter", "longer", "relative", "absolute", "average"}
_ABOUT_STOP = _FUNCTION | _STOP_ABOUT | {"but", "yet", "so", "per", "stays", "remains", "compared"}


def _phrase(words: list[str], limit: int = 3) -> list[str]:
    out = []
    for w in words:
        if len(w) < 2 or w in _ABOUT_STOP:
            break
        out.append(w)
        if len(out) == limit:
            break
    return out


def guess_about(text: str, r: Raw, noun: str | None) -> str:
    """A few words saying what the number quantifies ("" when no rule finds them)."""
    if noun:
        return noun
    after = words_after(text, r.end, 8)
    nxt = text[r.end:r.end + 40]
    lead = 0
    while lead < len(after) and after[lead] in _COMPARATIVES:
        lead += 1
    if re.match(r"\s+[A-Za-z]", nxt) and lead < len(after) and after[lead] not in _ABOUT_STOP \
            and len(after[lead]) > 1:
        got = _phrase(after[lead:])
        if got:
            return " ".join(after[:lead] + got) if lead and after[0] in ("average", "relative") else " ".join(got)
    if after[:1] and after[0] in ("of", "in", "on") and not re.match(r"\s*\w+\s+\$?[\d.]", nxt):
        rest = after[1:]
        while rest and rest[0] in ("the", "a", "an", "all", "its", "their", "our"):
            rest = rest[1:]
        got = _phrase(rest)
        if got:
            return " ".join(got)
    before = words_before(text, r.start, 8, comma=True)
    phrase: list[str] = []
    for w in reversed(before):
        if len(w) < 2 or w in _FUNCTION or w in ("by", "of", "to", "up", "from", "reach", "reaches",
                                                  "achieves", "achieve", "is", "are", "was"):
            if phrase:
                break
            continue
        phrase.insert(0, w)
        if len(phrase) == 3:
            break
    return " ".join(phrase)


def guess_kind(text: str, r: Raw, noun: str | None, bounds) -> str:
    ss, se = sentence_at(bounds, r.start)
    before = text[max(ss, r.start - 80):r.start].lower()
    after = text[r.end:min(se, r.end + 60)].lower()
    near_before = " ".join(words_before(text, r.start, 6))
    if r.signed and text[r.start:r.start + 1] in "+" and r.unit in ("%", "×", "pp", None):
        return "result"
    if r.unit in ("%", "pp"):
        if re.match(r"\s*(?:of\s+(?:the\s+)?(?:training\s+|labeled\s+|original\s+|available\s+)?"
                     r"(?:data|labels|samples|examples|parameters|weights|tokens|compute|budget|"
                     r"training|dataset|annotations))\b", after) \
                and re.search(r"\b(?:using|use|uses|with|only|train\w*|on|fine-tun\w*|sampl\w*|mask\w*|"
                              r"prun\w*|keep\w*|updat\w*|subset)\b[^.]*$", before) \
                and not _STRONG_RESULT.search(near_before):
            return "setting"
        if re.match(r"\s*(?:ci\b|confidence|credible)", after):
            return "setting"                            # 95% CI
        if re.match(r"\s*(?:[\w\-]+\s+)?(?:budget|sparsity|ratio|dropout|mask(?:ing)?\s+(?:rate|ratio)|"
                    r"subset|subsample|split|label(?:ing)?\s+rate|noise(?:\s+level)?|learning\s+rate)\b", after) \
                and not _STRONG_RESULT.search(" ".join(words_before(text, r.start, 3))):
            return "setting"
        if re.search(r"\b(?:sparsity|pruning ratio|mask(?:ing)? ratio|dropout|masking|noise level|"
                     r"split|held[- ]out|hold[- ]out|subsample\w*|ratio of)\b[^.]{0,20}$", before) \
                and not _STRONG_RESULT.search(near_before):
            return "setting"
        return "result"
    if r.unit == "×":
        if re.match(r"\s*(?:larger|more|bigger)\s+(?:data|model|models|dataset|parameters|compute)",
                    after) and not _STRONG_RESULT.search(near_before):
            return "setting"
        return "result"
    if re.search(r"\b(?:learning\s+rates?|lr|weight\s+decay|batch\s+sizes?|temperatures?|dropout(?:\s+rates?)?|"
                 r"momentum|thresholds?|warm-?up|seeds?|budgets?|horizons?|discount(?:\s+factor)?|"
                 r"step\s+sizes?|ranks?|widths?|depths?|window(?:\s+sizes?)?)\s*(?:of|=|:|is|was|set\s+to)?\s*"
                 r"\$?\s*$", before):
        return "setting"                                # learning rate 3e-4
    head = text[max(0, r.start - 12):r.core_start]
    if re.search(r"(?:\bp\s*[<=≤]|\bp-value\s*(?:of|<|=)?|\b[rR]\s*=|\\(?:rho|tau|kappa)\s*=|[ρτκ]\s*=|"
                 r"\b[rR]\^\{?2\}?\s*=|\bR2\s*=)\s*\$?\s*$", head):
        return "result"
    if re.search(r"(?:(?<![A-Za-z\\])[A-Za-z]|\\[A-Za-z]+)(?:_\{?\w+\}?)?\s*(?:=|<|>|\\[lg]eq?|≤|≥)\s*\$?\s*$",
                 head) and "." not in text[r.core_start:r.core_end] or re.search(
                 r"(?:\\[lg]eq?|<|>|≤|≥)\s*$", head):
        return "setting"                                # k=2, d \geq 2, \beta_2 > 0.99
    strong_before = _STRONG_RESULT.search(" ".join(words_before(text, r.start, 6, comma=True)))
    if r.unit is None and re.match(r"\s+(?:fewer|more|less|higher|lower|faster|slower|smaller|larger|"
                                   r"additional|extra)\b", after) and not re.search(
                                   r"\b(?:with|using|use|uses|requires?|needs?)\s*$", before):
        return "result"                                 # 50,000 fewer parameters
    if noun is not None and noun.split()[-1] in ("points", "point") and (
            strong_before or re.search(r"\b(?:by|than)\s*(?:up to|about|over|nearly|only)?\s*$", before)):
        return "result"                                 # improves accuracy by 3.1 points
    if r.unit is None and re.search(r"\bby\s+(?:a\s+)?factor\s+of\s*(?:up\s+to\s+|about\s+|roughly\s+)?\$?\s*$",
                                    before):
        return "result"                                 # reduces error by a factor of 2
    if r.unit is None and re.match(r"\s+(?:out\s+)?of\s+(?:the\s+)?\$?\d", after):
        return "result"                                 # solves 18 of 20 tasks
    core_text = text[r.core_start:r.core_end]
    if noun is not None and r.mult == 1.0 and "." in core_text and not re.search(
            r"\b(?:train\w*|contain\w*|compris\w*|consist\w*|includ\w*|us\w+|with|of)\s*$", before):
        return "result"                                 # 2.3 false errors per report: a measured rate
    if re.search(r"\bfrom\s*$", before) and _STRONG_RESULT.search(" ".join(words_before(
            text, r.start, 12, comma=True))) and re.match(r"\s*(?:[\w%°\-]+\s+){0,2}to\b", after):
        return "result"                                 # reduces X from 24 hours to 15 minutes
    if noun is not None or r.mult != 1.0:
        if strong_before and re.search(r"\b(?:by|to|of|from|at)\s*(?:up to|over|nearly|about|"
                                       r"around|only|just|approximately|roughly)?\s*$", before) \
                and r.unit is not None:
            return "result"
        if re.search(r"\b(?:reduc\w*|cut\w*|sav\w*|decreas\w*|fewer|less|only)\b[^,.;]*\b(?:by|to|"
                     r"with|using|requires?|needs?)\s*(?:up to|only|just|about|over)?\s*$", before) \
                and noun in (None, "parameters", "tokens", "gpu hours", "hours", "steps", "samples"):
            return "result"
        return "setting"
    if r.unit is not None and re.match(r"\s*(?:spatial\s+|temporal\s+|grid\s+)?(?:resolution|grid|spacing)", after):
        return "setting"
    if r.unit is not None:                              # ms, GB, h ...
        if _STRONG_RESULT.search(near_before) or re.search(
                r"\b(?:in|within|under|to|by)\s*(?:only|just|about|roughly|under)?\s*$", before):
            return "result"
        return "setting"
    core = text[r.core_start:r.core_end]
    is_decimal = "." in core or "e" in core.lower()
    if strong_before or re.search(r"\b(?:of|by|to|at|from|reaches|achieves)\s*(?:up to|about|"
                                  r"nearly|over|around|approximately)?\s*$", before) and \
            _RESULT_CUES.search(near_before):
        return "result"
    if _SETTING_BEFORE.search(before) and not is_decimal:
        return "setting"
    if re.search(r"(?:=|≈|\\approx|\\sim|~)\s*\$?\s*$", text[max(0, r.start - 4):r.core_start]):
        return "setting" if not is_decimal else "result"
    return "result" if is_decimal else "setting"
