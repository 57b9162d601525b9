r"""Numerals as written in abstracts: the lexical pieces of a number (digits with thousands
separators, exponents, multiplier words, units) and :func:`parse_number`, the value and unit
of a span.  Pure, never raises; imports nothing from ``extract``.

>>> parse_number("$\\sim650\\times$"), parse_number("1.2 million")
((650.0, '×'), (1200000.0, None))
"""

from __future__ import annotations

import math
import re

__all__ = ["ATTACHED_UNITS", "CORE", "EXP_E", "EXP_VAR", "MULT", "OK_COMMANDS", "POW", "SCI", "SPACED_UNIT",
           "UNIT_NORMAL", "VAR_PREFIX", "WRAP_OPEN", "parse_number", "parse_number_at", "product_of_sizes", "range_joint",
           "safe_pow", "to_float"]

# (the lookahead of its first characters: re skips the other positions fast)
CORE = re.compile(r"(?=[\d.])(?:\d{1,3}(?:(?:,|\\,|\{,\}|\u2009|\u202f|\u00a0)\d{3})+(?!\d)|\d{1,3}(?: 000)+(?![\d.,])"
                   r"|\d+)(?:\.\d+)?|\.\d+")
EXP_E = re.compile(r"[eE]([-+−]?\d{1,3})(?![\w])")
EXP_VAR = re.compile(r"\^\s*(?:[A-Za-z]|\{\s*[A-Za-z]+\s*\})(?![A-Za-z^_{])")     # 1.9999^n: an exponential's base
POW = re.compile(r"\s*\^\s*(?:\{\s*([-+−]?\d{1,3})\s*\}|([-+−]?\d{1,3}))(?![\d.])")
SCI = re.compile(r"\s*(?:\\times|×|x|\\cdot|·|\*)\s*10\s*\^\s*(?:\{\s*([-+−]?\d{1,3})\s*\}|([-+−]?\d{1,3}))(?![\d.])")

