"""The contexts that say what a name is: introduced by the paper ("we propose X", "X, a novel
framework"), a dataset ("benchmarks such as X", "evaluated on X"), or an existing model ("X
model").  Regular expressions over the text before or after an occurrence."""

from __future__ import annotations

import re

from ..text.lexicon import CONTRIBUTION_STEMS, DATASET_NOUN_ENDS, DATASET_NOUNS, MODEL_NOUNS, NAMING_STEMS, stems, we

INTRO_VERB = stems(NAMING_STEMS)


class EndCue:
    """A pattern of the text before a name, anchored at its end (``$``), searched only where two
    cheap necessary tests hold: the text ends (before white space) with one of ``ends``, what
    every match ends with, and holds a word of each group of ``needs`` (groups of words, one of
    which every match holds); a test is skipped when empty.  They read the lower-cased text when
    it is ASCII (there, lower case is exactly what re.IGNORECASE equates), else they pass: the
    same matches as the pattern alone, which would otherwise be tried from every start position
    of the window, for every name.  The pattern is compiled when a search first needs it (a run
    compiles the cues it uses)."""

    __slots__ = ("source", "flags", "ends", "needs", "_width", "_pattern")

    def __init__(self, source: str, ends=(), needs=(), flags=re.I):
        self.source, self.flags, self._pattern = source, flags, None
        self.ends, self.needs = tuple(ends), tuple(needs)
        self._width = max(map(len, self.ends), default=0)

    @property
    def pattern(self) -> re.Pattern:
        if self._pattern is None:
            self._pattern = re.compile(self.source, self.flags)
        return self._pattern

    def search(self, s: str):
        if self.ends:
            tail = s.rstrip()[-self._width:]
            if tail.isascii() and not tail.lower().endswith(self.ends):
                return None
        if self.needs and s.isascii():
            low = s.lower()
            for group in self.needs:
                if not any(w in low for w in group):
                    return None
        return self.pattern.search(s)


_NOUN_WORDS = DATASET_NOUN_ENDS
# every match of INTRO_BEFORE holds an introducing or naming stem, "i.e", "denot", "abbreviat" or "refer"
_INTRO_NEEDS = NAMING_STEMS + ("i.e", "denot", "abbreviat", "refer")
_LIST_ENDS = (",", "and", "or", "the")          # "on X, Y and the": a list of names still open

# Closed-class words (and a few bare verbs): never a premodifier of a name, nor the noun a name premodifies.
_CLOSED = (r"(?:a|an|the|of|for|to|in|on|at|by|with|from|via|into|onto|upon|over|under|through|between|among|across|"
           r"within|without|against|toward|towards|beyond|like|than|per|as|and|or|but|so|if|that|which|who|whose|where|"
           r"when|while|whereby|is|are|was|were|be|been|can|could|will|would|should|may|might|must|has|have|had|do|"
           r"does|it|its|our|we|they|their|this|these|those|how|what|why|whether|not|also|further|then|here|there|"
           r"outperform|achieve|learn|consist|use|improve|perform)\b")
# A word that may premodify the name in the object of an introducing verb ("an end-to-end trainable", "a
# simple yet effective"; lower case: "an Example-Based GEC" is one name): no closed-class word and no -ing
# verb taking its own object ("using", "leveraging"), nor a participle taking a preposition ("based on",
# "integrated with"; "a neural-logic based X", "an integrated model, X" premodify).
_MODIFIER = (r"(?!" + _CLOSED + r"|results?\b|experiments?\b|(?:us|leverag|combin|exploit|integrat|incorporat|utiliz|"
             r"employ|build|extend|apply|adopt|bas|follow)(?:ing\b|ed\b(?=\s+(?:on|upon|with|to|into|in|from|by|for|as|at)\b)))"
             r"[\w\-‐’']+")
# The head nouns of a described contribution: "we propose a learning framework and system X"
# (_TOOL_HEADS: of one that is no dataset)
# (ARTIFACT_HEADS: of an artifact the paper makes, which a task is not)
ARTIFACT_HEADS = ("framework", "method", "approach", "algorithm", "system", "model", "pipeline", "technique",
                  "architecture", "toolkit", "library", "agent", "policy", "planner", "tool", "platform", "network",
                  "module", "metric", "paradigm", "strategy", "mechanism", "engine")
