"""The name rules the finder (:mod:`.name_finder`, :mod:`.name_forms`) and the scoring passes
(:mod:`.name_scoring`) apply as code, because they look at more than one occurrence or candidate
at once: named here with their examples, so that each is tested and counted like the table rules
of :mod:`.name_rules` (``gives`` says what the rule does; the code fires it by name)."""

from __future__ import annotations

from .rules import Rule

__all__ = ["FINDER_RULES", "SCORING_RULES"]

FINDER_RULES: tuple[Rule, ...] = (
    Rule("title-head", None, "the title's head, written in the abstract", "Sever detects outliers fast.", "Sever",
         "Sever: A Robust Meta-Algorithm"),
    Rule("title-long-form", None, "the title is an acronym's long form", "We propose Rotational Unit of Memory (RUM).",
         "Rotational Unit of Memory", "Rotational Unit of Memory"),
    Rule("plus-plus-coinage", None, "a capitalized word + '++'", "We propose Tabformer++ for tables.", "Tabformer++"),
    Rule("digit-led-name", None, "led by digits, two capitals", "Errors on the 3DPW dataset drop.", "3DPW"),
    Rule("symbol-led-name", None, "led by a symbol or Greek letter", "Agents are scored on the τ-bench suite.", "τ-bench"),
    Rule("known-dataset-word", None, "a capitalized famous dataset", "We pretrain on Wikipedia first.", "Wikipedia"),
    Rule("compound-modifier", None, "'X-based', 'X-like': a modifier", "An LLM-based grader scores answers.", "LLM-based"),
    Rule("mid-word", None, "a span starting or ending inside a word is no name",
         "We test on datasets such as KITTI, Waymo, and nuScenes, then on others.", "nuScenes"),
    Rule("in-url", None, "no name is part of a web address",
         "Code and data are at github.com/acme/FooBench for all.", "FooBench"),
    Rule("version-suffix", None, "a version belongs to the name", "We compare against DeepPlan v2 on mazes.", "DeepPlan v2"),
    Rule("plus-suffix", None, "'+'/'++' belongs to the name", "We extend GCD+ to graphs.", "GCD+"),
    Rule("dataset-version", None, "a dataset takes a word or number", "Results on ImageNet Sketch drop.", "ImageNet Sketch"),
    Rule("acronym-def", None, "an acronym in parentheses", "We use Low-Rank Adaptation (LoRA).", "LoRA"),
    Rule("long-form", None, "the long form its letters spell", "We use Low-Rank Adaptation (LoRA).", "Low-Rank Adaptation"),
    Rule("acronym-then-long-form", None, "acronym (long form)",
         "We propose TIDE (Tidal Image Denoising) for sonar.", "Tidal Image Denoising"),
    Rule("introduced-long-form", None, "verb ... (ACRONYM): its long form",
         "We present the Wave Echo Scanner built from sonar parts (WaveX), a sensor.", "Wave Echo Scanner built from sonar parts"),
    Rule("spelled-acronym", None, "a phrase spelling a coined acronym",
         "We propose SoFTA, a Slow-Fast Two-Agent framework for humanoids.", "Slow-Fast Two-Agent"),
    Rule("parenthesized-short-form", None, "(SHORT) after a name, its first letter the name's",
         "We propose PatchRefineNet (PRN), a small network.", "PRN"),
    Rule("introduced-math", None, "an introduced math name",
         r"We introduce $s_{\text{gap}}$, a metric of drift.", r"s_{\text{gap}}"),
    Rule("wrapped-bold", None, "bold", "We present **TideNet** for tides.", "TideNet"),
    Rule("wrapped-code", None, "code font", "Our tool `fastgrep` is released.", "fastgrep"),
    Rule("wrapped-quoted", None, "quoted", 'We call this "ZeroSync" below.', "ZeroSync"),
    Rule("introduced-capitalized-phrase", None, "a capitalized phrase after 'we propose'",
         "We propose Gradient Echo, which reuses gradients.", "Gradient Echo"),
    Rule("introduced-lowercase-phrase", None, "a lowercase phrase after 'we propose'",
         "We propose aligned mass transport to match distributions.", "aligned mass transport"),
    Rule("named-own", None, "the name 'called' gives the paper's own artifact",
         "We propose a simple technique called fraternal dropout that helps.", "fraternal dropout"),
    Rule("named-capitalized", None, "'called X', ', X,' when introducing",
         "We devise a new reasoner, Braid, that weighs rules.", "Braid"),
    Rule("dataset-list-after-noun", None, "listed after a dataset noun",
         "We use datasets, including Cora, PubMed, and wiki-small.", "PubMed"),
    Rule("language-not-dataset", None, "a language names no dataset", "We pool English and Chinese datasets.", "Chinese"),
    Rule("dataset-list-before-noun", None, "listed before a dataset noun",
         "Results on the TabArena and WikiSQL benchmarks improve.", "WikiSQL"),
    Rule("capitalized-run", None, "a multi-word Capitalized Name",
         "We evaluate on the Open Patent Corpus benchmark.", "Open Patent Corpus"),
    Rule("dated-name", None, "a year or a version belongs to the name", "We test on the PASCAL VOC 2012 set.",
         "PASCAL VOC 2012"),
    Rule("run-after-initial-word", None, "a run without its sentence-initial word",
         "Across Open Web Tables, accuracy improves.", "Open Web Tables"),
)

SCORING_RULES: tuple[Rule, ...] = (
    Rule("acronym-partners", None, "acronym and long form share role",
         "We propose Gradient Echo Sampling (GES), a sampler.", "GES"),
    Rule("introduced-suffix-benchmark", None, "introduced *Bench or '... Dataset': a benchmark",
         "We construct DriftBench from logs.", "DriftBench"),
    Rule("corroborated-dataset", None, "form + context, or two contexts: 0.8",
         "Pretrained on TriviaQA, RankFuse also wins on TriviaQA.", "TriviaQA"),
    Rule("co-introduced", None, "ACR 'with a ...' near an introduced name: 0.6",
         "We propose TideNet, built with a Wave Mixing Unit (WMU).", "WMU"),
    Rule("composed-of", None, "ACR defined among the parts of an introduced name: 0.6",
         "We propose TideNet. TideNet consists of a wave mixing unit (WMU) and a head.", "WMU"),
    Rule("introduced-acronym-subject", None, "an acronym its sentence introduces, a later subject: 0.75",
         "We propose a model with Tidal Echo Mixing (TEM). TEM mixes echoes.", "TEM"),
    Rule("variant", None, "a variant of an introduced name: 0.7",
         "We propose FooNet, and FooNet-Lite for phones.", "FooNet-Lite"),
    Rule("coordinated", None, "coordinated with a dataset: <= 0.75; after an introduced name: 0.75",
         "We evaluate on HotpotQA, TriviaBase and SQuAD.", "TriviaBase"),
    Rule("fragment", None, "only inside a longer good name: <= 0.3", "We evaluate on the MS MARCO Passage benchmark.", "MARCO"),
)
