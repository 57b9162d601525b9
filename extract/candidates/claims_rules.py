"""The claims rule tables: dataset, method and metric rules, each with one example.

A rule takes the document and a number and returns a decision - a :class:`Ref`, ``""`` (the
paper's own unnamed approach, methods only) or None (decided: nothing) - or ``_SKIP`` when it
does not apply; the first rule of a table that applies decides.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from .claim_metric import HEADS, is_generic
from .claims_doc import CLAUSE_BREAK, Ref, _Doc, _Num, _Occ, _pair, _ref

_COMPARE_OBJ = re.compile(r"\b(?:outperform\w*|surpass\w*|beat\w*|exceed\w*|than|compared\s+(?:to|with)|"
                          r"versus|vs\.?|over|against|unlike|relative\s+to|rival\w*|match\w*|"
                          r"using|with|on|based\s+on|via|from|including|fine-?tun\w*|train\w*|applied\s+to|"
                          r"applying)\s+(?:[\w\-]+\s+){0,4}?(?:[\w\-]+,\s+)?$", re.I)
_BASELINE_CUE = re.compile(r"\b(?:compared\s+(?:to|with)|versus|vs\.?|than|relative\s+to|in\s+contrast\s+to|"
                           r"while|whereas)\b", re.I)
_OWN = re.compile(r"\b(?:we|our|ours|the\s+proposed|this\s+(?:method|approach|model|framework|system|work))\b", re.I)
_CONTINUES = re.compile(r"^\W*(?:it|this|these|there|here|moreover|furthermore|additionally|in\s+addition|"
                        r"first|second|third|then|next|finally|"
                        r"also|notably|specifically|in\s+particular|on\s+(?:this|that|the\s+same|it)|"
                        r"our\s+\w+|the\s+(?:method|model|approach))\b", re.I)
_JOINT = re.compile(r"\b(?:on\s+average|averaged|averages?\s+(?:across|over)|(?:across|over)\s+(?:all|the|\d+|"
                    r"[a-z]+)\s+(?:\w+\s+)?(?:datasets|benchmarks|tasks|domains|languages|environments|suites))\b",
                    re.I)
_OUR_DATA = re.compile(r"\b(?:our|this|the\s+proposed|the\s+new)\s+(?:benchmark|dataset|corpus|suite|"
                       r"collection|testbed)\b", re.I)
_NOBODY_AFTER = re.compile(r"\s*(?:\\?%|×|x|points?)?\s*(?:\)\s*)?(?:for|by|of|from)\s+(?:the\s+)?"
                           r"(?:\w+\s+)?(?:baselines?|humans?|human\s+\w+|annotators?|experts?|"
                           r"prior|previous|existing|original|vanilla|standard|random|chance)\b", re.I)
_SYSTEM_PROPERTY = re.compile(r"\s*(?:\\?%\s*)?(?:[A-Za-z][\w\-]*\s+)?(?:parameters|params|layers|experts)\b", re.I)


# ---------------------------------------------------------------------------------------
# dataset rules: (name, example, rule) - a rule returns a Ref, None (decided: no dataset)
# or ... (does not apply)
# ---------------------------------------------------------------------------------------
Rule = Callable[[_Doc, _Num], Any]
_SKIP = ...


def _property_after(doc: _Doc, n: _Num) -> bool:
    """The number is a system's size or rate: "32B parameters", "100 Hz"."""
    last = doc.groups[n.i][-1]
    return bool(re.search(r"(?:Hz|fps)\W*$", doc.text[n.start:n.end])
                or _SYSTEM_PROPERTY.match(doc.text[last.end:last.end + 40]))


def _ds_property(doc: _Doc, n: _Num) -> Any:
    return None if _property_after(doc, n) else _SKIP


_SIZE_TEXT = re.compile(r"\d\s*(?:[BMK]|billion|million)[\s$}]*$")
_MODEL_AFTER = re.compile(r"(?:-|\s+)(?:(?:param(?:eter)?s?\b(?:\s+|-)?)?(?:[A-Za-z][\w\-.]*\s+){0,2}?"
                          r"(?:models?|students?|teachers?|LLMs?|LMs?|VLMs?|backbones?|variants?|versions?|"
                          r"checkpoints?|networks?|transformers?|architectures?|policy|policies|decoders?|"
                          r"encoders?|MoEs?)\b|param(?:eter)?s?\b)", re.I)