_TOOL_HEADS = "|".join(ARTIFACT_HEADS) + "|task"
INTRO_HEADS = r"(?:" + _TOOL_HEADS + r"|benchmark|dataset|corpus|simulator|environment|suite)"
# What may stand between an introducing verb and the name: "we propose a novel framework, X",
# "we propose an end-to-end trainable X", "a new framework named as X" (a comma only after a
# lower-case word: "namely HumanEval, HumanEval+" is a list); a capitalized word only in a
# description whose lower-case head noun a comma sets off from the name ("a neural OpenIE
# system, MILIE", "an embedding-based KPE approach, Masked Document Embedding Rank (MDERank)");
# a name in parentheses only after a head noun ("a lightweight, high-resolution network (RRKDNet)")
_INTRO_TAIL = (
    r"\s*(?:(?:a|an|the|our|two|three)\s+)?"
    r"(?:(?=(?-i:[a-z0-9])|(?-i:[A-Z])[\w\-‐’']*\s+(?:[\w\-‐’']+\s+){0,3}?(?-i:[a-z])[\w\-‐’']*\s*[,:—]\s)" + _MODIFIER + r"(?:(?:\s*[,:—]|\s+--?)\s+(?:(?:a|an|the)\s+)?|\s+(?:(?:and|yet|but)\s+)?)){0,6}?"
    r"(?:(?:called|named|termed|dubbed|coined)\s+(?:as\s+)?(?:the\s+)?)?(?:(?:" + _TOOL_HEADS + r")\s*\(\s*)?"
    r"(?:\$?\\textbf\{|\*\*|\\emph\{|\\textit\{|\\texttt\{|\\textsc\{|`|[\"“]|\*|_)?\s*$")
_SUBJECT = r"(?:\bwe|\bthis\s+(?:paper|work|study|article))\b"
# "we propose two confidence-based IL methods", "a novel PLM-based KGC model named PKGC", "a
# Large Multimodal Model called PALO", "an image super-resolution feedback network": a name
# before a plural head noun, before a name (of a head noun) given next, or (one word) before a
# noun that is not a head noun only premodifies it
PREMODIFIER = re.compile(r"(?:\s+" + INTRO_HEADS + r")?\s*,?\s*(?:called|named|termed|dubbed|referred)\b|\s+(?:"
                         + INTRO_HEADS + r"(?:s\b|\s*[:(])|(?P<noun>(?!" + INTRO_HEADS + r"\b|" + _CLOSED
                         + r")(?-i:[a-z])[a-z\-]*(?<![^s]s)(?<!ing)(?<!ed)\b))", re.I)
# "we propose to evaluate ... and construct E-Bench", "This paper examines ... and introduces X":
# a second introducing verb coordinated with the first subject
COORD_INTRO_BEFORE = EndCue(_SUBJECT + r".*\band\s+(?:then\s+|also\s+|further\s+)?" + INTRO_VERB
                            + r"\w*" + _INTRO_TAIL, needs=(("and",), ("we", "this"), NAMING_STEMS))
# A naming cue: "called", "termed as", "referred to as", "abbreviated as", "(which) we call",
# "we refer to this approach as", "we call it"
NAMING = (r"(?:\b(?:called|named|dubbed|termed|coined|denoted|abbreviated|referred\s+to)(?:\s+(?:as|by))?"
          r"|\bwe\s+(?:\w+ly\s+|here\s+)?(?:call|name|term|dub|denote|refer\s+to)(?:\s+(?:this|it|them|these|"
          r"(?:our|the|this|such)\s+[\w\-]+)(?:\s+[\w\-]+)?)??(?:\s+(?:as|by))?(?:\s+here)?)")
INTRO_BEFORE = EndCue(
    r"(?:\b(?:we|this\s+(?:paper|work|study|article)|here\s+we|the\s+authors)\s+(?:\w+ly\s+|also\s+|further\s+|"
    r"then\s+|first\s+|hence\s+|thus\s+|therefore\s+)?" + INTRO_VERB + r"\w*"
    r"|\b(?:introducing|proposing|presenting|developing|releasing|namely|i\.e\.,?)|" + NAMING + ")"
    + _INTRO_TAIL, needs=(_INTRO_NEEDS,))
