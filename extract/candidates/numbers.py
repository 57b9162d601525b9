"""Every number written with digits in an abstract, with offsets, value, unit and a kind guess,
as tests/gold/GUIDELINE.md says: ``text`` is an exact slice with its sign, ``~``, unit and
LaTeX form (a ``$...$`` holding only the number is taken whole); ``value`` absorbs multipliers
(``80B``, ``32k``, ``1.2 million``), ``10^6``, ``1e-3``, ``3\\times10^{-4}``; units normalized
(``%``, ``×``, ``pp``, ``ms``...). A range (``3-5%``, ``7 to 70B``) gives one number per end, the
first inheriting the unit after the second; ``85.2 ± 0.3`` gives ``85.2`` and ``± 0.3``. Skipped:
digits of names (``GPT-4``, ``CIFAR-10``, ``3D``), of formulas (``$\\ell_1$``, ``O(n^2)``,
``1/\\epsilon``), citations, URLs, enumerators, ordinals, numbered things (``Table 3``), years."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..text.numparse import (ATTACHED_UNITS, CORE, EXP_E, EXP_VAR, MULT, OK_COMMANDS, POW, SCI, SPACED_UNIT, UNIT_NORMAL,
                             VAR_PREFIX, WRAP_OPEN, parse_number, product_of_sizes, range_joint, safe_pow, to_float)
from ..text.sentences import sentence_bounds
from ..text.spans import SpanIndex, excluded_spans, math_spans
from .number_about import Raw, count_noun_after, guess_about
from .claim_metric import HEADS
from .number_rules import kind_rule

_FORMULA_BEFORE = re.compile(
    r"(?:[_^]\s*\{?\s*[-+−]?\s*|\\(?:frac|dfrac|tfrac|binom)\s*(?:\{[^{}]*\}\s*)?\{\s*[-+−]?\s*"
    r"|\\sqrt\s*(?:\[[^\]]*\])?\s*\{?\s*|(?:\b[OΘΩo]|\\Theta|\\Omega|\\mathcal\s*\{?\s*O\s*\}?|"
    r"\\widetilde\s*\{?\s*O\s*\}?|\\tilde\s*\{?\s*O\s*\}?|\\log|\\exp|\\ln|\\poly|poly|\\mathrm\{poly\})"
    r"\s*\(\s*[-+−]?\s*|[/*]\s*|\}\s*\{\s*[-+−]?\s*)$")
# The numeric base of an exponential bound, "O(1.9999^n)", "O^*(2^{k})": a quantity (the guideline).
_EXP_BASE = re.compile(r"(?:\b[OΘΩ]|\\Theta|\\Omega|\\mathcal\s*\{?\s*O\s*\}?|\\(?:wide)?tilde\s*\{?\s*O\s*\}?)"
                       r"\s*(?:\^\s*\{?\s*\*\s*\}?|\*)?\s*\(\s*$")
# A short time unit after a space ("trained for 166 h"): SPACED_UNIT leaves out one-letter
# units, which only count here when nothing word-like follows.
_SPACED_SHORT_UNIT = re.compile(r" (h|hr|hrs|min|mins|sec)(?![\w\-'’])(?!\s*[=(])")
_SECTION_WORDS = set("""stage phase step table tab figure fig section sec theorem lemma corollary proposition definition eq
equation level track version round part type tier appendix chapter algorithm alg experiment exp case
example task setting question problem rule layer block day week month year v no number grade class
category split fold head epoch iteration iter batch sample group q""".split())
# A name right after a year, "the 2017 WMT Metrics Shared Task", "the 2018 n2c2 shared task", unless
# the phrase ends in things counted ("the 2000 COCO images")
_NAME_AFTER = re.compile(r"\s+(?:[A-Z]|[a-z]+\d)")
_THINGS = re.compile(r"\b[a-z]+s$")
_PREV_WORD = re.compile(r"(?<![\w.])([^\W\d_][\w\-]*)\.?[ \u00a0]$")       # the word before a number
_DATE_PREPS = set("""in since from until till by before after during between through circa early late mid and to of the""".split())
# Formula parts that are no quantity: the elements of a set and the ends of an interval
# ("\{0, 1\}^n", "\gamma \in (0,1)", "$(0, 2]$"), a variable's bound or limit by 0 or 1 ("\delta > 0",
# "0 < \alpha", "\epsilon \to 0", "f(S) \geq 0"), an index range ("i = 1, 2, \dots, N").
_DOMAIN_BEFORE = re.compile(r"(?:\\in|∈)\s*(?:\\left\s*)?[(\[]\s*(?:[-+−]?\s*[\w.\\]+\s*,\s*)*[-+−]?\s*$")
_END = r"[-+−]?\s*(?:\d+(?:\.\d+)?|\\?[A-Za-z]+)\s*"
_INTERVAL = re.compile(r"[(\[]\s*" + _END + "," + _END + r"[)\]]")
_BOUND_BEFORE = re.compile(r"(?:(?<![A-Za-z\\])(?P<word>[A-Za-z]+)|\\[A-Za-z]+|\))(?:_\{?\w+\}?)?\s*"
                           r"(?:>|<|\\[gl]eq?|≥|≤|\\gtrsim|\\lesssim|\\to\w*|\\rightarrow|→|\\ll|\\gg)\s*$")
_BOUND_AFTER = re.compile(r"\s*(?:<|\\leq?|≤)\s*\\?[A-Za-z]")
_INDEX_AFTER = re.compile(r"\s*,\s*(?:\d+\s*,\s*){0,4}(?:\.\.\.|…|\\[lc]?dots)")    # bounded: linear on 1,1,1,...
_OPEN_GROUP = re.compile(r"[_^]\s*([{(])")
# a rank the text reports: "ranks 1st on the leaderboard", "won the 2nd place", "3rd place"
_RANKED = re.compile(r"\b(?:rank(?:s|ed|ing)?|plac(?:e|es|ed|ing)|won|finish(?:es|ed|ing)?)\s+(?:the\s+)?$", re.I)
_PLACE = re.compile(r"\s+place\b", re.I)
_GLUED = re.compile(r"°[CF]?(?![A-Za-z])|[A-Za-zµμ]+")
_UNIT_AFTER_MATH = re.compile(r"\\%|%|×|[xX](?![A-Za-z0-9])")
_METRIC_WORDS = set("""auc auroc auprc bleu rouge mae mse rmse fid psnr ssim map em iou ndcg mrr ece wer cer cider meteor acc tpr
fpr kl elo is lpips clip spice chrf comet bertscore dice""".split())
_PLURAL_NUMERAL = re.compile(r"(?:[01]|1[5-9]\d0|20\d0)s")      # "0s and 1s", "the 1990s": no seconds

__all__ = ["NumberCandidate", "explain_numbers", "find_numbers", "parse_number"]


@dataclass(frozen=True)
class NumberCandidate:
    text: str
    start: int
    end: int
    value: float
    unit: str | None
    kind_hint: str | None
    about_hint: str
    kind_rule: str = ""         # the rule of number_rules.KIND_RULES that gave kind_hint


class _LeftTokens:
    """The alphanumeric token glued to the left of a position (through - . / @ '), asked at
    increasing positions (the numbers of one text in order): a run of tokens glued together
    ("1-1-1-...") is read once, not once per number in it, so the scan stays linear."""

    def __init__(self, text: str):
        self.text = text
        self.p, self.stop, self.alpha, self.other = -1, 0, False, False   # the last run read

    def at(self, s: int) -> tuple[int, bool, bool]:
        """(where the token before s starts, whether it has a letter, whether it is all letters)."""
        text, i = self.text, s
        while i > 0 and i != self.p and (text[i - 1].isalnum()
                                         or text[i - 1] in "-./@'’" and i >= 2 and text[i - 2].isalnum()):
            i -= 1
        if i == s:
            return s, False, False
        if joined := 0 < i == self.p:       # the run read before: where it starts is known
            i = self.stop
        fresh = range(self.p + 1 if joined else i, s)
        alpha = any(text[k].isalpha() for k in fresh) or joined and self.alpha
        other = not all(text[k].isalpha() for k in fresh) or joined and self.other
        self.p, self.stop, self.alpha, self.other = s - 1, i, alpha, other
        return i, alpha, not other


def _sentence_initial(text: str, pos: int) -> bool:
    before = text[max(0, pos - 4):pos].rstrip(" \"'(*`")
    return before == "" or before[-1] in ".!?:;\n"


def _paren_open(text: str, s: int) -> bool:
    """A "(" opened and not yet closed in the 300 characters before ``s``."""
    depth = 0
    for ch in reversed(text[max(0, s - 300):s]):
        if ch == ")":
            depth += 1
        elif ch == "(":
            if not depth:
                return True
            depth -= 1
    return False


def _formula_before(ctx: str) -> bool:
    """``_FORMULA_BEFORE.search(ctx)``, tried only when the last character (past a sign) can end
    it: a search from each of 40 positions costs more than all the other tests of a number."""
    t = ctx.rstrip()
    if t[-1:] in ("-", "+", "−"):
        t = "(" if t[:-1].rstrip()[-1:] in ("_", "^", "{", "(") else ""
    return t[-1:] in ("_", "^", "{", "(", "]", "t", "/", "*") and _FORMULA_BEFORE.search(ctx) is not None


def _reject_left(text: str, s: int, math: tuple[int, int] | None, left: _LeftTokens) -> bool:
    if _formula_before(text[max(0, s - 40):s]):
        return True
    i, alpha, letters = left.at(s)
    if alpha:
        if i > 0 and text[i - 1] == "\\" and letters:
            return text[i:s] not in OK_COMMANDS     # \sim650 is fine, \ell1 is not
        return True                                 # GPT-4, Llama3-8B, pass@1, T2I
    if math is not None:
        j = s - 1
        while j > math[0] and text[j] in " {":
            if text[j] == "{" and not WRAP_OPEN.search(text[max(0, math[0]):j + 1]):
                break
            j -= 1
        prev = text[j] if j >= math[0] else "$"
        if prev.isalpha() and not re.search(r"\\[A-Za-z]+$", text[math[0]:j + 1]):
            return True                             # 2 after a variable: n 2 / x2
        if prev in "+-−" and re.search(r"[A-Za-z)}\]]\s*$", text[math[0]:j]):
            return True                             # d+1, 2^{d+1}-1: a constant of a formula
    return False


def _formula_part(text: str, s: int, e: int, value: float, math: tuple[int, int] | None) -> bool:
    """Digits of a formula that state no quantity (see _DOMAIN_BEFORE's comment), or digits inside an exponent or
    subscript group that is still open ("k^{\\lceil p/2 \\rceil + 1}", "W^(w+1)")."""
    before = text[max(0, s - 40):s]
    if _DOMAIN_BEFORE.search(before) or re.search(r"=\s*(?:\d+\s*,\s*)*$", before) and _INDEX_AFTER.match(text, e):
        return True
    bound = _BOUND_BEFORE.search(before)
    if value in (0.0, 1.0) and (bound and (math or len(bound.group("word") or "x") == 1) or _BOUND_AFTER.match(
            text, e)) and not re.match(r"\s*(?:\\?%|°|percent)", text[e:e + 8]):
        return True
    inner = text[math[0]:s] if math is not None else before
    if inner.rfind("\\{") > inner.rfind("\\}"):
        return True                 # the elements of a set, ResNet-\{18, 34\}
    if math is not None and any(m.start() < s < m.end() for m in _INTERVAL.finditer(text, math[0], math[1])):
        return True
    for m in _OPEN_GROUP.finditer(before):
        inner = before[m.end():]
        if inner.count("}" if m.group(1) == "{" else ")") <= inner.count(m.group(1)):
            return True             # the group m opens is not closed before the number
    return False


def _reject_right(text: str, e: int, math: tuple[int, int] | None) -> bool:
    if re.match(r"\}?\s*/\s*\{?\s*(?:\\?[A-Za-z(])|\^\s*\{?\s*\\?[A-Za-z]|\s*!|-D(?![\w-])", text[e:e + 12]):
        return True                 # 1/\epsilon, 1/T, {1}/{\epsilon}; 2^n; n!; 2-D (as 2D: a name's digit)
    if math is not None:
        rest = text[e:math[1]]
        if m := re.match(r"\s*\}*\s*(\\[A-Za-z]+|\\\{|[A-Za-z(+\-−*/_^|])", rest):
            tok = m.group(1)
            if tok in ("\\pm", "\\mp"):
                return re.match(r"\s*\\[pm][mp]\s*\\?[A-Za-z]", rest) is not None     # 1 \pm \epsilon
            if tok.startswith("\\"):
                return tok[1:] not in OK_COMMANDS and tok[1:] not in ("%", "cdot")
            return tok not in ("x", "X") or re.match(r"\s*[xX]\s*[A-Za-z0-9\\]", rest) is not None     # 3x: a unit
    return False


def _is_pure_math(text: str, ms: int, me: int, core_s: int, core_e: int) -> bool:
    inner = text[ms:core_s] + " " + text[core_e:me]
    inner = re.sub(r"\\(?:sim|approx|simeq|times|pm|mp|%|,|;|!|:|quad|qquad|textbf|mathbf|"
                   r"boldsymbol|text|mathrm|bf|le|leq|ge|geq|lt|gt|cdot|left|right)(?![A-Za-z])",
                   " ", inner)
    inner = re.sub(r"\^\s*\{?\s*[-+−]?\d+\s*\}?|10", " ", inner)       # exponent pieces
    inner = re.sub(r"(?:^|\s|\$|\\\()\s*(?:[A-Za-z]|\\[A-Za-z]+)(?:_\{?[A-Za-z0-9]+\}?)?\s*=", " ", inner)
    inner = re.sub(r"[\s${}~=<>%+\-−±×()\\]|\\\(|\\\)|[kKMBT](?![A-Za-z])|[xX](?![A-Za-z])", "", inner)
    return inner == ""


def _scan(text: str) -> list[Raw]:
    maths = math_spans(text)
    math_idx, excl = SpanIndex(maths), SpanIndex(excluded_spans(text))
    left = _LeftTokens(text)
    out: list[Raw] = []
    pos = 0
    while m := CORE.search(text, pos):
        s, e = m.span()
        pos = e
        if s > 0 and (text[s - 1].isdigit() or (text[s - 1] == "." and s > 1 and text[s - 2].isdigit())):
            continue
        if len(m.group(0)) > 1 and m.group(0)[0] == "0" and m.group(0)[1].isdigit() or (
                text[s - 1:s] in "'’" and re.fullmatch(r"\d\d", m.group(0))):
            continue                                        # 000, 007, (ITCS ’12): not a quantity as written
        if excl.find(s):
            continue
        math = math_idx.find(s)
        value = to_float(m.group(0))
        # exponent forms glued to the core
        ce = e
        for pat in (EXP_E, SCI, POW):
            if (mm := pat.match(text, ce)) and not (pat is EXP_E and "." in mm.group(0)):
                x = float(next(g for g in mm.groups() if g).replace("−", "-"))
                value, ce = safe_pow(value, x) if pat is POW else value * safe_pow(10.0, x), mm.end()
                break
        pos = max(pos, ce)
        if not (text[max(0, s - 30):s].rstrip()[-1:] == "(" and _EXP_BASE.search(text, max(0, s - 30), s)
                and EXP_VAR.match(text, ce)) and (
                _reject_left(text, s, math, left) or _reject_right(text, ce, math) or _formula_part(text, s, ce, value, math)):
            continue
        # letters glued to the right: multiplier, unit, or a name/ordinal (reject)
        unit, mult, end = None, 1.0, ce
        if g := _GLUED.match(text, ce):
            w = g.group(0)
            after = text[ce + len(w): ce + len(w) + 1]
            if w in ("k", "K", "M", "B", "T") and not after.isalnum():
                mult, end = MULT[w], ce + len(w)
            elif w in ATTACHED_UNITS and not after.isalnum():
                unit, end = UNIT_NORMAL.get(w, w), ce + len(w)
            elif w in ("x", "X") and after.isdigit():
                pass                                        # 3x3: a shape, no unit
            elif w in ("st", "nd", "rd", "th") and not after.isalnum() and (
                    _RANKED.search(text, max(0, s - 24), s) or _PLACE.match(text, ce + 2)):
                end = ce + 2                                # "ranks 1st", "2nd place": a rank, a result
            else:
                continue                                    # 3D, 2nd, 4o, 2n
        ce_core, start = ce, s
        if (w := WRAP_OPEN.search(text, max(0, s - 14), s)) and text[end:end + 1] == "}":
            start, end = w.start(), end + 1                 # \textbf{12.3}
        # sign (not the second dash of "10--15") / approximation / variable prefix
        j, signed = start, False
        k = j - 1 if j > 0 and text[j - 1] == " " else j
        if text[max(0, k - 3):k] in ("\\pm", "\\mp"):
            j, signed = k - 3, True
        elif k > 0 and text[k - 1] == "±":
            j, signed = k - 1, True
        elif j > 0 and text[j - 1] in "+-−±" and (j == 1 or not (text[j - 2].isalnum() or text[j - 2] in ")]}%-")):
            j, signed = j - 1, True
            if text[j] in "-−":
                value = -value
        if j > 0 and text[j - 1] in "~∼≈":
            j -= 1
        vp = VAR_PREFIX.search(text[max(0, j - 30):j])
        if vp and not (math is None and vp.group(0).startswith("\\")):
            j = max(0, j - 30) + vp.start()
        start = j
        # unit after the number (possibly after a space)
        if unit is None and mult == 1.0:
            if (um := SPACED_UNIT.match(text, end)) and um.group("times") and product_of_sizes(text, s, um.end()):
                um = None                   # "1024 × 1024 pixels": no "times"
            if um:
                wd = um.group("word")
                unit = "%" if um.group("pct") else "×" if um.group("times") or um.group("xtimes") else UNIT_NORMAL.get(wd, wd)
                mult, end = MULT.get(um.group("mult"), 1.0), um.end()
            elif math is None and (sm := _SPACED_SHORT_UNIT.match(text, end)):
                unit, end = UNIT_NORMAL.get(sm.group(1), sm.group(1)), sm.end()     # "166 h"
        # pure math segment: take it whole, then a unit right after the closing $
        if math is not None and _is_pure_math(text, math[0], math[1], s, ce_core):
            start, end = min(start, math[0]), max(end, math[1])
            if re.search(r"\\%|%|\\times(?![A-Za-z])|×", text[math[0]:math[1]]):
                unit = unit or ("%" if "%" in text[math[0]:math[1]] else "×")
            if unit is None and mult == 1.0 and (am := _UNIT_AFTER_MATH.match(text, end)):
                unit, end = "%" if "%" in am.group(0) else "×", am.end()
            if re.match(r"[A-Za-z]", text[end:end + 1]) and not re.match(r"[kKMBT](?![A-Za-z])", text[end:end + 2]):
                continue                                    # $3$D: a name's digit
        # enumerators: (1), 1) with no "(" open before it, "1. " opening a sentence
        if unit is None and mult == 1.0 and m.group(0).isdigit() and len(m.group(0)) <= 2 and start == s and (
                text[end:end + 1] == ")" and (text[s - 1:s] == "(" or not _paren_open(text, s))
                or re.match(r"\. [A-Z]", text[end:end + 3]) and _sentence_initial(text, s)):
            continue
        out.append(Raw(start, end, s, ce_core, value * mult, unit, mult, signed, math is not None))
    return _drop_named(text, out)


def _drop_named(text: str, raws: list[Raw]) -> list[Raw]:
    """Numbers that label things (Stage 2, ICML 2031, Gemini 1.5, AceGPT 7B, in 2023) are not
    quantities, nor the numbers listed right after one (Problems 1, 3 and 4; XGLM 2.9B, 4.5B)."""
    keep, listed, listed_shape = [], -1, ""
    for r in raws:
        core = text[r.core_start:r.core_end]
        bare = r.unit is None and r.mult == 1.0 and not r.signed and r.start == r.core_start
        plain_int = core.isdigit() and bare
        version = bare and re.fullmatch(r"\d{1,2}\.\d{1,2}", core) is not None
        sized = r.unit is None and r.mult != 1.0 and r.end == r.core_end + 1 and r.start == r.core_start
        shape = re.sub(r"\d", "0", text[r.start:r.end])
        if listed >= 0 and shape == listed_shape and re.fullmatch(r"\s*(?:,|,?\s*(?:and|or|&))\s*",
                                                                  text[listed:r.start]):
            listed = r.end
            continue
        listed, listed_shape = -1, shape
        if plain_int or version or sized:
            pw = _PREV_WORD.search(text, max(0, r.start - 40), r.start)
            noun = count_noun_after(text, r.end)
            counted = noun is not None
            if pw:
                word, wpos, w = pw.group(1), pw.start(), pw.group(1).lower()
                if (w in _SECTION_WORDS or len(w) > 4 and w[-1:] == "s" and w[:-1] in _SECTION_WORDS) and plain_int:
                    listed = r.end
                    continue
                named = any(ch.isupper() for ch in word) and not _sentence_initial(text, wpos) \
                    and w not in ("over", "about", "nearly", "only", "with", "all") and w not in _METRIC_WORDS
                if named and (version and not HEADS.fullmatch(word) or plain_int or sized):
                    listed = r.end
                    continue                   # Gemini 1.5, MT-Eval 2.0; ICML 2031, Llama 3; AceGPT 7B
                if plain_int and len(core) == 4 and 1900 <= int(core) <= 2100 \
                        and (not counted or _NAME_AFTER.match(text, r.end) and not _THINGS.search(noun)) \
                        and (w in _DATE_PREPS or word == "al" or word.isupper()):
                    continue                   # in 2023, Smith et al. 2021, (FOCS 2015), the 2019 LVIS challenge
            if plain_int and len(core) == 4 and 1950 <= int(core) <= 2100 and not counted:
                nxt, prv = text[r.end:r.end + 6], text[max(0, r.start - 6):r.start]
                if re.match(r"\s*[-–—/]\s*(19|20)\d\d", nxt) or re.search(r"(19|20)\d\d\s*[-–—/]\s*$", prv) or (
                        re.match(r"[)\];]", nxt) and re.search(r"[,(:]\s*$", prv)):
                    continue                   # 2019-2021; (Smith et al., 2021; ...)
        keep.append(r)
    return keep


def _apply_ranges(text: str, raws: list[Raw]) -> dict[int, Raw]:
    """Give a range's first end the unit of its second ("3-5%"); return, by the id of each end,
    the range as one :class:`Raw` (the text before the first end, the unit after the second)."""
    whole: dict[int, Raw] = {}
    for a, b in zip(raws, raws[1:]):
        joint = range_joint(text, a.end, b.start) or re.fullmatch(r"\s*and\s*", text[a.end:b.start]) and "and"
        if joint and a.unit is None and a.mult == 1.0:
            if joint == "and" and b.unit not in ("%", "×", "pp"):
                continue
            a.value, a.mult, a.unit = a.value * b.mult, b.mult, b.unit     # (a.mult is 1.0)
            whole[id(a)] = whole[id(b)] = replace(b, start=a.start, core_start=a.core_start)
    return whole


def _noun(text: str, r: Raw) -> str | None:
    return count_noun_after(text, r.end) if r.unit is None or r.unit in ("h", "GPU-hours") else None


def find_numbers(text: str) -> list[NumberCandidate]:
    """Every quantity written with digits in ``text``, in order of position."""
    return [c for c, _ in explain_numbers(text)]


def explain_numbers(text: str) -> list[tuple[NumberCandidate, str]]:
    """:func:`find_numbers` with, for each number, the name of the kind rule that decided it."""
    if not isinstance(text, str) or not text:
        return []
    raws = _scan(text)
    ranges = _apply_ranges(text, raws)
    bounds = sentence_bounds(text)
    out: list[tuple[NumberCandidate, str]] = []
    seen: set[tuple[int, int]] = set()
    for r in raws:
        if (r.start, r.end) in seen or _PLURAL_NUMERAL.fullmatch(text, r.start, r.end):
            continue
        seen.add((r.start, r.end))
        noun = _noun(text, r)
        whole = ranges.get(id(r), r)       # a range is one quantity: its kind is read once
        rule = kind_rule(text, whole, noun if whole is r else _noun(text, whole), bounds)
        out.append((NumberCandidate(text[r.start:r.end], r.start, r.end, float(r.value), r.unit, rule.gives,
                                    guess_about(text, r, noun), rule.name), rule.name))
    return out
