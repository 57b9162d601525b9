"""The contribution type of an abstract (method, benchmark, dataset, analysis, theory, system),
guessed by cue phrases and the names the paper introduces."""

from __future__ import annotations

import re

from ..text.cues import CONTRIBUTION_STEMS, WE, stems
from .rules import Rule, fire

_INTRO = WE + stems(CONTRIBUTION_STEMS) + r"\w*\b"
_SYSTEM_NOUN = re.compile(r"\b(?:library|libraries|toolkit|toolbox|package|software|open-source\s+"
                          r"(?:tool|system|platform|implementation)|platform|compiler|runtime|"
                          r"serving\s+system|api|plug-in|plugin|python\s+package)\b", re.I)
_BENCH_NOUN = re.compile(r"\b(?:benchmark|evaluation\s+suite|test\s*bed|testbed|leaderboard|"
                         r"evaluation\s+framework|arena|environment|simulator|gym)\b", re.I)
_DATA_NOUN = re.compile(r"\b(?:dataset|data\s+set|corpus|corpora|collection\s+of)\b", re.I)
_METHOD_NOUN = re.compile(r"\b(?:method|algorithm|approach|framework|model|architecture|objective|"
                          r"technique|loss|strategy|mechanism|module|procedure|estimator|optimizer|"
                          r"formulation|paradigm|recipe|scheme|pipeline|policy|metric|regularizer|"
                          r"network|layer|attack|defense|sampler|solver|transformation|training)\b", re.I)
_THEORY = re.compile(r"\b(?:we\s+(?:\w+ly\s+)?prove|proofs?|theorems?|lower\s+bounds?|upper\s+bounds?|"
                     r"minimax|regret|sample\s+complexity|convergence\s+rates?|theoretically|"
                     r"theoretical|guarantees?|optimal(?:ity)?|tight|we\s+establish|we\s+derive|"
                     r"characteriz\w+|provabl\w+|asymptotic\w*|information-theoretic|polynomial(?:-time)?|"
                     r"quasi-polynomial|super-polynomial|np-hard\w*|hardness|statistical\s+query|"
                     r"bounds?|complexity|lemma|corollary|in\s+time|competitive\s+ratio|approximation\s+ratio|"
                     r"approximation\s+guarantee|converge[sd]?|convergence|equivalen(?:t|ce)|establish(?:es)?|"
                     r"identifiab\w+)\b", re.I)
_ANALYSIS = re.compile(r"\b(?:we\s+(?:\w+ly\s+)?(?:study|investigate|analy[sz]e|examine|find|show|"
                       r"observe|uncover|identify|reveal|demonstrate|measure|quantify|revisit|"
                       r"explore|ask|characterize|evaluate|benchmark|compare|assess|probe|audit|test)|"
                       r"(?:and|,)\s+(?:we\s+)?find\s+that|^(?:do|does|can|are|is|how|why|what|when)\s[^.?]{5,150}\?|empirical\s+(?:study|analysis)|our\s+(?:analysis|"
                       r"findings|study|results)\s+(?:show|reveal|suggest|indicate)|large-scale\s+"
                       r"(?:study|analysis))\b", re.I)
_NON_METHOD_FRAMEWORK = re.compile(r"\b(?:mathematical|theoretical|analytical|conceptual|unifying|"
                                   r"formal)\s+(?:framework|model|lens|perspective)", re.I)


def _intro_objects(text: str) -> list[str]:
    """The ~12 words after each introducing verb."""
    out = []
    for m in re.finditer(_INTRO, text, re.I):
        seg = text[m.end():m.end() + 160]
        seg = re.split(r"(?<=[.;])\s|\bwhich\b|\bthat\b", seg)[0]
        out.append(" ".join(seg.split()[:14]))
    return out


def _gives(rule: str, kind: str) -> str:
    fire(rule)
    return kind


