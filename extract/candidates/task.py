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

from ..text.cues import TASK_INTRO_FORMS, stems
from ..text.sentences import sentences as split_sentences
from .rules import Rule, fire

MIN_WORDS = 3
MAX_WORDS = 12
MAX_PHRASES = 4

# -- cleaning ------------------------------------------------------------------------------

_LATEX_WRAP = re.compile(r"\\(?:textbf|textit|texttt|emph|textsc|mathrm|mathbf|text|underline|textsf)\s*\{([^{}]*)\}")
_MD_WRAP = re.compile(r"(\*\*|__|\*|`)(?=\S)(.+?)(?<=\S)\1")
_UNDERSCORE_WRAP = re.compile(r"(?<![\w\\])_(?=[A-Za-z])([^_\n]+?)(?<=\S)_(?!\w)")
_PAREN = re.compile(r"\s*\([^()]*\)")
_MATH = re.compile(r"\$[^$]*\$")


def plain(text: str) -> str:
    """``text`` without markup wrappers: \\textbf{x}, **x**, _x_, `x` -> x; $math$ kept as is;
    parentheticals (acronyms, examples) dropped; whitespace collapsed."""
    s = text
    for _ in range(3):
        s = _LATEX_WRAP.sub(r"\1", s)
    s = _MD_WRAP.sub(r"\2", s)
    s = _UNDERSCORE_WRAP.sub(r"\1", s)
    s = re.sub(r"\$\s*([A-Za-z][A-Za-z\- ]*[A-Za-z])\s*\$", r"\1", s)   # $\textbf{Name}$ -> Name
    s = re.sub(r"-{2,3}|—|–(?=\s)", " — ", s)
    for _ in range(2):
        s = _PAREN.sub("", s)
    return " ".join(s.split())


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` with its markup removed (:func:`plain`)."""
    return split_sentences(plain(text))


# Where a noun phrase ends: clause words, punctuation, verbs that start a predicate.
_BOUNDARY = re.compile(
    r"\s*(?:[,;:?!]|\.(?:\s|$)|\s—\s|\s(?:which|that|who|whose|where|while|whereas|when|because|since|"
    r"although|though|but|yet|so|thereby|thus|hence|by|using|via|through|without|such\s+as|including|"
    r"e\.g\.|i\.e\.|and\s+(?:we|show|find|demonstrate|prove|propose|introduce|present|evaluate|"
    r"provide|achieve|establish|its|their|then)|as\s+(?:a|an|well)|is|are|was|were|has|have|had|"
    r"can|could|may|might|must|should|will|would|remains?|requires?|relies|rely|suffers?|struggles?|"
    r"faces?|poses?|leads?|yields?|achieves?|allows?|enables?|makes?|provides?|offers?|"
    r"often|typically|usually|increasingly|rarely|still|also|do|does|did|not|drawn|collected|built|"
    r"curated|gathered|sourced|spanning|covering|containing|ranging|trained\s+(?:on|with|using|by|for))\b|"
    r"\s*[$\\])", re.I)
# Clause boundaries only (a fallback sentence keeps its verb).
_CLAUSE = re.compile(r"[,;:?!]|\.(?:\s|$)|\s—\s|\s(?:which|that|who|where|while|whereas|because|"
                     r"since|although|though|but|yet|so|thereby|thus|hence)\s", re.I)
# Verbs that end an opening subject ("Graph networks predict ...", "Agents tend to ...").
_VERB = re.compile(
    r"\s(?:(?:often|typically|usually|now|increasingly|rarely|still|also|mostly|generally|"
    r"commonly|widely|recently|largely)\s+)?(?:predicts?|expands?|treats?|tends?|claims?|routes?|"
    r"generates?|produces?|promises?|contains?|allows?|achieves?|accelerates?|dominates?|scales?|"
    r"hallucinates?|degrades?|lags?|learns?|uses?|depends?|processes?|captures?|performs?|improves?|"
    r"shows?|helps?|assumes?|focus(?:es)?|encodes?|exhibits?|struggles?|suffers?|fails?|lacks?|"
    r"becomes?|became|emerged?|emerges|offers?|provides?|enables?|relies|rely|requires?|remains?|"
    r"depends?|reshap\w+|match(?:es)?|outperforms?|ignores?|operates?|converges?|compresses?|"
    r"represents?|models?\s+(?=(?:the|a|an)\s)|agree|mix(?:es)?|seeks?|aims?|attempts?|strives?)\b", re.I)
_LEAD = re.compile(r"^(?:(?:a|an|the|on|to|of|both|various|different|new|novel|existing|current|most|many|"
                   r"modern|recent|standard|common|typical|conventional|efficient\s+and|such)\s+)+", re.I)
_TRAIL = {"of", "the", "a", "an", "in", "on", "for", "to", "from", "with", "and", "or", "at",
          "its", "their", "our", "under", "over", "into", "as", "across", "between", "is", "are"}
_PREP = {"in", "of", "for", "on", "with", "under", "from", "across", "over", "to", "at", "between"}
_META = re.compile(r"^(?:(?:the|a|an)\s+)?(?:(?:recent|rapid|growing|existing|prior|previous|current|"
                   r"most|many)\s+)?(?:advances?|advent|rise|success|progress|emergence|popularity|"
                   r"development|analyses|studies|work|works|research|approaches|methods)\s+(?:in|of|on)\s+", re.I)
_DEICTIC = re.compile(r"^(?:this|these|that|those|such|it|its|our|their|his|her|we|they|them|"
                      r"each|which|what|how|why|whether|one|two|three|some|many|most|all|any|"
                      r"here|there|other|further|first|second|finally|however|moreover|"
                      r"existing|prior|previous|gap|issue|limitation|question|problem|challenge|"
                      r"phenomenon|setting|task|goal|end|aim|purpose|paper|work|study|approach|"
                      r"method|result|results|findings?)\b", re.I)
_GENERIC = re.compile(r"^(?:(?:the|a|an)\s+)?(?:\w+\s+)?(?:problem|challenge|question|issue|task|gap|"
                      r"setting|phenomenon|limitation|direction|aspects?|area|field|domain|"
                      r"problems|tasks|settings|methods|approaches|models|performance|results)$", re.I)


def cut(phrase: str) -> str | None:
    """The noun phrase at the start of ``phrase``: up to the first clause boundary, at most
    :data:`MAX_WORDS` words, without trailing function words; None when nothing useful is left."""
    phrase = " ".join(phrase.split()).strip(" -–—'\"`*")
    m = _BOUNDARY.search(phrase, 1)
    while m and len(phrase[:m.start()].split()) < 1:
        m = _BOUNDARY.search(phrase, m.end())
    if m:
        phrase = phrase[:m.start()]
    words = phrase.split()
    if len(words) > MAX_WORDS:        # drop an unfinished prepositional phrase at the cut
        words = words[:MAX_WORDS]
        preps = [i for i, w in enumerate(words) if w.lower() in _PREP and i >= MIN_WORDS]
        if preps:
            words = words[:preps[-1]]
    while words and (words[-1].lower().strip(",.") in _TRAIL or re.fullmatch(r"[a-z]+ly", words[-1])):
        words.pop()
    out = " ".join(words).strip(" ,.;:-–—'\"`*")
    if not out or not re.search(r"[A-Za-z]{3}", out) or "$" in out or "\\" in out:
        return None
    return out


