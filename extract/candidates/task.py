"""The research task of an abstract as a short noun phrase, found by general rules: candidates
are cut from the abstract by the cues authors state their problem with (what a method or
benchmark is "for", what "we study", "the problem of X", "X is a central problem", what the
field "suffers from", the opening noun phrase), cleaned by :mod:`.task_phrase` (no markup, cut at
its clause boundary, never a clause) and ranked by the strength of their cue."""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import chain
from typing import NamedTuple

from ..text.lexicon import TASK_INTRO_FORMS, stems
from ..text.literal import folded
from ..text.spans import rules_text
from .rules import Rule, fire, tracing
from .task_phrase import (BOUNDARY, MAX_PHRASES, MAX_WORDS, META, MIN_WORDS, VERB, core, cut, ok, plain,  # noqa: F401
                          polish, sentences, title_phrase, words_of)

_HEAD = (r"(?:method|framework|approach|algorithm|technique|scheme|mechanism|procedure|pipeline|system|library|"
         r"toolkit|tool|platform|benchmark|dataset|suite|environment|model|estimator|strategy|paradigm|architecture|"
         r"metric|objective|loss|solver|corpus|network|module|layer|policy)")
_PURPOSE = re.compile(r"\b(?:an?|the)\s+((?:[\w\-]+\s+){0,4}?)(" + _HEAD + r")s?(?:\s+and\s+(?:[\w\-]+\s+){0,2}?"
                      + _HEAD + r"s?)?\s+for\s+(.+)", re.I)
_INTRODUCES = re.compile(r"\b" + stems(TASK_INTRO_FORMS) + r"\b|^(?:our|this)\s+(?:approach|method|framework|work)\b|"
                         r"\b(?:dubbed|called|named|termed)\b", re.I)
_DROP_MOD = re.compile(r"\b(?:novel|new|simple|general|generic|unified|open-source|open|principled|plug-and-play|"
                       r"practical|effective|lightweight|flexible|modular|versatile|first|single|powerful|theoretical|"
                       r"holistic|comprehensive|large-scale)\b", re.I)
_COLLECTION = re.compile(r"\b(?:an?|the)\s+(?:[\w\-]+\s+){0,2}?(?:benchmark|dataset|suite|corpus|collection)\s+of\s+"
                         r"(?:(?:about|over|nearly|roughly|more\s+than)\s+)?(?:[\d.,]+\s*(?:[kKM]|million|billion|"
                         r"thousand)?\s+)?(?:[\d.,]+\s+)?(.+)")
_STUDY = re.compile(
    r"\b(?:we|this\s+(?:paper|work|study)|here\s+we)\s+(?:\w+ly\s+|instead\s+|further\s+|first\s+)?(?:stud(?:y|ies)|"
    r"address(?:es)?|investigates?|considers?|tackles?|examines?|explores?|analy[sz]es?|focus(?:es)?\s+on|"
    r"revisits?|characteri[sz]es?|formali[sz]es?|(?:present|conduct|perform)\s+(?:an?\s+)?(?:\w+\s+){0,2}?"
    r"(?:study|analysis|investigation|evaluation)\s+of)\s+(.+)", re.I)
_PROBLEM_OF = re.compile(r"\b(?:problem|task|challenge)\s+of\s+(.+)", re.I)
_IS_PROBLEM = re.compile(
    r"^(.+?)\s+(?:is|remains)\s+(?:a|an|one\s+of\s+the)\s+(?:\w+\s+){0,2}?(?:central|fundamental|key|core|"
    r"long-?standing|important|open|critical|major|classic|basic|challenging|difficult|crucial)\s+(?:\w+\s+)?"
    r"(?:problem|challenge|task|question)s?\b", re.I)
_REMAINS = re.compile(r"^(.+?)\s+(?:remains?|is|are)\s+(?:\w+ly\s+)?(?:challenging|difficult|unclear|poorly\s+"
                      r"understood|an\s+open\s+(?:problem|question|challenge)|underexplored|unexplored|limited|"
                      r"largely\s+unknown)\b", re.I)
