"""The contribution type of an abstract in the guideline's kinds: method (a new model, algorithm
or technique), benchmark, dataset, analysis (an empirical study or finding without a new
method), theory (mainly proofs or bounds), system (a software framework, tool or library).
Read from the names the paper introduces, what "we propose/release/present ..." introduces,
and the words of proofs and of studies."""

from __future__ import annotations

import re

from ..text.lexicon import CONTRIBUTION_STEMS, OWN_VOICE, WE, WE_STARTS, stems
from ..text.literal import folded, matches_from, word_starts
from ..text.spans import math_spans
from .name_title import title_kind, title_phrase_kind
from .rules import Rule, fire

_INTRO = re.compile(WE + stems(CONTRIBUTION_STEMS) + r"\w*\b", re.I)
# The head noun of what is introduced, by kind: the first one named decides.
_KIND = re.compile(
    r"\b(?:(?P<system>librar(?:y|ies)|toolkit|package|software|open-source\s+(?:tool|system|platform)|"
    r"platform|compiler|runtime|api|plug-?in)|(?P<benchmark>benchmark|evaluation\s+(?:suite|framework)|"
    r"test\s*bed|leaderboard|arena|environment|simulator)|(?P<dataset>dataset|data\s+set|corpus|corpora|"
    r"collection\s+of)|(?P<method>method|algorithm|approach|framework|model|architecture|objective|technique|"
    r"loss|strategy|mechanism|module|procedure|estimator|optimizer|formulation|paradigm|recipe|scheme|"
    r"pipeline|policy|metric|regularizer|network|layer|attack|defense|sampler|solver|training))\b", re.I)
# "we address this by introducing X", "we study Y and propose X": what a sentence of another verb introduces
_BY_INTRO = re.compile(r"\b(?:by\s+(?:introduc|propos|develop|design|present|devis)ing|"
                       r"(?:and|,)\s+(?:then\s+|further\s+|also\s+)?(?:propose|introduce|present|develop|design|devise)s?)\b",
                       re.I)
# A title that says the paper is a study ("An Empirical Study of ...", "A Survey of ..."), or whose
# part after a colon does ("...: A Neural Machine Translation Case Study", "...: An Analysis")
_TITLE_STUDY = re.compile(r"(?:(?P<after>[^:]{3,}:)\s+an?\s+(?:(?!(?:to|for|of|on|in|with|via|and|by)\s)[\w-]+\s+){0,4}?|(?:an?\s+)?(?:(?:empirical|systematic|comprehensive|"
                          r"large-scale|critical|controlled)\s+)*)(?:study|analysis|investigation|evaluation|comparison|survey)"
                          r"(?=\s+(?:of|on|in|into|between|for|to|across|with|through)\b|\s*[:?]|\s*$)", re.I)
_STUDY = re.compile(r"(?:an?\s+|the\s+|our\s+)?(?:(?:systematic|empirical|large-scale|comprehensive|controlled|"
                    r"careful|detailed|first)\s+)*(?:study|analysis|investigation|survey|evaluation)\b", re.I)
_NOT_METHOD = re.compile(r"(?:\w+\s+){0,3}?\b(?:mathematical|theoretical|unifying|formal)\s+"
                         r"(?:framework|model|lens|perspective)", re.I)
# "We propose/introduce/develop/design X": a new method, whatever X's head noun, unless X is
# a study, a notion or a problem ("we introduce the notion of", "we present studies of").
_NOT_NEW = re.compile(r"(?:(?:the|a|an|two|several|some|new|novel|first)\s+)*(?:\w+\s+)?(?:notions?|concepts?|problems?|"
                      r"questions?|stud(?:y|ies)|analys[ie]s|results|evidence|insights?|findings|experiments|overview|"
                      r"survey|theory|set)\b", re.I)
