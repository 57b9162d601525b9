"""Whether a number is a result (an outcome the paper reports) or a setting (a size, count or
hyperparameter): :data:`KIND_RULES`, ordered, the first that holds decides. Each reads a
:class:`Context` of the number; each names an example (tests/test_candidates_rules.py checks it)."""

from __future__ import annotations

import re
from functools import cached_property

from ..text.numparse import EXP_VAR
from ..text.sentences import sentence_at, words_before
from .number_about import Raw
from .rules import Rule, first

__all__ = ["KIND_RULES", "Context", "kind_rule"]

_RESULT_CUES = re.compile(
    r"\b(?:improv\w*|gain\w*|boost\w*|increas\w*|reduc\w*|outperform\w*|achiev\w*|reach\w*|obtain\w*|surpass\w*|"
    r"faster|accura\w*|errors?|scores?|f1|bleu|rates?|precision|success|correlat\w*|lower\w*|higher|better|less|"
    r"yield\w*|relative|average|mean|up|only|match\w*|accelerat\w*|solv\w*|top|state-of-the-art|"
    r"state\s+of\s+the\s+art|perform\w*|leads?|efficien\w*|significant\w*)\b")
_STRONG_RESULT = re.compile(
    r"\b(?:improv\w*|gain\w*|boost\w*|reduc\w*|decreas\w*|drop\w*|outperform\w*|achiev\w*|"
    r"reach\w*|attain\w*|surpass\w*|exceed\w*|speed-?ups?|accura\w*|errors?|scores?|f1|auc|"
    r"correlat\w*|explain\w*|accounts?|sav\w*|lower\w*|higher|faster|yield\w*|win|cut(?:s|ting)?|"
    r"compress\w*|accelerat\w*|declin\w*|increas\w*|lift\w*)\b(?![\-‐])")   # not "lower-body", "higher-order"

# "10% of the training data", "1% of annotated data"
_OF_DATA_AFTER = re.compile(r"\s*(?:of\s+(?:the\s+)?(?:[a-z][\w\-]*\s+){0,2}?"
                            r"(?:data|labels|samples|examples|parameters|weights|tokens|compute|budget|"
                            r"training|dataset|annotations)|(?!(?:fewer|less|more|with)\b)(?:[a-z][\w\-]*\s+)?parameters)\b")
_USING_BEFORE = re.compile(r"\b(?:us(?:e[sd]?|ing)|with|only|(?:train|fine-tun)\w*|on|sampl\w*)\b[^.]*$")
_STATISTIC_HEAD = re.compile(r"(?:\bp\s*[<=≤]|\b[rR]\s*=)\s*\$?\s*$")     # p-values, correlations: "statistical findings"
_VARIABLE_HEAD = re.compile(r"(?:(?<![A-Za-z\\])[A-Za-z]|\\[A-Za-z]+)(?:_\{?\w+\}?)?\s*(?:=|<|>|\\[lg]eq?|≤|≥)"
                            r"\s*\$?\s*$")
_BOUND_HEAD = re.compile(r"(?:\\[lg]eq?|<|>)\s*$")


# "55 frames per second", "4.4 body lengths per second": a rate, measured (not a count)
_RATE_AFTER = re.compile(r"\s*(?:[a-z][\w-]*\s+){1,2}per\s+(?:second|sec|minute|min|hour|day)\b")
_FPS_AFTER = re.compile(r"\s*fps\b")             # "runs at 32 FPS" (lower-cased): frames per second
_BY, _FROM = re.compile(r"\bby\s*(?:up to|about|over|nearly|only)?\s*$"), re.compile(r"\bfrom\s*$")
_DECIMAL_RATE_NOT = re.compile(r"\b(?:train\w*|consist\w*|us\w+|with|of)\s*$")
_MEASURED_BEFORE = re.compile(r"\b(?:in|within|under|to|by)\s*(?:only|just|about|roughly|under)?\s*$")
_CUE_BEFORE = re.compile(r"\b(?:of|by|to|at|from|achieves)\s*(?:up to|about|nearly|over|around|"
                         r"approximately)?\s*$")


def _ends(pat: re.Pattern, s: str):
    """``pat.search(s)`` of an end-anchored pattern, tried from its last 40 characters only."""
    return pat.search(s, max(0, len(s.rstrip()) - 40))


class Context:
    """What the kind rules read about one number (on first use): ``before`` 80 characters of its
    sentence, ``near_before`` six words of its clause, ``head`` 12 characters before the digits."""

    def __init__(self, text: str, r: Raw, noun: str | None, bounds):
        self.text, self.r, self.noun, self.bounds = text, r, noun, bounds

    sentence = cached_property(lambda self: sentence_at(self.bounds, self.r.start))
    before = cached_property(lambda self: self.text[max(self.sentence[0], self.r.start - 80):self.r.start].lower())
    after = cached_property(lambda self: self.text[self.r.end:min(self.sentence[1], self.r.end + 60)].lower())
    near_before = cached_property(lambda self: " ".join(words_before(self.text, self.r.start, 6)))

    @cached_property
    def since_number(self) -> str:
        """:attr:`near_before` after its last number ("score of 84.89 with just" -> "with just")."""
        tail = re.split(r"\S*\d\S*", self.before)[-1].split()
        words = self.near_before.split()
        return " ".join(words[max(0, len(words) - len(tail)):])

    strong_before = cached_property(lambda self: self.strong_within(6))

    def strong_within(self, n: int) -> bool:
        return bool(_STRONG_RESULT.search(" ".join(words_before(self.text, self.r.start, n, comma=True))))

    head = cached_property(lambda self: self.text[max(0, self.r.start - 12):self.r.core_start])
    core = cached_property(lambda self: self.text[self.r.core_start:self.r.core_end])
    is_decimal = cached_property(lambda self: "." in self.core or "e" in self.core.lower())
    percent = property(lambda self: self.r.unit in ("%", "pp"))
    counted = property(lambda self: self.noun is not None or self.r.mult != 1.0)     # 12 tasks, 7B