def _model_size(doc: _Doc, n: _Num) -> tuple[int, int] | None:
    """The span after a number that makes it a model's size ("7B student", "130M-parameter
    Hydra architecture"), or None."""
    if not _SIZE_TEXT.search(doc.text[n.start:n.end]):
        return None
    m = _MODEL_AFTER.match(doc.text, n.end)
    return (m.start(), m.end()) if m else None


def _ds_model_size(doc: _Doc, n: _Num) -> Any:
    return None if _model_size(doc, n) else _SKIP


def _me_model_size(doc: _Doc, n: _Num) -> Any:
    """"the 350M-parameter Hydra architecture": the size of the model named with it."""
    span = _model_size(doc, n)
    if span is None:
        return _SKIP
    named = [o for o in _systems(doc, n) if span[0] <= o.start < span[1]]
    return _ref(named[0]) if named else _SKIP


_TIME_TEXT = re.compile(r"\d\s*(?:h|hrs?|hours?|min|mins|minutes|days?|GPU[- ]hours)[\s$}]*$", re.I)
_TRAIN_VERB = re.compile(r"\b(?:(?:pre-?)?train\w*|fine-?tun\w*|distill\w*)\b", re.I)
_GAIN_VERB = re.compile(r"\b(?:reduc\w*|cut\w*|sav\w*|shorten\w*|faster|speed\w*|accelerat\w*|achiev\w*|"
                        r"outperform\w*|improv\w*)\b", re.I)


def _training_cost(doc: _Doc, n: _Num) -> bool:
    """"pretrained in 166 hours on a single H100": training cost, a setting of no dataset or system."""
    before = doc.text[doc.sentence(n)[0]:n.start]
    return bool(_TIME_TEXT.search(doc.text[n.start:n.end]) and _TRAIN_VERB.search(before)
                and not _GAIN_VERB.search(before))


def _ds_training_cost(doc: _Doc, n: _Num) -> Any:
    return None if _training_cost(doc, n) else _SKIP


def _me_training_cost(doc: _Doc, n: _Num) -> Any:
    return None if _training_cost(doc, n) else _SKIP


def _ds_respectively(doc: _Doc, n: _Num) -> Any:
    hit = _pair(doc, n, doc.evaluation_datasets(n))
    return _ref(hit) if hit is not None else _SKIP


def _ds_on_after(doc: _Doc, n: _Num) -> Any:
    s, e = doc.segment_after(n)
    cands = [o for o in doc.evaluation_datasets(n) if s <= o.start < e]
    if not cands:
        return _SKIP
    run = next(r for r in doc.runs(doc.evaluation_datasets(n)) if cands[0] in r)
    return None if len(run) > 1 else _ref(cands[0])


def _ds_joint(doc: _Doc, n: _Num) -> Any:
    s, e = doc.segment_before(n)[0], doc.segment_after(n)[1]
    return None if _JOINT.search(doc.text[s:e]) else _SKIP


def _ds_on_before(doc: _Doc, n: _Num) -> Any:
    s, e = doc.segment_before(n)
    cands = [o for o in doc.evaluation_datasets(n) if s <= o.start < e]
    if not cands:
        return _SKIP
    run = next(r for r in doc.runs(doc.evaluation_datasets(n)) if cands[-1] in r)
    return None if len(run) > 1 else _ref(cands[-1])


def _ds_one_in_sentence(doc: _Doc, n: _Num) -> Any:
    ds = doc.in_sentence(n, "dataset")
    if not ds:
        return _SKIP
    evals = doc.evaluation_datasets(n)
    names = {o.text.lower() for o in evals}
    return _ref(evals[0]) if len(names) == 1 else None


def _ds_our_benchmark(doc: _Doc, n: _Num) -> Any:
    s, e = doc.sentence(n)
    if len(doc.introduced) == 1 and _OUR_DATA.search(doc.text[s:e]):
        return _first(doc, doc.introduced[0])
    return _SKIP


