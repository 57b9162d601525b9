"""Name candidates: coinages, acronyms, long forms, wrapped and introduced names, datasets.

Each candidate gets a ``role_hint`` and a ``score`` (confidence that it belongs in
``method_names`` (role method) or ``datasets`` (role dataset) per the gold guideline):

* method  - the paper introduces it: "we propose/introduce/present X", "X, a novel ...",
  "called/named X", "our X", an acronym defined in an introducing sentence, the partner of an
  introduced long form / acronym;
* dataset - a named dataset/benchmark: "X benchmark", "benchmarks such as X and Y",
  "evaluated on X", names ending in Bench/Eval/QA/..., a short list of famous corpora.
  An introduced benchmark/dataset has role dataset and the cue "introduced" (it belongs in
  both lists; :func:`select_names` does that);
* model   - an existing model (family + version/size: Llama3-8B, GPT-4o, BERT-base) or a name
  used as "X model(s)/generator/backbone"; never a dataset.

Cues explain the score: we-propose, our, appositive, called, acronym-def, long-form,
co-introduced, bold, code, quoted, italic, math, camelcase, acronym, hyphenated, capitalized,
lowercase-coinage, dataset-cue, dataset-list, on-X, dataset-suffix, known-dataset,
model-pattern, model-cue, generic, plural, introduced.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ._text import math_spans, sentence_bounds
from .lexicon import (DATASET_NOUNS, DATASET_SUFFIXES, GENERIC_ACRONYMS, KNOWN_DATASETS,
                      MODEL_FAMILIES, MODEL_NOUNS, MODEL_SUFFIXES)


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
               r"releas|contribut|offer|formulat|establish|nam|call|term|dub|coin|put forward|"
               r"open-sourc|provid)")
_INTRO_BEFORE = re.compile(
    r"(?:\b(?:we|this\s+(?:paper|work)|here\s+we|the\s+authors)\s+(?:\w+ly\s+|also\s+|further\s+|"
    r"then\s+|first\s+|hence\s+|thus\s+|therefore\s+)?" + _INTRO_VERB + r"\w*"
    r"|\b(?:introducing|proposing|presenting|developing|releasing|called|named|dubbed|termed|"
    r"coined|namely|i\.e\.,?|denoted(?:\s+as|\s+by)?)"
    r"|\bwe\s+(?:call|name|term|dub)\s+(?:this|it|them|these|our\s+\w+|the\s+\w+)(?:\s+\w+)?)"
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
                            r"(?:" + DATASET_NOUNS + r")\b", re.I)
_SELF_DATASET_BEFORE = re.compile(
    r"\b(?:our|self-\w+|newly[\s-]\w+|new|novel|curated|constructed|collected|introduced|proposed)"
    r"\s+(?:[\w\-]+\s+){0,3}(?:" + DATASET_NOUNS + r")\s*,?\s*(?:called|named|dubbed|termed)?\s*$", re.I)
_OUR_BEFORE = re.compile(r"\bour\s+(?:(?:new|novel|proposed|resulting)\s+)?$", re.I)
_DATASET_BEFORE = re.compile(
    r"(?:\b(?:" + DATASET_NOUNS + r")\s*(?:such\s+as|like|including|includes?|,|:|—|\(|e\.g\.,?)?\s*"
    r"(?:the\s+)?\[?|\b(?:" + DATASET_NOUNS + r")\s+(?:such\s+as|like|including|e\.g\.,?)\s+"
    r"(?:[\w\-.&]+\s*(?:,|and|or)\s*)+(?:and\s+|or\s+)?)$", re.I)
_DATASET_AFTER = re.compile(
    r"^\]?(?:\([^)]*\))?(?:\s*(?:,|and|or|&)\s*(?:the\s+)?[A-Z][\w\-.&]*)*,?\s*(?:and\s+|or\s+)?"
    r"(?:as\s+)?(?:(?:the|our|a|an|representative|\w+-\w+|standard|popular|public|\w+)\s+){0,3}?"
    r"(?:" + DATASET_NOUNS + r")\b", re.I)
_MODEL_AFTER = re.compile(
    r"^(?:\s*(?:,|and|or|&)\s*[A-Z][\w\-.]*)*,?\s*(?:and\s+|or\s+)?(?:[\w\-]+\s+){0,2}?"
    r"(?:" + MODEL_NOUNS + r")\b")
_ON_BEFORE = re.compile(r"(?<!based )(?<!relies )(?<!rely )(?<!focus )(?<!depends )(?<!depend )"
                        r"(?<!conditioned )(?<!built )(?<!focuses )(?<!impact )(?<!effect )"
                        r"\b(?:on|across|over|from|using)\s+(?:the\s+)?(?:challenging\s+)?$", re.I)
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
_GENERIC_LONG = re.compile(r"^(?:the|a|an)\b", re.I)
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


class _Finder:
    def __init__(self, text: str):
        self.text = text
        self.bounds = sentence_bounds(text)
        self.maths = math_spans(text)
        self.aggs: dict[str, _Agg] = {}
        self.intro_sentences: set[int] = set()

    # -- helpers -------------------------------------------------------------------------
    def sent(self, pos: int) -> tuple[int, int, int]:
        for i, (s, e) in enumerate(self.bounds):
            if s <= pos < max(e, s + 1) or (i == len(self.bounds) - 1):
                return i, s, e
        return 0, 0, len(self.text)

    def add(self, start: int, end: int, cues: set[str], method: float = 0.0, dataset: float = 0.0,
            model: bool = False, shape: str = "") -> _Agg | None:
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
        if end - start < 2 or end - start > 90:
            return None
        s = t[start:end]
        if not any(ch.isalpha() for ch in s):
            return None
        a = self.aggs.get(s)
        if a is None:
            a = self.aggs[s] = _Agg(s, start, end, shape=shape)
        elif start < a.start:
            a.start, a.end = start, end
        a.cues |= cues
        a.method = max(a.method, method)
        a.dataset = max(a.dataset, dataset)
        a.model = a.model or model
        if shape and not a.shape:
            a.shape = shape
        return a

    def intro_strength(self, start: int, end: int) -> tuple[float, set[str]]:
        """How strongly the text presents [start:end] as the paper's own contribution."""
        _, ss, _ = self.sent(start)
        before = self.text[max(ss, start - 160):start]
        after = self.text[end:end + 120]
        cues: set[str] = set()
        strength = 0.0
        if _INTRO_BEFORE.search(before):
            strength, cues = 0.85, {"we-propose"}
            if re.search(r"\bcall|nam|term|dub|coin|denot", before[-40:], re.I):
                cues.add("called")
        if _OUR_BEFORE.search(before):
            strength = max(strength, 0.7)
            cues.add("our")
        if _APPOSITIVE.search(after):
            cues.add("appositive")
            strength = max(strength, 0.75 if _INTRO_ANYWHERE.search(self.text[ss:start]) or
                           strength else 0.55)
        if strength == 0.0 and _INTRO_ANYWHERE.search(self.text[ss:start]):
            strength, cues = 0.4, {"in-intro-sentence"}
        word = self.text[start:end]
        if word.isalpha() and word.islower() and _COINAGE_SUFFIX_WORDISH.search(word):
            strength = min(strength, 0.35)                 # an English concept word, not a name
        return strength, cues

    def dataset_strength(self, start: int, end: int) -> tuple[float, set[str]]:
        t = self.text
        _, ss, se = self.sent(start)
        before = t[max(ss, start - 120):start]
        after = t[end:min(len(t), end + 100)]
        if _DATASET_BEFORE.search(before) or _DATASET_AFTER.match(after):
            return 0.8, {"dataset-cue"}
        if _ON_BEFORE.search(before) and _EVAL_WORDS.search(t[ss:se]):
            return 0.55, {"on-X"}
        return 0.0, set()

    # -- generators ----------------------------------------------------------------------
    def tokens(self) -> None:
        t = self.text
        in_math = [(s, e) for s, e in self.maths]
        for m in _TOKEN.finditer(t):
            tok = m.group(0).rstrip(".")
            s, e = m.start(), m.start() + len(tok)
            if any(a < s < b for a, b in in_math):
                continue
            ok, shape = _is_namey(tok)
            if not ok:
                continue
            if tok.lower().endswith("-based") or tok.lower().endswith("-like"):
                continue
            # hyphen compound whose first part is namey and the rest a plain word
            # ("Inspect-compatible", "LLM-based", "GPT-judged"): keep the namey head only
            parts = re.split(r"(--|[-‐–])", tok)
            if len(parts) == 3 and parts[2][:1].islower() and parts[2].isalpha() and \
                    not _is_namey(parts[2])[0] and shape != "hyphenated" and len(parts[2]) > 3:
                head = parts[0]
                if not _is_namey(head)[0]:
                    continue
                tok, e = head, s + len(head)
                shape = _is_namey(head)[1]
            self.add(s, e, {shape}, shape=shape)

    def acronyms(self) -> None:
        t = self.text
        for m in _ACRO_PAREN.finditer(t):
            acr = m.group("acr")
            if _upper_count(acr) < 2 and not (_upper_count(acr) >= 1 and acr[0].islower()):
                continue
            if acr.lower() in ("e.g", "i.e", "ours"):
                continue
            long_span = _long_form(t, m.start(), acr)
            a_s = m.start("acr")
            short = self.add(a_s, a_s + len(acr), {"acronym-def"}, shape="acronym")
            if long_span is None or short is None:
                continue
            ls, le = long_span
            long = self.add(ls, le, {"long-form"}, shape="long")
            if long is not None:
                short.partners.add(long.text)
                long.partners.add(short.text)

    def wrapped(self) -> None:
        t = self.text
        for m in _WRAPPED.finditer(t):
            kind = m.lastgroup
            s, e = m.span(kind)
            inner = t[s:e]
            if "(" in inner or len(inner.split()) > 6 or re.search(r"[.;!?]\s", inner):
                continue
            if kind == "math":
                # a math name only counts when introduced ("we introduce $d_{\text{NTP}}$, a metric")
                if not re.search(r"[A-Za-z]", inner) or re.fullmatch(r"\s*\\?[A-Za-z]\s*", inner):
                    continue
                if re.search(r"\d", inner) and not re.search(r"\\text", inner):
                    continue
                strength, cues = self.intro_strength(m.start(), m.end())
                if strength >= 0.75:
                    self.add(s, e, {"math"} | cues, method=strength)
                continue
            cue = {"bold": "bold", "ubold": "bold", "bf": "bold", "code": "code", "tt": "code",
                   "it": "italic", "q": "quoted"}[kind]
            if kind == "q" and (len(inner.split()) > 4 or inner[:1].islower() and " " in inner):
                continue
            self.add(s, e, {cue})

    def introduced_phrases(self) -> None:
        """Lowercase or multi-word names right after an introducing verb."""
        t = self.text
        pat = re.compile(r"\b(?:we|this\s+(?:paper|work))\s+(?:\w+ly\s+|also\s+|further\s+|then\s+)?"
                         + _INTRO_VERB + r"\w*\s+(?:(?:this|it|them|our\s+\w+)\s+)?", re.I)
        for m in pat.finditer(t):
            rest = t[m.end():m.end() + 120]
            if re.match(r"(?:a|an|the|two|three|several|some|this|that|how|whether|to|in|on|"
                        r"our|its|their|these|those|new|novel|that|\$)\b", rest, re.I):
                continue
            nm = re.match(r"([\w\-‐–']+(?:\s+[\w\-‐–']+){0,3}?)(?=\s*(?:,|:|\(|—|--|\.|;|\s+(?:that|which|"
                          r"to|for|as|based|where|with|in|on|by|via)\b))", rest)
            if not nm:
                continue
            phrase = nm.group(1)
            words = phrase.split()
            if any(w.lower() in ("we", "is", "are", "can", "and", "or") for w in words):
                continue
            s = m.end()
            e = s + len(phrase)
            follow = t[e:e + 80]
            appos = bool(_APPOSITIVE.search(follow)) or follow.lstrip().startswith(("(", ":"))
            capital = all(w[:1].isupper() for w in words if w.lower() not in _FUNC)
            if capital:
                score, cues = 0.85, {"we-propose", "capitalized"}
            else:
                score = 0.6 if appos else 0.5
                if len(words) == 1 and _COINAGE_SUFFIX_WORDISH.search(words[0].lower()):
                    score = 0.35
                cues = {"we-propose", "lowercase-coinage"} | ({"appositive"} if appos else set())
            self.add(s, e, cues, method=score)

    def capitalized_runs(self) -> None:
        """Multi-word Capitalized Names mid-sentence (kept only when a cue supports them)."""
        t = self.text
        run = re.compile(r"(?<![\w\-])(?:[A-Z][\w\-‐–]*[A-Za-z0-9])(?:\s+(?:(?:of|for|from|with|to|"
                         r"in|on|via)\s+)?[A-Z][\w\-‐–]*[A-Za-z0-9]){1,6}")
        for m in run.finditer(t):
            s, e = m.span()
            if _SENT_START_LOOKBACK.search(t[max(0, s - 4):s]) and not self._cued(s, e):
                continue
            self.add(s, e, {"capitalized-run"}, shape="run")

    def _cued(self, s: int, e: int) -> bool:
        return self.intro_strength(s, e)[0] >= 0.75 or self.dataset_strength(s, e)[0] >= 0.8

    # -- scoring -------------------------------------------------------------------------
    def score(self) -> list[NameCandidate]:
        t = self.text
        aggs = self.aggs
        for a in aggs.values():
            occs = [mm.start() for mm in re.finditer(r"(?<![\w\-‐–])" + re.escape(a.text) + r"(?![\w\-‐–])", t)] \
                or [a.start]
            for o in occs[:6]:
                e = o + len(a.text)
                ms, mc = self.intro_strength(o, e)
                if ms >= 0.4:
                    a.method = max(a.method, ms)
                    a.cues |= mc
                ds, dc = self.dataset_strength(o, e)
                if ds:
                    a.dataset = max(a.dataset, ds)
                    a.cues |= dc
                if _MODEL_AFTER.match(t[e:e + 60]) and "long" != a.shape:
                    a.cues.add("model-cue")
                if _SELF_DATASET_BEFORE.search(t[max(0, o - 80):o]) or (
                        ms >= 0.75 and _APPOS_DATASET.match(t[e:e + 90])):
                    a.cues |= {"introduced", "dataset-cue"}
                    a.dataset = max(a.dataset, 0.85)
                    a.method = max(a.method, 0.8)
            if any(a.text.endswith(suf) and len(a.text) > len(suf) + 1 for suf in DATASET_SUFFIXES) \
                    and " " not in a.text:
                a.cues.add("dataset-suffix")
                a.dataset = max(a.dataset, 0.65)
            if _dataset_like(a.text):
                a.cues.add("known-dataset")
                a.dataset = max(a.dataset, 0.75)
            if _model_like(a.text) and " " not in a.text:
                a.cues.add("model-pattern")
        # acronym partners share the introduction
        for a in aggs.values():
            for p in a.partners:
                b = aggs.get(p)
                if b is not None:
                    a.method = b.method = max(a.method, b.method)
                    if "introduced" in a.cues or "introduced" in b.cues:
                        a.cues.add("introduced")
                        b.cues.add("introduced")
                        a.dataset = b.dataset = max(a.dataset, b.dataset)
        introduced = [a for a in aggs.values() if a.method >= 0.75]
        # acronym defined in a sentence that introduces or uses an introduced name: a component
        for a in aggs.values():
            if "acronym-def" in a.cues and a.method < 0.5 and a.text not in GENERIC_ACRONYMS:
                i, ss, se = self.sent(a.start)
                if any(ss <= b.start < se or b.text in t[ss:se] for b in introduced if b is not a):
                    a.method = max(a.method, 0.6)
                    a.cues.add("co-introduced")
                    for p in a.partners:
                        if p in aggs:
                            aggs[p].method = max(aggs[p].method, 0.6)
                            aggs[p].cues.add("co-introduced")
        out: list[NameCandidate] = []
        for a in aggs.values():
            out.append(self._finish(a))
        out = [c for c in out if c is not None]
        out.sort(key=lambda c: (c.start, c.end))
        return out

    def _finish(self, a: _Agg) -> NameCandidate | None:
        base = a.text.rstrip("s") if a.text.endswith("s") and _upper_count(a.text) >= 2 else a.text
        generic = a.text in GENERIC_ACRONYMS or base in GENERIC_ACRONYMS
        plural = a.text.endswith("s") and _upper_count(a.text) >= 2 and a.text[:-1].isupper() is False \
            and re.fullmatch(r"[A-Z][A-Za-z0-9\-]*[A-Z]s", a.text) is not None
        cues = set(a.cues)
        method, dataset = a.method, a.dataset
        if generic:
            cues.add("generic")
            modified = False
            method = min(method, 0.05) if not modified else method
            dataset = min(dataset, 0.05)
        if plural and method < 0.85:
            cues.add("plural")
            method = min(method, 0.2)
            dataset = min(dataset, 0.3)
        if "long-form" in cues and plural is False and a.text.endswith("s") and method < 0.85:
            method = min(method, 0.3)                         # "Omni Language Models"
        is_model = ("model-pattern" in cues or "model-cue" in cues) and method < 0.75
        if is_model and "known-dataset" not in cues and "dataset-suffix" not in cues:
            return NameCandidate(a.text, a.start, a.end, "model", 0.05, tuple(sorted(cues)))
        if a.shape == "run" and method < 0.5 and dataset < 0.5:
            return None                                       # uncued capitalized run: noise
        if "introduced" in cues:
            return NameCandidate(a.text, a.start, a.end, "dataset", round(max(method, dataset), 3),
                                 tuple(sorted(cues)))
        if dataset >= 0.5 and dataset >= method:
            role, score = "dataset", dataset
        elif method >= 0.5:
            role, score = "method", method
        else:
            score = max(method, dataset, 0.15 if a.shape in ("camelcase", "alnum", "hyphenated") else 0.1)
            role = None
            if dataset > method and dataset >= 0.3:
                role = "dataset"
            elif method >= 0.3:
                role = "method"
        return NameCandidate(a.text, a.start, a.end, role, round(score, 3), tuple(sorted(cues)))


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


def find_names(text: str) -> list[NameCandidate]:
    """Name candidates of ``text``, deduplicated by surface form, ordered by position."""
    if not isinstance(text, str) or not text:
        return []
    f = _Finder(text)
    f.tokens()
    f.acronyms()
    f.wrapped()
    f.introduced_phrases()
    f.capitalized_runs()
    return f.score()


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
