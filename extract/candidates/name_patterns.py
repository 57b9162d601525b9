"""Shapes, cue patterns and small helpers of the name rules (no state)."""

from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import dataclass, field

from .lexicon import (DATASET_NOUNS, DATASET_SUFFIXES, GENERIC_ACRONYMS, KNOWN_DATASETS,  # noqa: F401
                      MODEL_FAMILIES, MODEL_NOUNS, MODEL_SUFFIXES)

# DATASET_SUFFIXES and GENERIC_ACRONYMS are re-exported for the scoring module.


@dataclass(frozen=True)
class NameCandidate:
    text: str
    start: int
    end: int
    role_hint: str | None
    score: float
    cues: tuple[str, ...]


# ---------------------------------------------------------------------------------------
# token shapes
# ---------------------------------------------------------------------------------------
_TOKEN = re.compile(r"(?<![\w\\@])[A-Za-z][A-Za-z0-9]*(?:(?:--|[-‐–/+&.])[A-Za-z0-9]+)*")
_INTRO_VERB = (r"(?:propos|introduc|present|develop|design|devis|build|construct|creat|curat|"
               r"releas|nam|call|term|dub|coin|put forward|open-sourc|describ|instantiat|implement|"
               r"realiz)")
_INTRO_BEFORE = re.compile(
    r"(?:\b(?:we|this\s+(?:paper|work)|here\s+we|the\s+authors)\s+(?:\w+ly\s+|also\s+|further\s+|"
    r"then\s+|first\s+|hence\s+|thus\s+|therefore\s+)?" + _INTRO_VERB + r"\w*"
    r"|\b(?:introducing|proposing|presenting|developing|releasing|called|named|dubbed|termed|"
    r"coined|namely|i\.e\.,?|denoted(?:\s+as|\s+by)?)"
    r"|\bwe\s+(?:call|name|term|dub)\s+(?:this|it|them|these|our\s+\w+|the\s+\w+)(?:\s+\w+)?"
    r"|\bwe\s+(?:\w+ly\s+)?(?:instantiate|implement|realize|release|package)\s+(?:it|this|them|these|"
    r"our\s+\w+|the\s+\w+|this\s+\w+)\s+(?:as|in|into)(?:\s+(?:a|an|the))?)"
    r"\s*(?:(?:a|an|the|our|two|three)\s+)?"
    r"(?:(?:new|novel|simple|first|general|unified|lightweight|principled|scalable|efficient|"
    r"effective|open|large-scale|comprehensive|method|methods|framework|approach|algorithm|"
    r"benchmark|dataset|model|technique|metric|called|named|termed|dubbed|,|:)\s*)*"
    r"(?:\$?\\textbf\{|\*\*|\\emph\{|\\texttt\{|\\textsc\{|`|[\"“]|\*|_)?\s*$", re.I)
_INTRO_ANYWHERE = re.compile(r"\b(?:we|this\s+(?:paper|work))\s+(?:\w+ly\s+|also\s+|further\s+|then\s+)?"
                             + _INTRO_VERB + r"\w*\b", re.I)
_APPOSITIVE = re.compile(r"^\s*(?:\)|\*\*|\}|`|\$|[\"”])*\s*(?:,|:|—|--|\()\s*(?:which\s+|that\s+)?"
                         r"(?:a|an|the|our)\s+(?:\w[\w\-]*\s+){0,5}?"
                         r"(?:new|novel|first|simple|framework|method|approach|algorithm|model|"
                         r"benchmark|dataset|suite|pipeline|technique|metric|library|toolkit|"
                         r"system|architecture|objective|loss|corpus|environment|strategy|"
                         r"mechanism|module|recipe|paradigm|family|protocol|estimator|procedure)",
                         re.I)
_APPOS_DATASET = re.compile(r"^\s*(?:\)|\*\*|\}|`|\$|[\"”])*\s*(?:,|:|—|--|\(|\s+(?:is|as))\s*"
                            r"(?:which\s+is\s+|that\s+is\s+)?(?:a|an|the|our)?\s*"
                            r"(?:(?!(?:for|of|to|that|which|with|in|on|from|by)\b)[\w\-]+\s+){0,6}?"
                            r"(?:" + DATASET_NOUNS + r"|evaluation\s+(?:framework|platform|harness|protocol|"
                            r"pipeline|toolkit)s?)\b", re.I)
_SELF_DATASET_BEFORE = re.compile(
    r"\b(?:our|self-\w+|newly[\s-]\w+|new|novel|curated|constructed|collected|introduced|proposed)"
    r"\s+(?:[\w\-]+\s+){0,3}(?:" + DATASET_NOUNS + r")\s*,?\s*(?:called|named|dubbed|termed)?\s*$", re.I)
_NOUN_CALLED_BEFORE = re.compile(r"\b(?:" + DATASET_NOUNS + r")\s*,?\s*(?:which\s+|that\s+)?"
                                 r"(?:we\s+(?:call|name|term|dub)|called|named|dubbed|termed)\s*$", re.I)