_IS_KEY = re.compile(r"^(.+?)\s+(?:is|are|remains?)\s+(?:\w+ly\s+)?(?:critical|essential|crucial|vital|key|"
                     r"indispensable|fundamental)\s+(?:for|to|in)\b", re.I)
_TO_ADDRESS = re.compile(r"\b(?:to|for)\s+(?:address|tackle|mitigate|reduce|overcome|solve|handle|alleviate|combat|"
                         r"improve)\s+(.+?),\s*(?:we|this)\b", re.I)
# "S suffers from O", "S struggles with O", "S are vulnerable to O" -> "O in S"
_COMPLAINT = re.compile(
    r"^(.+?)\s+(?:(?:often|still|typically|usually|frequently|increasingly|can|may|remains?)\s+)?"
    r"(suffers?\s+from|struggles?\s+(?:with|to)|(?:is|are)\s+(?:\w+ly\s+)?(?:vulnerable|prone|sensitive|"
    r"susceptible)\s+to|(?:is|are)\s+(?:\w+ly\s+)?(?:bottlenecked|limited)\s+by|(?:is|are)\s+(?:\w+ly\s+|often\s+|"
    r"seldom\s+)?(?:evaluated|benchmarked|tested)\s+(?:on|in)|rarely\s+(?:requires?|account\s+for|considers?)|"
    r"hallucinates?|degrades?\s+(?:when|under|on))\s+(.+)", re.I)
# The words each cue's pattern cannot match without (case-insensitively): it is tried only on a
# sentence whose fold (extract.text.literal.folded) holds one word of each group; most hold none.
_HEADS = tuple(_HEAD[3:-1].split("|"))        # _HEAD's words
_NEEDS = {
    _PURPOSE: (("for",), _HEADS), _COLLECTION: (("of",), ("benchmark", "dataset", "suite", "corpus", "collection")),
    _STUDY: (("we", "this"),), _PROBLEM_OF: (("problem", "task", "challenge"),),
    _IS_PROBLEM: (("problem", "challenge", "task", "question"),),
    _IS_KEY: (("critical", "essential", "crucial", "vital", "key", "indispensable", "fundamental"),),
    _REMAINS: (("challenging", "difficult", "unclear", "understood", "open", "explored", "limited", "unknown"),),
    _TO_ADDRESS: ((",",), ("address", "tackle", "mitigate", "reduce", "overcome", "solve", "handle", "alleviate",
                          "combat", "improve")),
    _COMPLAINT: (("suffer", "struggle", "vulnerable", "prone", "sensitive", "susceptible", "bottlenecked", "limited",
                  "evaluated", "benchmarked", "tested", "rarely", "hallucinate", "degrade"),),
}
_OPENING = re.compile(r"^(?:(?:in|for|with|despite|although|while|as|since|because|given)\s[^,]{0,120},\s*)?(.*)",
                      re.I)
_SUBORDINATOR = re.compile(r"^(?:as|since|because|when|if|while|although|though|once)\s+", re.I)
_PIECE_LEAD = re.compile(r"^(?:despite|with|in|given|as|although|while|for|how|why|what|when|whether|"
                         r"then|and|or|but|do|does|did|can|is|are)\s+", re.I)


def _may(rx: re.Pattern, low: str) -> bool:
    """Whether ``rx`` may match the sentence whose fold is ``low`` (it holds a word of each group rx needs)."""
    return all(any(w in low for w in group) for group in _NEEDS[rx])


def subject(sent: str) -> str | None:
    """The noun phrase a sentence opens with (after an introductory clause), without meta
    prefixes ("recent advances in", "existing analyses of"), cut before its verb."""
    s = _SUBORDINATOR.sub("", _OPENING.match(sent).group(1))
    return cut(META.sub("", VERB.split(s, maxsplit=1)[0]))


class TaskCandidate(NamedTuple):
    raw: str          # the cut phrase (may start with a determiner)
    score: float      # cue strength plus form bonuses
    cue: str          # which cue found it
    position: int     # index of the sentence it came from


