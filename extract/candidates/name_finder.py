"""Name candidates: coinages, acronyms, long forms, wrapped and introduced names, datasets.

Each candidate has a ``role_hint`` (method: the paper introduces it; dataset: a named dataset or
benchmark, an introduced one also with the cue "introduced"; model: an existing model, never a
dataset) and a ``score``; its ``cues`` say why.  The finder collects occurrences and their
evidence; the tables of :mod:`.name_rules` weigh it, here and in :mod:`.name_scoring`.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from functools import cached_property, lru_cache

from ..text.acronyms import acronym_definitions, upper_count
from ..text.lexicon import (DATASET_NOUN_STARTS, DATASET_NOUNS, DATASET_SUFFIXES, FUNCTION_WORDS, GENERIC_ACRONYMS, LANGUAGES, WE_STARTS,
                            is_known_dataset, we)
from ..text.literal import matches_from, word_starts
from ..text.sentences import sentence_bounds
from ..text.spans import SpanIndex, math_spans, rules_text, unemphasized, url_spans
from . import name_cues as cue
from .name_rules import INTRO_RULES, Evidence, NameCandidate, Occurrence, apply, dataset_strength
from .name_naming import named_own, naming_matches
from .name_scoring import score
from .name_forms import dated, parenthesized_short_forms, spelled_acronyms
from .name_title import title_head
from .name_shapes import (COINAGE_SUFFIX_WORDISH, ENGLISH_COMPOUND, NAMEY, SENT_START_LOOKBACK, SPLIT_AFTER_NAME, SYMBOL_NAME,
                          TOKEN, WRAPPED, is_namey)
from .rules import fire

# Words that start sentences and are not part of a name that follows them.
_SENT_INITIAL_WORD = re.compile(
    r"(?:On|In|For|Across|Using|With|To|By|From|At|Our|We|This|These|The|A|An|Unlike|Compared|"
    r"Applied|Applying|Training|Fine-tuning|Evaluated|Evaluating|Experiments|Results|Here|Finally|"
    r"Moreover|However|Furthermore|Specifically|Notably|Overall|Beyond|Under|Over|Without|Through|"
    r"Given|Like|When|While|Although|Despite|Both|All|Each|Most|Many|Some|Recent|Existing|Prior)\s")

# A verb right after a dataset noun ("datasets is costly", "benchmarks remain hard") starts no list.
_NOT_A_VERB = (r"(?!(?:is|are|was|were|be|been|being|has|have|had|can|could|will|would|may|might|should|"
               r"must|do|does|did|remain|remains|require|requires|lack|lacks|show|shows|often|also)\b)")

# An introducing verb, an article and adjectives, then a phrase up to "(" at the end of the window.
_INTRO_THEN_PHRASE = re.compile(
    we() + cue.INTRO_VERB + r"\w*\s+(?:(?:a|an|the)\s+)?(?:(?:new|novel|innovative|simple|unified|first)\s+)?"
    r"(?:[^,.;:()$`*\"“]*\b(?:called|named|dubbed|termed)\s+)?(?P<phrase>[^\s,.;:()$`*\"“][^,.;:()$`*\"“]{3,158}?)\s*$", re.I)

# (the lookahead of the first letters: re skips the other positions fast)
_NAMED_CAPITALIZED = re.compile(
    r"(?=[cndt,])(?:(?P<called>(?<!so-)\b(?:called|named|dubbed|termed|coined)\s+(?:as\s+)?)|(?P<comma>(?<=[a-z]),\s+))"
    r"(?P<n>[A-Z][a-z][\w\-]*(?:\s+(?:(?:to|of|for|in|on|with)\s+)?[A-Z][\w\-]*){0,5})"
    r"(?=\s*[,.;:(]|\s+(?:which|that|to|for|as|with|is|in|on|achieves|outperforms)\b)")

# An introducing verb and what may precede the name it introduces (introduced_phrases): "we propose
# X", "we call it X", "we call this (stochastic optimization) method X" (the naming verb's object
# noun is not part of the name)
_INTRO_VERB_THEN = re.compile(we() + r"(?:(?:call|nam|term|dub|denot)\w*\s+(?:this|these)\s+(?:[a-z][\w\-]*\s+){0,2}?(?:"
                              + cue.INTRO_HEADS + r"|problem|solution|scheme)s?\s+|" + cue.INTRO_VERB
                              + r"\w*\s+(?:(?:this|it|them|our\s+\w+)\s+)?)(?:(?:as|into)\s+)?", re.I)
# What every WRAPPED match holds one of ("**", "__", "`", "\\textbf{", quotes, "$"), and the cue of each group
_WRAPPERS = "*_`\\\"“$"
_WRAP_CUES = {"bold": "bold", "ubold": "bold", "bf": "bold", "code": "code", "tt": "code", "q": "quoted"}
# Runs of capitalized words (capitalized_runs); the look-behind after the
# first capital (re scans for a capital fast)
_CAPITALIZED_RUN = re.compile(r"(?:[A-Z](?<![\w\-][A-Z])[\w\-‐–]*[A-Za-z0-9])(?:\s+(?:(?:of|for|from)\s+)?"
                              r"[A-Z][\w\-‐–]*[A-Za-z0-9]){1,6}")
_PLUS = re.compile(r"\+{1,2}(?![\w+])")
# (the look-behind after the first digit: re scans for a digit fast)
_DIGIT_LED = re.compile(r"\d(?<![\w\-.$\\]\d)\d*[A-Z][A-Za-z0-9]*(?:[-‐–][A-Za-z0-9]+)*")
_UNIT_LED = re.compile(r"\d+(?:D|DoF|DOF|K|M|B|G|T|GB|MB|TB|GHz|MHz|FPS|HD|USD)(?:[-‐–].*)?")
_VERSION = re.compile(r"\s(v\d+(?:\.\d+)*|\d+\.\d+(?:\.\d+)?)(?![\w%.]|\s*(?:%|million|billion|x\b|×))")
_DATASET_VERSION = re.compile(r" (?:[A-Z][a-z]+|v?\d+(?:\.\d+)*)(?![\w\-])")
_MODIFIER_SUFFIX = re.compile(r"[-‐–](?:based|like|style|type|inspired|specific|driven|guided|compatible|"
                              r"only|free|level|scale|sized|generated|written|aligned|tuned|trained)$")
_ED_SUFFIX = re.compile(r"[-‐–][a-z]{3,}ed$")
# A dataset_lists item and a list of them (the item written once: "A X|B X" as "(?:A|B) X", same matches)
_ITEM = (r"(?:[A-Z][\w\-.&]*[\w]\+{0,2}(?:" + SPLIT_AFTER_NAME.pattern + r")?|[a-z][a-z0-9]*[-_][\w\-]*[\w]|"
         r"[a-z]+\d[\w\-]*)(?:\s+(?!(?:and|or)\b|v?\d)[A-Z][\w\-]*[\w])?(?:\s+v?\d+(?:\.\d+)*[A-Za-z]{0,2}(?!\w|\.\d)(?<!\d[a-z]{2}))?"
         r"(?:\s+(?:repository|database|archive|corpus))?")
_PAREN = r"(?:\s*\([^()]{1,30}\))?"        # an item's gloss: "ImageNet (1000 classes) and MS-Celeb-1M"
_GLOSS = re.compile(r"\([^()]*\s[^()]*\)")      # (of words: "(46.5% PQ)"; an alias is an item: "(LFW)")
_LIST = _ITEM + _PAREN + r"(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)" + _ITEM + _PAREN + r")*"
_ITEM_RX = re.compile(_ITEM)
_VERSION_ONLY = re.compile(r"[vV]\d+(?:\.\d+)*$")
_CITED = re.compile(r"\s+(?:et\.?\s+al\b|(?:and|&)\s+[A-Z][\w\-’']+\s*(?:et\.?\s+al\.?\s*)?[,(]\s*(?:19|20)\d\d)")
_TITLE_GOES_ON = re.compile(r" (?:(?:of|for)\s+)?(?!(?:Dataset|Benchmark|Corpus|Challenge)s?\b)[A-Z][a-z]")
_ITEM_ENDS = re.compile(r"\s*(?:,|\)|\.|;|and\b|or\b|$)")
# "datasets, including Cora, PubMed, and wiki-small", "the long-range benchmark Graph-mix"
_AFTER_NOUN = re.compile(cue.NOT_VERB + r"\b(?:" + DATASET_NOUNS + r")\s*(?:\(|:|,(?=\s*(?:such|like|including|e\.g|i\.e|"
                         r"namely)))?\s*(?:such\s+as|like|including|(?:e\.g|i\.e)\.,?|namely)?\s*(?:the\s+)?" + _NOT_A_VERB
                         + r"(?P<lst>" + _LIST + r")", re.I)
# "the X and Y benchmarks", "on the simulated X benchmark": up to two adjectives first (the
# lookahead of the first letters: re skips the other positions fast)
_ADJECTIVES = r"(?:(?!(?:and|or|of|in|on|for|to|with|by|from|at|as|is|are|was|were|than)\b)[a-z][a-z\-]+\s+){0,2}?"
_BEFORE_NOUN = re.compile(r"(?=[oatw])(?:\b(?:on|across|the|and|with)\s+)" + _ADJECTIVES + r"(?P<lst>" + _LIST
                          + r")\s+(?:" + DATASET_NOUNS + r")\b")


@lru_cache(maxsize=1 << 14)     # per token: the same words recur across abstracts
def _compound_modifier(tok: str) -> bool:
    """"LLM-based", "GPU-accelerated", "CLIP-conditioned": a modifier, not a name."""
    return bool(_MODIFIER_SUFFIX.search(tok.lower()) or _ED_SUFFIX.search(tok))


__all__ = ["NameCandidate", "find_names", "role_evidence", "select_names"]


class _Finder:
    def __init__(self, text: str, marked: str | None = None):
        self.text = text
        self.marked = marked if isinstance(marked, str) and len(marked) == len(text) else text
        self.bounds = sentence_bounds(text)
        self.aggs: dict[str, Evidence] = {}
        self.starts = [s for s, _ in self.bounds]
        self.memo: dict = {}                # what each sentence says, read once (Occurrence)

    @cached_property
    def urls(self) -> SpanIndex:
        return SpanIndex(url_spans(self.text))

    def sent(self, pos: int) -> tuple[int, int, int]:
        """(index, start, end) of the sentence holding ``pos`` (or the white space after it)."""
        i = bisect_right(self.starts, pos) - 1
        return (i, *self.bounds[i])

    def add(self, start: int, end: int, cues: set[str], method: float = 0.0, dataset: float = 0.0,
            shape: str = "", partner: Evidence | None = None) -> Evidence | None:
        """The evidence of the name at text[start:end] (its edges trimmed), with ``partner`` (an
        acronym and its long form) as each other's partner; None for no name."""
        t = self.text
        while start < end and t[start] in " \t\n,;:.([{\"'“`*_":
            start += 1
        while end > start and t[end - 1] in " \t\n,;:.)]}\"'”`*_":
            ch = t[end - 1]
            if ch in ")]}":
                opener = {")": "(", "]": "[", "}": "{"}[ch]
                if t[start:end].count(opener) >= t[start:end].count(ch):
                    break
            end -= 1
        s = t[start:end]
        if end - start < 2 or end - start > 90 or not any(ch.isalpha() for ch in s):
            return None
        if start and t[start - 1].isalnum() and t[start].isalnum() \
                or end < len(t) and t[end].isalnum() and t[end - 1].isalnum():
            fire("mid-word")            # "Scenes" of nuScenes, "Matterport 3" of "Matterport 3D"
            return None
        if self.urls.find(start) or self.urls.find(end - 1):
            fire("in-url")
            return None         # "github.com/org/FooBench", "DiBiMT at https://..."
        if _CITED.match(t, end):
            return None         # an author cited: "(Reddy et al., 2021)", "Andreas and Klein (2015)"
        if partner is None and ("-" in s or "‐" in s or "–" in s) and _compound_modifier(s.rsplit(None, 1)[-1]):
            fire("compound-modifier")
            return None         # "Stable Diffusion-based", "MNIST-like": a modifier (a long form may end so)
        if (a := self.aggs.get(s)) is None:
            a = self.aggs[s] = Evidence(s, start, end, shape=shape)
        elif start < a.start:
            a.start, a.end = start, end
        a.cues |= cues
        a.method, a.dataset = max(a.method, method), max(a.dataset, dataset)
        a.shape = a.shape or shape
        if partner is not None:
            a.partners.add(partner.text)
            partner.partners.add(a.text)
        return a

    def occurrence(self, start: int, end: int, window: int) -> Occurrence:
        return Occurrence(self.text, start, end, self.sent(start)[1:], window, self.memo)

    def intro(self, start: int, end: int) -> Occurrence:
        """The occurrence text[start:end] with the :data:`INTRO_RULES` applied: how strongly
        the text presents it as the paper's own contribution."""
        occ = self.occurrence(start, end, 160)
        apply(INTRO_RULES, occ)
        return occ

    def tokens(self) -> None:
        t = self.text
        in_math = SpanIndex(math_spans(t)).find
        for m in TOKEN.finditer(t):                         # (no plain lower-case word)
            tok, s, e = m[0], m.start(), m.end()
            if in_math(s):
                continue
            ok, shape = is_namey(tok)
            if not ok and t.startswith("+", e) and _PLUS.match(t[e:e + 3]) and tok[:1].isupper():
                ok, shape = True, "camelcase"               # a capitalized word + "++": a coinage
                fire("plus-plus-coinage")
            if not ok and tok[:1].isupper() and is_known_dataset(tok):
                ok, shape = True, "known"                   # Wikipedia, ImageNet
                fire("known-dataset-word")
            if not ok:
                continue
            if _compound_modifier(tok):
                fire("compound-modifier")                   # LLM-based: a modifier, not a name
                continue
            ver = _VERSION.match(t[e:e + 12]) if t[e:e + 1].isspace() else None     # (it opens with \s)
            if ver and shape in ("camelcase", "acronym", "hyphenated"):
                fire("version-suffix")
                self.add(s, e + len(ver.group(0)), {shape, "versioned"}, shape=shape)
            plus = _PLUS.match(t[e:e + 3]) if t.startswith("+", e) else None
            if plus:
                e += len(plus.group(0))                      # GCD+, C++
                fire("plus-suffix")
                tok = t[s:e]
            self.add(s, e, {shape}, shape=shape)
            if is_known_dataset(tok) or tok.endswith(DATASET_SUFFIXES):
                ext = _DATASET_VERSION.match(t[e:e + 20])
                if ext and ext.group(0).strip().lower() not in ("and", "or", "the", "we", "in", "on"):
                    fire("dataset-version")
                    self.add(s, e + len(ext.group(0)), {shape, "versioned"}, shape=shape)

    def digit_led_names(self) -> None:
        """Names led by digits ("3DPW", "3DMatch", "2WikiMultiHopQA", "1DSfM"): two capitals
        among three letters or more, not a size or a unit ("3D", "6DoF", "1B", "4K", "2GHz")."""
        for m in _DIGIT_LED.finditer(self.text):
            letters = [ch for ch in m[0] if ch.isalpha()]
            if len(letters) >= 3 and upper_count(m[0]) >= 2 and not _UNIT_LED.fullmatch(m[0]):
                fire("digit-led-name")
                self.add(*m.span(), {"alnum"}, shape="alnum")

    def symbol_names(self) -> None:
        """Names led by a symbol or a Greek letter ("∞-bench", "τ-bench", "$\\tau$-bench",
        "β-VAE"): candidates when their word part has a dataset suffix or a name's shape."""
        if self.text.isascii() and "$" not in self.text:
            return                  # (every symbol is a non-ASCII character or written in $...$)
        for m in SYMBOL_NAME.finditer(self.text):
            rest = m.group("rest")
            ok, shape = is_namey(rest)
            if ok or any(rest.lower().endswith(x.lower()) for x in DATASET_SUFFIXES):
                fire("symbol-led-name")
                self.add(*m.span(), {"symbol"}, shape=shape or "symbol")

    def acronyms(self) -> None:
        for d in acronym_definitions(self.text):
            fire("acronym-def")
            short = self.add(d.start, d.end, {"acronym-def"}, shape="acronym")
            if d.long_start is None:
                self.introduced_long_form(d, short)
                continue
            fire("long-form" if d.long_start < d.start else "acronym-then-long-form")
            self.add(d.long_start, d.long_end, {"long-form"}, shape="long", partner=short)

    def introduced_long_form(self, d, short: Evidence) -> None:
        """"We introduce the innovative Skin Lesion Classifier utilizing a ... model (SkinM2Former)":
        the phrase between an introducing verb and a coined acronym's parenthesis is its long
        form, even when its letters do not spell the acronym."""
        t = self.text
        if d.short in GENERIC_ACRONYMS or upper_count(d.short) < 2 or t[d.start - 1:d.start] != "(":
            return
        _, ss, _ = self.sent(d.start)
        m = _INTRO_THEN_PHRASE.search(t, max(ss, d.start - 240), d.start - 1)
        if not m or len(m.group("phrase").split()) < 2:
            return
        fire("introduced-long-form")
        self.add(m.start("phrase"), m.end("phrase"), {"long-form", "we-propose"}, method=0.85, shape="long",
                 partner=short)

    def wrapped(self) -> None:
        t = self.marked                         # (the emphasis is read where it is written)
        for m in WRAPPED.finditer(t) if any(ch in t for ch in _WRAPPERS) else ():
            kind = m.lastgroup
            s, e = m.span(kind)
            inner = t[s:e]
            if "(" in inner or len(inner.split()) > 6 or re.search(r"[.;!?]\s", inner):
                continue
            if kind == "math":
                # a math name holds words and is introduced ("we introduce $s_{\text{gap}}$, a metric")
                if "\\text" not in inner:
                    continue
                occ = self.intro(m.start(), m.end())
                if occ.strength >= 0.75:
                    fire("introduced-math")
                    self.add(s, e, {"math"} | occ.cues, method=occ.strength)
                continue
            cue = _WRAP_CUES[kind]
            if kind == "q" and (len(inner.split()) > 4 or inner[:1].islower() and " " in inner):
                continue
            fire("wrapped-" + cue)
            self.add(s, e, {cue})

    def introduced_phrases(self) -> None:
        """Lowercase or multi-word names right after an introducing verb."""
        t = self.text
        for m in matches_from(_INTRO_VERB_THEN, t, word_starts(t, WE_STARTS)):      # (tried at a subject only)
            rest = t[m.end():m.end() + 120]
            if re.match(r"(?:a|an|the|two|three|several|some|\d+|this|that|how|whether|to|in|on|"
                        r"our|its|their|these|those|new|novel|from|with|by|for|into|upon|at|\$)\b", rest, re.I):
                continue
            nm = re.match(r"([\w\-‐–']+(?:\s+[\w\-‐–']+){0,3}?)(?=\s*(?:,|:|\(|—|--|\.|;|\s+(?:that|which|"
                          r"to|for|as|based|where|with|in|on|by|via)\b))", rest)
            if not nm:
                continue
            phrase = nm.group(1)
            words = phrase.split()
            if any(w.lower() in ("we", "is", "are", "can", "and", "or", "a", "an", "the") for w in words):
                continue                                    # "DisCo a novel technique": a name and its gloss
            s, e = m.end(), m.end() + len(phrase)
            follow = t[e:e + 80]
            appos = bool(cue.APPOSITIVE.search(follow)) or follow.lstrip().startswith(("(", ":"))
            if words[0].islower() and "-" not in words[0] and not appos and words[0].endswith(("ing", "ly")):
                continue                                    # "we propose using ...", "... training X"
            capital = all(not w.islower() for w in words if w.lower() not in FUNCTION_WORDS)     # (3DN, bert2BERT)
            if capital:
                fire("introduced-capitalized-phrase")
                score, cues = 0.85, {"we-propose", "capitalized"}
            else:
                score = 0.6 if appos else 0.5
                if len(words) == 1 and COINAGE_SUFFIX_WORDISH.search(words[0].lower()):
                    score = 0.35
                cues = {"we-propose", "lowercase-coinage"} | ({"appositive"} if appos else set())
                fire("introduced-lowercase-phrase")
            self.add(s, e, cues, method=score)
        for m in naming_matches(t):           # "a simple technique called fraternal dropout that"
            if span := named_own(t, self.sent(m.start())[1], m):
                fire("named-own")
                self.add(*span, {"we-propose", "called"}, method=0.85)
        # a plain Capitalized word or phrase named by "called/named X" ("a reasoner called Braid",
        # "a method called Extract and Merge (EAM)") or set off by a comma in an introducing
        # sentence ("we devise a novel conversational agent, Divter, in order to"); the
        # introduction rules score it
        for m in _NAMED_CAPITALIZED.finditer(t):
            if m.group("comma") and not cue.INTRO_ANYWHERE.search(t, self.sent(m.start())[1], m.start()):
                continue
            fire("named-capitalized")
            self.add(m.start("n"), m.end("n"), {"capitalized"})

    def dataset_lists(self) -> None:
        """Items named in dataset contexts: "datasets, including Cora, PubMed, and wiki-small",
        "the long-range benchmark Graph-mix", "the X and Y benchmarks"."""
        t = self.text
        after = matches_from(_AFTER_NOUN, t, word_starts(t, DATASET_NOUN_STARTS))     # (tried at a noun only)
        for pat, found in ((_AFTER_NOUN, after), (_BEFORE_NOUN, _BEFORE_NOUN.finditer(t))):
            for m in found:
                base = m.start("lst")
                items = list(_ITEM_RX.finditer(_GLOSS.sub(lambda g: " " * len(g[0]), m.group("lst"))))  # (not in a gloss)
                named = any(NAMEY.search(im.group(0)) for im in items)
                for im in items:
                    word = im.group(0)
                    if word.lower() in ("and", "or", "the", "we", "our", "this", "these", "it") or _VERSION_ONLY.match(word):
                        continue                        # (a version is an item's: "NYU depth V2")
                    if word in LANGUAGES:
                        fire("language-not-dataset")    # "English and Chinese datasets"
                        continue
                    if word[0].islower() and (pat is _BEFORE_NOUN or ENGLISH_COMPOUND.match(word) or not named
                                              or not _ITEM_ENDS.match(t[base + im.end():base + im.end() + 6])):
                        continue        # "long-range benchmark", "binary, multi-class, and", "on-par or": adjectives
                    if pat is _AFTER_NOUN and _TITLE_GOES_ON.match(t, base + im.end()):
                        continue                    # "a dataset for Named Entity Recognition": a phrase's first words
                    fire("dataset-list-after-noun" if pat is _AFTER_NOUN else "dataset-list-before-noun")
                    self.add(base + im.start(), base + im.end(), {"dataset-list"}, dataset=0.8, shape="list")

    def capitalized_runs(self) -> None:
        """Multi-word Capitalized Names mid-sentence (kept only when a cue supports them)."""
        t = self.text
        lead = len(t) - len(t.lstrip())             # (the text's first word opens a sentence)
        for m in _CAPITALIZED_RUN.finditer(t):
            s, e = m.span()
            if s == lead or SENT_START_LOOKBACK.search(t[max(0, s - 4):s]):
                # "Across Open Web Tables, ...": the run without its sentence-initial word
                rest = re.match(r"\S+\s+(?:(?:of|for|from|with|to|in|on|via)\s+)?", m.group(0))
                if rest and len(m.group(0)[rest.end():].split()) >= 2:
                    fire("run-after-initial-word")
                    self.add(s + rest.end(), e, {"capitalized-run"}, shape="run")
                if _SENT_INITIAL_WORD.match(m.group(0)) or not (self.intro(s, e).strength >= 0.75 or dataset_strength(
                        self.occurrence(s, e, 120))[0] >= 0.8):
                    continue            # cued: introduced, or a dataset by its context
            fire("capitalized-run")
            self.add(s, e, {"capitalized-run"}, shape="run")