# "benchmarks, namely HumanEval": "namely" after a dataset noun lists datasets, it introduces nothing
NAMELY_DATASETS = EndCue(r"\b(?:" + DATASET_NOUNS + r")\s*,?\s*(?:namely|i\.e\.,?)\s*$",
                         ends=("namely", "i.e.", ","), needs=(_NOUN_WORDS,))
INTRO_ANYWHERE = re.compile(we() + INTRO_VERB + r"\w*\b", re.I)
APPOSITIVE = re.compile(r"^\s*(?:\)|\*\*|\}|`|\$|[\"”])*\s*(?:,|:|—|--|\()\s*(?:which\s+|that\s+)?"
                         r"(?:a|an|the|our)\s+(?:\w[\w\-]*\s+){0,5}?"
                         r"(?:new|novel|first|simple|framework|method|approach|algorithm|model|"
                         r"benchmark|dataset|suite|pipeline|technique|metric|library|toolkit|"
                         r"system|architecture|objective|loss|corpus|environment|strategy|"
                         r"mechanism|module|recipe|paradigm|family|protocol|estimator|procedure)",
                         re.I)
APPOS_DATASET = re.compile(r"^\s*(?:\)|\*\*|\}|`|\$|[\"”])*\s*(?:,|:|—|--|\(|\s+(?:is|as))\s*"
                            r"(?:which\s+is\s+|that\s+is\s+)?(?:a|an|the|our)?\s*"
                            r"(?:(?!(?:for|of|to|that|which|with|in|on|from|by)\b)[\w\-]+\s+){0,6}?"
                            r"(?:" + DATASET_NOUNS + r"|evaluation\s+(?:framework|platform|harness|protocol|"
                            r"pipeline|toolkit)s?)\b", re.I)
_CALLED_WORDS = ("called", "named", "dubbed", "termed")
SELF_DATASET_BEFORE = EndCue(
    r"\b(?:our|new|novel|self-\w+|newly[\s-]\w+|curated|constructed|collected|introduced|proposed)"
    r"\s+(?:[\w\-'’]+\s+){0,3}(?:" + DATASET_NOUNS + r")\s*[,:]?\s*(?:" + "|".join(_CALLED_WORDS) + r")?\s*$",
    ends=_NOUN_WORDS + (",", ":") + _CALLED_WORDS, needs=(_NOUN_WORDS,))
# "we propose a Multi-modal ... Emotional Dialogue dataset, M3ED,", "we contribute a large-scale face
# anti-spoofing dataset, CelebA-Spoof": the dataset the sentence introduces, set off after its noun
INTRO_DATASET_BEFORE = EndCue(
    we() + stems(CONTRIBUTION_STEMS) + r"\w*\s+(?:a|an|the|our|two|three)\s+(?:(?!(?:on|in|of|from|with|for|to|at|by)\b)"
    r"[^\s.;:,()]+,?\s+){0,8}?(?:" + DATASET_NOUNS + r")\s*(?:,|:|\(|—|--)\s*$",
    ends=(",", ":", "(", "—", "-"), needs=(CONTRIBUTION_STEMS, _NOUN_WORDS))
NOUN_CALLED_BEFORE = EndCue(r"\b(?:" + DATASET_NOUNS + r")(?:\s+(?:for|of)\s+(?:[\w\-]+\s+){0,2}?[\w\-]+)?"
                            r"\s*,?\s*(?:which\s+|that\s+)?"
                            r"(?:we\s+(?:call|name|term|dub)|" + "|".join(_CALLED_WORDS) + r")\s*$",
                            ends=("call", "name", "term", "dub") + _CALLED_WORDS, needs=(_NOUN_WORDS,))
# a list of names still open ("from X, Y and "), each with a version ("v2", "2.0") or not
_OPEN_LIST = r"(?:[\w\-.&]+(?:\s+v?\d+(?:\.\d+)*)?\s*(?:,\s*|\s+and\s+|\s+or\s+|,\s*and\s+))*$"
DATA_FROM_BEFORE = EndCue(r"(?:\b(?:data|images)\s+|\b[a-z]+s\s+(?:drawn|collected|sourced|taken|sampled|filtered)\s+)"
                          r"from\s+(?:the\s+)?" + _OPEN_LIST, ends=("from",) + _LIST_ENDS, needs=(("from",),))