MULT = {"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12,
         "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
ATTACHED_UNITS = set("""ms s h hr hrs min GB MB TB KB kB dB Hz kHz MHz GHz fps pp bp x X mm cm km W kW GW J kJ FLOPs
GFLOPs TFLOPs PFLOPs FLOPS TFLOPS bps Gbps Mbps ns us µs μs sec mins ppm ° °C °F""".split())
SPACED_UNIT = re.compile(
    r"\s?(?:(?P<pct>\\%|%|\$\s*\\%\s*\$)|(?P<times>×|\\times(?![A-Za-z])|\$\s*\\times\s*\$)"
    r"|(?P<word>percent(?:age points?)?|pp|ms|ns|GB|MB|TB|KB|dB|Hz|kHz|MHz|GHz|fps|FLOPs|GFLOPs|"
    r"TFLOPs|PFLOPs|GPU[- ]hours|hours|hrs|seconds|minutes|days)(?![A-Za-z])"
    r"|(?P<mult>thousand|million|billion|trillion)(?![A-Za-z])"
    r"|(?P<xtimes>times)(?=\s+(?:faster|slower|more|fewer|less|higher|lower|larger|smaller|"
    r"better|worse|cheaper|speed|reduction|improvement|increase|as)))")
UNIT_NORMAL = {"percent": "%", "percentage point": "pp", "percentage points": "pp", "pp": "pp",
                "x": "×", "X": "×", "times": "×", "hours": "h", "hrs": "h", "hr": "h",
                "seconds": "s", "sec": "s", "minutes": "min", "mins": "min", "days": "d",
                "GPU hours": "GPU-hours", "GPU-hours": "GPU-hours"}
# LaTeX commands that may sit right before a number without making it part of a formula.
OK_COMMANDS = set("""sim approx pm mp times leq geq le ge lt gt textbf mathbf textit emph text mathrm underline
boldsymbol bf quad qquad left right ldots dots cdots in textrm mathit textsc textsf mathsf simeq Delta""".split())
_WRAPPER = r"\\(?:textbf|mathbf|textit|emph|text|mathrm|underline|boldsymbol|textrm|mathit|textsc|textsf|mathsf)"
WRAP_OPEN = re.compile(_WRAPPER + r"\{$")
VAR_PREFIX = re.compile(r"(?:(?<![A-Za-z\\])[A-Za-z]|\\[A-Za-z]+)(?:_\{?[A-Za-z0-9]+\}?)?\s*=\s*$")
_PARSE = re.compile(
    r"(?P<sign>[+\-−±])?\s*(?P<core>" + CORE.pattern + ")"     # (no "\," nor "{,}" there after _PARSE_STRIP)
    r"(?:[eE](?P<e>[-+−]?\d{1,3})(?![A-Za-z]))?"
    r"(?:\s*\^\s*(?P<pow>[-+−]?\d{1,3}))?"
    r"(?:\s*[×x·*]\s*10\s*\^\s*(?P<sci>[-+−]?\d{1,3}))?"
    r"\s*(?P<suffix>%|percentage points?|percent|pp(?![A-Za-z])|×|times|"
    r"thousand|million|billion|trillion|[xX](?![A-Za-z0-9])|[kKMBT](?![A-Za-z0-9])|"
    r"(?:ms|ns|GB|MB|TB|KB|kB|dB|Hz|kHz|MHz|GHz|fps|FLOPs|GFLOPs|TFLOPs|PFLOPs|GPU-hours|"
    r"hours|hrs|hr|h|seconds|sec|s|minutes|mins|min|days)(?![A-Za-z])|°[CF]?)?")
_PARSE_STRIP = [(re.compile(r"(?<=\d)(?:\\,|\{,\})(?=\d{3})"), ","),
                (re.compile(_WRAPPER + r"\s*\{"), ""),
                (re.compile(r"\\times(?![A-Za-z])"), "×"), (re.compile(r"\\cdot(?![A-Za-z])"), "·"),
                (re.compile(r"\\%"), "%"), (re.compile(r"\\(?:pm|mp)(?![A-Za-z])"), "±"),
                (re.compile(r"\\(?:sim|approx|simeq|quad|qquad|,|;|!|:|left|right)(?![A-Za-z])"), " "),
                (re.compile(r"[${}~≈∼*`]"), " ")]
# What joins a range's two ends: a dash ("3-5%", "10 – 20", "100k--1.2M"), a tilde as written or
# TeX's ("0.6% ∼ 2.7%", "10$\sim$20"; glued to the second end: "85∼95%") or "to" ("7 to 70B")
_JOINT = r"-{1,3}|[–—~∼]|\\sim(?![A-Za-z])|to"
_RANGE_GAP = re.compile(r"[\s$]*(" + _JOINT + r")[\s$]*")
_RANGE_TAIL = re.compile(r"[\s$]*(?:" + _JOINT + r")[\s$]*(?:\\sim\s*|~\s*)?"
                         r"((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)[\s$]*"
                         r"(\\%|%|percent\b|×|\\times(?![A-Za-z])|[xX](?![A-Za-z0-9])|[kKMBT](?![A-Za-z0-9])|"
                         r"(?:thousand|million|billion|ms|GB|MB|h|hours|s|min|pp)(?![A-Za-z]))")


def to_float(core: str) -> float:
    """The value of a number's digits (a match of CORE: every separator it allows dropped)."""
    return float(re.sub(r"\\,|\{,\}|[, \u2009\u202f\u00a0]", "", core))


def safe_pow(base: float, exp: float) -> float:
    try:
        return math.pow(base, exp)
    except (OverflowError, ValueError, ZeroDivisionError):
        return math.inf


_FACTOR = re.compile(r"[\s$]*\d")


def product_of_sizes(text: str, start: int, end: int) -> bool:
    """Whether the "×" that ends the number ``text[start:end]`` multiplies sizes ("1024 × 1024
    pixels", "$160 \\times 160$"): a number follows it, and the text is not rendered twice
    ("2.4\\times2.4\\times": then it is a "times")."""
    return bool(_FACTOR.match(text, end)) and text.find(text[start:end], end, end + 16) < 0


def parse_number(span: str) -> tuple[float, str | None] | None:
    """Value and normalized unit of a number span (``"80B"`` -> (8e10, None), ``"$94.4$%"`` ->
    (94.4, "%")); None when it holds no digits. Never raises."""
    if not isinstance(span, str) or not any(ch.isdigit() for ch in span):
        return None
    s = span
    for pat, rep in _PARSE_STRIP:
        s = pat.sub(rep, s)
    for m in _PARSE.finditer(s):
        at = m.start("core")
        if s[:at].rstrip(" +-−±")[-1:].isalpha() and (s[at - 1].isalnum() or s[at - 1] == "-") \
                and not VAR_PREFIX.search(s[:m.start()]):
            continue            # digits glued to letters (a name such as GPT-4): try the next number
        value = to_float(m.group("core"))
        for g, base in (("e", 10.0), ("pow", None), ("sci", 10.0)):
            if m.group(g):
                x = float(m.group(g).replace("−", "-"))
                value = value * safe_pow(base, x) if base else safe_pow(value, x)
        suffix = m.group("suffix")
        value *= MULT.get(suffix, 1.0)
        unit = UNIT_NORMAL.get(suffix, suffix) if suffix and suffix not in MULT else None
        if unit == "×" and product_of_sizes(s, m.start(), m.end()):
            unit = None                                 # "224×224": a size, as the number layer reads it
        return (-value if m.group("sign") in ("-", "−") else value), unit
    return None


def range_joint(text: str, end: int, start: int) -> str | None:
    """What joins the number ending at ``end`` to the next one, starting at ``start``, when the two
    are the ends of one range ("-", "–", "~", "\\sim", "to"), else None.  "to" is returned as
    such: "from 6.8% to 1.5%" is two values to a reader of claims, one unit to the number layer."""
    if start == end:                    # (a tilde read as the second end's own "about": "85∼95%")
        return "~" if text[start:start + 1] in "~∼" else None
    m = _RANGE_GAP.fullmatch(text, end, start)
    return m.group(1) if m else None


def parse_number_at(source: str, start: int, end: int) -> tuple[float, str | None] | None:
    """:func:`parse_number` of ``source[start:end]``, where the first endpoint of a range
    inherits the unit or multiplier written after the second ("10-15%": 10 %; "7 to 70B": 7e9),
    as the number layer's candidates do."""
    parsed = parse_number(source[start:end])
    if parsed is None or parsed[1] is not None or re.search(r"[A-Za-z%×]", source[start:end]):
        return parsed
    m = _RANGE_TAIL.match(source, end)
    tail = m and parse_number(m.group(0).lstrip(" $-–—to~∼\\sim"))
    if not tail:
        return parsed
    core = to_float(m.group(1))
    mult = tail[0] / core if tail[1] is None and core else 1.0
    return parsed[0] * mult, tail[1]