def _core(phrase: str) -> str:
    return _LEAD.sub("", phrase)


def polish(phrase: str, text: str = "") -> str:
    """The exported form of a cut: no leading determiner, the first word lower-cased unless it
    is an acronym or a name (written capitalised inside a sentence of ``text``)."""
    words = _core(" ".join(phrase.split())).split()
    if not words:
        return ""
    first = words[0]
    titled = len(words) > 1 and re.match(r"[A-Z]", words[1])       # "Large Language Models"
    if not titled and re.fullmatch(r"[A-Z][a-z]+(?:-[a-z]+)*", first) and not re.search(r"[a-z,;:]\s+" + re.escape(first) + r"\b", text):
        words[0] = first.lower()
    return " ".join(words)


def words_of(phrase: str) -> int:
    return len(phrase.split())


_PRONOUN = re.compile(r"\b(?:we|they|our|us|them|I|you|he|she|this|these|those)\b|\bit\b(?!-)", re.I)
# A noun phrase does not open with a preposition, subordinator, adverb or quantifier.
_BAD_START = re.compile(r"(?:by|on|in|at|from|with|as|since|because|if|when|whether|no|more|can|could|"
                        r"may|might|must|should|would|will|is|are|be|been|has|have|had|was|were|"
                        r"less|very|not|only|(?!(?:early|family|supply|assembly|anomaly|poly)\b)[a-z]{2,}ly)\b(?!-)", re.I)