TRAINED_ON_BEFORE = EndCue(r"\b(?:(?:pre-?)?train(?:ed|ing)|fine-?tun(?:ed|ing))\s+(?:\w+\s+){0,2}?on\s+(?:the\s+)?"
                           r"(?:[\d,.]+\s+\w+\s+of\s+(?:the\s+)?)?" + _OPEN_LIST,
                           ends=("on", "of") + _LIST_ENDS, needs=(("train", "tun"),))
_OUR_NEW = ("new", "novel", "proposed", "resulting")
OUR_BEFORE = EndCue(r"\bour\s+(?:(?:" + "|".join(_OUR_NEW) + r")\s+)?$", ends=("our",) + _OUR_NEW, needs=(("our",),))
# "we propose an end-to-end model for this task, FSS-Net,", "a simple yet effective architecture of
# normalizing flows, ConvFlow,": the name set off as the appositive of the introduced object, a
# described tool (its head noun, maybe a prepositional phrase after it), never a list ("two networks:")
# nor what the object uses ("experiments using a language model, XLM-R")
OBJECT_APPOSITIVE_BEFORE = EndCue(
    we() + INTRO_VERB + r"\w*\s+(?:a|an|the|our)\s+(?:(?!two\b|three\b|four\b|several\b|multiple\b|using\b|"
    r"leveraging\b|with\b|via\b|by\b)[^\s.;:,()]+,?\s+){0,8}?(?:" + _TOOL_HEADS + r")\b"
    r"(?:\s+(?:for|of|to|in|on|based\s+on)\s+(?:[^\s.;:,()]+\s+){0,5}?[^\s.;:,()]+)?\s*(?:,|:|—|--)\s*"
    r"(?:called\s+|named\s+)?['\"“‘]?$", ends=(",", ":", "—", "-", "'", '"', "“", "‘", "called", "named"),
    needs=(NAMING_STEMS,))
# "we introduce a concentric bellows linear actuator (CBLA)", "we propose an adaptive mixture regression
# framework (AMRF)": the name in parentheses after the introduced object, an indefinite article and its
# words (no closed-class word, "using", "based on": "a model based on the latent diffusion model (LDM)"; nor
# a naming word: "an approach named ARNIQA (leArning ...)" spells out a name); an acronym in parentheses
# among them ("a reinforcement learning (RL) based model combination (RLMC)")
INTRO_DEFINED_BEFORE = EndCue(we() + INTRO_VERB + r"\w*\s+(?:a|an)\s+(?:(?!" + NAMING + r")(?:" + _MODIFIER + r"|\([^()\s]{1,12}\))\s+){1,8}?\(\s*$",
                              ends=("(",), needs=(NAMING_STEMS,))
# "within a novel Multi-Agent Tensor Fusion (MATF) network", "by incorporating a novel Semantic Regularized
# Loss (SR-Loss)": a new Capitalized name, whatever verb introduces the phrase (NOVEL_DEFINED_AFTER: its
# acronym follows; a lower-case phrase is as often a known technique: "a novel image-based visual servoing
# (IBVS)"; "a new" fires on 9 corpus abstracts, 3 of its 5 decisions right: "a new Sum-of-Squares (SOS) flow")
NOVEL_BEFORE = EndCue(r"\ba\s+novel\s+$", ends=("novel",), needs=(("novel",),))
NOVEL_DEFINED_AFTER = re.compile(r"\s*\([A-Za-z][\w\-]*[A-Z][\w\-]*\)")
# "we introduce two methods: Definition Neural Network (DefiNNet) and Define BERT (DefBERT)", "we propose
# two algorithms: SHVar for known variances and SHAdaVar for unknown ones": each item of a list the
# colon opens after a counted object starts a name the paper introduces (not a task, a problem, a
# question or a finding: "two benchmark tasks using ConeQuest: (i) Spatial Generalization")
_COUNTS = ("two", "three", "four", "five", "several", "following")
_NOT_NAMES = r"(?!(?:[\w\-]+\s+){0,4}(?:tasks?|problems?|questions?|settings?|scenarios?|results|findings)\b)"
INTRO_COLON_LIST_BEFORE = EndCue(
    we() + INTRO_VERB + r"\w*\s+(?:the\s+)?(?:" + "|".join(_COUNTS) + r")\s+" + _NOT_NAMES + r"[^.:;]{0,100}"
    r"(?::|,\s+namely)(?:[^.;:]*?(?:,|\band\b))?\s*"              # the colon, then the items before this one
    r"(?:\(?(?:\d|[a-e]|i{1,3}|iv)\)\s*)?(?:(?:the|a|an)\s+)?$",     # an enumerator, an article
    ends=(":", ",", "and", ")", "namely", "the", "a", "an"), needs=(NAMING_STEMS, _COUNTS))
