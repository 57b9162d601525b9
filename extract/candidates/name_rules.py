"""The name rules as tables: introduction (:data:`INTRO_RULES`), dataset contexts
(:data:`DATASET_RULES`, first that holds wins), one occurrence (:data:`OCCURRENCE_RULES`), a
surface form (:data:`FORM_RULES`), and the caps and roles of a candidate.  A rule's ``gives`` is
``(mode, weight, cues)``: ``set`` replaces strength and cues, ``max``/``min`` raise/cap the
strength and add the cues, ``cue`` only adds cues.  Each rule's example fires it
(tests/test_candidates_rules.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from ..text.literal import bounded_starts
from ..text.acronyms import upper_count
from ..text.lexicon import DATASET_NOUN_ENDS, DATASET_SUFFIXES, GENERIC_ACRONYMS, is_known_dataset, is_model_family, is_model_name
from . import name_cues as cue
from .name_shapes import COINAGE_SUFFIX_WORDISH, NAMEY
from .rules import Rule, fire, first

__all__ = ["CAP_RULES", "COMPONENT", "DATASET_RULES", "Evidence", "NameCandidate", "FORM_RULES", "INTRO_RULES", "OCCURRENCE_RULES", "ROLE_RULES", "TASK_NOUN_END",
           "Occurrence", "Verdict", "apply", "cap"]

_CALLED = re.compile(r"\bcall|nam|term|dub|coin|denot|refer", re.I)
_CLOSES = re.compile(r"\s*(?:[,.;:)]|and\b|or\b|$)")
_DATASET_HEADS = r"(?:Benchmark|Dataset|Challenge|Environment)s?"
_NAME_OF_DATASET = re.compile(r"\s" + _DATASET_HEADS + r"$")
# a long form with a dataset noun among its words ("Multi-Agent RL Benchmark and Learning
# Environment for the Robotarium (MARBLER)") names a dataset
_LONG_NAME_OF_DATASET = re.compile(r"\s" + _DATASET_HEADS + r"\b")
# before "namely X": what the paper makes ("a new masking strategy namely X", "two components,
# namely X"), or what it compares with or evaluates on ("trackers (i.e., X", "datasets, namely X")
_OWN = re.compile(r"\b(?:new|novel|proposed|our|propos\w*|design\w*|introduc\w*|components?|scheme|solution)\b|"
                  + cue.INTRO_HEADS, re.I)
_LISTS_OTHERS = re.compile(r"\b(?:benchmarks|datasets|data\s+sets|corpora|suites|environments|collections|splits|test\s+sets|"
                           r"models|baselines|backbones|trackers|detectors|methods|works|architectures|LLMs)\b", re.I)


@dataclass(frozen=True)
class NameCandidate:
    text: str
    start: int
    end: int
    role_hint: str | None
    score: float
    cues: tuple[str, ...]


@dataclass
class Evidence:
    """What the finder learnt about one surface form: its first occurrence, cues, method and
    dataset strengths, shape and acronym partners."""
    text: str
    start: int
    end: int
    cues: set[str] = field(default_factory=set)
    method: float = 0.0
    dataset: float = 0.0
    partners: set[str] = field(default_factory=set)
    shape: str = ""


class Occurrence:
    """One occurrence text[start:end] of a name, the sentence it is in, and the strength and
    cues the rules applied so far gave it."""

    def __init__(self, text: str, start: int, end: int, sentence: tuple[int, int], window: int, memo=None):
        self.text, self.start, self.end, self.memo = text, start, end, {} if memo is None else memo
        self.ss, self.se = sentence
        self.before = text[max(self.ss, start - window):start]
        self.strength, self.cues = 0.0, set()

    @property
    def word(self) -> str:
        return self.text[self.start:self.end]

    def after(self, n: int) -> str:
        return self.text[self.end:self.end + n]

    def before_within(self, n: int) -> str:
        return self.text[max(0, self.start - n):self.start]

    @cached_property
    def heads_its_phrase(self) -> bool:
        """Not a premodifier of a noun ("two confidence-based IL methods", see PREMODIFIER)."""
        m = cue.PREMODIFIER.match(self.after(40))
        return not m or bool(m.group("noun")) and " " in self.word

    @cached_property
    def used_before(self) -> bool:
        """The name occurs earlier in the text: an established term ("Zero-Shot Learning (ZSL)
        aims ... we propose a new and challenging approach, context-aware ZSL")."""
        return bool(bounded_starts(self.text[:self.start], self.word))     # no pattern per name

    @cached_property
    def introduced(self) -> bool:
        """Named by an introducing context; "namely X", "i.e., X" only in a sentence that introduces
        ("three benchmark datasets, namely miniImageNet and CUB" names datasets)."""
        m = cue.INTRO_BEFORE.search(self.before)
        if not m or not re.match(r"namely|i\.e", m.group(0), re.I):
            return bool(m)
        pre = self.before[:m.start()]
        return not _LISTS_OTHERS.search(pre[-40:]) and bool(self.in_intro_sentence or _OWN.search(pre))

    def sentence_facts(self) -> tuple[int, bool]:
        """(where the sentence's first introducing verb ends, whether it reports an evaluation),
        read once per sentence: every pass over a sentence is per sentence, not per name in it."""
        key = (self.ss, self.se)
        if key not in self.memo:
            m = cue.INTRO_ANYWHERE.search(s := self.text[self.ss:self.se])
            self.memo[key] = (self.ss + m.end() if m else len(self.text) + 1, bool(cue.EVAL_WORDS.search(s)))
        return self.memo[key]

    @property
    def in_intro_sentence(self) -> bool:
        return self.sentence_facts()[0] <= self.start


def apply(rules, occ) -> None:
    """Apply every rule of ``rules`` that holds for ``occ``, in order (see the module doc)."""
    for rule in rules:
        if rule.test(occ):
            fire(rule.name)
            mode, weight, cues = rule.gives
            if mode == "set":
                occ.strength, occ.cues = weight, set(cues)
                continue
            if mode in ("max", "min"):
                occ.strength = (max if mode == "max" else min)(occ.strength, weight)
            occ.cues |= cues


# "a discriminator based on the Fast R-CNN model is proposed": the name is in a phrase of the subject
_IN_A_PHRASE = re.compile(r"\b(?:on|of|with|from|by|in|for|to)\s*$")


def _passive_intro(o: Occurrence, articled: bool) -> bool:
    """"a Quality-Aware Network (QAN) is developed", "the X is proposed" (a new name); not
    ``articled``: a bare new name opening a clause after a comma or semicolon ("To address this,
    Video-Language Alignment Network (VLANet) is proposed", "a two-stage approach, SfP, is proposed")."""
    if not (m := cue.PASSIVE_INTRO_AFTER.match(o.after(80))):
        return False
    if art := cue.ARTICLE_BEFORE.search(o.before):
        return articled and (bool(art.group("a")) or bool(m.group("strong"))) and not (
            m.group("head") and o.used_before or _IN_A_PHRASE.search(o.before, 0, art.start() + 1))
    return not articled and bool(m.group("strong")) and not o.used_before and bool(re.search(r"[,;:]\s*$", o.before))


# an appositive that says the system exists already: "MAML, a popular gradient-based meta-learning
# framework", "CCA, a recently proposed method", "T5, a popular pre-trained encoder-decoder model"
_EXISTING = re.compile(r"\b(?:popular|existing|recent(?:ly)?|state-of-the-art)\b", re.I)


def _appositive(o: Occurrence) -> bool:
    m = cue.APPOSITIVE.search(o.after(120))
    return bool(m) and not _EXISTING.search(m.group(0))


INTRO_RULES: tuple[Rule, ...] = (
    Rule("we-propose", lambda o: o.introduced and not cue.NAMELY_DATASETS.search(o.before)
         and o.heads_its_phrase and not o.used_before,
         ("set", 0.85, {"we-propose"}), "We propose GridMend, which repairs broken meshes.", "GridMend"),
    Rule("coordinated-intro-verb", lambda o: not o.strength and cue.COORD_INTRO_BEFORE.search(o.before),
         ("set", 0.85, {"we-propose"}), "We study drift and construct DriftBench from logs.", "DriftBench"),
    Rule("called", lambda o: o.introduced and _CALLED.search(o.before[-40:])
         and not cue.NAMELY_DATASETS.search(o.before),
         ("cue", 0, {"called"}), "We build a planner called RoutePilot for warehouses.", "RoutePilot"),
    Rule("our-method-called", lambda o: cue.INTRO_OUR_NOUN.search(o.before), ("set", 0.85, {"we-propose", "our"}),
         "Experiments show that our method, GraphMend, repairs most errors.", "GraphMend"),
    Rule("our", lambda o: cue.OUR_BEFORE.search(o.before), ("max", 0.7, {"our"}),
         "Across all tasks our FlowNet stays ahead.", "FlowNet"),
    Rule("the-proposed", lambda o: cue.PROPOSED_BEFORE.search(o.before) and not o.used_before, ("max", 0.7, {"our"}),
         "Knowledge distillation is common. Experiments show that the proposed DoKTra framework helps.", "DoKTra"),
    Rule("object-appositive", lambda o: o.strength < 0.75 and o.in_intro_sentence
         and cue.APPOSITIVE_CLOSES.match(o.after(40)) and cue.OBJECT_APPOSITIVE_BEFORE.search(o.before), ("max", 0.75, {"we-propose"}),
         "We propose an end-to-end model for this task, FSS-Net, that reads signs.", "FSS-Net"),
    Rule("introduced-defined", lambda o: o.strength < 0.75 and cue.INTRO_DEFINED_BEFORE.search(o.before),
         ("max", 0.75, {"we-propose"}), "We introduce a concentric bellows linear actuator (CBLA) for MRI.", "CBLA"),
    Rule("novel-defined", lambda o: o.strength < 0.75 and o.word[0].isupper() and cue.NOVEL_BEFORE.search(o.before)
         and cue.NOVEL_DEFINED_AFTER.match(o.after(40)), ("max", 0.75, {"we-propose"}),
         "The gains come from a novel Tensor Fusion Block (TFB) inside the model.", "Tensor Fusion Block"),
    Rule("introduced-colon-list", lambda o: o.strength < 0.75 and cue.INTRO_COLON_LIST_BEFORE.search(o.before)
         and not re.match(r"\s+[A-Z0-9]", o.after(3)),      # the item's whole name: not "Image-Text" of "Image-Text Matching"
         ("max", 0.75, {"we-propose"}), "We propose two planners: FastPlan for small maps and DeepPlan for large ones.",
         "DeepPlan"),
    Rule("passive-intro", lambda o: o.strength < 0.75 and _passive_intro(o, True), ("max", 0.75, {"we-propose"}),
         "To weigh regions, a Quality-Aware Network (QAN) is developed.", "Quality-Aware Network"),
    Rule("passive-intro-clause", lambda o: o.strength < 0.75 and _passive_intro(o, False),
         ("max", 0.75, {"we-propose"}), "To weigh regions, Quality-Aware Network (QAN) is proposed.", "QAN"),
    Rule("appositive-in-intro", lambda o: _appositive(o) and (o.in_intro_sentence or o.strength),
         ("max", 0.75, {"appositive"}), "We also describe TreeRL, a new algorithm for planning.", "TreeRL"),
    Rule("appositive", lambda o: _appositive(o) and not (o.in_intro_sentence or o.strength),
         ("max", 0.55, {"appositive"}), "Results favour TreeRL, a new algorithm for planning.", "TreeRL"),
    Rule("in-intro-sentence", lambda o: o.strength == 0.0 and o.in_intro_sentence,
         ("set", 0.4, {"in-intro-sentence"}), "We introduce a planner that beats MCTS on Go.", "MCTS"),
    Rule("concept-word", lambda o: o.word.isalpha() and o.word.islower() and COINAGE_SUFFIX_WORDISH.search(o.word),
         ("min", 0.35, set()), "We propose calibration, which keeps scores honest.", "calibration"),
)

# a speed or latency and the device it is measured on: "35 fps on", "70 milliseconds per megapixel on the"
_SPEED_ON = re.compile(r"\d\s*(?P<unit>[A-Za-z]+)(?:\s+per\s+[a-z]+)?\)?\s+on\s+(?:the\s+|an?\s+)?$")
_SPEED_UNITS = {"fps", "hz", "ms", "millisecond", "milliseconds", "frames"}
_DEVICE_AFTER = re.compile(r"\s*(?:\d[\w.]*\s+)?(?:(?:mobile|embedded|edge)\s+)?(?:[GCT]PUs?|processors?|chips?|chipsets?|"
                           r"boards?|(?:smart)?phones?|platforms?|devices?|SoCs?|robot)\b")
_DEVICE_END = re.compile(r"\b[GCT]PUs?$")
DATASET_RULES: tuple[Rule, ...] = (
    Rule("dataset-noun-before", lambda o: cue.DATASET_BEFORE.search(o.before), (0.8, {"dataset-cue"}),
         "We report results on benchmarks such as TabArena and WikiSQL.", "TabArena"),
    Rule("dataset-noun-after", lambda o: cue.DATASET_AFTER.match(o.after(100)), (0.8, {"dataset-cue"}),
         "Results on the HotpotQA benchmark improve.", "HotpotQA"),
    Rule("dataset-apposition", lambda o: cue.DATASET_COMMA_BEFORE.search(o.before) and _CLOSES.match(o.after(100)),
         (0.8, {"dataset-cue"}), "We test on a curated dataset, MedTalk, and on two others.", "MedTalk"),
    Rule("drawn-from", lambda o: cue.DATA_FROM_BEFORE.search(o.before), (0.65, {"data-source"}),
         "It holds 2,000 questions drawn from StackExchange and Reddit.", "StackExchange"),
    Rule("trained-on", lambda o: cue.TRAINED_ON_BEFORE.search(o.before), (0.65, {"data-source"}),
         "Models pretrained on LAION-5B transfer well.", "LAION-5B"),
    # "17 FPS on Jetson Xavier", "70 milliseconds per megapixel on Qualcomm Snapdragon": a device
    Rule("speed-on-device", lambda o: (m := _SPEED_ON.search(o.before)) and m["unit"].lower() in _SPEED_UNITS, (0.0, set()),
         "The tracker runs at 35 fps on Jetson Xavier AGX.", "Jetson Xavier AGX"),
    # "on ARM processors", "on the CyberDog robot", "NVIDIA GPU": a device, not data
    Rule("device-noun", lambda o: _DEVICE_AFTER.match(o.after(40)) or _DEVICE_END.search(o.word), (0.0, set()),
         "Experiments on the CyberDog robot and on ARM processors succeed.", "CyberDog"),
    Rule("result-on-X", lambda o: cue.RESULT_ON_BEFORE.search(o.before) and not (
        re.search(r",\s*$", o.before) and not _CLOSES.match(o.after(100))), (0.8, {"on-X"}),
        "Accuracy rises by 2.1% on MedMCQA.", "MedMCQA"),
    Rule("on-X", lambda o: cue.ON_BEFORE.search(o.before) and o.sentence_facts()[1] and not (
        re.search(r",\s*$", o.before) and not _CLOSES.match(o.after(100))), (0.55, {"on-X"}),
        "Our tuned models score well on MedMCQA too.", "MedMCQA"),
)


def dataset_strength(occ: Occurrence) -> tuple[float, set[str]]:
    """The weight and cues of the first rule of :data:`DATASET_RULES` that holds (0 when none)."""
    rule = first(DATASET_RULES, occ)
    return (rule.gives[0], set(rule.gives[1])) if rule else (0.0, set())


# What one occurrence says beyond its strength: "X model" names a model; a name introduced as
# "our new dataset, X" or "X, a benchmark of ..." is introduced *and* a dataset.
OCCURRENCE_RULES: tuple[Rule, ...] = (
    Rule("model-cue", lambda o: cue.MODEL_AFTER.match(o.after(60)) and not cue.OUR_BEFORE.search(o.before)
         and not cue.PROPOSED_BEFORE.search(o.before),
         ("cue", 0, {"model-cue"}), "We fine-tune FooBERT models on the task.", "FooBERT"),
    Rule("model-list", lambda o: cue.MODEL_LIST_BEFORE.search(o.before),
         ("cue", 0, {"model-cue"}), "Language models such as BERT and FooBERT are strong.", "FooBERT"),
    Rule("self-dataset", lambda o: cue.SELF_DATASET_BEFORE.search(o.before_within(80))
         or cue.INTRO_DATASET_BEFORE.search(o.before),
         ("introduced-dataset", 0.85, {"introduced", "dataset-cue"}),
         "We collect a new dataset called ScanTalk from clinics.", "ScanTalk"),
    Rule("dataset-called", lambda o: cue.NOUN_CALLED_BEFORE.search(o.before_within(60)),
         ("introduced-dataset", 0.85, {"introduced", "dataset-cue"}),
         "We release a new benchmark for the task, named LoopBench.", "LoopBench"),
    Rule("introduced-as-dataset", lambda o: o.strength >= 0.75 and cue.APPOS_DATASET.match(o.after(90)),
         ("introduced-dataset", 0.85, {"introduced", "dataset-cue"}),
         "We present CityWalk, a dataset of street scenes.", "CityWalk"),
)

# A capitalized name of a part ("Cross-modal Attention Module", "Intra-View Block", "Relationship
# Reasoning Layer"), not opened by an article ("The Mapping Module" is "Mapping Module" again)
COMPONENT = re.compile(r"(?!(?:The|A|An|Our|This|Each|Its)\s)\S.*\s(?:Module|Block|Layer)s?$")

# What a surface form (and its shape) says by itself: a long form or capitalized run that ends in
# a dataset noun names a dataset; one that ends in a part's noun names a part of the paper's method
# (the guideline's "names that the paper introduces": every such name in the labeled sets, 10 of 10)
FORM_RULES: tuple[Rule, ...] = (
    Rule("dataset-suffix", lambda a: " " not in a.text and any(a.text.endswith(s) and len(a.text) > len(s) + 1
                                                               for s in DATASET_SUFFIXES),
         ("dataset", 0.65, {"dataset-suffix"}), "Scores on ToolBench rise.", "ToolBench"),
    Rule("known-dataset", lambda a: is_known_dataset(a.text), ("dataset", 0.75, {"known-dataset"}),
         "We pretrain a small network on ImageNet.", "ImageNet"),
    Rule("model-pattern", lambda a: " " not in a.text and is_model_name(a.text), ("cue", 0, {"model-pattern"}),
         "Answers from Qwen2.5-7B are graded.", "Qwen2.5-7B"),
    Rule("dataset-noun-name", lambda a: a.shape in ("long", "run") and _NAME_OF_DATASET.search(a.text)
         or a.shape == "long" and _LONG_NAME_OF_DATASET.search(a.text),
         ("dataset", 0.75, {"dataset-noun-name"}), "Results on the Open Patent Benchmark are strong.", "Open Patent Benchmark"),
    Rule("component-name", lambda a: a.shape in ("long", "run") and COMPONENT.match(a.text),
         ("method", 0.7, {"component-name"}), "Features pass through a Cross-modal Attention Module first.",
         "Cross-modal Attention Module"),
)


# a name whose last word names a task ("Open Information Extraction (OpenIE)", "Vision-and-Language
# Navigation", "Legal Event Detection (LED)") names the task, not a dataset
TASK_NOUN_END = re.compile(r"\s(?:Extraction|Classification|Segmentation|Detection|Navigation|Recognition|Translation|"
                            r"Prediction|Generation|Answering|Summarization|Retrieval|Tracking|Estimation|Parsing|"
                            r"Tagging|Linking|Captioning|Grounding|Label(?:l)?ing|Matching|Completion|Reasoning|"
                            r"Understanding|Localization|Identification|Typing|Forecasting|Interaction)$")


# a name that ends in a measure names the measure ("on mIoU", "+2.5 points on ST F1 Score",
# "Average Precision"), never a dataset (a method when the paper introduces the measure: "we propose a
# new metric, Flexible Goal Accuracy (FGA)"; case-sensitive: "CoST", "HD Map" are names). Not the claims'
# measure lexicon (claim_metric.HEADS): its heads end names that are no measure ("Dynamic Generative
# Memory", "Generalized Arc Consistency": 153 corpus candidates against these 32)
_METRIC_NAME = re.compile(r"(?:^|\s)(?:m?IoU|mIOU|m?AP(?:50|75)?|F1(?:-score)?|(?:F1\s+)?Scores?|Recall|Precision|"
                          r"Accuracy|AUC|AUROC|BLEU|ROUGE(?:-\w+)?|PSNR|SSIM|FID)$")


_FUNCTION_LED = re.compile(r"(?:of|in|on|for|to|with|by|from|at|as|into|a|an|the|this|our|its|their)(?:\s|$)|non-[A-Z]")


class Verdict:
    """A candidate's final strengths while :data:`CAP_RULES` and :data:`ROLE_RULES` decide."""

    def __init__(self, a):
        self.a, self.text, self.shape, self.partners = a, a.text, a.shape, a.partners
        self.cues, self.method, self.dataset = set(a.cues), a.method, a.dataset
        n_upper = upper_count(a.text)
        base = a.text.rstrip("s") if a.text.endswith("s") and n_upper >= 2 else a.text
        self.generic = a.text in GENERIC_ACRONYMS or base in GENERIC_ACRONYMS
        # an acronym pair whose long form is lower case past its first word ("multi-agent
        # reinforcement learning (MARL)", "keyphrase extraction (KE)") names a field or a task
        longs = [a.text] if a.shape == "long" else [p for p in a.partners if " " in p or p.islower()]
        lower_long = bool(a.partners) and bool(longs) and all(
            all(not w[:1].isupper() for w in lf.split()[1:]) for lf in longs)
        # or one whose last word names a task ("Legal Event Detection (LED)"), unless a known dataset
        # leads it ("KITTI Tracking") or its acronym is a mixed-case coinage ("DocVQA")
        task_named = any(TASK_NOUN_END.search(lf) for lf in (longs or [a.text]) if " " in lf) \
            and not is_known_dataset(a.text.split()[0]) and not any(
                p.isalpha() and p[1:] != p[1:].upper() and p[1:] != p[1:].lower()
                for p in (a.partners | {a.text}) if " " not in p)
        self.term, self.lower_long = lower_long or task_named, lower_long
        # a lowercase phrase with a plural noun ("partitioning algorithms") describes, it does not name
        self.plural_phrase = " " in a.text and a.text[:1].islower() and any(
            re.fullmatch(r"[a-z][a-z\-]*[a-z][^su\W]s", w) for w in a.text.split())
        # a lower-case phrase that ends in a dataset noun ("labeled dataset", "evaluation protocol and
        # associated dataset", "dynamic heart simulator") describes a dataset, it does not name one
        self.described = " " in a.text and a.text == a.text.lower() and a.text.rsplit(None, 1)[-1] in DATASET_NOUN_ENDS
        # the long form of a generic acronym ("Large Language Models (LLMs)") is generic too
        self.generic_long = (a.shape == "long" or "long-form" in a.cues) and any(
            p in GENERIC_ACRONYMS or (p.endswith("s") and p[:-1] in GENERIC_ACRONYMS) for p in a.partners)
        self.plural = a.text.endswith("s") and n_upper >= 2 and a.text[:-1].isupper() is False \
            and re.fullmatch(r"[A-Z][A-Za-z0-9\-]*[A-Z]s", a.text) is not None


def cap(rules, v: Verdict) -> None:
    """Apply every rule of ``rules`` that holds: ``gives`` = (caps by field, cues added)."""
    for rule in rules:
        if rule.test(v):
            fire(rule.name)
            caps, cues = rule.gives
            v.cues |= cues
            for attr, limit in caps.items():
                setattr(v, attr, min(getattr(v, attr), limit))


# Caps on what a candidate's evidence gave it, applied in order.
CAP_RULES: tuple[Rule, ...] = (
    # no name opens with a preposition, an article or a negation: "to meta-learn the ensemble of ...
    # (E3BM)", "on", "non-English" (its acronym keeps what its sentence says of it)
    Rule("function-led", lambda v: _FUNCTION_LED.match(v.text), ({"method": 0.05, "dataset": 0.05}, set()),
         "In this paper, we propose to meta-learn the ensemble of epoch-wise empirical Bayes models (E3BM) here.",
         "to meta-learn the ensemble of epoch-wise empirical Bayes models"),
    # (a generic acronym the paper names its own with "called" is its own: "a novel approach called
    # Cooperative Training (CoT)")
    Rule("generic-acronym", lambda v: v.generic and "called" not in v.cues, ({"method": 0.05, "dataset": 0.05}, {"generic"}),
         "Large language models (LLMs) are trained with RL.", "RL"),
    Rule("generic-long-form", lambda v: v.generic_long and "called" not in v.cues,
         ({"method": 0.05, "dataset": 0.05}, {"generic"}),
         "Scans from Magnetic Resonance Imaging (MRI) are noisy.", "Magnetic Resonance Imaging"),
    Rule("term-not-dataset", lambda v: v.term and v.dataset > 0.3 and "introduced" not in v.cues,
         ({"dataset": 0.3}, set()), "Benchmarks of keyphrase extraction (KE) are small; KE datasets vary.", "KE"),
    Rule("lowercase-plural", lambda v: "lowercase-coinage" in v.cues and not v.partners and v.plural_phrase,
         ({"method": 0.4}, set()), "We propose sparse routing tables for experts.", "sparse routing tables"),
    Rule("lowercase-cap-appositive", lambda v: "lowercase-coinage" in v.cues and not v.partners
         and ("appositive" in v.cues or "called" in v.cues), ({"method": 0.7}, set()),
         "We propose token dropping, a simple method for speed.", "token dropping"),
    Rule("lowercase-word", lambda v: "lowercase-coinage" in v.cues and not v.partners and v.text.isalpha()
         and v.text.islower() and not ("appositive" in v.cues or "called" in v.cues), ({"method": 0.35}, set()),
         "We develop algorithms to detect such tokens.", "algorithms"),
    Rule("lowercase-cap", lambda v: "lowercase-coinage" in v.cues and not v.partners
         and not ("appositive" in v.cues or "called" in v.cues), ({"method": 0.55}, set()),
         "We propose aligned mass transport to match distributions.", "aligned mass transport"),
    Rule("described-dataset", lambda v: v.described, ({"method": 0.3, "dataset": 0.3}, set()),
         "We build a new point-supervised dataset (P-DUTS) from DUTS.", "point-supervised dataset"),
    Rule("metric-name", lambda v: any(map(_METRIC_NAME.search, [v.text, *v.partners])), ({"dataset": 0.05}, set()),
         "Results improve by 2 points on IC Recall.", "IC Recall"),
    # (a capitalized one of a singular acronym names one thing: "Sleep-WAke Networks (SWAN)")
    Rule("plural-long-form", lambda v: "long-form" in v.cues and v.plural is False and v.text.endswith("s")
         and v.method < 0.8 and (any(p.endswith("s") for p in v.partners) or v.lower_long),
         ({"method": 0.3}, set()), "Large language models (LLMs) are everywhere.", "Large language models"),
)


def _weak(v: Verdict):
    """The role of the stronger strength once it reaches 0.3 (a method's on a tie), the strongest score."""
    role = "dataset" if v.dataset > v.method and v.dataset >= 0.3 else "method" if v.method >= 0.3 else None
    return role, max(v.method, v.dataset, 0.15 if v.shape in ("camelcase", "alnum", "hyphenated") else 0.1)


# The role and score of a candidate: the first rule that holds decides (None: dropped).
def named_a_dataset(name: str, cues) -> bool:
    """A dataset noun names it a dataset ("the Human3.6M dataset") and it is no model family's
    name: a model's shape (a size, a suffix) gives way, "ResNet-101" does not."""
    return "dataset-cue" in cues and not is_model_family(name)


ROLE_RULES: tuple[Rule, ...] = (
    Rule("model-role", lambda v: ("model-pattern" in v.cues or "model-cue" in v.cues) and v.method < 0.75
         and "variant" not in v.cues and "known-dataset" not in v.cues and "dataset-suffix" not in v.cues
         and not ("model-cue" not in v.cues and v.dataset >= 0.8 and named_a_dataset(v.text, v.cues)),
         lambda v: ("model", 0.05),
         "Answers from Qwen2.5-7B are graded.", "Qwen2.5-7B"),
    # a dataset has a proper name: a capital, a digit or a sign ("text8", "∞-bench"), or a known one ("mnist")
    Rule("lowercase-not-dataset", lambda v: v.dataset >= max(v.method, 0.5) and not {"introduced", "dataset-list"} & v.cues
         and not NAMEY.search(v.text) and "known-dataset" not in v.cues, lambda v: None,
         "We release our training material, annotation toolkit and dataset online.", "material"),
    Rule("dataset-role", lambda v: v.dataset >= 0.5 and v.dataset >= v.method, lambda v: ("dataset", v.dataset),
         "Results on the HotpotQA benchmark improve.", "HotpotQA"),
    Rule("weak-role", lambda v: True, _weak, "Results favour PolyMix over the rest.", "PolyMix"),
)