def _purpose(sent: str, low: str) -> list[tuple[str | None, str, float]]:
    """"a method for X" (3.0 for a gerund X; less in a sentence introducing nothing);
    "a token-merging scheme for X" -> "token-merging for X" (an adjective keeps its noun:
    "an online algorithm for X"); "a benchmark of 300 X" -> "X" (``low``: the sentence's fold)."""
    out: list[tuple[str | None, str, float]] = []
    weak = None
    for m in _PURPOSE.finditer(sent) if _may(_PURPOSE, low) else ():
        obj = cut(m.group(3))
        if not obj:
            continue
        if weak is None:        # (read only for a sentence with a purpose)
            weak = 0.0 if _INTRODUCES.search(sent) else 1.0
        mods, head = " ".join(_DROP_MOD.sub(" ", m.group(1) or "").split()), m.group(2).lower()
        gerund = re.match(r"\w+ing\b", obj) and not re.match(r"(?:during|using|including)\b", obj)
        if mods and not gerund and not re.search(r"\d", mods):
            keep = re.search(r"(?:al|ic|ive|ous|ent|ant|ed|able|ible|less|ful|ary|line|ist)$", mods.split()[-1].lower()) or \
                head not in {"method", "framework", "approach", "technique", "scheme", "procedure", "pipeline",
                             "strategy", "paradigm"}
            out.append((f"{mods} {head} for {obj}" if keep else f"{mods} for {obj}", "purpose+mods", 3.2 - weak))
        out.append((obj, "purpose", (3.0 if gerund else 2.6) - weak))
    if _may(_COLLECTION, low):
        out += [(cut(m.group(1)), "collection-of", 1.7) for m in _COLLECTION.finditer(sent)]
    return out


def _domain(clause: str, sent: str, opening: str | None) -> str | None:
    """The subject of a mid-sentence clause; "its X"/"their X" refer back to the sentence's
    (else the abstract's) opening noun phrase: "the X of <that phrase>"."""
    last = re.split(r"[,;]\s*|\s(?:but|yet|while|whereas|and)\s", clause)[-1]
    subj = subject(re.sub(r"^(?:but|yet|while|whereas|and|so|however)\s+", "", last, flags=re.I))
    if subj and re.match(r"(?:its|their)\s+\S", subj, re.I):
        ref = subject(sent) or opening
        if not ref or ref.lower().startswith(("its ", "their ", "it ", "they ")):
            return None
        rest, ref = re.sub(r"^(?:its|their)\s+", "", subj, flags=re.I), polish(ref, sent)
        return core(ref) if re.match(r"(?:use|application|behaviou?r|performance|efficiency|ability)\b", rest,
                                     re.I) else f"{rest} of {ref}"
    if subj and re.fullmatch(r"(?:it|they|this|these)", subj, re.I):
        own = subject(sent)
        return own if own and not re.match(r"(?:it|they|this|these)\b", own, re.I) else opening
    return subj


def _complaint(sent: str, low: str, text: str, opening: str | None, i: int) -> list[tuple[str | None, str, float, int]]:
    m = _COMPLAINT.match(sent) if _may(_COMPLAINT, low) else None
    if not m:
        return []
    subj, verb = _domain(m.group(1), sent, opening), m.group(2).lower()
    obj = cut(re.split(r"\s(?:and|or)\s", m.group(3))[0])
    out: list[tuple[str | None, str, float, int]] = []
    if subj and obj and ok(obj) and not verb.startswith(("degrade", "hallucinat")):
        dom = polish(subj, text)
        out.append((f"evaluating {dom} {verb.split()[-1]} {core(obj)}" if verb.endswith(("on", "in"))
                    else f"{core(obj)} in {dom}", "complaint", 2.7, i))
    if subj:
        out.append((subj, "opening", 1.6 if i == 0 else 1.0, i))
    return out