# what closes such an appositive: not a list's next item ("datasets, UBFC-rPPG, PURE and")
APPOSITIVE_CLOSES = re.compile(r"^['\"”’]?\s*(?:[.;(]|—|:|$|,(?!\s*[A-Z][\w\-]*\s*(?:,|and\b|or\b))|\s+(?:which|that)\b)")
# "an Illumination Preserving Module (IPM) is proposed to", "the viewport proposal network (VP-net) is
# developed", "a SAM-based seeding (SAMS) module is designed" (``head``: a name used before is only the
# modifier of the head noun, "a simple yet effective WSL framework is proposed"): a name introduced in the passive (``strong``: a verb that introduces whatever the article;
# "X is designed to" also describes an existing X, so the weak verbs only after "a"/"an"); never "BERT
# is introduced as the backbone", nor a bare name opening the sentence ("Unsupervised domain adaptation
# (UDA) is proposed to"); a bare name opening a later clause only with a strong verb ("To this end, X is proposed")
PASSIVE_INTRO_AFTER = re.compile(
    r"^\)?\s*(?:\(\s*[^()]{1,30}\))?(?P<head>\s+(?:" + "|".join(ARTIFACT_HEADS + ("block", "unit", "loss", "layer"))
    + r")s?)?\s*,?\s+(?:is|are)\s+(?:(?:\w+ly|also|further|then|first|here|hereby)\s+)?"
    r"(?:(?P<strong>proposed|introduced|presented|devised|put\s+forward)|designed|developed|constructed|built)\b"
    r"(?!\s+(?:as|by|in)\b)")
ARTICLE_BEFORE = re.compile(r"(?:^|[^\w\-])(?:(?P<a>a|an)|the)\s+(?:(?!" + _CLOSED + r"|using\b)[\w\-'’]+\s+){0,4}"
                            r"(?:\(\s*)?$", re.I)
# "the proposed X", "the resulting SPVNAS model", "the proposed customizable wireless X": the paper's own
# X, up to two lower-case modifiers after the participle ("the recently proposed X" does not end so)
PROPOSED_BEFORE = EndCue(r"\bthe\s+(?:proposed|resulting)\s+(?:(?!" + _CLOSED + r")(?-i:[a-z])[\w\-]*\s+){0,2}$",
                         needs=(("proposed", "resulting"),))
NOT_VERB = r"(?<!\bto\s)(?<!\bwe\s)(?<!\bcan\s)"
DATASET_BEFORE = EndCue(
    r"(?:" + NOT_VERB + r"\b(?:" + DATASET_NOUNS + r")\s*(?:,?\s*(?:such\s+as|like|including|includes?|"
    r"e\.g\.,?|namely)|:|—|\()?\s*(?:the\s+)?\[?|" + NOT_VERB + r"\b(?:" + DATASET_NOUNS + r")\s*,?\s+(?:such\s+as|like|"
    r"including|e\.g\.,?|namely)\s+(?:the\s+)?(?:[\w\-.&]+(?:\s+(?:repository|dataset|benchmark|corpus|suite|"
    r"collection|archive|database))?\s*(?:,|and|or)\s*)+(?:and\s+|or\s+)?(?:the\s+)?)$",
    ends=_NOUN_WORDS + ("as", "like", "including", "include", "includes", "e.g.", "namely", ":", "—", "(", "[")
    + _LIST_ENDS, needs=(_NOUN_WORDS,))
# "on a curated dataset, ShipLog, which": an apposition (the name is followed by punctuation)
DATASET_COMMA_BEFORE = EndCue(NOT_VERB + r"\b(?:" + DATASET_NOUNS + r")\s*,\s*(?:the\s+)?$", ends=(",", "the"),
                              needs=(_NOUN_WORDS,))
_OUR_NOUNS = ("method", "approach", "model", "framework", "algorithm", "system", "technique", "benchmark", "dataset",
              "tool", "library", "metric", "objective")