_DATA_FROM_BEFORE = re.compile(
    r"\b(?:videos|images|data|samples|examples|questions|clips|documents|reports|records|recordings|"
    r"texts|tasks|problems|dialogues|conversations|scenes|episodes|trajectories|articles|papers|"
    r"posts|prompts|sentences|utterances|pairs|sequences|molecules|proteins|graphs|tables|passages|"
    r"snippets|abstracts|transcripts|instances|items|queries|images-text|codes?)\s+"
    r"(?:drawn\s+|collected\s+|sourced\s+|taken\s+|sampled\s+|filtered\s+)?"
    r"from\s+(?:the\s+)?(?:[\w\-.&]+(?:\s+v?\d+(?:\.\d+)*)?\s*(?:,\s*|\s+and\s+|\s+or\s+|,\s*and\s+))*$", re.I)
_TRAINED_ON_BEFORE = re.compile(
    r"\b(?:trained|pretrained|pre-trained|fine-tuned|finetuned|fine-tuning|finetuning|training|pretraining|"
    r"evaluated|tested|benchmarked)\s+(?:\w+\s+){0,2}?on\s+(?:the\s+)?(?:[\d,.]+\s+\w+\s+of\s+(?:the\s+)?)?"
    r"(?:[\w\-.&]+(?:\s+v?\d+(?:\.\d+)*)?\s*(?:,\s*|\s+and\s+|\s+or\s+|,\s*and\s+))*$", re.I)
_OUR_BEFORE = re.compile(r"\bour\s+(?:(?:new|novel|proposed|resulting)\s+)?$", re.I)
_NOT_VERB = r"(?<!\bto\s)(?<!\bwe\s)(?<!\bcan\s)"
_DATASET_BEFORE = re.compile(
    r"(?:" + _NOT_VERB + r"\b(?:" + DATASET_NOUNS + r")\s*(?:,?\s*(?:such\s+as|like|including|includes?|"
    r"e\.g\.,?)|:|—|\()?\s*(?:the\s+)?\[?|" + _NOT_VERB + r"\b(?:" + DATASET_NOUNS + r")\s*,?\s+(?:such\s+as|like|"
    r"including|e\.g\.,?)\s+(?:the\s+)?(?:[\w\-.&]+(?:\s+(?:repository|dataset|benchmark|corpus|suite|"
    r"collection|archive|database))?\s*(?:,|and|or)\s*)+(?:and\s+|or\s+)?(?:the\s+)?)$", re.I)
# "on a self-curated dataset, EVA-Data, which": an apposition (the name is followed by punctuation)
_DATASET_COMMA_BEFORE = re.compile(_NOT_VERB + r"\b(?:" + DATASET_NOUNS + r")\s*,\s*(?:the\s+)?$", re.I)
_INTRO_OUR_NOUN = re.compile(r"\bour\s+(?:new\s+|proposed\s+)?(?:method|approach|model|framework|algorithm|"
                             r"system|technique|benchmark|dataset|tool|library|metric|objective)\s*,?\s*"
                             r"(?:called|named|dubbed|termed)?\s*$", re.I)
_DATASET_AFTER = re.compile(
    r"^\]?(?:\([^)]*\))?(?:\s*(?:,|and|or|&)\s*(?:the\s+)?[A-Z][\w\-.&]*)*,?\s*(?:and\s+|or\s+)?"
    r"(?:as\s+)?(?:(?:the|our|a|an|representative|\w+-\w+|standard|popular|public|\w+)\s+){0,3}?"
    r"(?:" + DATASET_NOUNS + r")\b", re.I)
_MODEL_AFTER = re.compile(
    r"^(?:\s*(?:,|and|or|&)\s*[A-Z][\w\-.]*)*,?\s*(?:and\s+|or\s+)?(?:[\w\-]+\s+){0,2}?"
    r"(?:" + MODEL_NOUNS + r")\b")
_ON_BEFORE = re.compile(r"(?<!based )(?<!relies )(?<!rely )(?<!focus )(?<!depends )(?<!depend )"
                        r"(?<!conditioned )(?<!built )(?<!focuses )(?<!impact )(?<!effect )"
                        r"\b(?:on|across)\s+(?:the\s+)?(?:challenging\s+|standard\s+|popular\s+)?"
                        r"(?:[\w\-.&]+(?:\s+[\w\-.&]+)?\s*(?:,\s*|\s+and\s+|\s+or\s+|,\s*and\s+))*$", re.I)
_EVAL_WORDS = re.compile(r"\b(?:evaluat\w*|experiment\w*|results?|gains?|accura\w*|performance|"
                         r"outperform\w*|achiev\w*|improv\w*|state-of-the-art|sota|score\w*|"
                         r"test\w*|benchmark\w*|trained|fine-tuned|finetuned|tested)\b|\d", re.I)
