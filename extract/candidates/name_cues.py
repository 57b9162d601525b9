"""The contexts that say what a name is: introduced by the paper ("we propose X", "X, a novel
framework"), a dataset ("benchmarks such as X", "evaluated on X"), or an existing model ("X
model").  Regular expressions over the text before or after an occurrence."""

from __future__ import annotations

import re

from ..text.cues import NAMING_STEMS, stems, we
from ..text.lexicon import DATASET_NOUNS, MODEL_NOUNS

INTRO_VERB = stems(NAMING_STEMS)
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
# What may stand between an introducing verb and the name: "we propose a novel framework, X",
# "we propose an end-to-end trainable X", "a new framework named as X" (a comma only after a
# lower-case word: "namely HumanEval, HumanEval+" is a list)
_INTRO_TAIL = (
    r"\s*(?:(?:a|an|the|our|two|three)\s+)?"
    r"(?:(?=(?-i:[a-z0-9]))" + _MODIFIER + r"(?:(?:\s*[,:—]|\s+--?)\s+(?:(?:a|an|the)\s+)?|\s+(?:(?:and|yet|but)\s+)?)){0,6}?"
    r"(?:(?:called|named|termed|dubbed|coined)\s+(?:as\s+)?(?:the\s+)?)?"
    r"(?:\$?\\textbf\{|\*\*|\\emph\{|\\textit\{|\\texttt\{|\\textsc\{|`|[\"“]|\*|_)?\s*$")
# The head nouns of a described contribution: "we propose a learning framework and system X"
INTRO_HEADS = (r"(?:framework|method|approach|algorithm|system|model|pipeline|technique|architecture|"
               r"benchmark|dataset|corpus|toolkit|library|agent|policy|planner|tool|platform|network|"
               r"module|metric|task|paradigm|strategy|mechanism|simulator|environment|suite|engine)")
_SUBJECT = r"(?:\bwe|\bthis\s+(?:paper|work|study|article))\b"
# "we propose two confidence-based IL methods", "a novel PLM-based KGC model named PKGC", "a
# Large Multimodal Model called PALO", "an image super-resolution feedback network": a name
# before a plural head noun, before a name (of a head noun) given next, or (one word) before a
# noun that is not a head noun only premodifies it
PREMODIFIER = re.compile(r"(?:\s+" + INTRO_HEADS + r")?\s*,?\s*(?:called|named|termed|dubbed|referred)\b|\s+(?:"
                         + INTRO_HEADS + r"s\b|" + INTRO_HEADS + r"\s*[:(]|(?P<noun>(?!" + INTRO_HEADS + r"\b|" + _CLOSED
                         + r")(?-i:[a-z])[a-z\-]*(?<![^s]s)(?<!ing)(?<!ed)\b))", re.I)
# "we propose to evaluate ... and construct E-Bench", "This paper examines ... and introduces X":
# a second introducing verb coordinated with the first subject
COORD_INTRO_BEFORE = re.compile(_SUBJECT + r".*\band\s+(?:then\s+|also\s+|further\s+)?" + INTRO_VERB
                                + r"\w*" + _INTRO_TAIL, re.I)
# A naming cue: "called", "termed as", "referred to as", "abbreviated as", "(which) we call",
# "we refer to this approach as", "we call it"
NAMING = (r"(?:\b(?:called|named|dubbed|termed|coined|denoted|abbreviated|referred\s+to)(?:\s+(?:as|by))?"
          r"|\bwe\s+(?:\w+ly\s+|here\s+)?(?:call|name|term|dub|denote|refer\s+to)(?:\s+(?:this|it|them|these|"
          r"(?:our|the|this|such)\s+[\w\-]+)(?:\s+[\w\-]+)?)??(?:\s+(?:as|by))?(?:\s+here)?)")
INTRO_BEFORE = re.compile(
    r"(?:\b(?:we|this\s+(?:paper|work|study|article)|here\s+we|the\s+authors)\s+(?:\w+ly\s+|also\s+|further\s+|"
    r"then\s+|first\s+|hence\s+|thus\s+|therefore\s+)?" + INTRO_VERB + r"\w*"
    r"|\b(?:introducing|proposing|presenting|developing|releasing|namely|i\.e\.,?)|" + NAMING + ")"
    + _INTRO_TAIL, re.I)
# "benchmarks, namely HumanEval": "namely" after a dataset noun lists datasets, it introduces nothing
NAMELY_DATASETS = re.compile(r"\b(?:" + DATASET_NOUNS + r")\s*,?\s*(?:namely|i\.e\.,?)\s*$", re.I)
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
SELF_DATASET_BEFORE = re.compile(
    r"\b(?:our|new|novel|self-\w+|newly[\s-]\w+|curated|constructed|collected|introduced|proposed)"
    r"\s+(?:[\w\-]+\s+){0,3}(?:" + DATASET_NOUNS + r")\s*,?\s*(?:called|named|dubbed|termed)?\s*$", re.I)
NOUN_CALLED_BEFORE = re.compile(r"\b(?:" + DATASET_NOUNS + r")\s*,?\s*(?:which\s+|that\s+)?"
                                 r"(?:we\s+(?:call|name|term|dub)|called|named|dubbed|termed)\s*$", re.I)
