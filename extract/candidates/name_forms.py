"""Other forms of the names the finder (:mod:`.name_finder`) collected: a name with its year or
version ("PASCAL VOC 2012"), the capitalized phrase that spells a coined acronym without
parentheses ("SoFTA, a Slow-Fast Two-Agent framework"), and a short form in parentheses right
after a name ("Noise2Void (N2V)").  Each function reads the finder ``f`` and adds to it."""

from __future__ import annotations

import re

from ..text.acronyms import ACRO_PAREN, long_form, upper_count
from ..text.lexicon import FUNCTION_WORDS, GENERIC_ACRONYMS
from .name_rules import Evidence
from .rules import fire

__all__ = ["dated", "parenthesized_short_forms", "spelled_acronyms"]

# a year or a version after a name: "2012", "v2", "2.1" (never "2012%", "2.1x", "2.1 million")
_DATED = re.compile(r" (?:(?:19|20)\d\d|v\d+(?:\.\d+)*|\d\.\d+)(?![\w%\-]|\.\d|\s*(?:%|x\b|×|million|billion))")
_WORD_BEFORE = re.compile(r"[\w\-‐]")        # the name goes on before: "YouTube-VOS 2018" is not "VOS 2018"
_DATED_SHAPES = ("run", "known", "acronym", "camelcase", "alnum", "hyphenated")
# Runs of capitalized words that may spell an acronym (spelled_acronyms)
_SPELLING_RUN = re.compile(r"[A-Z](?<![\w\-][A-Z])[\w\-‐–]*[A-Za-z0-9](?:\s+(?:(?:of|for|from|and)\s+)?"
                           r"[A-Z][\w\-‐–]*[A-Za-z0-9]){0,6}")


def dated(f) -> None:
    """A name and the year or version written after it ("PASCAL VOC 2012", "KITTI 2015",
    "NYU Depth v2"): the name as written (a single token's version is the tokens' pass)."""
    t, by_end = f.text, {}
    for a in f.aggs.values():                # the names by their last two characters ("NeurIPS 2018": a venue)
        if a.shape in _DATED_SHAPES and a.text not in GENERIC_ACRONYMS:
            by_end.setdefault(a.text[-2:], []).append(a)
    for m in _DATED.finditer(t) if by_end else ():
        for a, s0 in _written_before(f, by_end, m.start()):
            fire("dated-name")
            f.add(s0, m.end(), {a.shape, "versioned"}, shape=a.shape)


def _written_before(f, by_end: dict[str, list[Evidence]], p: int):
    """(candidate, start) of the candidates of ``by_end`` (keyed by their last two characters)
    written whole right before ``p`` (no word goes on before them: "YouTube-VOS", not "VOS")."""
    t = f.text
    for a in by_end.get(t[p - 2:p], ()):
        s0 = p - len(a.text)
        if t.endswith(a.text, 0, p) and not (s0 and _WORD_BEFORE.match(t, s0 - 1)):
            yield a, s0


def spelled_acronyms(f) -> None:
    """A coined acronym and a capitalized phrase elsewhere whose words spell it, without
    parentheses: "we propose SoFTA, a Slow-Fast Two-Agent framework", "MVMD a novel
    Multi-View Mirror Detection method".  The phrase is its long form when its capitals are
    the acronym's capitals, in order (so DITrans is not "Document Parsing and Translation")."""
    t = f.text
    acrs = [a for a in f.aggs.values() if not a.partners and a.shape in ("acronym", "camelcase")
            and 2 <= upper_count(a.text) and len(a.text) <= 10 and a.text.isalpha()
            and a.text not in GENERIC_ACRONYMS]
    if not acrs:
        return
    by_caps: dict[str, list[Evidence]] = {}       # an acronym by its capitals, in order
    for a in acrs:
        by_caps.setdefault("".join(ch for ch in a.text if ch.isupper()), []).append(a)
    for m in _SPELLING_RUN.finditer(t):
        if " " not in m.group(0) and "-" not in m.group(0):
            continue
        for w in re.finditer(r"\S+", m.group(0)):    # "The Multi-View Mirror Detection": drop leading words
            phrase = m.group(0)[w.start():]
            if phrase.split()[0].lower() in FUNCTION_WORDS:
                continue
            for a in by_caps.get("".join(ch for ch in phrase if ch.isupper()), ()):
                if not a.partners and long_form(phrase + " (", len(phrase) + 1, a.text) == (0, len(phrase)) \
                        and a.text.lower() not in phrase.lower():
                    fire("spelled-acronym")
                    f.add(m.start() + w.start(), m.end(), {"long-form"}, shape="long", partner=a)


def parenthesized_short_forms(f) -> None:
    """A short form in parentheses right after a name, starting with its letter, is that
    name's other form whether or not its letters spell it ("Noise2Void (N2V)", "PatchRefineNet
    (PRN)", "DexterityGen (DexGen)"): the two share what the text says of either."""
    t = f.text
    if "(" not in t:
        return
    by_end: dict[str, list[Evidence]] = {}
    for a in f.aggs.values():
        if a.text not in GENERIC_ACRONYMS:
            by_end.setdefault(a.text[-2:], []).append(a)
    for m in ACRO_PAREN.finditer(t):
        short, p = m.group("acr"), m.start()
        if short in GENERIC_ACRONYMS or short == "CITATION" or getattr(f.aggs.get(short), "partners", None) \
                or upper_count(short) < 2 and not (upper_count(short) and any(map(str.isdigit, short))):
            continue    # (an acronym the finder paired already, a citation placeholder, "(Fig)")
        while p and t[p - 1].isspace():
            p -= 1
        for a, _ in _written_before(f, by_end, p):
            if len(short) < len(a.text) and short[0].lower() == a.text[0].lower():
                fire("parenthesized-short-form")
                f.add(m.start("acr"), m.end("acr"), {"acronym-def"}, shape="acronym", partner=a)
                break