_SPACE = re.compile(r"\s*")
_NEW = re.compile(WE + r"(?:propos|introduc|present|develop|design|devis)\w*\s+(?!" + _NOT_NEW.pattern + ")", re.I)
# Sought in a text's fold (literal.folded), case-sensitive, after a lookahead of the first letters (re skips fast)
_THEORY = re.compile(r"(?=[abceghilmnoprstuw])\b(?:we\s+(?:\w+ly\s+)?prove|proofs?|theorems?|lower[\s-]+bound(?:s|ed)?|"
                     r"upper[\s-]+bound(?:s|ed)?|minimax|regret|sample\s+complexity|convergence\s+rates?|theoretical(?:ly)?|guarantees?|"
                     r"optimal(?:ity)?|tight|we\s+establish|we\s+derive|characteriz\w+|provabl\w+|asymptotic\w*|"
                     r"information-theoretic|polynomial(?:-time)?|np-hard\w*|hardness|bounds?|complexity|lemma|"
                     r"in\s+time|competitive\s+ratio|approximation\s+(?:ratio|guarantee)|converge[sd]?|"
                     r"convergence|equivalen(?:t|ce)|establish(?:es)?|identifiab\w+)\b")
# A formula (a variable: "$k$", "$O(\\sqrt{T})$"), not a unit or a number in math mode ("$^2$", "$30\\%$")
_FORMULA = re.compile(r"[A-Za-z]")
_PROVED = re.compile(r"\b(?:we\s+(?:\w+ly\s+)?prove|theorems?|proofs?|lemmas?)\b", re.I)
_PROOF = re.compile(r"\b(?:prov(?:e[sdn]?|ing)|bounds?|theorems?|polynomial|hardness)\b", re.I)
# An abstract of proofs reports no experiment: a method whose paper does is a method ("empirical
# risk", "empirical distribution" are theory's own terms, 48 and 10 corpus abstracts, not an experiment;
# nor is "state-of-the-art": proofs improve on "the state-of-the-art bound" too).
_EMPIRICAL = re.compile(r"\b(?:experiment\w*|empirical\w*(?!\s+(?:risk|distribution))|simulations?|"
                        r"datasets?|benchmarks?|real-world|outperform\w*|baselines?)\b", re.I)
_ANALYSIS = re.compile(r"\b(?:we\s+(?:\w+ly\s+)?(?:study|investigate|analy[sz]e|examine|find|show|observe|uncover|"
                       r"identify|reveal|demonstrate|measure|quantify|revisit|explore|ask|characterize|evaluate|"
                       r"benchmark|compare|assess|probe|audit|test|studied|investigated|analy[sz]ed|examined|evaluated|"
                       r"assessed|compared|explored|measured|conducted\s+an?\s+(?:\w+\s+)?(?:study|survey))|"
                       r"(?:and|,)\s+(?:we\s+)?find\s+that|"
                       r"^(?:do|does|can|are|is|how|why|what|when)\s[^.?]{5,150}\?|empirical\s+(?:study|analysis)|"
                       r"our\s+(?:analysis|findings|study|results)\s+(?:show|reveal|suggest|indicate)|"
                       r"large-scale\s+(?:study|analysis))\b", re.I)
# What a method paper reports too ("we show that our model ..."): alone, no study
_REPORT = re.compile(r"we\s+(?:\w+ly\s+)?(?:show|demonstrate|observe)", re.I)

_OUR_ARTIFACT = re.compile(r"\b(?:our|the\s+proposed)\s+(?:(?!(?:own|results?|experiments?|findings|analysis|study|work|paper)\b)"
                           r"[\w\-]+\s+){0,3}?(?:method|approach|model|framework|"
                           r"algorithm|technique|network|architecture|system)(?:e?s)?\b", re.I)


def _gives(rule: str, kind: str) -> str:
    return fire(rule) or kind


