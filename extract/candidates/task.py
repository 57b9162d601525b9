"""The research task of an abstract as a short noun phrase, found by general rules.

A tiny model asked to *write* the research problem pastes the first sentence or produces
junk, so the phrase comes from rules: candidates are cut from the abstract by cues that
authors use to state their problem (what a method or benchmark is "for", what "we study",
"the problem of X", "X is a central problem", what the field "suffers from" / "struggles
with", the opening noun phrase), cleaned (no LaTeX/markdown, no parenthetical acronyms, cut
at clause boundaries, 3-12 words) and ranked by the strength of their cue.
:func:`task_candidates` gives them ranked; :func:`best_task` the top one; :func:`polish`
turns a cut into the exported form; :func:`task_phrases` the few a model may choose among.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..text.cues import TASK_INTRO_FORMS, stems
from ..text.spans import blank_notices
from .rules import Rule, fire, tracing
from .task_phrase import (CLAUSE, FINITE, MAX_PHRASES, MAX_WORDS, META, MIN_WORDS, PREP, PRONOUN, TRAIL, VERB,  # noqa: F401
                          core, cut, ok, plain, polish, sentences, words_of)


# -- cues ------------------------------------------------------------------------------------

_INTRO_VERB = stems(TASK_INTRO_FORMS)
_OF_HEAD = r"(?:benchmark|dataset|suite|corpus|collection)"
_HEAD = (r"(?:method|framework|approach|algorithm|technique|scheme|mechanism|procedure|pipeline|system|"
         r"library|toolkit|tool|platform|benchmark|dataset|suite|model|estimator|regularizer|strategy|"
         r"paradigm|architecture|metric|recipe|objective|loss|protocol|solver|optimizer|sampler|"
         r"environment|testbed|corpus|network|module|layer|policy|attack|defense|variant)")
_DROP_MOD = re.compile(r"\b(?:novel|new|simple|general|generic|unified|open-source|open|principled|"
                       r"plug-and-play|practical|effective|lightweight|flexible|modular|versatile|"
                       r"first|single|powerful|theoretical|holistic|comprehensive|large-scale)\b", re.I)
_PURPOSE = re.compile(
    r"\b(?:an?|the|any|every|each)\s+((?:[\w\-]+\s+){0,4}?)(" + _HEAD + r")s?(?:\s+and\s+(?:[\w\-]+\s+){0,2}?" + _HEAD +
    r"s?)?\s+(?:for|to\s+(?=(?:improve|reduce|address|mitigate|enable|detect|measure|evaluate|"
    r"learn|estimate|accelerate|align|prevent|identify|generate|solve|predict|automate)\b))\s+(.+)", re.I)
_STUDY = re.compile(
    r"\b(?:we|this\s+(?:paper|work|study)|here\s+we)\s+(?:\w+ly\s+|instead\s+|further\s+|first\s+)?"
    r"(?:study|studies|address|addresses|investigate|investigates|consider|considers|tackle|tackles|"
    r"examine|examines|explore|explores|analy[sz]e|analy[sz]es|focus\s+on|focuses\s+on|revisit|"
    r"revisits|characteri[sz]e|characteri[sz]es|formali[sz]e|formali[sz]es|"
    r"(?:present|conduct|perform)\s+(?:an?\s+)?(?:\w+\s+){0,2}?(?:study|analysis|investigation|"
    r"evaluation)\s+of)\s+(.+)", re.I)
_PROBLEM_OF = re.compile(r"\b(?:problem|task|challenge)\s+of\s+(.+)", re.I)
_IS_PROBLEM = re.compile(
    r"^(.+?)\s+(?:is|remains|has\s+become)\s+(?:a|an|one\s+of\s+the)\s+(?:\w+\s+){0,2}?(?:central|"
    r"fundamental|key|core|long-standing|longstanding|important|open|critical|major|classic|"
    r"basic|challenging|difficult|crucial)\s+(?:\w+\s+)?(?:problem|challenge|task|question)s?\b", re.I)
_REMAINS = re.compile(r"^(.+?)\s+(?:remains?|is|are)\s+(?:\w+ly\s+)?(?:challenging|difficult|unclear|"
                      r"poorly\s+understood|an\s+open\s+(?:problem|question|challenge)|underexplored|"
                      r"unexplored|limited|largely\s+unknown)\b", re.I)
_IS_KEY = re.compile(r"^(.+?)\s+(?:is|are|remains?)\s+(?:\w+ly\s+)?(?:critical|essential|crucial|vital|"
                     r"key|indispensable|fundamental)\s+(?:for|to|in)\b", re.I)
_TO_ADDRESS = re.compile(r"\b(?:to|for)\s+(?:address|tackle|mitigate|reduce|overcome|solve|handle|"
                         r"alleviate|combat|improve)\s+(.+?),\s*(?:we|this)\b", re.I)
# "S suffers from O", "S struggles with O", "S are vulnerable to O" -> "O in S"
_COMPLAINT = re.compile(
    r"^(.+?)\s+(?:(?:often|still|typically|usually|frequently|increasingly|can|may|remain|remains)\s+)?"
    r"(suffers?\s+from|struggles?\s+(?:with|to)|(?:is|are)\s+(?:\w+ly\s+)?(?:vulnerable|prone|"
    r"sensitive|susceptible)\s+to|(?:is|are)\s+(?:\w+ly\s+)?bottlenecked\s+by|(?:is|are)\s+"
    r"(?:\w+ly\s+)?limited\s+by|(?:is|are)\s+(?:\w+ly\s+|often\s+|seldom\s+)?(?:evaluated|benchmarked|"
    r"tested)\s+(?:on|in)|"
    r"rarely\s+(?:require|requires|account\s+for|consider|considers)|hallucinates?|degrades?\s+(?:when|under|on))"
    r"\s+(.+)", re.I)
_OPENING_SUBJECT = re.compile(r"^(?:(?:in|for|with|despite|although|while|as|since|because|given)\s[^,]{0,120},\s*)?(.+)", re.I)


def subject(sent: str) -> str | None:
    """The noun phrase a sentence opens with (after an introductory clause), without meta
    prefixes ("recent advances in", "existing analyses of"), cut before its verb."""
    m = _OPENING_SUBJECT.match(sent)
    s = m.group(1) if m else sent
    s = re.sub(r"^(?:as|since|because|when|if|while|although|though|once)\s+", "", s, flags=re.I)
    v = VERB.search(s)
    if v:
        s = s[:v.start()]
    s = META.sub("", s)
    return cut(s)


def _last_clause(s: str) -> str:
    last = re.split(r"[,;]\s*|\s(?:but|yet|while|whereas|and)\s", s)[-1]
    return re.sub(r"^(?:but|yet|while|whereas|and|so|however)\s+", "", last, flags=re.I)


@dataclass(frozen=True)
class TaskCandidate:
    raw: str          # the cut phrase (may start with a determiner)
    score: float      # cue strength plus form bonuses
    cue: str          # which cue found it
    position: int     # index of the sentence it came from


def _strip_mods(mods: str) -> str:
    return " ".join(_DROP_MOD.sub(" ", mods).split())


def _purpose(sent: str) -> list[tuple[str, str, float]]:
    out = []
    intro = bool(re.search(r"\b" + _INTRO_VERB + r"\b|^(?:our|this)\s+(?:approach|method|framework|work)\b|"
                           r"\b(?:dubbed|called|named|termed)\b", sent, re.I))
    weak = 0.0 if intro else 1.0            # "any algorithm for X" in a sentence introducing nothing
    for m in _PURPOSE.finditer(sent):
        obj = cut(m.group(3))
        if not obj:
            continue
        mods, head = _strip_mods(m.group(1) or ""), m.group(2).lower()
        head_is_gerund = re.match(r"\w+ing\b", obj) and not re.match(r"(?:during|using|including)\b", obj)
        if mods and not head_is_gerund and not re.search(r"\d", mods):
            # "a token-merging scheme for X" -> "token-merging for X"; an adjective keeps its
            # noun: "an online algorithm for X" -> "online algorithm for X"
            last = mods.split()[-1].lower()
            adjectival = re.search(r"(?:al|ic|ive|ous|ent|ant|ed|able|ible|less|ful|ary|line|ist)$", last)
            keep = adjectival or head not in {"method", "framework", "approach", "technique", "scheme",
                                              "procedure", "pipeline", "strategy", "recipe", "paradigm"}
            out.append((f"{mods} {head} for {obj}" if keep else f"{mods} for {obj}", "purpose+mods", 3.2 - weak))
        out.append((obj, "purpose", (3.0 if head_is_gerund else 2.6) - weak))
    for m in re.finditer(r"\b(?:an?|the)\s+(?:[\w\-]+\s+){0,2}?" + _OF_HEAD + r"\s+of\s+"
                         r"(?:(?:about|over|nearly|roughly|more\s+than)\s+)?(?:[\d.,]+\s*(?:[kKM]|million|"
                         r"billion|thousand)?\s+)?(.+)", sent):
        obj = cut(re.sub(r"^(?:[\d.,]+\s+)", "", m.group(1)))
        if obj:
            out.append((obj, "collection-of", 1.7))
    return out


def _whether_subject(obj: str) -> str | None:
    """'whether X are faithful to Y' -> 'X'; 'how X affect Y' -> 'X'."""
    m = re.match(r"(?:whether|how|why|when|if)\s+(?:and\s+\w+\s+)?(.+)", obj, re.I)
    return cut(m.group(1)) if m else None


def _domain(clause: str, sent: str, opening: str | None) -> str | None:
    """The subject of a mid-sentence clause; "its X"/"their X" refer back to the sentence's
    (else the abstract's) opening noun phrase: "the X of <that phrase>"."""
    subj = subject(_last_clause(clause))
    if subj and re.match(r"(?:its|their)\s+\S", subj, re.I):
        ref = subject(sent) or opening
        rest = re.sub(r"^(?:its|their)\s+", "", subj, flags=re.I)
        if not ref or ref.lower().startswith(("its ", "their ", "it ", "they ")):
            return None
        ref = polish(ref, sent)
        return f"{rest} of {ref}" if not re.match(r"(?:use|application|behaviou?r|performance|"
                                                           r"efficiency|ability)\b", rest, re.I) else core(ref)
    if subj and re.fullmatch(r"(?:it|they|this|these)", subj, re.I):
        return subject(sent) if not re.match(r"(?:it|they|this|these)\b", subject(sent) or "it", re.I) else opening
    return subj


def _complaint(sent: str, text: str, opening: str | None, i: int) -> list[tuple[str | None, str, float, int]]:
    m = _COMPLAINT.match(sent)
    if not m:
        return []
    subj = _domain(m.group(1), sent, opening)
    verb = m.group(2).lower()
    obj = cut(re.split(r"\s(?:and|or)\s", m.group(3))[0])
    out: list[tuple[str | None, str, float, int]] = []
    if subj and obj and ok(obj) and not verb.startswith(("degrade", "hallucinat")):
        dom = polish(subj, text)
        if re.search(r"(?:evaluated|benchmarked|tested)\s+(?:on|in)$", verb):
            out.append((f"evaluating {dom} {verb.split()[-1]} {core(obj)}", "complaint", 2.7, i))
        else:
            out.append((f"{core(obj)} in {dom}", "complaint", 2.7, i))
    if subj:
        out.append((subj, "opening", 1.6 if i == 0 else 1.0, i))
    return out


def task_candidates(text: str) -> list[TaskCandidate]:
    """Ranked task phrase candidates of ``text`` (best first, distinct, each 1-12 words).
    One abstract asks for them three times (the hint, the exported task, the phrases
    offered): they are computed once (outside a rule-firing trace, which must see them fire)."""
    if not isinstance(text, str) or tracing():
        return _task_candidates(text)
    return list(_task_candidates_once(text))


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
        for phrase, cue, strength in _purpose(sent):
            found.append((phrase, cue, strength, i))
        for m in _STUDY.finditer(sent):
            obj = m.group(1)
            if re.match(r"(?:whether|how|why|when|if)\b", obj, re.I):
                found.append((_whether_subject(obj), "study-whether", 2.2, i))
            else:
                found.append((cut(obj), "study", 3.0, i))
        for m in _PROBLEM_OF.finditer(sent):
            found.append((cut(m.group(1)), "problem-of", 2.8, i))
        m = _IS_PROBLEM.match(sent)
        if m:
            found.append((_domain(m.group(1), sent, opening), "is-problem", 3.1, i))
        m = _IS_KEY.match(sent)
        if m:
            found.append((_domain(m.group(1), sent, opening), "is-key", 2.2, i))
        m = _TO_ADDRESS.search(sent)
        if m:
            found.append((cut(m.group(1)), "to-address", 2.0, i))
        if i < 3:
            m = _REMAINS.match(sent)
            if m:
                found.append((_domain(m.group(1), sent, opening), "remains", 2.0, i))
            found.extend(_complaint(sent, text, opening, i))
    if opening:
        gerund = bool(re.match(r"[A-Z][a-z]+ing\b", opening))
        found.append((opening, "opening", 2.4 if gerund else 1.5, 0))
    return _rank(found)


def _rank(found: list[tuple[str | None, str, float, int]]) -> list[TaskCandidate]:
    best: dict[str, TaskCandidate] = {}
    for raw, cue, strength, pos in found:
        if not ok(raw):
            continue
        fire("task-" + cue)
        raw = " ".join(raw.split()[:MAX_WORDS])
        n = words_of(core(raw))
        score = strength - 0.05 * pos
        if n < MIN_WORDS:
            score -= 1.0 if n == 2 else 2.0
        elif n > 10:
            score -= 0.3
        if re.search(r"\d", raw):
            score -= 0.5
        key = core(raw).lower()
        if key not in best or best[key].score < score:
            best[key] = TaskCandidate(raw, round(score, 3), cue, pos)
    return sorted(best.values(), key=lambda c: (-c.score, c.position))


def _fallback(text: str) -> str | None:
    """Three to twelve words of the first declarative sentence (no cue gave a phrase of three
    words or more): its clause after any introductory clause, cut at punctuation."""
    for sent in sentences(text)[:2]:
        question = sent.rstrip().endswith("?")
        if question:                         # "How well do X agree on Y?" -> "X agree on Y"
            sent = re.sub(r"^(?:(?:how|why|what|when|which)(?:\s+(?:well|much|often|far))?\s+)?(?:do|does|did|"
                          r"can|could|are|is|should|will|would)\s+", "", sent.rstrip(" ?"), flags=re.I)
        m = _OPENING_SUBJECT.match(sent)
        body = META.sub("", m.group(1) if m else sent)
        words = [w for w in body.split() if "$" not in w and "\\" not in w]
        words = CLAUSE.split(" ".join(words))[0].split()
        if len(words) > MAX_WORDS:
            words = words[:MAX_WORDS]
            preps = [i for i, w in enumerate(words) if w.lower() in PREP and i >= MIN_WORDS]
            if preps:
                words = words[:preps[-1]]
        while words and words[-1].lower() in TRAIL:
            words.pop()
        phrase = " ".join(words)
        if len(core(phrase).split()) >= MIN_WORDS and (ok(phrase) or question and ok(PRONOUN.sub("", phrase))):
            return " ".join(words)
        intro = re.match(r"(?:despite|with|in|given|as|although|while)\s+([^,]{8,120}),", sent, re.I)
        if intro:                  # "Despite the popularity of X for Y, it is unclear ..." -> "X for Y"
            phrase = cut(META.sub("", re.sub(r"^(?:the|a|an)\s+(?:\w+\s+)?of\s+", "", intro.group(1))))
            if phrase and words_of(phrase) >= MIN_WORDS and ok(phrase):
                return phrase
    for sent in sentences(text)[:4]:       # any clause of the opening sentences that reads as a phrase
        for piece in CLAUSE.split(" ".join(w for w in sent.split() if "$" not in w and "\\" not in w)):
            words = (piece or "").split()[:MAX_WORDS]
            while words and words[-1].lower() in TRAIL:
                words.pop()
            phrase = " ".join(words)
            if len(core(phrase).split()) >= MIN_WORDS and ok(phrase):
                return phrase
    return None


def best_task(text: str, min_score: float = 0.0) -> str | None:
    """The top candidate's cut (not polished) when it scores at least ``min_score``."""
    cands = task_candidates(text)
    if cands and cands[0].score >= min_score:
        return cands[0].raw
    return None


def task_hint(text: str) -> str | None:
    """The task phrase the rules rank first (see :func:`task_candidates`): cut from
    the abstract at a clause boundary, markup removed, possibly with a leading determiner
    ("We study the sample complexity of X, and ..." -> "the sample complexity of X"); None
    when no cue applies.  The exported form comes from ``task.polish``."""
    if not isinstance(text, str):
        return None
    return best_task(text)


def final_task(hint: str | None, text: str) -> str:
    """The exported task: the polished hint when it has 3-12 words, else the best candidate
    that does, else a cut of the first sentence; 'unspecified' when the text gives nothing."""
    text = blank_notices(text)
    options = ([hint] if hint else []) + [c.raw for c in task_candidates(text)]
    for raw in options:
        p = polish(raw, text)
        if MIN_WORDS <= words_of(p) <= MAX_WORDS and ok(p):
            return p
    short = [polish(r, text) for r in options if r]
    fb = _fallback(text) if text else None
    words = plain(text).split()          # no sentence to cut: the opening words as they are
    words = [w.strip(",;:.!?*`\"'") for w in words if "$" not in w and "\\" not in w]
    words = [w for w in words if w][:MAX_WORDS]
    cuts = [polish(c, text) for c in (fb, " ".join(words) if len(words) >= MIN_WORDS else None)
            if c and not FINITE.search(c)]     # a clause is never a task
    for cut in cuts:                     # a cut that polishes to a fragment is passed over
        if words_of(cut) >= MIN_WORDS:
            return cut
    return next((c for c in cuts + short if c), "unspecified")


def task_phrases(text: str) -> list[str]:
    """Up to :data:`MAX_PHRASES` distinct candidates of 3-12 words that occur verbatim in the
    abstract, best first: the phrases a model may choose among (its pick is polished after)."""
    text = blank_notices(text)
    out: list[str] = []
    raws = [c.raw for c in task_candidates(text)] + [_fallback(text) or ""]
    for raw in raws:
        p = core(raw)
        if MIN_WORDS <= words_of(p) <= MAX_WORDS and ok(p) and p in text and p not in out:
            out.append(p)
    return out[:MAX_PHRASES]


# The task cues (the ``cue`` of a :class:`TaskCandidate`), each with an example it finds a
# phrase in (tests/test_candidates_rules.py checks that it does).
TASK_RULES: tuple[Rule, ...] = (
    Rule("task-purpose", None, 2.6, "We propose a method for detecting forged signatures.",
         "detecting forged signatures"),
    Rule("task-purpose+mods", None, 3.2, "We propose a token-merging scheme for faster vision transformers.",
         "token-merging for faster vision transformers"),
    Rule("task-collection-of", None, 1.7, "We release a benchmark of 300 chemistry word problems.",
         "chemistry word problems"),
    Rule("task-study", None, 3.0, "We study the robustness of speech recognizers to accents.",
         "the robustness of speech recognizers to accents"),
    Rule("task-study-whether", None, 2.2, "We study whether small language models can plan routes.",
         "small language models"),
    Rule("task-problem-of", None, 2.8, "We revisit the problem of routing packets in mesh networks.",
         "routing packets in mesh networks"),
    Rule("task-is-problem", None, 3.1, "Protein docking is a central problem in structural biology.",
         "Protein docking"),
    Rule("task-is-key", None, 2.2, "Accurate weather forecasts are critical for farming.", "Accurate weather forecasts"),
    Rule("task-to-address", None, 2.0, "To reduce label noise in crowdsourcing, we propose a filter.",
         "label noise in crowdsourcing"),
    Rule("task-remains", None, 2.0, "Long-horizon video prediction remains challenging.", "Long-horizon video prediction"),
    Rule("task-complaint", None, 2.7, "Speech recognizers often struggle with heavy accents.",
         "heavy accents in speech recognizers"),
    Rule("task-opening", None, 1.5, "Sparse attention lets transformers read long inputs.",
         "Sparse attention lets transformers read long inputs"),
)