def find_names(text: str, title: str | None = None, marked: str | None = None) -> list[NameCandidate]:
    """Name candidates of ``text``, deduplicated by surface form, ordered by position
    (``title``: the paper's title, whose head may name what the paper introduces; ``marked``:
    the same text with its emphasis markup, where a wrapped term is a cue, when ``text`` reads
    the markup as spaces)."""
    if not isinstance(text, str) or not text:
        return []
    f = _Finder(text, marked)
    for find in (f.tokens, f.symbol_names, f.digit_led_names, f.acronyms, f.wrapped, f.introduced_phrases, f.dataset_lists,
                 f.capitalized_runs):
        find()
    for find in (dated, spelled_acronyms, parenthesized_short_forms):     # (the forms of the names found)
        find(f)
    if title:
        title_head(f, title)
    return score(f)


def role_evidence(text: str, names) -> list[tuple[float, float]]:
    """What the text says of each of ``names`` wherever it is written: (how strongly it presents
    it as the paper's own, :data:`INTRO_RULES`; how strongly as a dataset, :data:`DATASET_RULES`),
    the strongest of its occurrences.  For any span, a candidate or not (a model's label is
    checked against it: :mod:`extract.hybrid.checks`).  ``text`` is read as the candidates read
    it (:func:`rules_text`, emphasis as spaces): a name across a wrapped line is found."""
    text = unemphasized(rules_text(text))
    f, out = _Finder(text), []
    for name in names:
        own, data, at = 0.0, 0.0, text.find(name) if name else -1
        while at >= 0:
            end = at + len(name)
            if not (text[at - 1:at].isalnum() or text[end:end + 1].isalnum()):
                own = max(own, f.intro(at, end).strength)
                data = max(data, dataset_strength(f.occurrence(at, end, 120))[0])
            at = text.find(name, end)
        out.append((own, data))
    return out


def select_names(names, threshold: float = 0.5) -> tuple[list[str], list[str]]:
    """(method_names, datasets) chosen from candidates by score alone."""
    methods, datasets = [], []
    for c in names:
        if c.score < threshold:
            continue
        if c.role_hint == "method" or "introduced" in c.cues:
            methods.append(c.text)
        if c.role_hint == "dataset":
            datasets.append(c.text)
    return methods, datasets