# "our method, GraphMend", "The proposed network, HorizonNet,", "our final model, LinkNet", "Our
# proposed training algorithm, BoostResNet,": the paper's own artifact, named (up to two words before its noun)
_OWN_NOUNS = _OUR_NOUNS + tuple(h for h in ARTIFACT_HEADS if h not in _OUR_NOUNS) + ("solution",)
INTRO_OUR_NOUN = EndCue(r"\b(?:our|the\s+(?:new|proposed|resulting))\s+(?:[\w\-]+\s+){0,2}?(?:" + "|".join(_OWN_NOUNS)
                        + r")\s*(?:,|\()?\s*(?:" + "|".join(_CALLED_WORDS) + r")?\s*$",
                        ends=_OWN_NOUNS + (",", "(") + _CALLED_WORDS, needs=(("our", "new", "proposed", "resulting"),))
DATASET_AFTER = re.compile(
    r"^\]?(?:\([^)]*\))?(?:\s*(?:,|and|or|&)\s*(?:the\s+)?[A-Z][\w\-.&]*)*,?\s*(?:and\s+|or\s+)?"
    r"(?:as\s+)?(?:(?!(?:on|in|of|from|for|with|at|to|by|across|over)\s)(?:the|our|a|an|representative|\w+-\w+|"
    r"standard|popular|public|\w+)\s+){0,3}?(?:" + DATASET_NOUNS + r")\b", re.I)     # (not "X on the Y dataset")
MODEL_AFTER = re.compile(
    r"^(?:\s*(?:,|and|or|&)\s*[A-Z][\w\-.]*)*,?\s*(?:(?!(?:to|and|or)\s)[\w\-]+\s+){0,2}?"
    r"(?:" + MODEL_NOUNS + r")\b")
# "language models such as BERT and HateBERT", "architectures, e.g., ResNet, PolyNet and RevNet":
# a name listed as an example of a model noun (the three of the corpus's 155 abstracts: "detectors
# such as", "encoders like" write 4 each; not after "including", which may reach back past the
# noun: "reward models and one-step generators, including HPSv3 and GenEval as benchmarks")
MODEL_LIST_BEFORE = EndCue(r"\b(?:models?|networks?|architectures?)\s*,?\s*\(?(?:such\s+as|like|e\.g\.,?)\s+"
                           r"(?:[\w\-.&+]+(?:\s+[\w\-.&+]+)?\s*(?:,\s*|\s+and\s+|\s+or\s+|,\s*and\s+))*$",
                           ends=("as", "like", "e.g.", "e.g.,") + _LIST_ENDS, needs=(("such as", "like", "e.g."),))
ON_BEFORE = EndCue(r"(?<!based )(?<!relies )(?<!rely )(?<!focus )(?<!depends )(?<!depend )"
                   r"(?<!conditioned )(?<!built )(?<!focuses )(?<!impact )(?<!effect )"
                   r"\b(?:on|across)\s+(?:the\s+)?(?:challenging\s+|standard\s+|popular\s+)?"
                   r"(?:[\w\-.&]+(?:\s+[\w\-.&]+)?\s*(?:,\s*|\s+and\s+|\s+or\s+|,\s*and\s+))*$",
                   ends=("on", "across", "challenging", "standard", "popular") + _LIST_ENDS)
# "1.6% on CaDISv2", "+3.3% on WorldSense", "Experiments on MoleculeNet", "results on OVMM and ...":
# a number or a result noun right before "on" reports on a dataset
RESULT_ON_BEFORE = EndCue(
    r"(?:\d(?:\s*(?:%|\\%|points?|pp|x|×))?|\b(?:experiments?|results?|evaluations?|performance|accuracy|"
    r"gains?|improvements?|sota|state-of-the-art))\s+(?:(?!on\b)[\w\-]+\s+){0,2}?(?<!based )(?<!built )(?:on|across)\s+(?:the\s+)?"
    r"(?:[\w\-.&+]+(?:\s+[\w\-.&+]+)?\s*(?:,\s*|\s+and\s+|\s+or\s+|,\s*and\s+))*$",
    ends=("on", "across") + _LIST_ENDS)
EVAL_WORDS = re.compile(r"\b(?:evaluat\w*|experiment\w*|results?|gains?|accura\w*|performance|"
                         r"outperform\w*|achiev\w*|improv\w*|state-of-the-art|sota|score\w*|"
                         r"test\w*|benchmark\w*|trained|fine-tuned|finetuned|tested)\b|\d", re.I)