def _ds_previous_sentence(doc: _Doc, n: _Num) -> Any:
    s, e = doc.sentence(n)
    if n.sent == 0 or not _CONTINUES.match(doc.text[s:e]):
        return _SKIP
    prev = [o for o in doc.occ if o.sent == n.sent - 1 and o.role == "dataset" and not doc.training_use(o)]
    return _ref(prev[0]) if len({o.text.lower() for o in prev}) == 1 else _SKIP


_EVALUATED = re.compile(r"\b(?:models|LLMs|MLLMs|VLMs|agents|systems|baselines|methods)\b")


def _ds_introduced(doc: _Doc, n: _Num) -> Any:
    s, e = doc.sentence(n)
    evaluated = doc.in_sentence(n, "system") or _EVALUATED.search(doc.text[s:e])
    if len(doc.introduced) == 1 and n.kind != "setting" and evaluated:
        return _first(doc, doc.introduced[0])
    return _SKIP


def _first(doc: _Doc, name: str) -> Ref | None:
    o = next((o for o in doc.occ if o.text == name), None)
    return _ref(o) if o else None


DATASET_RULES: tuple[tuple[str, str, Rule], ...] = (
    ("system-property", "a 32B-parameter model: Qwen uses 32B parameters on MMLU", _ds_property),
    ("model-size", "distils into a 7B student on AIME-25", _ds_model_size),
    ("training-cost", "We pretrain FooNet on ImageNet for 166 hours", _ds_training_cost),
    ("respectively", "2.1% and 3.4% on CUB and Cars, respectively", _ds_respectively),
    ("joint", "improves by 4.1% on average across the three benchmarks", _ds_joint),
    ("on-after", "reaches 91.2% top-1 accuracy on ImageNet", _ds_on_after),
    ("on-before", "On ImageNet, FooNet reaches 91.2% accuracy", _ds_on_before),
    ("one-in-sentence", "We evaluate FooNet on Synapse; it attains a Dice of 0.81", _ds_one_in_sentence),
    ("our-benchmark", "We release BarBench. Models score below 60% on our benchmark", _ds_our_benchmark),
    ("previous-sentence", "We test on ALFWorld. It improves success by 12 points", _ds_previous_sentence),
    ("introduced-benchmark", "We present BarBench. ... GPT-4o reaches only 41%", _ds_introduced),
)


# ---------------------------------------------------------------------------------------
# method rules
# ---------------------------------------------------------------------------------------
def _systems(doc: _Doc, n: _Num) -> list[_Occ]:
    return doc.in_sentence(n, ("method", "system"))


def _me_from_to(doc: _Doc, n: _Num) -> Any:
    """"improves GPT-4o's success rate from 31.2% to 58.7%": the 'from' value is the possessor's."""
    s = doc.sentence(n)[0]
    before = doc.text[max(s, n.start - 12):n.start]
    if not re.search(r"\bfrom\s*\$?$", before):
        return _SKIP
    if not any(m.start > n.end and m.sent == n.sent and re.fullmatch(
            r"\s*(?:\\?%|×|x)?\s*to\s*\$?\s*", doc.text[n.end:m.start]) for m in doc.nums):
        return _SKIP
    owners = [o for o in _systems(doc, n) if o.end <= n.start and (
        re.match(r"(?:'s|’s)\b", doc.text[o.end:o.end + 3])
        or re.search(r"\bof\s+(?:the\s+)?$", doc.text[max(0, o.start - 8):o.start])
        and re.fullmatch(r"\s*from\s*\$?\s*", doc.text[o.end:n.start]))]
    return _ref(owners[-1]) if owners else None      # unnamed: the value before the method


def _me_nobody(doc: _Doc, n: _Num) -> Any:
    """"73% for the baseline", "92.5% for human annotators": no named system."""
    return None if _NOBODY_AFTER.match(doc.text[doc.groups[n.i][-1].end:doc.groups[n.i][-1].end + 60]) else _SKIP


def _me_possessive(doc: _Doc, n: _Num) -> Any:
    """"outperforming the best prior model's 27.6%": the possessor's value (a system, or none)."""
    m = re.search(r"([\w.\-]+)['’]s?\s+\$?$", doc.text[max(0, n.start - 60):n.start])
    if not m or not re.search(r"['’]", m.group(0)):
        return _SKIP
    pos = n.start - len(m.group(0))
    owner = next((o for o in _systems(doc, n) if o.start <= pos < o.end or o.end == pos), None)
    return _ref(owner) if owner else None