def _r(name: str, kind: str, test, example: str, at: str) -> Rule:
    return Rule(name, test, kind, example, at)


KIND_RULES: tuple[Rule, ...] = (
    _r("exponential-base", "result", lambda c: EXP_VAR.match(c.text, c.r.core_end),
       "The solver runs in $O(1.9999^n)$ time.", "1.9999"),
    # -- percentages
    _r("percent-of-the-data", "setting",
       lambda c: c.percent and _OF_DATA_AFTER.match(c.after) and _USING_BEFORE.search(c.before)
       and not _STRONG_RESULT.search(c.since_number),
       "We fine-tune on only 10% of the training data.", "10%"),
    _r("percent", "result", lambda c: c.percent,
       "Accuracy rises to 91.2% on the test set.", "91.2%"),
    # -- ratios
    _r("times", "result", lambda c: c.r.unit == "×",
       "Decoding gets a 3.5x speedup.", "3.5x"),
    _r("rank", "result", lambda c: c.text[c.r.core_end:c.r.core_end + 2] in ("st", "nd", "rd", "th"),
       "The planner ranks 1st on the leaderboard.", "1st"),
    # -- written next to a hyperparameter, a statistic or a variable
    _r("statistic", "result", lambda c: _STATISTIC_HEAD.search(c.head) and c.is_decimal,
       "Scores correlate with human ratings (r = 0.82).", "r = 0.82"),
    _r("variable-bound", "setting",
       lambda c: _VARIABLE_HEAD.search(c.head) and ("." not in c.core or c.r.in_math) or _BOUND_HEAD.search(c.head),
       "The bound holds for every k = 3 neighbours.", "k = 3"),
    # -- counts compared or changed
    _r("points-gain", "result",                                   # or "by 8 times", "a 5-fold cut"
       lambda c: c.noun is not None and c.noun.split()[-1] in ("points", "point", "times", "fold") and (
           c.strong_before or _ends(_BY, c.before)),
       "It improves accuracy by 3 points.", "3"),
    _r("n-of-m", "result",
       lambda c: c.r.unit is None and re.match(r"\s+(?:out\s+)?of\s+(?:the\s+)?\$?\d", c.after),
       "The planner completes 7 of 9 mazes.", "7"),
    _r("decimal-rate", "result",
       lambda c: c.noun is not None and c.r.mult == 1.0 and "." in c.core and not _ends(_DECIMAL_RATE_NOT, c.before),
       "The tagger makes 1.4 wrong guesses per page.", "1.4"),
    _r("from-to-change", "result",
       lambda c: _ends(_FROM, c.before) and c.strong_within(12)
       and re.match(r"\s*(?:[\w%°\-]+\s+){0,2}to\b", c.after),
       "Caching cuts the wait from 9 hours to 40 minutes.", "9 hours"),
    _r("rate", "result",
       lambda c: c.counted and _RATE_AFTER.match(c.after) or c.r.unit == "fps" or c.r.unit is None and _FPS_AFTER.match(c.after),
       "The tracker runs at 55 frames per second.", "55"),
    _r("count", "setting", lambda c: c.counted,
       "We evaluate on 12 benchmarks.", "12"),
    # -- measurement units
    _r("measured-unit", "result",
       lambda c: c.r.unit is not None and (_STRONG_RESULT.search(c.near_before) or _ends(_MEASURED_BEFORE, c.before)),
       "The whole pipeline runs in 35 ms per image.", "35 ms"),
    _r("unit", "setting", lambda c: c.r.unit is not None,
       "Each node has a 24 GB memory.", "24 GB"),
    # -- bare numbers
    _r("result-cue", "result",
       lambda c: c.strong_before or _ends(_CUE_BEFORE, c.before)
       and _RESULT_CUES.search(c.near_before),
       "The detector achieves 0.87 on the held-out split.", "0.87"),
    _r("bare-decimal", "result", lambda c: c.is_decimal,
       "The second stage stays at 0.93 overall.", "0.93"),
    _r("bare-integer", "setting", lambda c: True,
       "Batches hold 64 in total.", "64"),
)


def kind_rule(text: str, r: Raw, noun: str | None, bounds) -> Rule:
    """The first rule of :data:`KIND_RULES` holding for ``r`` (the last always does)."""
    return first(KIND_RULES, Context(text, r, noun, bounds))