def task_candidates(text: str) -> list[TaskCandidate]:
    """Ranked task phrase candidates of ``text`` (best first, distinct, each 1-12 words).
    One abstract asks for them three times (the hint, the exported task, the phrases
    offered): they are computed once (outside a rule-firing trace, which must see them fire)."""
    return list(_task_candidates_once(text)) if isinstance(text, str) and not tracing() else _task_candidates(text)


@lru_cache(maxsize=8)
def _task_candidates_once(text: str) -> tuple[TaskCandidate, ...]:
    return tuple(_task_candidates(text))


def _task_candidates(text: str) -> list[TaskCandidate]:
    if not isinstance(text, str) or not text.strip():
        return []
    sents = sentences(text)
    opening = next((subject(s) for s in sents[:1] if not s.rstrip().endswith("?")), None)
    found: list[tuple[str | None, str, float, int]] = []
    for i, sent in enumerate(sents[:8]):
        low = folded(sent)
        found += [(phrase, cue, strength, i) for phrase, cue, strength in _purpose(sent, low)]
        for m in _STUDY.finditer(sent) if _may(_STUDY, low) else ():
            w = re.match(r"(?:whether|how|why|when|if)\s+(?:and\s+\w+\s+)?(.+)", m.group(1), re.I)
            found.append((cut(w.group(1)), "study-whether", 2.2, i) if w else (cut(m.group(1)), "study", 3.0, i))
        if _may(_PROBLEM_OF, low):
            found += [(cut(m.group(1)), "problem-of", 2.8, i) for m in _PROBLEM_OF.finditer(sent)]
        if _may(_TO_ADDRESS, low) and (m := _TO_ADDRESS.search(sent)):
            found.append((cut(m.group(1)), "to-address", 2.0, i))
        for rx, cue, strength, upto in ((_IS_PROBLEM, "is-problem", 3.1, 8), (_IS_KEY, "is-key", 2.2, 8),
                                        (_REMAINS, "remains", 2.0, 3)):
            if i < upto and _may(rx, low) and (m := rx.match(sent)):
                found.append((_domain(m.group(1), sent, opening), cue, strength, i))
        if i < 3:
            found += _complaint(sent, low, text, opening, i)
    if opening:
        found.append((opening, "opening", 2.4 if re.match(r"[A-Z][a-z]+ing\b", opening) else 1.5, 0))
    best: dict[str, TaskCandidate] = {}
    for raw, cue, strength, pos in found:
        if not ok(raw):
            continue
        fire("task-" + cue)
        raw = " ".join(raw.split()[:MAX_WORDS])
        n = words_of(core(raw))
        score = strength - 0.05 * pos - (0.0 if n >= MIN_WORDS else 1.0 if n == 2 else 2.0) - 0.3 * (n > 10) \
            - 0.5 * bool(re.search(r"\d", raw))
        key = core(raw).lower()
        if key not in best or best[key].score < score:
            best[key] = TaskCandidate(raw, round(score, 3), cue, pos)
    return sorted(best.values(), key=lambda c: (-c.score, c.position))


def _fallback(text: str) -> str | None:
    """The first noun phrase of three to twelve words in the sentences (no cue gave one): each
    cut into pieces at its clause boundaries and verbs, an introductory word and a meta prefix
    dropped ("Despite the popularity of X for Y, ..." -> "X for Y")."""
    for sent in sentences(text):
        for piece in (q for p in BOUNDARY.split(sent) for q in VERB.split(p or "")):
            piece = META.sub("", _PIECE_LEAD.sub("", piece or ""))
            if piece and (phrase := cut(piece)) and words_of(core(phrase)) >= MIN_WORDS and ok(phrase):
                return phrase
    return None


def task_hint(text: str, title: str | None = None) -> str | None:
    """The task phrase the rules rank first: the one the paper's ``title`` states
    (:func:`.task_phrase.title_phrase`), else the best of :func:`task_candidates`, cut from the
    abstract at a clause boundary, markup removed, possibly with a leading determiner ("We
    study the sample complexity of X, and ..." -> "the sample complexity of X"); None when no
    cue applies.  The exported form comes from :func:`final_task`."""
    return titled_task_hint(text, title)[0]