def _me_for_system(doc: _Doc, n: _Num) -> Any:
    """"58.1% for GPT-4o", "(GPT-4o: 58.1%)", "GPT-4o (58.1%)": a system named right at the number."""
    end = doc.groups[n.i][-1].end
    for o in _systems(doc, n):
        gap_after = doc.text[end:o.start] if o.start >= end else None
        if gap_after is not None and re.fullmatch(r"\s*(?:\\?%|×|x)?\s*(?:for|by|of|with)\s+(?:the\s+)?", gap_after):
            return _ref(o)
        gap_before = doc.text[o.end:n.start] if o.end <= n.start else None
        if gap_before is not None and re.fullmatch(r"\s*(?:\(|:|\(\s*\w+\s*[:=]?)\s*\$?\s*", gap_before):
            return _ref(o)
    return _SKIP


def _me_baseline_segment(doc: _Doc, n: _Num) -> Any:
    """"91% compared to 73% for the baseline": a value after a comparison cue is the compared one's."""
    s, e = doc.segment_before(n)
    seg = doc.text[s:e]
    cue = None
    for cue in _BASELINE_CUE.finditer(seg):
        pass
    quantifier = cue is not None and re.search(r"\b(?:less|more|fewer|greater|lower|higher|better|worse)\s+than$",
                                                 seg[:cue.end()]) and not seg[cue.end():].strip(" $~")
    if cue is None or quantifier or re.search(r"\b(?:by|and|of\s+up\s+to)\b|,", seg[cue.end():]) or \
            not re.search(r"\d", doc.text[doc.sentence(n)[0]:s] or "x"):
        return _SKIP
    named = [o for o in _systems(doc, n) if s + cue.end() <= o.start < e]
    return _ref(named[-1]) if named else None


def _me_subject(doc: _Doc, n: _Num) -> Any:
    """"FooNet achieves 91.2%", "Llama3-8B outperforms PromptRank by 9.4%": the nearest system
    before the number that is not compared to, used or trained on."""
    if n.kind == "setting":
        return _SKIP
    s = doc.sentence(n)[0]
    breaks = list(CLAUSE_BREAK.finditer(doc.text[s:n.start]))
    if breaks:
        s += breaks[-1].end()
    systems = [o for o in _systems(doc, n) if s <= o.start and o.end <= n.start]
    runs = doc.runs(systems)
    for k in range(len(runs) - 1, -1, -1):
        run = runs[k]
        if k > 0 and (re.match(r"(?:'s|’s)\b", doc.text[run[-1].end:run[-1].end + 3])
                      or re.search(r"\bof\s+(?:the\s+)?$", doc.text[s:run[0].start])):
            continue                # "FooNet improves GPT-4o's success rate", "the rate of GPT-4o": objects
        lead = doc.text[s:run[0].start]
        if _COMPARE_OBJ.search(lead) and not re.search(r"^\W*$", lead):
            continue
        if run[-1].role == "system" and _OWN.search(doc.text[run[-1].end:n.start]):
            break                   # "Compared with GPT-4o, our method ...": the paper's own
        if len(run) > 1:
            return None             # "AceGPT and Jais reach 60%": stated jointly for several
        return _ref(run[0])
    return _SKIP


_PEOPLE = (r"annotators|raters|evaluators|experts|participants|subjects|judges|players|users|workers|"
           r"crowd-?workers|labell?ers|graders|doctors|clinicians|radiologists|physicians|pathologists|"
           r"students|novices|people|humans")
_NOBODY_SUBJECT = re.compile(rf"\b(?:(?:(?:human|expert|professional|non-expert|average|skilled|novice|trained)"
                             rf"\s+)?(?:{_PEOPLE})|human|random(?:\s+|-)(?:guessing|chance|selection|baseline|"
                             rf"policy|guess)|chance(?:\s+level)?)\b", re.I)
