"""Task phrases as text: markup removed (:func:`plain`), a noun phrase cut at its clause
boundary (:func:`cut`), its exported form (:func:`polish`) and whether it can name a task at
all (:func:`ok`: never a clause).  The cues that find candidate phrases are in :mod:`.task`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..text.lexicon import LANGUAGES
from ..text.literal import starts as literal_starts
from ..text.sentences import sentences as split_sentences

__all__ = ["BOUNDARY", "FINITE", "MAX_PHRASES", "MAX_WORDS", "META", "MIN_WORDS", "VERB", "core", "cut", "ok",
           "plain", "polish", "sentences", "title_phrase", "words_of"]

MIN_WORDS = 3
MAX_WORDS = 12
MAX_PHRASES = 4

_LATEX_WRAP = re.compile(r"\\(?:textbf|textit|texttt|emph|textsc|mathrm|mathbf|text|underline|textsf)\s*\{([^{}]*)\}")
_MD_WRAP = re.compile(r"(\*\*|__|\*|`)(?=\S)(.+?)(?<=\S)\1")
# (the look-behind after the "_": re scans for the literal fast)
_UNDERSCORE_WRAP = re.compile(r"_(?<![\w\\]_)(?=[A-Za-z])([^_\n]+?)(?<=\S)_(?!\w)")
_PAREN = re.compile(r"\([^()]*\)")
_MATH_NAME = re.compile(r"\$\s*([A-Za-z][A-Za-z\- ]*[A-Za-z])\s*\$")       # $\textbf{Name}$ -> Name
_DASHES = re.compile(r"---?|—|–(?=\s)")      # (-{2,3} as ---?: each alternative opens with a literal, scanned fast)
# Where a noun phrase ends: clause words, punctuation, verbs that start a predicate (the
# lookahead of what a match starts with: re skips the other positions fast).
BOUNDARY = re.compile(
    r"(?=[\s,;:?!.$\\])\s*(?:[,;:?!]|\.(?:\s|$)|\s—\s|\s(?:which|that|who|whose|where|while|whereas|when|because|since|"
    r"although|though|but|yet|so|thereby|thus|hence|by|using|via|through|without|such\s+as|including|"
    r"e\.g\.|i\.e\.|and\s+(?:we|its|their|then|(?:show|find|demonstrate|prove|propose|introduce|present|"
    r"evaluate|provide|achieve|establish)s?)|as\s+(?:a|an|well)|is|are|was|were|has|have|had|"
    r"can|could|may|might|must|should|will|would|remains?|requires?|relies|rely|suffers?|struggles?|"
    r"faces?|poses?|leads?|yields?|achieves?|allows?|enables?|makes?|provides?|offers?|"
    r"often|typically|usually|increasingly|rarely|still|also|do|does|did|not|drawn|collected|built|"
    r"curated|gathered|sourced|spanning|covering|containing|ranging|trained\s+(?:on|with|using|by|for))\b|"
    r"\s*[$\\])", re.I)
# Verbs that end an opening subject ("Graph networks predict ...", "Agents tend to ...").
VERB = re.compile(
    r"\s(?:(?:often|typically|usually|now|increasingly|rarely|still|also|mostly|generally|"
    r"commonly|widely|recently|largely)\s+)?(?:predicts?|expands?|treats?|tends?|claims?|routes?|"
    r"generates?|produces?|promises?|contains?|allows?|achieves?|accelerates?|dominates?|scales?|"
    r"hallucinates?|degrades?|lags?|learns?|uses?|depends?|processes?|captures?|performs?|improves?|"
    r"shows?|helps?|assumes?|focus(?:es)?|encodes?|exhibits?|struggles?|suffers?|fails?|lacks?|"
    r"becomes?|emerged?|emerges|offers?|provides?|enables?|relies|rely|requires?|remains?|"
    r"depends?|match(?:es)?|outperforms?|ignores?|operates?|converges?|compresses?|"
    r"represents?|models?\s+(?=(?:the|a|an)\s)|agree|mix(?:es)?|seeks?|aims?|attempts?|strives?)\b", re.I)
_LEAD = re.compile(r"^(?:(?:a|an|the|on|to|of|both|various|different|new|novel|existing|current|most|many|"
                   r"modern|recent|standard|common|typical|conventional|efficient\s+and|such)\s+)+", re.I)
TRAIL = {"of", "the", "a", "an", "in", "on", "for", "to", "from", "with", "and", "or", "at",
          "its", "their", "our", "under", "over", "into", "as", "across", "between", "is", "are"}
PREP = {"in", "of", "for", "on", "with", "under", "from", "across", "over", "to", "at", "between"}
META = re.compile(r"^(?:(?:the|a|an)\s+)?(?:(?:recent|rapid|growing|existing|prior|previous|current|"
                   r"most|many)\s+)?(?:advances?|advent|rise|success|progress|emergence|popularity|"
                   r"development|analyses|studies|work|works|research|approaches|methods)\s+(?:in|of|on)\s+", re.I)
_DEICTIC = set("this these that those such it its our their his her we they them each which what how why whether "
               "one two three some many most all any here there other further first second finally however "
               "moreover existing prior previous gap issue limitation question problem challenge phenomenon "
               "setting task goal end aim purpose paper work study approach method result results finding "
               "findings".split())
_GENERIC = re.compile(r"^(?:(?:the|a|an)\s+)?(?:\w+\s+)?(?:problem|challenge|question|issue|task|gap|"
                      r"setting|phenomenon|limitation|direction|aspects?|area|field|domain|"
                      r"problems|tasks|settings|methods|approaches|models|performance|results)$", re.I)
# Deictic words that open a title's task as its own words ("Question Answering on ...", "Finding the
# Dominant Winning Ticket ...", "Second Order Methods ...", "Paper Picking Using ..."; 26 corpus titles)
_TITLE_OPENERS = {"question", "finding", "second", "paper"}
_ADVERB = re.compile(r"[a-z]+ly")
_THREE_LETTERS = re.compile(r"[A-Za-z]{3}")
_CAPITALS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_TITLE_WORD = re.compile(r"[A-Z][a-z]+(?:-[a-z]+)*")
PRONOUN = re.compile(r"\b(?:we|they|our|us|them|I|you|he|she|this|these|those)\b|\bit\b(?!-)", re.I)
# A noun phrase does not open with a preposition, subordinator, adverb or quantifier.
_LY_WORD = r"(?!(?:early|family|supply|assembly|anomaly|poly)\b)[a-z]{2,}ly"     # an adverb, mostly
_BAD_START = re.compile(r"(?:and|or|but|by|on|in|at|from|with|as|since|because|if|when|whether|no|more|can|could|"
                        r"may|might|must|should|would|will|is|are|be|been|has|have|had|was|were|"
                        r"less|very|not|only|" + _LY_WORD + r")\b(?!-)", re.I)
# An adverb opening a title modifies the word after it ("provably efficient", "fully convolutional",
# "distributionally robust", "massively parallel", "socially aware"), not a clause (a comma would)
_ADVERB_ADJECTIVE = re.compile(r"(?!only\b)" + _LY_WORD + r"\s+[\w\-]", re.I)
# A finite verb with its object: a clause, never a task ("SwiftDet achieves 52.1 AP on COCO").
# The verbs that are only verbs ("reduces", "outperforms") make a clause whatever follows them
# ("LoopLM reduces perplexity on WikiText-103"); a comparison opens none ("outperforming X").
FINITE = re.compile(r"\s(?:(?:achieves|outperforms|improves|reaches|attains|surpasses|obtains|reduces|delivers|"
                    r"increases|decreases|exceeds)\s+\w|(?<!\sto\s)(?:achieve|outperform|improve|reach|attain|surpass|yields?|"
                    r"obtain|reduce|boosts?|deliver|sets|scores?)\s+(?:(?:the|a|an|our|its|their|up\s+to|over|"
                    r"state-of-the-art)\b|\d))|^(?:outperform|surpass|exceed|beat)ing\b", re.I)
_FIRST_WORD = re.compile(r"[\w\-‐]*")       # (a hyphenated word whole: "end-to-end", "one-shot" are no deictic)
_NO_LETTER = re.compile(r"[\W\d]+")
_NUMBER_FIRST = re.compile(r"[\W\d]*\d[\W\d]*(?:\s|$)")     # "3 benchmarks ...", never "3D pose estimation"


def _drop_parens(s: str) -> str:
    """``s`` without its parentheticals and the white space before each, as
    ``re.sub(r"(?<!\\s)\\s*\\([^()]*\\)", "", s)`` (~10x faster: re scans for the "(")."""
    out, at = [], 0
    for m in _PAREN.finditer(s):
        start = m.start()
        while start > at and s[start - 1].isspace():        # str.isspace() is re's \s
            start -= 1
        out.append(s[at:start])
        at = m.end()
    out.append(s[at:])
    return "".join(out)


@lru_cache(maxsize=32)      # one abstract asks for its plain text and sentences several times
def plain(text: str) -> str:
    """``text`` without markup wrappers: \\textbf{x}, **x**, _x_, `x` -> x; $math$ kept as is;
    parentheticals (acronyms, examples) dropped; whitespace collapsed."""
    s = text
    if "\\" in s:          # (no LaTeX wrapper without a backslash: three scans saved)
        for _ in range(3):
            s = _LATEX_WRAP.sub(r"\1", s)
    if "*" in s or "__" in s or "`" in s:      # (its openers: a scan per opener saved without one)
        s = _MD_WRAP.sub(r"\2", s)
    s = _UNDERSCORE_WRAP.sub(r"\1", s)
    s = _MATH_NAME.sub(r"\1", s)
    s = _DASHES.sub(" — ", s)
    for _ in range(2):
        s = _drop_parens(s)
    return " ".join(s.split())


@lru_cache(maxsize=8)
def sentences(text: str) -> tuple[str, ...]:
    """The sentences of ``text`` with its markup removed (:func:`plain`)."""
    return tuple(split_sentences(plain(text)))


def cut(phrase: str, boundary: bool = True) -> str | None:
    """The noun phrase at the start of ``phrase``: up to the first clause boundary (``boundary``),
    at most :data:`MAX_WORDS` words, without trailing function words; None when nothing useful is left."""
    phrase = " ".join(phrase.split()).strip(" -–—'\"`*")
    if boundary and (m := BOUNDARY.search(phrase, 1)):
        phrase = phrase[:m.start()]
    words = phrase.split()
    if len(words) > MAX_WORDS:        # drop an unfinished prepositional phrase at the cut
        words = words[:MAX_WORDS]
        if preps := [i for i, w in enumerate(words) if w.lower() in PREP and i >= MIN_WORDS]:
            words = words[:preps[-1]]
            if words[-1].lower().endswith("ed") and len(words) > MIN_WORDS:
                words.pop()         # "... in autonomous vehicles based on ...": the participle is the phrase's
    while words and (words[-1].lower().strip(",.") in TRAIL or _ADVERB.fullmatch(words[-1])):
        words.pop()
    out = " ".join(words).strip(" ,.;:-–—'\"`*")
    if not out or not _THREE_LETTERS.search(out) or "$" in out or "\\" in out:
        return None
    return out


def core(phrase: str) -> str:
    return _LEAD.sub("", phrase)


def polish(phrase: str, text: str = "") -> str:
    """The exported form of a cut: no leading determiner, the first word lower-cased unless it
    is an acronym, a language or a name (written capitalised inside a sentence of ``text``)."""
    words = core(" ".join(phrase.split())).split()
    if not words:
        return ""
    first = words[0]
    titled = len(words) > 1 and words[1][:1] in _CAPITALS          # "Large Language Models"
    if not titled and _TITLE_WORD.fullmatch(first) and not _language(first) \
            and not _written_whole(_single_spaced(text), first):
        words[0] = first.lower()
    return " ".join(words)


# A title's head ("SEGA: ", "Less Is More: ", "UFPMP-Det:Toward"; or set off by a dash or an
# exclamation: "ApproxASP – a ...", "Look here! A ...", "Push to Know! - ..."), a tail that only says
# how the head is studied ("A Bayesian Approach", "A Case Study in Bribri"), a Title Case word
# ("Multi-Part", "Re-Identification") and a run of them inside a sentence (after a lower-case word or a comma),
# and the verbs a title that is a clause holds: the auxiliaries, and the lexical verbs titles use
# on 10 or more corpus titles each ("Data Matters", "Can Attention Help?"; "X Meets Y" -> "X and Y",
# 14 corpus titles: "knowledge compilation and logical separability").  A
# title that states a finding is made a noun phrase (these verbs are in 76 corpus titles, "improve(s)"
# in 22): "X Enables Y", "X Yields Y", "X Leads to Y", "X Improves Y" -> "X for Y" ("volitional EMG
# control for stair climbing with ..."; not the imperative that opens a title, "Improve X with Y"),
# "X Makes Y Z", "X Requires Y" -> X ("exploiting CLIP for zero-shot HOI detection"), never "what makes"
_TITLE_HEAD = re.compile(r"[^:?]{1,60}:\s*(?=\S)")
_TITLE_DASH = re.compile(r"[^:?!]{1,60}?\s*(?:!|\s[–—-]{1,2}|—)[\s!–—-]*(?=\w)")
_GENERIC_TAIL = re.compile(r"(?:an?\s+)?(?:[\w\-]+\s+){0,3}(?:approach|framework|perspective|view|solution|(?:study|"
                           r"evaluation|investigation|assessment|analysis)(?:\s+(?:in|on|of|into|with)\s.*)?)", re.I)
_QUESTION_HEAD = re.compile(r"[^?]{3,}\?\s+(?:[–—-]+\s+)?(?=\w)")      # a question the title then answers
_TITLE_CASE = re.compile(r"[A-Z][a-z]+(?:-(?:[A-Z][a-z]+|[a-z]+))*")
_TITLE_NEXT = re.compile(r"\s" + _TITLE_CASE.pattern + r"(?![\w\-])")
_WORD_BEFORE = re.compile(r"(?<![\w\-])[\w\-]+$")
_LOWER_PART = re.compile(r"(?:[\w\-]*-)?[a-z]")        # a part of it opens in lower case
_WORDY = re.compile(r"[\w\-]")
# A title that opens with a generic head its deictic word would reject ("A New Method of X", "A Study
# of X", "New Results on X", "A Novel Approach to X"; 13 corpus titles) names its task after it
# (core() has taken "a", "new", "novel" off it already)
_GENERIC_HEAD = re.compile(r"(?:method|approach|study|results)\s+(?:of|for|to|on|in)\s+(?=\S)", re.I)
_TITLE_VERB = re.compile(r"\s(?:is|are|was|were|do|does|did|can|could|should|will|would|may|might|must|matters?|"
                         r"helps?)\b", re.I)
_TITLE_FINDING = re.compile(r"\s(?<!\sto\s)(?<!\swhat\s)(?:(?P<achieves>enables?|yields?|leads?\s+to|improves?)|(?P<meets>meets?)|"
                            r"makes?|requires?)\s+", re.I)


def title_phrase(title: str | None, text: str = "") -> str | None:
    """The task a paper's title states ("SEGA: Variance Reduction via Gradient Sketching" ->
    "variance reduction via gradient sketching"): the title after its head, its Title Case
    words lower-cased unless ``text`` writes them capitalised inside a sentence (a name), cut at
    a clause boundary past :data:`MAX_WORDS`, a finding made a noun phrase (:data:`_TITLE_FINDING`),
    a question the answer after it; None for a question alone, another clause or no noun phrase
    of 3-12 words.  With it the task's token F1 on dev2, dev4 and dev5 is 0.60, 0.60 and 0.63,
    against 0.29, 0.28 and 0.35 for the phrase cut from the abstract (README, Benchmarks)."""
    rest = " ".join((title or "").split()).rstrip("*. -–—")     # (a footnote mark)
    if m := _QUESTION_HEAD.match(rest):
        rest = rest[m.end():]                                   # "Can We Detect Failures ...? Uncertainty-Aware ..."
    if m := _TITLE_HEAD.match(rest) or _TITLE_DASH.match(rest):
        # the rest, or the head where the rest is no task or a kind of approach ("Explaining Deep
        # Learning Models -- A Bayesian Non-parametric Approach", "Rate Distortion For Model Compression:From
        # Theory To Practice")
        tail, p = rest[m.end():], _title_task(rest[m.end():], text)
        if not p or _GENERIC_TAIL.fullmatch(tail):
            return title_phrase(rest[:m.end()].rstrip(" :!–—-"), text) or p
        return p
    return _title_task(rest.split(": ", 1)[0], text)     # (a head past 60 characters is the task itself)


def _title_task(rest: str, text: str) -> str | None:
    if (m := _TITLE_FINDING.search(" " + rest)) and (m.start() or not m["achieves"]):   # (not "Improve X with Y")
        joined = " for " if m["achieves"] else " and " if m["meets"] else None
        rest = rest[:m.start()] + (joined + rest[m.end() - 1:] if joined else "")
    if not rest or rest.endswith("?") or FINITE.search(" " + rest) or _TITLE_VERB.search(" " + rest):
        return None
    p = core(_title_cased(rest.split(), text))
    if (m := _GENERIC_HEAD.match(p)) and not ok(p, titled=True):    # "A New Method of X for Y": what follows
        p = core(p[m.end():])
    if words_of(p) > MAX_WORDS:
        # a title's first boundary may end a list or a head too early ("Design, Modeling, and Control
        # of ...", "Uncertainty Estimation via Response Scaling for ..."): its first words then
        p = c if words_of(c := cut(p) or "") >= MIN_WORDS else cut(p, boundary=False) or ""
    return p if MIN_WORDS <= words_of(p) <= MAX_WORDS and ok(p, titled=True) else None


def _title_cased(words: list[str], text: str) -> str:
    """The title's words, a run of Title Case words lower-cased unless ``text`` writes the same
    run inside a sentence as a whole, neither longer nor shorter ("Gaussian processes" keeps
    "Gaussian"; "Conditional Sequential Modulation" is lowered though the text names its
    "Conditional Sequential Retouching Network"; "tensor Decomposition" is no name where the text
    also writes "tensor decomposition")."""
    text = _single_spaced(text)
    bare = [w.rstrip(",;.") for w in words]
    out, i = list(words), 0
    while i < len(words):
        j = i
        while j < len(words) and _TITLE_CASE.fullmatch(bare[j]) and (j == i or bare[j - 1] == words[j - 1]):
            j += 1                      # words[i:j]: a run of Title Case words (a comma ends it)
        if j == i:
            i += 1
        while i < j:                    # its longest runs that the text writes, from the left
            k = next((k for k in range(j, i, -1) if _written_whole(text, " ".join(bare[i:k]))), i) \
                if bare[i] in text else i
            if k == i:
                out[i], k = words[i] if _language(bare[i]) else words[i].lower(), i + 1
            i = k
    return " ".join(out)


def _language(word: str) -> bool:
    return word in LANGUAGES and "lingual" not in word      # "Chinese", not "Multilingual"


def _single_spaced(text: str) -> str:
    return " ".join(text.split()) if "  " in text or "\n" in text or "\t" in text else text


def _written_whole(text: str, run: str) -> bool:
    """Whether ``text`` (its white space single) writes ``run`` inside a sentence, after a lower-case
    word or a comma, as a whole run of Title Case words; a single word not also written in lower
    case.  (str.find, not a pattern per run: the title's runs are tried at every abstract.)"""
    if " " not in run and _whole_at(text, run.lower()):
        return False
    i = text.find(run)
    while i >= 0:
        e = i + len(run)
        if _whole_at(text, run, i) and i >= 2 and text[i - 1] == " " and not _TITLE_NEXT.match(text, e) and (
                text[i - 2] in ",;:(" or (m := _WORD_BEFORE.search(text, max(0, i - 40), i - 1))
                and _LOWER_PART.match(m[0]) and not _TITLE_CASE.fullmatch(m[0])):
            return True
        i = text.find(run, i + 1)
    return False


def _whole_at(text: str, word: str, i: int | None = None) -> bool:
    """Whether ``word`` stands in ``text`` as a whole word (at ``i``, or anywhere)."""
    for j in ([i] if i is not None else literal_starts(text, word)):
        e = j + len(word)
        if (j == 0 or not _WORDY.match(text[j - 1])) and (e == len(text) or not _WORDY.match(text[e])):
            return True
    return False


def words_of(phrase: str) -> int:
    return len(phrase.split())


def ok(phrase: str | None, titled: bool = False) -> bool:
    """Whether a cut phrase can name a task (not deictic, generic, a pronoun or a number).
    ``titled``: the phrase is a title's, where an adverb before an adjective opens a noun phrase
    ("Provably Efficient Maximum Entropy Exploration", "Weakly Supervised Semantic Segmentation";
    cut from an abstract, "widely used in practice" is a fragment)."""
    head = core(phrase or "")
    first = _FIRST_WORD.match(head).group(0).lower() if head else ""
    return bool(head) and not (first in _DEICTIC and not (titled and first in _TITLE_OPENERS) or _GENERIC.match(head)
                               or _NUMBER_FIRST.match(head) or _NO_LETTER.fullmatch(head) or PRONOUN.search(head)
                               or _BAD_START.match(head) and not (titled and _ADVERB_ADJECTIVE.match(head))
                               or FINITE.search(head))