def titled_task_hint(text: str, title: str | None = None) -> tuple[str | None, bool]:
    """:func:`task_hint`, and whether it is the title's."""
    if title and (p := title_phrase(title, text)):
        fire("task-title")
        return p, True
    return next((c.raw for c in task_candidates(text)), None), False     # (none for a text that is no str)


def final_task(hint: str | None, text: str, titled: bool = False) -> str:
    """The exported task: the polished hint when it is a noun phrase of 3-12 words, else the
    best candidate that is, else the first such phrase of the sentences (:func:`_fallback`);
    'unspecified' when the text has none (a task is never a clause nor a fragment).
    ``titled``: the hint is the title's (:func:`titled_task_hint`)."""
    text = rules_text(text)
    for raw in chain([hint] if hint else [], (c.raw for c in _later(task_candidates, text))):
        p = polish(raw, text)
        if MIN_WORDS <= words_of(p) <= MAX_WORDS and ok(p, titled and raw is hint):
            return p
    p = polish(_fallback(text) or "", text)       # (sought only when no candidate is kept)
    return p if MIN_WORDS <= words_of(p) <= MAX_WORDS and ok(p) else "unspecified"


def _later(fn, *args):
    """``fn(*args)``'s items, computed when the first is asked for (a title's task is kept
    without the abstract's candidates: ~0.4 ms an abstract)."""
    yield from fn(*args)


def task_phrases(text: str) -> list[str]:
    """Up to :data:`MAX_PHRASES` distinct candidates of 3-12 words that occur verbatim in the
    abstract, best first: the phrases a model may choose among (its pick is polished after)."""
    text = rules_text(text)
    out: list[str] = []
    for p in [core(c.raw) for c in task_candidates(text)]:
        if MIN_WORDS <= words_of(p) <= MAX_WORDS and ok(p) and p in text and p not in out:
            out.append(p)
    if len(out) < MAX_PHRASES:                      # (the fallback sought only when it may be offered)
        p = core(_fallback(text) or "")
        if MIN_WORDS <= words_of(p) <= MAX_WORDS and ok(p) and p in text and p not in out:
            out.append(p)
    return out[:MAX_PHRASES]


# The task cues (the ``cue`` of a :class:`TaskCandidate`), each with an example it finds a
# phrase in (tests/test_candidates_rules.py checks that it does).
TASK_RULES: tuple[Rule, ...] = (
    Rule("task-title", None, "first", "We sketch gradients to reduce variance.", "variance reduction via gradient sketching",
         "SEGA: Variance Reduction via Gradient Sketching"),
    Rule("task-purpose", None, 2.6, "We propose a method for detecting forged signatures.", "detecting forged signatures"),
    Rule("task-purpose+mods", None, 3.2, "We propose a token-merging scheme for faster vision transformers.",
         "token-merging for faster vision transformers"),
    Rule("task-collection-of", None, 1.7, "We release a benchmark of 300 chemistry word problems.", "chemistry word problems"),
    Rule("task-study", None, 3.0, "We study the robustness of ASR to accents.", "the robustness of ASR to accents"),
    Rule("task-study-whether", None, 2.2, "We study whether small language models can plan routes.", "small language models"),
    Rule("task-problem-of", None, 2.8, "We revisit the problem of routing packets.", "routing packets"),
    Rule("task-is-problem", None, 3.1, "Protein docking is a central problem in structural biology.", "Protein docking"),
    Rule("task-is-key", None, 2.2, "Accurate weather forecasts are critical for farming.", "Accurate weather forecasts"),
    Rule("task-to-address", None, 2.0, "To reduce label noise, we propose a filter.", "label noise"),
    Rule("task-remains", None, 2.0, "Long-horizon video prediction remains challenging.", "Long-horizon video prediction"),
    Rule("task-complaint", None, 2.7, "Speech recognizers often struggle with heavy accents.", "heavy accents in speech recognizers"),
    Rule("task-opening", None, 1.5, "Sparse attention in readers is studied here.", "Sparse attention in readers"),
)