# The subject's verb, right after it: "Human annotators reach 92.5%", "random guessing scores 0.50".
_SUBJECT_VERB = re.compile(r"\s+(?:(?:only|also|still|typically|on\s+average)\s+)?(?:reach|achiev|scor|attain|"
                           r"obtain|get|perform|answer|solv|agree|averag|rate|identif|succeed|yield)\w*\b[^.;]{0,40}$",
                           re.I)


def _me_nobody_subject(doc: _Doc, n: _Num) -> Any:
    """"Human annotators reach 92.5%", "random guessing scores 0.50": a person or chance is the
    subject of the clause (no system named before it or between it and the number)."""
    if n.kind == "setting":
        return _SKIP
    s, start = doc.segment_before(n)
    hits = [m for m in _NOBODY_SUBJECT.finditer(doc.text, s, start)
            if _SUBJECT_VERB.match(doc.text[m.end():start])]
    if not hits:
        return _SKIP
    m = hits[-1]
    if any(s <= o.start < start for o in _systems(doc, n)) or _COMPARE_OBJ.search(doc.text[s:m.start()]) \
            or re.search(r"\b(?:than|to|of|with|over|against|versus|vs\.?|near|at|above|below)\s+(?:the\s+)?$",
                          doc.text[s:m.start()], re.I):
        return _SKIP
    return None


def _me_own(doc: _Doc, n: _Num) -> Any:
    if n.kind == "setting":
        return _SKIP
    return _first(doc, doc.main) or "" if doc.main else ""


def _me_setting(doc: _Doc, n: _Num) -> Any:
    return None


def _me_setting_property(doc: _Doc, n: _Num) -> Any:
    """"PALO ... three scales (1.7B, 7B and 13B parameters)": a named system's own size or rate."""
    if n.kind != "setting" or not doc.main:
        return _SKIP
    if _property_after(doc, n):
        named = [o for o in doc.in_sentence(n, ("method", "system")) if o.text != doc.main]
        if not named:
            return _first(doc, doc.main)
    return _SKIP


METHOD_RULES: tuple[tuple[str, str, Rule], ...] = (
    ("from-to", "FooNet improves GPT-4o's success rate from 31.2% to 58.7%", _me_from_to),
    ("nobody", "FooNet reaches 91% (73% for the baseline)", _me_nobody),
    ("training-cost", "Training FooNet takes 36 hours on one GPU", _me_training_cost),
    ("possessive", "FooNet reaches 38.5%, above the best prior model's 27.6%", _me_possessive),
    ("for-system", "FooNet reaches 91%, against 58.1% for GPT-4o", _me_for_system),
    ("baseline-segment", "FooNet reaches 91% compared to 73% previously", _me_baseline_segment),
    ("model-size", "the 350M-parameter FooNet architecture", _me_model_size),
    ("setting-property", "FooNet comes in three sizes (1B, 7B and 13B parameters)", _me_setting_property),
    ("nobody-subject", "Human annotators reach 92.5% on BarBench", _me_nobody_subject),
    ("subject", "Llama3-8B outperforms PromptRank by 9.4%", _me_subject),
    ("own", "our method improves accuracy by 3.2%", _me_own),
    ("setting", "the corpus has 85,229 samples", _me_setting),
)


# ---------------------------------------------------------------------------------------
# metric rules
# ---------------------------------------------------------------------------------------
def _mt_respectively(doc: _Doc, n: _Num) -> Any:
    s, e = doc.sentence(n)
    hit = _pair(doc, n, [p for p in doc.metrics if s <= p.start < e])
    return _ref(hit) if hit is not None else _SKIP


_AFTER_GAP = re.compile(r"\s*(?:\)\s*)?(?:points?\s+(?:of\s+|in\s+)?)?(?:(?:improvements?|gains?|increases?|"
                        r"reductions?|drops?|boosts?)\s+(?:in|on|of)\s+(?:the\s+)?)?(?:higher\s+|lower\s+|"
                        r"better\s+|absolute\s+|relative\s+)?")


def _mt_after(doc: _Doc, n: _Num) -> Any:
    """"91.2% top-1 accuracy", "10-15% improvements in multilingual performance"."""
    end = doc.groups[n.i][-1].end
    for p in doc.metrics:
        if p.start >= end and _AFTER_GAP.fullmatch(doc.text[end:p.start]):
            return _ref(p)
    return _SKIP