def _ok(phrase: str | None) -> bool:
    if not phrase:
        return False
    core = _core(phrase)
    if not core or _DEICTIC.match(core) or _GENERIC.match(core):
        return False
    if re.match(r"\d", core) or re.fullmatch(r"[\W\d]+", core):
        return False
    if _PRONOUN.search(core) or _BAD_START.match(core):
        return False
    return True


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
    v = _VERB.search(s)
    if v:
        s = s[:v.start()]
    s = _META.sub("", s)
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
                                                           r"efficiency|ability)\b", rest, re.I) else _core(ref)
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
    if subj and obj and _ok(obj) and not verb.startswith(("degrade", "hallucinat")):
        dom = polish(subj, text)
        if re.search(r"(?:evaluated|benchmarked|tested)\s+(?:on|in)$", verb):
            out.append((f"evaluating {dom} {verb.split()[-1]} {_core(obj)}", "complaint", 2.7, i))
        else:
            out.append((f"{_core(obj)} in {dom}", "complaint", 2.7, i))
    if subj:
        out.append((subj, "opening", 1.6 if i == 0 else 1.0, i))
    return out


def task_candidates(text: str) -> list[TaskCandidate]:
    """Ranked task phrase candidates of ``text`` (best first, distinct, each 1-12 words)."""
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
        if not _ok(raw):
            continue
        fire("task-" + cue)
        raw = " ".join(raw.split()[:MAX_WORDS])
        n = words_of(_core(raw))
        score = strength - 0.05 * pos
        if n < MIN_WORDS:
            score -= 1.0 if n == 2 else 2.0
        elif n > 10:
            score -= 0.3
        if re.search(r"\d", raw):
            score -= 0.5
        key = _core(raw).lower()
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
        body = _META.sub("", m.group(1) if m else sent)
        words = [w for w in body.split() if "$" not in w and "\\" not in w]
        words = _CLAUSE.split(" ".join(words))[0].split()
        if len(words) > MAX_WORDS:
            words = words[:MAX_WORDS]
            preps = [i for i, w in enumerate(words) if w.lower() in _PREP and i >= MIN_WORDS]
            if preps:
                words = words[:preps[-1]]
        while words and words[-1].lower() in _TRAIL:
            words.pop()
        phrase = " ".join(words)
        if len(_core(phrase).split()) >= MIN_WORDS and (_ok(phrase) or question and _ok(_PRONOUN.sub("", phrase))):
            return " ".join(words)
        intro = re.match(r"(?:despite|with|in|given|as|although|while)\s+([^,]{8,120}),", sent, re.I)
        if intro:                  # "Despite the popularity of X for Y, it is unclear ..." -> "X for Y"
            phrase = cut(_META.sub("", re.sub(r"^(?:the|a|an)\s+(?:\w+\s+)?of\s+", "", intro.group(1))))
            if phrase and words_of(phrase) >= MIN_WORDS and _ok(phrase):
                return phrase
    for sent in sentences(text)[:4]:       # any clause of the opening sentences that reads as a phrase
        for piece in _CLAUSE.split(" ".join(w for w in sent.split() if "$" not in w and "\\" not in w)):
            words = (piece or "").split()[:MAX_WORDS]
            while words and words[-1].lower() in _TRAIL:
                words.pop()
            phrase = " ".join(words)
            if len(_core(phrase).split()) >= MIN_WORDS and _ok(phrase):
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
    options = ([hint] if hint else []) + [c.raw for c in task_candidates(text)]
    for raw in options:
        p = polish(raw, text)
        if MIN_WORDS <= words_of(p) <= MAX_WORDS and _ok(p):
            return p
    short = [polish(r, text) for r in options if r]
    fb = _fallback(text) if text else None
    if fb:
        return polish(fb, text)
    words = plain(text).split()          # no sentence to cut: the opening words as they are
    words = [w.strip(",;:.!?*`\"'") for w in words if "$" not in w and "\\" not in w]
    words = [w for w in words if w][:MAX_WORDS]
    if len(words) >= MIN_WORDS:
        return polish(" ".join(words), text)
    return short[0] if short else "unspecified"


def task_phrases(text: str) -> list[str]:
    """Up to :data:`MAX_PHRASES` distinct candidates of 3-12 words that occur verbatim in the
    abstract, best first: the phrases a model may choose among (its pick is polished after)."""
    out: list[str] = []
    raws = [c.raw for c in task_candidates(text)] + [_fallback(text) or ""]
    for raw in raws:
        p = _core(raw)
        if MIN_WORDS <= words_of(p) <= MAX_WORDS and _ok(p) and p in text and p not in out:
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
