"""Every number written with digits in an abstract, with offsets, value, unit and a kind guess.

Conventions (they follow the gold guideline, /work/shared/eval/GUIDELINE.md):

* ``text`` is an exact slice of the source and carries the sign, approximation mark, unit and
  LaTeX/markdown form: ``+5.3%``, ``79\\%``, ``$94.4$%``, ``$\\sim650\\times$``, ``d=53``.
  A ``$...$`` segment that holds nothing but the number is included whole (``$131,072$``).
* ``value`` is the plain number; multiplier suffixes are absorbed (``80B`` -> 8e10, ``32k`` ->
  32000, ``1.2 million``) and then ``unit`` is None. ``10^6``/``10^{6}``, ``1e-3`` and
  ``3\\times10^{-4}`` are evaluated. Units are normalized: ``%`` (``%``, ``\\%``, ``percent``),
  ``×`` (``x``, ``X``, ``×``, ``\\times``, ``times faster``), ``pp``, and measurement units as
  written (``ms``, ``GB``, ``h``, ...).
* Ranges (``3-5%``, ``10–20``, ``7 to 70B``) give one candidate per endpoint; the first
  endpoint keeps its own text and inherits the unit/multiplier written after the second.
* ``85.2 ± 0.3`` gives two candidates: ``85.2`` and ``± 0.3`` (value 0.3).
* Skipped: digits inside names (``Llama3-8B``, ``GPT-4``, ``Qwen2.5``, ``CIFAR-10``, ``T2I``,
  ``pass@1``, ``3D``), sub/superscripts and formula constants (``$\\ell_1$``, ``O(n^2)``,
  ``\\frac{2}{\\eta}``, ``1/\\epsilon``), citation brackets (``[12]``), URLs, enumerators
  (``(1)``), ordinals (``2nd``), numbered things (``Stage 2``, ``Table 3``, ``NeurIPS 2026``)
  and calendar years (``in 2023``).  Numbers written as words are not numbers here.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ._text import (SpanIndex, excluded_spans, math_spans, sentence_at, sentence_bounds,
                    words_after, words_before)


@dataclass(frozen=True)
class NumberCandidate:
    text: str
    start: int
    end: int
    value: float
    unit: str | None
    kind_hint: str | None
    about_hint: str


_CORE = re.compile(r"(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?|\.\d+")
_EXP_E = re.compile(r"[eE]([-+−]?\d{1,3})(?![\w])")
_POW = re.compile(r"\s*\^\s*(?:\{\s*([-+−]?\d{1,3})\s*\}|([-+−]?\d{1,3}))(?![\d.])")
_SCI = re.compile(r"\s*(?:\\times|×|x|\\cdot|·|\*)\s*10\s*\^\s*(?:\{\s*([-+−]?\d{1,3})\s*\}|([-+−]?\d{1,3}))(?![\d.])")

_MULT = {"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12,
         "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_ATTACHED_UNITS = {"ms", "s", "h", "hr", "hrs", "min", "GB", "MB", "TB", "KB", "kB", "dB", "Hz",
                   "kHz", "MHz", "GHz", "fps", "pp", "bp", "x", "X", "mm", "cm", "km", "W", "kW",
                   "GW", "J", "kJ", "FLOPs", "GFLOPs", "TFLOPs", "PFLOPs", "FLOPS", "TFLOPS", "bps",
                   "Gbps", "Mbps", "ns", "us", "µs", "μs", "sec", "mins", "ppm"}
_SPACED_UNIT = re.compile(
    r"\s?(?:(?P<pct>\\%|%)|(?P<times>×|\\times(?![A-Za-z]))"
    r"|(?P<word>percent(?:age points?)?|pp|ms|ns|GB|MB|TB|KB|dB|Hz|kHz|MHz|GHz|fps|FLOPs|GFLOPs|"
    r"TFLOPs|PFLOPs|GPU[- ]hours|hours|hrs|seconds|minutes|days)(?![A-Za-z])"
    r"|(?P<mult>thousand|million|billion|trillion)(?![A-Za-z])"
    r"|(?P<xtimes>times)(?=\s+(?:faster|slower|more|fewer|less|higher|lower|larger|smaller|"
    r"better|worse|cheaper|speed|reduction|improvement|increase|as)))")
_UNIT_NORMAL = {"percent": "%", "percentage point": "pp", "percentage points": "pp", "pp": "pp",
                "x": "×", "X": "×", "times": "×", "hours": "h", "hrs": "h", "hr": "h",
                "seconds": "s", "sec": "s", "minutes": "min", "mins": "min", "days": "d",
                "GPU hours": "GPU-hours", "GPU-hours": "GPU-hours"}
# LaTeX commands that may sit right before a number without making it part of a formula.
_OK_COMMANDS = {"sim", "approx", "pm", "mp", "times", "leq", "geq", "le", "ge", "lt", "gt",
                "textbf", "mathbf", "textit", "emph", "text", "mathrm", "underline", "boldsymbol",
                "bf", "quad", "qquad", "left", "right", "ldots", "dots", "cdots", "in", "sim",
                "textrm", "mathit", "textsc", "textsf", "mathsf", "approx", "simeq", "Delta"}
_WRAP_OPEN = re.compile(r"\\(?:textbf|mathbf|textit|emph|text|mathrm|underline|boldsymbol|"
                        r"textrm|mathit|textsc|textsf|mathsf)\{$")
_FORMULA_BEFORE = re.compile(
    r"(?:[_^]\s*\{?\s*[-+−]?\s*|\\(?:frac|dfrac|tfrac|binom)\s*(?:\{[^{}]*\}\s*)?\{\s*[-+−]?\s*"
    r"|\\sqrt\s*(?:\[[^\]]*\])?\s*\{?\s*|(?:\b[OΘΩo]|\\Theta|\\Omega|\\mathcal\s*\{?\s*O\s*\}?|"
    r"\\widetilde\s*\{?\s*O\s*\}?|\\tilde\s*\{?\s*O\s*\}?|\\log|\\exp|\\ln|\\poly|poly|\\mathrm\{poly\})"
    r"\s*\(\s*[-+−]?\s*|[/*]\s*)$")
_SECTION_WORDS = {"stage", "phase", "step", "table", "tab", "figure", "fig", "section", "sec",
                  "theorem", "lemma", "corollary", "proposition", "definition", "eq", "equation",
                  "level", "track", "version", "round", "part", "type", "tier", "appendix",
                  "chapter", "algorithm", "alg", "experiment", "exp", "case", "example", "task",
                  "setting", "question", "problem", "rule", "layer", "block", "day", "week",
                  "month", "year", "v", "no", "number", "grade", "class", "category", "split",
                  "fold", "head", "epoch", "iteration", "iter", "batch", "sample", "group", "q"}
_DATE_PREPS = {"in", "since", "from", "until", "till", "by", "before", "after", "during",
               "between", "through", "circa", "early", "late", "mid", "and", "to", "of", "the"}
_VAR_PREFIX = re.compile(r"(?:(?<![A-Za-z\\])[A-Za-z]|\\[A-Za-z]+)(?:_\{?[A-Za-z0-9]+\}?)?\s*=\s*$")


def _to_float(core: str) -> float | None:
    try:
        return float(core.replace(",", ""))
    except ValueError:
        return None


def _safe_pow(base: float, exp: float) -> float:
    try:
        v = math.pow(base, exp)
    except (OverflowError, ValueError, ZeroDivisionError):
        return math.inf
    return v


# ---------------------------------------------------------------------------------------
# parse_number: value and unit of an arbitrary span
# ---------------------------------------------------------------------------------------
_PARSE = re.compile(
    r"(?P<sign>[+\-−±])?\s*(?P<core>(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?|\.\d+)"
    r"(?:[eE](?P<e>[-+−]?\d{1,3})(?![A-Za-z]))?"
    r"(?:\s*\^\s*(?P<pow>[-+−]?\d{1,3}))?"
    r"(?:\s*[×x·*]\s*10\s*\^\s*(?P<sci>[-+−]?\d{1,3}))?"
    r"\s*(?P<suffix>%|percentage points?|percent|pp(?![A-Za-z])|×|times|"
    r"thousand|million|billion|trillion|[xX](?![A-Za-z0-9])|[kKMBT](?![A-Za-z0-9])|"
    r"(?:ms|ns|GB|MB|TB|KB|kB|dB|Hz|kHz|MHz|GHz|fps|FLOPs|GFLOPs|TFLOPs|PFLOPs|GPU-hours|"
    r"hours|hrs|hr|h|seconds|sec|s|minutes|mins|min|days)(?![A-Za-z]))?")
_PARSE_STRIP = [(re.compile(r"\\(?:textbf|mathbf|textit|emph|text|mathrm|underline|boldsymbol|"
                            r"textrm|mathit|textsc|textsf|mathsf)\s*\{"), ""),
                (re.compile(r"\\times(?![A-Za-z])"), "×"), (re.compile(r"\\cdot(?![A-Za-z])"), "·"),
                (re.compile(r"\\%"), "%"), (re.compile(r"\\pm(?![A-Za-z])"), "±"),
                (re.compile(r"\\mp(?![A-Za-z])"), "±"),
                (re.compile(r"\\(?:sim|approx|simeq|quad|qquad|,|;|!|:|left|right)(?![A-Za-z])"), " "),
                (re.compile(r"[${}~≈∼*`]"), " ")]


def parse_number(span: str) -> tuple[float, str | None] | None:
    """Value and normalized unit of a number span; None when it holds no digits.

    Never raises. Examples: ``"85,229"`` -> (85229.0, None); ``"$\\sim650\\times$"`` ->
    (650.0, "×"); ``"80B"`` -> (8e10, None); ``"$94.4$%"`` -> (94.4, "%").
    """
    if not isinstance(span, str) or not any(ch.isdigit() for ch in span):
        return None
    s = span
    for pat, rep in _PARSE_STRIP:
        s = pat.sub(rep, s)
    # collapse spaces between a closing math delimiter and the unit ("$94.4$%" -> "94.4  %")
    for m in _PARSE.finditer(s):
        before = s[: m.start("core")].rstrip(" +-−±")
        if before and (before[-1].isalpha() and not _VAR_PREFIX.search(s[: m.start()] or "")
                       and not before.endswith(("=",)) and before[-1] not in "×"):
            # digits glued to letters (a name such as GPT-4): try the next number
            if m.start("core") > 0 and (s[m.start("core") - 1].isalnum() or s[m.start("core") - 1] == "-"):
                continue
        value = _to_float(m.group("core"))
        if value is None:
            continue
        if m.group("e"):
            value *= _safe_pow(10.0, float(m.group("e").replace("−", "-")))
        if m.group("pow"):
            value = _safe_pow(value, float(m.group("pow").replace("−", "-")))
        if m.group("sci"):
            value *= _safe_pow(10.0, float(m.group("sci").replace("−", "-")))
        unit = None
        suffix = m.group("suffix")
        if suffix:
            if suffix in _MULT:
                value *= _MULT[suffix]
            elif suffix in ("%",):
                unit = "%"
            elif suffix in ("×",):
                unit = "×"
            else:
                unit = _UNIT_NORMAL.get(suffix, suffix)
        if m.group("sign") in ("-", "−"):
            value = -value
        return value, unit
    return None


# ---------------------------------------------------------------------------------------
# find_numbers
# ---------------------------------------------------------------------------------------
@dataclass
class _Raw:
    start: int            # of the displayed text
    end: int
    core_start: int
    core_end: int
    value: float
    unit: str | None
    mult: float = 1.0
    signed: bool = False
    in_math: bool = False


def _left_token(text: str, s: int) -> tuple[str, int]:
    """The alphanumeric token glued to the left of position s (through - . / @ ')."""
    i = s
    while i > 0:
        ch = text[i - 1]
        if ch.isalnum():
            i -= 1
        elif ch in "-./@'’" and i - 2 >= 0 and text[i - 2].isalnum() and i != s or (
                ch in "-./@" and i == s and i - 2 >= 0 and text[i - 2].isalnum()):
            i -= 1
        else:
            break
    return text[i:s], i


def _prev_word(text: str, s: int) -> tuple[str, int] | None:
    m = re.search(r"([A-Za-z][A-Za-z\-]*)[ \u00a0]$", text[max(0, s - 40):s])
    if not m:
        return None
    return m.group(1), s - (len(m.group(0)))


def _sentence_initial(text: str, pos: int) -> bool:
    before = text[max(0, pos - 4):pos].rstrip(" \"'(*`")
    return pos == 0 or before == "" or before[-1] in ".!?:;\n"


def _reject_left(text: str, s: int, math: tuple[int, int] | None) -> bool:
    ctx = text[max(0, s - 40):s]
    if _FORMULA_BEFORE.search(ctx):
        return True
    tok, i = _left_token(text, s)
    if tok and any(ch.isalpha() for ch in tok):
        if i > 0 and text[i - 1] == "\\" and tok.isalpha():
            return tok not in _OK_COMMANDS        # \sim650 is fine, \ell1 is not
        return True                                 # GPT-4, Llama3-8B, pass@1, T2I
    if tok and tok[-1:] in ".":                    # 1.2.3 (version): second part
        return True
    if math is not None:
        j = s - 1
        while j > math[0] and text[j] in " {":
            if text[j] == "{" and not _WRAP_OPEN.search(text[max(0, math[0]):j + 1]):
                break
            j -= 1
        prev = text[j] if j >= math[0] else "$"
        if prev.isalpha() and not re.search(r"\\[A-Za-z]+$", text[math[0]:j + 1]):
            return True                             # 2 after a variable: n 2 / x2
        if prev in ")!|":
            return True
    return False


def _reject_right(text: str, e: int, math: tuple[int, int] | None) -> bool:
    nxt = text[e:e + 12]
    if re.match(r"\s*/\s*(?:\\?[A-Za-z(])", nxt):   # 1/\epsilon, 1/T
        return True
    if re.match(r"\^\s*\{?\s*\\?[A-Za-z]", nxt):       # 2^n
        return True
    if re.match(r"\s*!", nxt):
        return True
    if math is not None:
        rest = text[e:math[1]]
        m = re.match(r"\s*(\\[A-Za-z]+|[A-Za-z(+\-−*/_^|])", rest)
        if m:
            tok = m.group(1)
            if tok.startswith("\\"):
                return tok[1:] not in _OK_COMMANDS and tok[1:] not in ("%", "cdot")
            if tok in ("x", "X") and not re.match(r"\s*[xX]\s*[A-Za-z0-9\\]", rest):
                return False
            return True
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


def _scan(text: str) -> list[_Raw]:
    maths = math_spans(text)
    math_idx, excl = SpanIndex(maths), SpanIndex(excluded_spans(text))
    out: list[_Raw] = []
    pos = 0
    while True:
        m = _CORE.search(text, pos)
        if not m:
            break
        s, e = m.span()
        pos = e
        if s > 0 and (text[s - 1].isdigit() or (text[s - 1] == "." and s > 1 and text[s - 2].isdigit())):
            continue
        if m.group(0).startswith(".") and s > 0 and (text[s - 1].isalnum()):
            continue
        if excl.find(s):
            continue
        math = math_idx.find(s)
        value = _to_float(m.group(0))
        if value is None:
            continue
        # exponent forms glued to the core
        ce = e
        mm = _EXP_E.match(text, ce)
        if mm and "." not in text[ce:mm.end()]:
            value *= _safe_pow(10.0, float(mm.group(1).replace("−", "-")))
            ce = mm.end()
        else:
            mm = _SCI.match(text, ce)
            if mm:
                value *= _safe_pow(10.0, float((mm.group(1) or mm.group(2)).replace("−", "-")))
                ce = mm.end()
            else:
                mm = _POW.match(text, ce)
                if mm:
                    value = _safe_pow(value, float((mm.group(1) or mm.group(2)).replace("−", "-")))
                    ce = mm.end()
        pos = max(pos, ce)
        if _reject_left(text, s, math) or _reject_right(text, ce, math):
            continue
        # letters glued to the right: multiplier, unit, or a name/ordinal (reject)
        unit, mult, end = None, 1.0, ce
        g = re.match(r"[A-Za-zµμ]+", text[ce:])
        if g:
            w = g.group(0)
            after = text[ce + len(w): ce + len(w) + 1]
            if w in ("k", "K", "M", "B", "T") and not after.isalnum():
                mult, end = _MULT[w], ce + len(w)
            elif w in _ATTACHED_UNITS and not (w in ("x", "X") and after.isdigit()) and not after.isalnum():
                unit, end = _UNIT_NORMAL.get(w, w), ce + len(w)
            elif w in ("x", "X") and after.isdigit():
                pass                                        # 3x3: a shape, no unit
            else:
                continue                                    # 3D, 2nd, 4o, 2n
        cs, ce_core = s, ce
        start = s
        # wrapper \textbf{12.3}
        if start > 0 and _WRAP_OPEN.search(text[max(0, start - 14):start]) and text[end:end + 1] == "}":
            w = _WRAP_OPEN.search(text[max(0, start - 14):start])
            start = max(0, start - 14) + w.start()
            end += 1
        # sign / approximation / variable prefix
        signed = False
        j = start
        k = j
        while k > 0 and text[k - 1] == " " and j - k < 1:
            k -= 1
        for pre in ("\\pm", "\\mp"):
            if text[max(0, k - len(pre)):k] == pre:
                j, signed = k - len(pre), True
                break
        else:
            if k > 0 and text[k - 1] == "±":
                j, signed = k - 1, True
            elif j > 0 and text[j - 1] in "+-−±" and (j == 1 or not (text[j - 2].isalnum() or text[j - 2] in ")]}%")):
                j, signed = j - 1, True
                if text[j] in "-−":
                    value = -value
        if j > 0 and text[j - 1] in "~∼≈":
            j -= 1
        vp = _VAR_PREFIX.search(text[max(0, j - 30):j])
        if vp and not (math is None and vp.group(0).startswith("\\")):
            cand = max(0, j - 30) + vp.start()
            if cand > 0 and text[cand - 1] in "_^":
                pass
            else:
                j = cand
        start = j
        # unit after the number (possibly after a space)
        if unit is None and mult == 1.0:
            um = _SPACED_UNIT.match(text, end)
            if um and not (um.group(0).startswith(" ") and um.group("pct") is None and um.group("times") is None
                           and False):
                if um.group("pct"):
                    unit = "%"
                elif um.group("times") or um.group("xtimes"):
                    unit = "×"
                elif um.group("mult"):
                    mult = _MULT[um.group("mult")]
                else:
                    wd = um.group("word")
                    unit = _UNIT_NORMAL.get(wd, "%" if wd.startswith("percent") and "point" not in wd else wd)
                    if wd.startswith("percentage"):
                        unit = "pp"
                end = um.end()
        # pure math segment: take it whole, then a unit right after the closing $
        if math is not None and _is_pure_math(text, math[0], math[1], s, ce_core):
            start, end = min(start, math[0]), max(end, math[1])
            if re.search(r"\\%|%|\\times(?![A-Za-z])|×", text[math[0]:math[1]]):
                unit = unit or ("%" if "%" in text[math[0]:math[1]] else "×")
            if re.search(r"\\sim|\\approx", text[math[0]:math[1]]):
                pass
            if unit is None and mult == 1.0:
                am = re.match(r"\\%|%|×|[xX](?![A-Za-z0-9])", text[end:])
                if am:
                    unit = "%" if "%" in am.group(0) else "×"
                    end += len(am.group(0))
            if re.search(r"[-−]\s*$", text[math[0] + 1:s]) and value > 0 and not signed:
                if not re.search(r"\d\s*[-−]\s*$", text[math[0] + 1:s]):
                    value, signed = -value, True
        elif math is not None and (start < math[0] or end > math[1]):
            start, end = max(start, math[0]), min(end, math[1])
        # enumerators (1) and citation-like leftovers
        if text[s - 1:s] == "(" and text[end:end + 1] == ")" and unit is None and mult == 1.0 \
                and "." not in m.group(0) and len(m.group(0)) <= 2 and start == s:
            continue
        out.append(_Raw(start, end, s, ce_core, value * mult, unit, mult, signed, math is not None))
    return _drop_named(text, out)


def _drop_named(text: str, raws: list[_Raw]) -> list[_Raw]:
    """Numbers that label things (Stage 2, NeurIPS 2026, in 2023) are not quantities."""
    keep = []
    for r in raws:
        core = text[r.core_start:r.core_end]
        plain_int = core.isdigit() and r.unit is None and r.mult == 1.0 and not r.signed and r.start == r.core_start
        if plain_int:
            pw = _prev_word(text, r.start)
            if pw:
                word, wpos = pw
                if word.lower() in _SECTION_WORDS:
                    continue
                if any(ch.isupper() for ch in word) and not _sentence_initial(text, wpos) \
                        and word.lower() not in ("over", "about", "nearly", "only", "with", "all"):
                    continue
                if len(core) == 4 and 1900 <= int(core) <= 2100 and word.lower() in _DATE_PREPS:
                    continue
            if len(core) == 4 and 1950 <= int(core) <= 2100:
                nxt = text[r.end:r.end + 6]
                prv = text[max(0, r.start - 6):r.start]
                if re.match(r"\s*[-–—/]\s*(19|20)\d\d", nxt) or re.search(r"(19|20)\d\d\s*[-–—/]\s*$", prv):
                    continue
                if re.match(r"[)\]]", nxt) and re.search(r"[,(]\s*$", prv):
                    continue                   # (Smith et al., 2021)
        keep.append(r)
    return keep


def _apply_ranges(text: str, raws: list[_Raw]) -> None:
    for a, b in zip(raws, raws[1:]):
        gap = text[a.end:b.start]
        if re.fullmatch(r"\s*(?:-|–|—|to|~|and)\s*", gap) and a.unit is None and a.mult == 1.0:
            if gap.strip() == "and" and b.unit not in ("%", "×", "pp"):
                continue
            if b.mult != 1.0:
                a.value *= b.mult
                a.mult = b.mult
            a.unit = b.unit


# ---------------------------------------------------------------------------------------
# kind and about
# ---------------------------------------------------------------------------------------
_RESULT_CUES = re.compile(
    r"\b(?:improv\w*|gain\w*|boost\w*|increas\w*|reduc\w*|decreas\w*|drop\w*|declin\w*|outperform\w*|"
    r"achiev\w*|reach\w*|attain\w*|obtain\w*|surpass\w*|exceed\w*|beat\w*|speed-?ups?|faster|slower|"
    r"accura\w*|errors?|scores?|f1|auc|auroc|bleu|rouge|mae|mse|rmse|perplexity|ppl|rates?|"
    r"precision|recall|success|correlat\w*|explain\w*|accounts?|lower\w*|higher|better|fewer|less|"
    r"sav\w*|cut\w*|yield\w*|deliver\w*|margin|relative|absolute|average|mean|median|up|only|"
    r"match\w*|recover\w*|retain\w*|preserv\w*|acceleration|accelerat\w*|compress\w*|win|wins|"
    r"pass|solv\w*|top|state-of-the-art|sota|performance|perform\w*|degrad\w*|leads?|lift\w*|"
    r"advantage|hallucinat\w*|agreement|coverage|fidelity|efficien\w*|throughput|latency|"
    r"increment|percentage|fraction|share|proportion|variance|r2|significant\w*|p|r|rho|kappa)\b")
_STRONG_RESULT = re.compile(
    r"\b(?:improv\w*|gain\w*|boost\w*|reduc\w*|decreas\w*|drop\w*|outperform\w*|achiev\w*|"
    r"reach\w*|attain\w*|surpass\w*|exceed\w*|speed-?ups?|accura\w*|errors?|scores?|f1|auc|"
    r"correlat\w*|explain\w*|accounts?|sav\w*|lower\w*|higher|faster|yield\w*|win|cut\w*|"
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
              "its", "his", "perplexities", "series", "species", "chess", "glass"}
_FUNCTION = {"the", "a", "an", "of", "on", "in", "and", "or", "for", "to", "with", "by", "at",
             "from", "than", "while", "over", "up", "into", "per", "as", "its", "their", "our",
             "that", "which", "over", "across", "only", "nearly", "about", "approximately",
             "roughly", "around", "almost", "more", "less", "respectively", "e", "g", "i",
             "when", "where", "is", "are", "was", "were", "be", "been", "has", "have", "this",
             "these", "those", "it", "we", "they", "also", "both", "each", "all", "same", "between"}


_STOP_ABOUT = {"while", "whereas", "compared", "relative", "respectively", "over", "versus", "vs",
               "when", "than", "and", "or", "but", "using", "which", "that", "higher", "lower",
               "better", "worse", "faster", "slower", "more", "less", "fewer"}


def _count_noun_after(text: str, end: int) -> str | None:
    """The plural (or count) noun right after a number, allowing a few modifiers: '13,747
    realistic, multi-sentence consumer product queries' -> 'consumer product queries'."""
    seg = text[end:end + 90]
    m = re.match(r"\s*-\s*([A-Za-z]+)", seg)          # 8-bit, 2-layer, 7B-parameter
    if m and m.group(1).lower() in _COUNT_NOUN_SINGULAR | {"dimensional", "d", "shot", "way", "fold", "hop"}:
        return m.group(1).lower()
    if m:
        return m.group(1).lower()
    words = re.findall(r"[A-Za-z][A-Za-z\-]*|[,.;:()]|\S", seg)
    phrase: list[str] = []
    for w in words[:8]:
        lw = w.lower()
        if lw in (".", ";", ":", "(", ")") or lw in ("and", "or", "than", "of", "in", "on", "for",
                                                     "to", "with", "from", "by", "that", "which"):
            break
        if lw == ",":
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


def _about(text: str, r: _Raw, noun: str | None) -> str:
    if noun:
        return noun
    after = words_after(text, r.end, 5)
    nxt = text[r.end:r.end + 40]
    if re.match(r"\s+[A-Za-z]", nxt) and after and after[0] not in _FUNCTION and after[0] not in _STOP_ABOUT:
        phrase = []
        for w in after:
            if w in _FUNCTION or w in _STOP_ABOUT:
                break
            phrase.append(w)
            if len(phrase) == 3:
                break
        return " ".join(phrase)
    if after[:1] and after[0] in ("of", "in", "on") and not re.match(r"\s*\w+\s+\$?[\d.]", nxt):
        tail = []
        for w in after[1:]:
            if w in _FUNCTION and tail:
                break
            if w not in _FUNCTION:
                tail.append(w)
            if len(tail) == 3:
                break
        if tail:
            return " ".join(tail)
    before = words_before(text, r.start, 8)
    phrase: list[str] = []
    for w in reversed(before):
        if w in _FUNCTION or w in ("by", "of", "to", "up"):
            if phrase:
                break
            continue
        phrase.insert(0, w)
        if len(phrase) == 3:
            break
    return " ".join(phrase)


def _kind(text: str, r: _Raw, noun: str | None, bounds) -> str:
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
    if re.search(r"(?:\bp\s*[<=≤]|\bp-value\s*(?:of|<|=)?|\br\s*=|\\rho\s*=|ρ\s*=|\bκ\s*=|"
                 r"\br\^2\s*=|\bR\^?2\s*=)\s*\$?\s*$", text[max(0, r.start - 12):r.core_start]):
        return "result"
    strong_before = _STRONG_RESULT.search(near_before)
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


def find_numbers(text: str) -> list[NumberCandidate]:
    """Every quantity written with digits in ``text``, in order of position."""
    if not isinstance(text, str) or not text:
        return []
    raws = _scan(text)
    _apply_ranges(text, raws)
    bounds = sentence_bounds(text)
    out: list[NumberCandidate] = []
    seen: set[tuple[int, int]] = set()
    for r in raws:
        if (r.start, r.end) in seen or r.start >= r.end:
            continue
        seen.add((r.start, r.end))
        noun = _count_noun_after(text, r.end) if r.unit is None or r.unit in ("h", "GPU-hours") else None
        kind = _kind(text, r, noun, bounds)
        about = _about(text, r, noun)
        value = r.value if math.isfinite(r.value) else r.value
        out.append(NumberCandidate(text[r.start:r.end], r.start, r.end, value, r.unit, kind, about))
    return out