def _mt_before(doc: _Doc, n: _Num) -> Any:
    s = doc.segment_before(n)[0]
    start = doc.groups[n.i][0].start
    for p in reversed([p for p in doc.metrics if s <= p.start and p.end <= start]):
        gap = doc.text[p.end:start]
        if re.fullmatch(r"\s*(?:\)\s*)?(?:[—–]\s*)?(?:scores?\s+)?"
                        r"(?:of|=|:|is|was|at|reaches|reached|to|by|\(|\(\s*\w+\s*)?"
                        r"\s*(?:up\s+to|over|about|nearly|around|only|just|approximately|roughly|"
                        r"more\s+than|less\s+than|almost)?\s*\$?\s*(?:\\sim\s*|~\s*|\+\s*)?", gap):
            return _ref(p)
    return _SKIP


_COUNT_HEADS = {"number", "amount", "fraction", "share", "proportion", "percentage", "size", "count", "level"}
_VERB_NP_BY = re.compile(r"\b(?:improv\w*|boost\w*|increas\w*|reduc\w*|rais\w*|lower\w*|cut\w*|decreas\w*|"
                         r"enhanc\w*|elevat\w*|lift\w*|accelerat\w*|speeds?\s+up)\s+(?:the\s+|its\s+|their\s+)?"
                         r"((?:[\w\-@]+\s+){0,5}?[\w\-@]+)\s+(?:by|of)\s+(?:up\s+to\s+|over\s+|about\s+|nearly\s+|"
                         r"an\s+average\s+of\s+|a\s+factor\s+of\s+)?\$?\s*$", re.I)


def _mt_verb_np(doc: _Doc, n: _Num) -> Any:
    """"improves task performance by 41%": the measure is the improved noun phrase."""
    s = doc.segment_before(n)[0]
    start = doc.groups[n.i][0].start
    m = _VERB_NP_BY.search(doc.text[s:start])
    if not m:
        return _SKIP
    ps, pe = s + m.start(1), s + m.end(1)
    inside = [p for p in doc.metrics if ps <= p.start and p.end <= pe]
    if inside:
        return _ref(inside[0])
    cut = re.split(r"\s+(?:in|of|for|on|across|over|when|while|with|at)\s+", doc.text[ps:pe], maxsplit=1)[0]
    if cut.lower() in _COUNT_HEADS:
        cut = " ".join(doc.text[ps:pe].split()[:5])        # "the number of passages read"
    if re.match(r"(?:upon|over|on|by|to|from|with|against|the\s+(?:current|previous|prior))\b", cut, re.I) or \
            re.search(r"\b(?:SOTA|state-of-the-art|baselines?)\b", cut, re.I):
        return _SKIP
    return Ref(cut, ps, ps + len(cut)) if len(cut.split()) <= 4 else _SKIP


_COUNT_NOUN = re.compile(r"\s*(?:\\?%\s*of\s+(?:the\s+)?|\+?\s*)((?:[A-Za-z][\w\-]*\s+){0,3}?[A-Za-z][\w\-]*s)\b")
_STOPS = {"that", "which", "from", "in", "on", "of", "for", "with", "and", "to", "across", "over", "by",
          "at", "than", "out", "per", "is", "are", "was", "were", "while", "whereas", "as", "into",
          "versus", "vs", "respectively", "compared", "relative"}