_WRAPPED = re.compile(
    r"\*\*(?P<bold>[^*\n]{2,80}?)\*\*|__(?P<ubold>[^_\n]{2,80}?)__|`(?P<code>[^`\n]{2,60}?)`"
    r"|\\(?:texttt|textsc|textsf|mathtt)\{(?P<tt>[^{}\n]{2,60})\}"
    r"|\\(?:textbf|mathbf|emph|textit)\{(?P<bf>[^{}\n]{2,80})\}"
    r"|(?<![*\w])\*(?P<it>[^*\s][^*\n]{0,60}?[^*\s])\*(?![*\w])"
    r"|[\"“](?P<q>[^\"”\n]{2,50})[\"”]"
    r"|(?<![\\$])\$(?P<math>[^$\n]{1,40})\$")
_ACRO_PAREN = re.compile(
    r"\(\s*(?:\\text\w*\{|\*\*|\\mathrm\{)?(?P<acr>[A-Za-z][A-Za-z0-9]*(?:[-‐–/+&][A-Za-z0-9]+)*)"
    r"(?:\}|\*\*)?\s*(?:[;,][^()]{0,40})?\)")
_SENT_START_LOOKBACK = re.compile(r"(?:^|[.!?:;]\s+|\n\s*|\(\s*|[\"“]\s*|\*\*)$")
_COINAGE_SUFFIX_WORDISH = re.compile(r"(?:tion|sion|ing|ness|ity|ment|ism|ance|ence|ship|ure|al|ive)$")
_FUNC = {"of", "for", "and", "from", "with", "to", "in", "on", "via", "by", "the", "a", "an", "as"}


def _upper_count(s: str) -> int:
    return sum(ch.isupper() for ch in s)


def _is_namey(tok: str) -> tuple[bool, str]:
    """Whether a token looks like a coined name, and its shape cue."""
    letters = [ch for ch in tok if ch.isalpha()]
    if not letters:
        return False, ""
    parts = re.split(r"--|[-‐–/+&.]", tok)
    if any(ch.isdigit() for ch in tok) and tok[0].isalpha():
        return True, "alnum"
    if len(letters) >= 2 and all(ch.isupper() for ch in letters):
        return True, "acronym"
    if _upper_count(tok[1:]) >= 1 and any(ch.islower() for ch in tok):
        if len(parts) > 1 and all(p[:1].isupper() and p[1:].islower() for p in parts if p):
            return True, "hyphenated"                     # Plackett--Luce, Kolmogorov–Arnold
        return True, "camelcase"
    return False, ""


def _model_like(tok: str) -> bool:
    """A pretrained model's name (Llama3-8B, GPT-4o, Qwen2.5-7B, BERT-base), by family and
    size/version shape."""
    low = tok.lower()
    for fam in MODEL_FAMILIES:
        if low.startswith(fam):
            rest = low[len(fam):]
            if rest == "" and len(fam) >= 3 or rest[:1] in ("-", ".", "_") or rest[:1].isdigit():
                return True
    if re.search(r"(?<![A-Za-z])\d+(?:\.\d+)?[BMK](?![A-Za-z])", tok) and re.search(r"[A-Za-z]{2}", tok):
        return True
    parts = re.split(r"[-_]", low)
    return len(parts) > 1 and parts[-1] in MODEL_SUFFIXES and bool(parts[0])


@lru_cache(maxsize=1 << 16)     # hot: called per token against every known dataset
def _dataset_like(tok: str) -> bool:
    low = tok.lower()
    if any(low == k or low.startswith(k + "-") or (low.startswith(k) and low[len(k):].isdigit())
           for k in KNOWN_DATASETS):
        return True
    return False


@dataclass
class _Agg:
    text: str
    start: int
    end: int
    cues: set[str] = field(default_factory=set)
    method: float = 0.0
    dataset: float = 0.0
    model: bool = False
    partners: set[str] = field(default_factory=set)
    shape: str = ""


def _long_form(text: str, paren: int, acr: str) -> tuple[int, int] | None:
    """Schwartz–Hearst: the shortest word sequence before '(' whose letters spell the acronym."""
    letters = [ch.lower() for ch in acr if ch.isalnum()]
    if acr.endswith("s") and _upper_count(acr) >= 2:
        letters = letters[:-1] if letters[-1] == "s" else letters
    if len(letters) < 2:
        return None
    lo = paren
    nwords = 0
    max_words = min(len(letters) + 5, len(letters) * 2)
    while lo > 0 and nwords <= max_words:
        lo -= 1
        ch = text[lo]
        if ch in ".;:!?(\n" or (ch == "," and nwords > 0):
            lo += 1
            break
        if ch == " " and text[lo - 1:lo] != " ":
            nwords += 1
    window = text[lo:paren]
    j = len(window) - 1
    for k in range(len(letters) - 1, -1, -1):
        c = letters[k]
        while j >= 0 and (window[j].lower() != c or (k == 0 and j > 0 and window[j - 1].isalnum())):
            j -= 1
        if j < 0:
            return None
        j -= 1
    start = lo + j + 1
    while start > lo and text[start - 1].isalnum():
        start -= 1
    end = paren
    while end > start and text[end - 1] in " \t":
        end -= 1
    span = text[start:end]
    if not span or " " not in span.strip() and "-" not in span and "–" not in span:
        return None
    if span.lower().startswith(acr.lower()):
        return None
    return start, end