def contribution_hint(text: str, names=(), title: str | None = None) -> str | None:
    """method | benchmark | dataset | analysis | theory | system, by cue phrases (``title``:
    what it says its head names, when that name is the first one introduced)."""
    if not isinstance(text, str) or not text.strip():
        return None
    theory, empirical = len(_THEORY.findall(folded(text))), bool(_EMPIRICAL.search(text))
    if not empirical and ("$" in text or "\\(" in text):      # each formula of an abstract of no experiment
        theory += sum(bool(_FORMULA.search(text, s + 1, e - 1)) for s, e in math_spans(text))
    # a method introduced to be proved about, in an abstract of proofs that reports no experiment
    # (four theory words and formulas with a proof's word among them, or six without: "regret", "minimax")
    proofs = not empirical and (theory >= 6 or theory >= 4 and _PROOF.search(text))
    c = min((x for x in names if getattr(x, "score", 0) >= 0.75 and
             {"we-propose", "introduced", "appositive", "our"} & set(x.cues)), key=lambda x: x.start, default=None)
    titled = any("title" in x.cues and x.score >= 0.75 for x in names)
    if (kind := title_kind(title)) and titled:
        return _gives("titled-kind", kind)         # "MazeBench: A Benchmark for ...", MazeBench in the text
    if kind := title_phrase_kind(title):
        return _gives("title-phrase-kind", kind)   # "MVTec AD -- A Comprehensive Real-World Dataset for ..."
    if (study := _TITLE_STUDY.match(title or "")) and not (study.group("after") and titled):   # "AraTrust: An Evaluation"
        return _gives("title-study", "analysis" if theory < 3 else "theory")   # "An Empirical Study of ..."
    if c is not None:                              # the first name the paper introduces
        if "introduced" in c.cues:
            near = text[c.end:c.end + 120]
            kinds = [m.lastgroup for m in _KIND.finditer(near) if m.lastgroup in ("benchmark", "dataset")]
            if kinds[:1] == ["benchmark"] or c.text.lower().endswith(("bench", "benchmark", "eval")):
                return _gives("introduced-benchmark", "benchmark")
            return _gives("introduced-dataset", "dataset")
        if getattr(_KIND.search(" ".join(text[c.end:c.end + 100].split()[:8])), "lastgroup", "") == "system":
            return _gives("introduced-system", "system")
        if proofs:
            return _gives("introduced-method-of-a-theory-paper", "theory")
        return _gives("introduced-method", "method")
    objects, subjects = [], word_starts(text, WE_STARTS)       # (_INTRO and _NEW are tried at a subject only)
    # the ~14 words after each introducing verb ("we propose", "by introducing")
    by = [m for m in (_BY_INTRO.finditer(text) if theory < 3 else ())
          if OWN_VOICE.search(text, text.rfind(". ", 0, m.start()) + 1, m.start())]
    for m in [*matches_from(_INTRO, text, subjects), *by]:
        seg = re.split(r"(?<=[.;])\s|\bwhich\b|\bthat\b", text[m.end():m.end() + 160])[0]
        objects.append((m.group(0).lower(), " ".join(seg.split()[:14])))
    for verb, obj in objects:
        if "propos" in verb and obj.startswith("to "):      # "we propose to learn X": a method
            return _gives("method-after-intro", "theory" if proofs else "method")
        head = " ".join(obj.split()[:10])
        if _NOT_METHOD.search(head):
            continue
        if _STUDY.match(head) and " also " not in verb:     # "we also present an analysis": beside what it introduced
            return _gives("introduces-a-study", "analysis")
        if m := _KIND.search(head):
            if m.lastgroup == "method" and proofs:
                return _gives("introduced-method-of-a-theory-paper", "theory")
            return _gives("introduced-" + m.lastgroup + "-noun", m.lastgroup)
    ours = len(_OUR_ARTIFACT.findall(text))       # "our method ... the proposed model": it makes one
    if (title or "").rstrip().endswith("?") and ours < 2:
        return _gives("question-title", "analysis" if theory < 3 else "theory")     # "Do CNNs act as ...?"
    if any(m.lastgroup == "method" and not _NOT_METHOD.search(o) for _, o in objects for m in _KIND.finditer(o)) \
            or not proofs and any(not _NOT_METHOD.match(text, m.end()) for m in matches_from(_NEW, text, subjects)) \
            or any(not _NOT_NEW.match(text, at) and not _NOT_METHOD.match(text, at)
                   for at in (_SPACE.match(text, m.end()).end() for m in by)):  # "by introducing X", X no study
        return _gives("method-after-intro", "theory" if proofs else "method")
    if not proofs and ours >= 2:
        return _gives("our-method-words", "method")
    if m := _ANALYSIS.search(text):
        kind = "analysis" if theory < 3 and (empirical or not _PROVED.search(text)) else "theory"
        if kind == "theory" or any(not _REPORT.fullmatch(x[0]) for x in _ANALYSIS.finditer(text, m.start())):
            return _gives("analysis-words", kind)       # (a finding proved, no experiment: theory)
    if theory >= 2 and (theory >= 3 or not empirical or _PROVED.search(text)):
        return _gives("some-theory-words", "theory")   # (two words beside experiments: only with a proof)
    return _gives("default-method", "method")