def _mt_count_noun(doc: _Doc, n: _Num) -> Any:
    """"12 real-world tasks", "54 English and Chinese datasets", "33% of curated data": what a
    count or a share counts - the words after it up to their last plural noun (a share: up to
    the clause's first stop word)."""
    end = doc.groups[n.i][-1].end
    share = doc.text[n.start:n.end].rstrip("$").endswith("%")
    if not share and not re.search(r"\d\s*[KMBTk]?\+?\$?$", doc.text[n.start:n.end]):
        return _SKIP                # 30s, 5 ms, 3x: a measured quantity, not a count
    m = re.match(r"\s*of\s+(?:the\s+)?" if share else r"\s*\+?\s*", doc.text[end:end + 8])
    if m is None:
        return _SKIP                # "15% improvements": a share only counts with "of"
    pos = end + m.end()
    words = [w for w in re.finditer(r"[A-Za-z][\w\-]*", doc.text[pos:pos + 80])][:6]
    keep = []
    for w in words:
        gap = doc.text[pos + (keep[-1].end() if keep else 0):pos + w.start()]
        if not keep and not re.fullmatch(r"\s*", gap):
            break                   # "0.998, twelve model pairs": a new phrase, not what is counted
        word = w.group(0).lower()
        if word in _STOPS and (word != "and" or not keep) or not re.fullmatch(r"\s*|,\s*", gap) or \
                keep and (word in _MODALS or word.endswith("ing")):
            break
        keep.append(w)
    while keep and keep[-1].group(0).lower() == "and":
        keep.pop()
    plural = [i for i, w in enumerate(keep) if w.group(0).endswith("s") and len(w.group(0)) > 3
              and w.group(0).lower() not in _NOT_PLURAL]
    if plural:
        keep = keep[:plural[0] + 1]
    elif not (share and m.end() > 0 and "of" in doc.text[end:pos]):
        return _SKIP
    if not keep or any(w.group(0).lower() == "and" for w in keep) and not plural:
        return _SKIP
    s, e = pos + keep[0].start(), pos + keep[-1].end()
    if keep[-1].group(0).lower() in _UNIT_NOUNS:
        return _SKIP                # "2.1 points", "3 percentage points": a unit, not a measure
    if n.kind != "setting" and not HEADS.search(doc.text[s:e]) and (
            keep[-1].group(0).lower() in _INSTANCE_NOUNS
            or _EVENT_SHARE_BEFORE.search(doc.text[doc.sentence(n)[0]:doc.groups[n.i][0].start])):
        return _SKIP                # "in 32% of trials", "saving 8% of training tokens": how often or
    return Ref(doc.text[s:e], s, e)  # how much, not what the result measures


# Nouns of occasions a result is counted over ("in 45% of cases"), never what it measures.
_INSTANCE_NOUNS = {"cases", "trials", "pairs", "instances", "runs", "episodes", "attempts", "seeds",
                   "scenarios", "tokens", "times", "occasions", "iterations", "steps"}
_EVENT_SHARE_BEFORE = re.compile(r"(?:\b(?:in|on)|\b(?:sav|reduc|cut|trim|remov|eliminat)\w*)\s+(?:only\s+|about\s+|"
                                 r"over\s+|nearly\s+|around\s+|up\s+to\s+|just\s+|roughly\s+)?"
                                 r"[\s$~{}]*(?:\\sim|\{\\sim\})?[\s$~{}]*$", re.I)


_UNIT_NOUNS = {"points", "point", "pp", "percent", "percentage", "times", "fold"}


_MODALS = {"can", "could", "will", "would", "may", "might", "must", "should", "shall", "compared"}
_NOT_PLURAL = {"this", "thus", "across", "less", "process", "analysis", "basis", "various", "previous",
               "its", "has", "was", "does", "is", "as", "us", "plus", "versus", "whereas"}


def _mt_nearest(doc: _Doc, n: _Num) -> Any:
    """The nearest specific metric phrase in the number's own segment of the sentence (results
    only: a setting such as d=35 next to "speedup" does not measure it)."""
    if n.kind == "setting":
        return _SKIP
    s, _ = doc.segment_before(n)
    _, e = doc.segment_after(n)
    cands = [p for p in doc.metrics if s <= p.start and p.end <= e and not is_generic(p)]
    if not cands:
        return _SKIP
    return _ref(min(cands, key=lambda p: min(abs(p.start - n.end), abs(n.start - p.end))))


METRIC_RULES: tuple[tuple[str, str, Rule], ...] = (
    ("respectively", "mAP, AP50 and mIoU improve by 4.8%, 5.4% and 3.9%, respectively", _mt_respectively),
    ("after", "reaches 91.2% top-1 accuracy", _mt_after),
    ("before", "with a Dice of 0.81", _mt_before),
    ("verb-np", "improves explanation faithfulness by 10%", _mt_verb_np),
    ("count-noun", "on 12 real-world tasks", _mt_count_noun),
    ("nearest", "the success rate rises, up to 92% on hard tasks", _mt_nearest),
)
