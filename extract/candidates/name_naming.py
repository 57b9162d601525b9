"""The name a naming verb gives the paper's own artifact: "we propose a simple technique called
fraternal dropout that", "a new paradigm called ''Co-teaching''", "our method, called 3SD,
exploits".  A head noun of an artifact comes before the verb, after "our/new/novel/proposed", or
after an article in a sentence that introduces; the name is quoted in any style, or written
plainly (one coined token, or up to four plain words before a function word or a punctuation
mark).  The finder (:mod:`.name_finder`) adds what :func:`named_own` returns."""

from __future__ import annotations

import re

from ..text.lexicon import FUNCTION_WORDS
from ..text.literal import matches_from, word_starts
from . import name_cues as cue
from .name_shapes import is_namey

__all__ = ["NAMED_OWN", "NAMING_WORDS", "named_own", "naming_matches"]

NAMING_WORDS = ("called", "named", "dubbed", "termed", "coined")
_OWN_HEADS = (r"(?:" + "|".join(cue.ARTIFACT_HEADS) + r"|loss|objective|operator|layer|unit|block|regularizer|recipe|"
              r"procedure|scheme|variant|attack|defen[cs]e|criterion|estimator|function|solver|optimizer|activation|"
              r"normalization|design|package)s?")
NAMED_OWN = re.compile(r"\b(?:" + "|".join(NAMING_WORDS) + r")\s+(?:as\s+)?(?:the\s+)?(?:(?P<q>``|''|[\"“‘'`])|"
                       r"(?!(?:a|an)\s)(?P<n>\w[\w\-‐+/]*(?:\.\d[\w\-‐+]*)*))")
_CLOSING = {"``": "''", "''": "''", '"': '"', "“": "”", "‘": "’", "'": "'", "`": "'"}
_OWN_WORD = re.compile(r"\b(?:our|new|novel|proposed)\b", re.I)
_INTRODUCING = re.compile(cue.INTRO_ANYWHERE.pattern + r"|\b(?:propos|introduc|present|develop|design)ing\b", re.I)
_OWN_NOUN_BEFORE = re.compile(r"\b(?:our|new|novel|proposed|a|an|the)\s+(?:[\w\-‐]+\s+){0,4}?" + _OWN_HEADS
                              + r"\s*,?\s*$", re.I)
# the words that end a plain name (a function word, a clause's first word)
_NAME_STOPS = "|".join(sorted(FUNCTION_WORDS)) + "|that|which|where|or|is|are|was|were|can|using|based"
_PLAIN_WORD = re.compile(r"\s+(?!(?:" + _NAME_STOPS + r"|we|it|its|at|into|while|when|than)\b)([a-z][a-z\-‐]*[a-z])")
_PUNCT_END = re.compile(r"\s*(?:[,.;:)]|$)")
_PHRASE_ENDS = re.compile(r"\s*(?:[,.;:()]|$)|\s+(?:" + _NAME_STOPS + r")\b(?P<rest>[^,.;:]*)")


def naming_matches(text: str) -> list:
    """Every :data:`NAMED_OWN` match of ``text`` (tried only where a naming verb starts)."""
    return matches_from(NAMED_OWN, text, word_starts(text, NAMING_WORDS))


def named_own(t: str, sentence_start: int, m) -> tuple[int, int] | None:
    """The span of the name :data:`NAMED_OWN`'s match ``m`` gives, when a noun of the paper's own
    artifact precedes its naming verb (after an article: in a sentence that introduces), else None."""
    own = _OWN_NOUN_BEFORE.search(t, max(sentence_start, m.start() - 90), m.start())
    if not own or not _OWN_WORD.search(own.group(0)) and not _INTRODUCING.search(t, sentence_start, m.start()):
        return None
    if m.group("q"):
        s = m.end()
        e = t.find(_CLOSING[m.group("q")], s, s + 52)
        while e > 0 and t[e] in "'’" and t[e + 1:e + 2].isalpha():      # "Newton's"
            e = t.find(t[e], e + 1, s + 52)
        return None if e < 0 or "(" in t[s:e] else (s, e)
    s, e = m.span("n")
    coined, e0 = is_namey(m.group("n"))[0] or m.group("n")[0].isdigit(), e
    while (w := _PLAIN_WORD.match(t, e)) and len(t[s:w.end()].split()) <= 4:
        e = w.end()
    if coined and e > e0 and not _PUNCT_END.match(t, e):      # "KNN-contrastive learning."
        w = _PLAIN_WORD.match(t, e0)
        e = w.end() if re.fullmatch(_OWN_HEADS, w.group(1)) else e0     # "the Land-Shore-Sea loss to"
    end = _PHRASE_ENDS.match(t, e)
    if not end or "(" in (end.group("rest") or "") or not coined and t[s].isupper() and not _PUNCT_END.match(t, e):
        return None         # a long form the acronym rules read, or a capitalized name's first word
    return s, e