# The contribution rules, in the order contribution_hint tries them, with an example each
# (tests/test_candidates_rules.py checks that the example is decided by the rule).
CONTRIBUTION_RULES: tuple[Rule, ...] = (
    Rule("titled-kind", None, "benchmark, dataset or system", "We introduce MazeBench to test planners.",
         "benchmark", "MazeBench: A Benchmark for Planners"),
    Rule("title-phrase-kind", None, "dataset or benchmark", "We collect images of rain.", "dataset",
         "A High Quality Real Rain Dataset for Deraining"),
    Rule("title-study", None, "analysis", "We propose a new probe and apply it to tokens.", "analysis",
         "An Empirical Study of Memorization in NLP"),
    Rule("introduced-benchmark", None, "benchmark", "We introduce MazeBench, a benchmark for planners.", "benchmark"),
    Rule("introduced-dataset", None, "dataset", "We release CityWalk, a dataset of street scenes.", "dataset"),
    Rule("introduced-system", None, "system", "We present FastGrep, an open-source library for search.", "system"),
    Rule("introduced-method", None, "method", "We propose TideNet, a novel forecaster.", "method"),
    Rule("introduces-a-study", None, "analysis", "We present a systematic study of tokenizers.", "analysis"),
    Rule("introduced-method-of-a-theory-paper", None, "theory", "We propose a new algorithm for bandits. We prove a "
         "regret bound and a lower bound, tight up to logarithmic factors, with polynomial complexity.", "theory"),
    Rule("introduced-system-noun", None, "system", "We present a library for fast sparse algebra.", "system"),
    Rule("introduced-benchmark-noun", None, "benchmark", "We present a benchmark for code agents.", "benchmark"),
    Rule("introduced-dataset-noun", None, "dataset", "We release a corpus of legal texts.", "dataset"),
    Rule("introduced-method-noun", None, "method", "We propose a method for denoising.", "method"),
    Rule("question-title", None, "analysis (theory when proofs dominate)", "We examine whether agents plan.",
         "analysis", "Do Agents Plan?"),
    Rule("method-after-intro", None, "method (theory when proofs dominate)",
         "We propose to think long and hard about what really happens here with a method.", "method"),
    Rule("our-method-words", None, "method",
         "We show that our method beats the rest and that our approach scales.", "method"),
    Rule("analysis-words", None, "analysis", "We investigate why agents fail at long tasks.", "analysis"),
    Rule("some-theory-words", None, "theory", "The estimator has optimal sample complexity.", "theory"),
    Rule("default-method", None, "method", "Graphs are everywhere in science.", "method"),
)