DATA_FROM_BEFORE = re.compile(
    r"(?:\b(?:data|images)\s+|\b[a-z]+s\s+(?:drawn|collected|sourced|taken|sampled|filtered)\s+)from\s+(?:the\s+)?(?:[\w\-.&]+(?:\s+v?\d+(?:\.\d+)*)?\s*(?:,\s*|\s+and\s+|\s+or\s+|,\s*and\s+))*$", re.I)
TRAINED_ON_BEFORE = re.compile(
    r"\b(?:(?:pre-?)?train(?:ed|ing)|fine-?tun(?:ed|ing))\s+(?:\w+\s+){0,2}?on\s+(?:the\s+)?(?:[\d,.]+\s+\w+\s+of\s+(?:the\s+)?)?"
    r"(?:[\w\-.&]+(?:\s+v?\d+(?:\.\d+)*)?\s*(?:,\s*|\s+and\s+|\s+or\s+|,\s*and\s+))*$", re.I)
OUR_BEFORE = re.compile(r"\bour\s+(?:(?:new|novel|proposed|resulting)\s+)?$", re.I)
NOT_VERB = r"(?<!\bto\s)(?<!\bwe\s)(?<!\bcan\s)"
DATASET_BEFORE = re.compile(
    r"(?:" + NOT_VERB + r"\b(?:" + DATASET_NOUNS + r")\s*(?:,?\s*(?:such\s+as|like|including|includes?|"
    r"e\.g\.,?|namely)|:|—|\()?\s*(?:the\s+)?\[?|" + NOT_VERB + r"\b(?:" + DATASET_NOUNS + r")\s*,?\s+(?:such\s+as|like|"
    r"including|e\.g\.,?|namely)\s+(?:the\s+)?(?:[\w\-.&]+(?:\s+(?:repository|dataset|benchmark|corpus|suite|"
    r"collection|archive|database))?\s*(?:,|and|or)\s*)+(?:and\s+|or\s+)?(?:the\s+)?)$", re.I)
# "on a curated dataset, ShipLog, which": an apposition (the name is followed by punctuation)
DATASET_COMMA_BEFORE = re.compile(NOT_VERB + r"\b(?:" + DATASET_NOUNS + r")\s*,\s*(?:the\s+)?$", re.I)
INTRO_OUR_NOUN = re.compile(r"\bour\s+(?:new\s+|proposed\s+)?(?:method|approach|model|framework|algorithm|"
                             r"system|technique|benchmark|dataset|tool|library|metric|objective)\s*,?\s*"
                             r"(?:called|named|dubbed|termed)?\s*$", re.I)
DATASET_AFTER = re.compile(
    r"^\]?(?:\([^)]*\))?(?:\s*(?:,|and|or|&)\s*(?:the\s+)?[A-Z][\w\-.&]*)*,?\s*(?:and\s+|or\s+)?"
    r"(?:as\s+)?(?:(?:the|our|a|an|representative|\w+-\w+|standard|popular|public|\w+)\s+){0,3}?"
    r"(?:" + DATASET_NOUNS + r")\b", re.I)
MODEL_AFTER = re.compile(
    r"^(?:\s*(?:,|and|or|&)\s*[A-Z][\w\-.]*)*,?\s*(?:and\s+|or\s+)?(?:(?!to\s)[\w\-]+\s+){0,2}?"
    r"(?:" + MODEL_NOUNS + r")\b")
ON_BEFORE = re.compile(r"(?<!based )(?<!relies )(?<!rely )(?<!focus )(?<!depends )(?<!depend )"
                        r"(?<!conditioned )(?<!built )(?<!focuses )(?<!impact )(?<!effect )"
                        r"\b(?:on|across)\s+(?:the\s+)?(?:challenging\s+|standard\s+|popular\s+)?"
                        r"(?:[\w\-.&]+(?:\s+[\w\-.&]+)?\s*(?:,\s*|\s+and\s+|\s+or\s+|,\s*and\s+))*$", re.I)
# "1.6% on CaDISv2", "+3.3% on WorldSense", "Experiments on MoleculeNet", "results on OVMM and ...":
# a number or a result noun right before "on" reports on a dataset
RESULT_ON_BEFORE = re.compile(
    r"(?:\d(?:\s*(?:%|\\%|points?|pp|x|×))?|\b(?:experiments?|results?|evaluations?|performance|accuracy|"
    r"gains?|improvements?|sota|state-of-the-art))\s+(?:(?!on\b)[\w\-]+\s+){0,2}?(?:on|across)\s+(?:the\s+)?"
    r"(?:[\w\-.&+]+(?:\s+[\w\-.&+]+)?\s*(?:,\s*|\s+and\s+|\s+or\s+|,\s*and\s+))*$", re.I)
# "the Needle-in-a-Haystack and BABILong task", "the D4RL and AntMaze tasks": a name before "task(s)"
TASK_AFTER = re.compile(r"^(?:\s*(?:,|and|or|&)\s*(?:the\s+)?[A-Z][\w\-.&]*)*\s+tasks?\b")
EVAL_WORDS = re.compile(r"\b(?:evaluat\w*|experiment\w*|results?|gains?|accura\w*|performance|"
                         r"outperform\w*|achiev\w*|improv\w*|state-of-the-art|sota|score\w*|"
                         r"test\w*|benchmark\w*|trained|fine-tuned|finetuned|tested)\b|\d", re.I)