def contribution_hint(text: str, names=()) -> str | None:
    """method | benchmark | dataset | analysis | theory | system, by cue phrases."""
    if not isinstance(text, str) or not text.strip():
        return None
    objects = _intro_objects(text)
    theory = len(_THEORY.findall(text))
    introduced = sorted((c for c in names if getattr(c, "score", 0) >= 0.75 and
                         ("we-propose" in c.cues or "introduced" in c.cues or "appositive" in c.cues
                          or "our" in c.cues)), key=lambda c: c.start)
    if introduced:
        c = introduced[0]
        if "introduced" in c.cues:
            near = text[c.end:c.end + 120]
            bench, data = _BENCH_NOUN.search(near), _DATA_NOUN.search(near)
            if bench and (not data or bench.start() < data.start()) or \
                    c.text.lower().endswith(("bench", "benchmark", "eval")):
                return _gives("introduced-benchmark", "benchmark")
            return _gives("introduced-dataset", "dataset")
        near = text[c.end:c.end + 100]
        if _SYSTEM_NOUN.search(" ".join(near.split()[:8])):
            return _gives("introduced-system", "system")
        return _gives("introduced-method", "method")
    for obj in objects:
        head = " ".join(obj.split()[:10])
        if _NON_METHOD_FRAMEWORK.search(head):
            continue
        if re.match(r"(?:an?\s+|the\s+|our\s+)?(?:(?:systematic|empirical|large-scale|comprehensive|"
                    r"controlled|careful|detailed|first)\s+)*(?:study|analysis|investigation|"
                    r"examination|survey|characterization|evaluation)\b", head, re.I):
            return _gives("introduces-a-study", "analysis")
        sys_m, bench_m, data_m = _SYSTEM_NOUN.search(head), _BENCH_NOUN.search(head), _DATA_NOUN.search(head)
        meth_m = _METHOD_NOUN.search(head)
        firsts = [(m.start(), kind) for m, kind in ((sys_m, "system"), (bench_m, "benchmark"),
                                                   (data_m, "dataset"), (meth_m, "method")) if m]
        if firsts:
            kind = min(firsts)[1]
            if kind == "method" and theory >= 4 and re.search(
                    r"\b(?:prove|bound|theorem|polynomial|hardness)\b", text, re.I):
                return _gives("introduced-method-of-a-theory-paper", "theory")
            return _gives("introduced-" + kind + "-noun", kind)
    analysis = len(_ANALYSIS.findall(text))
    proofy = re.search(r"\b(?:prove|bound|theorem|polynomial|hardness)\b", text, re.I)
    if objects and any(_METHOD_NOUN.search(o) and not _NON_METHOD_FRAMEWORK.search(o) for o in objects):
        return _gives("method-noun-after-intro", "theory" if theory >= 4 and proofy else "method")
    if theory >= 3 and re.search(r"\b(?:prove|theorem|bound|theoretically)\b", text, re.I):
        return _gives("theory-words", "theory")
    if analysis:
        return _gives("analysis-words", "analysis" if theory < 3 else "theory")
    if theory >= 2:
        return _gives("some-theory-words", "theory")
    return _gives("default-method", "method")


# The contribution rules, in the order contribution_hint tries them, with an example each
# (tests/test_candidates_rules.py checks that the example is decided by the rule).
CONTRIBUTION_RULES: tuple[Rule, ...] = (
    Rule("introduced-benchmark", None, "benchmark", "We introduce MazeBench, a benchmark for planners.", "benchmark"),
    Rule("introduced-dataset", None, "dataset", "We release CityWalk, a dataset of street scenes.", "dataset"),
    Rule("introduced-system", None, "system", "We present FastGrep, an open-source library for search.", "system"),
    Rule("introduced-method", None, "method", "We propose TideNet, a novel forecaster.", "method"),
    Rule("introduces-a-study", None, "analysis", "We present a systematic study of tokenizers.", "analysis"),
    Rule("introduced-method-of-a-theory-paper", None, "theory",
         "We propose a new algorithm for bandits. We prove a regret bound and a lower bound, tight up to "
         "logarithmic factors, with polynomial complexity.", "theory"),
    Rule("introduced-system-noun", None, "system", "We present a library for fast sparse algebra.", "system"),
    Rule("introduced-benchmark-noun", None, "benchmark", "We present a benchmark for code agents.", "benchmark"),
    Rule("introduced-dataset-noun", None, "dataset", "We release a corpus of legal texts.", "dataset"),
    Rule("introduced-method-noun", None, "method", "We propose a method for denoising.", "method"),
    Rule("method-noun-after-intro", None, "method (theory when proofs dominate)",
         "We propose to think long and hard about what really happens here with a method.", "method"),
    Rule("theory-words", None, "theory",
         "The regret is bounded. We establish a lower bound and prove it is tight.", "theory"),
    Rule("analysis-words", None, "analysis", "We investigate why agents fail at long tasks.", "analysis"),
    Rule("some-theory-words", None, "theory", "The estimator has optimal sample complexity.", "theory"),
    Rule("default-method", None, "method", "Graphs are everywhere in science.", "method"),
)
