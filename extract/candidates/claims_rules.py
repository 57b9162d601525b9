"""The claims rule tables for datasets and methods, each rule with one example (the metric table
is in :mod:`.claim_metric_rules`).

A rule takes the document and a number and returns a decision - a :class:`Ref`, ``""`` (the
paper's own unnamed approach, methods only) or None (decided: nothing) - or ``_SKIP`` when it
does not apply; the first rule of a table that applies decides.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from ..text.lexicon import OWN_VOICE
from .claims_doc import Ref, _Doc, _Num, _Occ, _pair, _ref, per_group

Rule = Callable[[_Doc, _Num], Any]
_SKIP = ...

_COMPARE_OBJ = re.compile(r"\b(?:outperform\w*|surpass\w*|than|compared\s+(?:to|with)|over|against|unlike|"
                          r"match\w*|using|with|on|via|from|including|fine-?tun\w*|train\w*|applied\s+to)"
                          r"\s+(?:[\w\-]+\s+){0,4}?(?:[\w\-]+,\s+)?$", re.I)
_BASELINE_CUE = re.compile(r"\b(?:compared\s+(?:to|with)|than|while)\b", re.I)
_OWN = re.compile(r"\b(?:we|our|the\s+proposed|this\s+(?:method|approach|model|framework|system|work))\b", re.I)
_CONTINUES = re.compile(r"^\W*(?:it|this|our\s+\w+)\b", re.I)
_RESPECTIVELY = re.compile(r"\brespectively\b", re.I)
_JOINT = re.compile(r"\b(?:on\s+average|(?:across|over)\s+(?:all|the|\d+|"
                    r"[a-z]+)\s+(?:\w+\s+)?(?:datasets|benchmarks|tasks|domains|languages|environments|suites))\b",
                    re.I)
# "this dataset", "the benchmark", "our corpus": one dataset named before (a plural - "these
# datasets" - names several; "the training data" is no evaluation dataset, "the first benchmark" no reference)
_THIS_DATA = re.compile(r"\b(?:our|this|the(?:\s+same|\s+proposed|\s+new)?)\s+"
                        r"(?!(?:pre-?)?train|(?:source|first|only|largest|biggest|most)\b)"
                        r"(?:[a-z][\w\-]*\s+)?(?:benchmark|dataset|data\s+set|corpus|suite|collection|testbed)\b", re.I)
_NOBODY_AFTER = re.compile(r"\s*(?:\\?%|×|x|points?)?\s*(?:\)\s*)?(?:for|by|from)\s+(?:the\s+)?"
                           r"(?:\w+\s+)?(?:baselines?|humans?|human\s+\w+|annotators?|experts?|"
                           r"prior|previous|existing|original|vanilla|standard|random|chance)\b", re.I)
_SYSTEM_PROPERTY = re.compile(r"\s*(?:\\?%\s*)?(?:[A-Za-z][\w\-]*\s+)?(?:parameters|layers)\b", re.I)
_TIME_TEXT = re.compile(r"\d\s*(?:h|hours?|min|minutes|days?)[\s$}]*$", re.I)
_TRAIN_VERB = re.compile(r"\b(?:(?:pre-?)?train\w*|fine-?tun\w*)\b", re.I)
_GAIN_VERB = re.compile(r"\b(?:reduc\w*|achiev\w*|improv\w*)\b", re.I)
_NEXT_CLAUSE = re.compile(r"\s*,?\s*(?:and|but)\s+(?:[a-z]+\s+){0,2}?(?:on|for|in)\s+(?:the\s+)?")
_SYSTEMS_COUNTED = re.compile(r"\s+(?:[\w\-]+\s+){0,3}?(?:models|methods|baselines|systems)\b")
_EVALUATED = re.compile(r"\b(?:models|systems|baselines|methods)\b")
# A count of things ("10,000 expert demonstrations", "22M questions", "400 thousand images")
_COUNT_TEXT = re.compile(r"\d\s*(?:[KMBk]|thousand|million|billion)?\+?[\s$}]*$")
_THINGS_AFTER = re.compile(r"\+?\s+(?:[A-Za-z][\w\-]*\s+){0,3}?[A-Za-z][\w\-]*[a-z]s\b")
_NAME_SHAPE = re.compile(r"\d|[A-Z]\S*[A-Z]")
_EVAL_BEFORE = re.compile(r"\b(?:on|evaluat\w*|experiments?|benchmarks?)\s+(?:the\s+)?"
                          r"(?:[\w\-]+\s+){0,3}?$", re.I)
# Between two numbers of one item: measures and coordination, no verb, place or parenthesis closed
_NOT_ITEM_GAP = re.compile(r"^[^(]*\)|\b(?:on|in|for|at|achiev\w*|obtain\w*|reach\w*|improv\w*|outperform\w*|"
                           r"reduc\w*|yield\w*|attain\w*|gain\w*|show\w*|while|whereas|but)\b", re.I)
_ITEM_END = re.compile(r",|\band\b")
_ON_D = re.compile(r"\s*(?:[^\s.;]+\s+){0,4}?(?:on|in|for)\s+(?:the\s+)?", re.I)
_ANAPHOR = re.compile(r"\b(?:there|on\s+(?:it|both|them|each|all\s+of\s+them))\b", re.I)
_TO_GAP = re.compile(r"\s*(?:\\?%|×|x)?\s*to\s*\$?\s*")
_NOT_TO_GAP = re.compile(r"[^\s%\\×xto$]")
_DIGIT = re.compile(r"\d")
_OF_END = re.compile(r"\bof\s+(?:the\s+)?$")
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


def _first(doc: _Doc, name: str) -> Ref | None:
    o = doc.firsts.get(name)
    return _ref(o) if o else None


def _systems(doc: _Doc, n: _Num) -> list[_Occ]:
    return doc.in_sentence(n, ("method", "system"))


def _property_after(doc: _Doc, n: _Num) -> bool:
    """The number is a system's size or rate: "32B parameters", "100 Hz"."""
    last = doc.groups[n.i][-1]
    return bool(re.search(r"(?:Hz|fps)\W*$", doc.text[n.start:n.end])
                or _SYSTEM_PROPERTY.match(doc.text[last.end:last.end + 40]))


# -- dataset rules
def _ds_property(doc: _Doc, n: _Num) -> Any:
    return None if _property_after(doc, n) else _SKIP


def _no_training_cost(doc: _Doc, n: _Num) -> Any:
    """"pretrained in 166 hours on a single H100": training cost, a setting of no dataset or system."""
    s = doc.sentence(n)[0]
    cost = _TIME_TEXT.search(doc.text, n.start, n.end) and _TRAIN_VERB.search(doc.text, s, n.start) \
        and not _GAIN_VERB.search(doc.text, s, n.start)
    return None if cost else _SKIP


def _ds_respectively(doc: _Doc, n: _Num) -> Any:
    return _pair(doc, n, doc.evaluation_datasets(n)) or _SKIP


def _ds_respectively_before(doc: _Doc, n: _Num) -> Any:
    """"on three datasets: A, B and C. ... gains of 12.1, 6.5 and 2.9 points, respectively": a
    respectively list whose sentence names no dataset pairs with the run of its length the
    sentence before names (the guideline's coordinated lists, and its dataset that "follows the
    meaning, not the sentence"; not one of the checks' sure readings: "On one-stage and two-stage
    detectors, ... 5.1% and 3.8%, respectively" pairs with the detectors)."""
    if n.sent == 0 or doc.evaluation_datasets(n) or not doc.sentence_has(_RESPECTIVELY, n):
        return _SKIP
    return _pair(doc, n, doc.sentence_evals(n.sent - 1)) or _SKIP


def _ds_on_after(doc: _Doc, n: _Num) -> Any:
    s, e = doc.segment_after(n)
    evals = doc.evaluation_datasets(n)
    cands = doc.between(evals, s, e)
    if not cands:
        return _SKIP
    k = doc.groups[n.i][-1].i + 1             # the number after n's group, in its sentence
    nxt = doc.nums[k] if k < len(doc.nums) and doc.nums[k].sent == n.sent else None
    if nxt is not None and e == nxt.start and _NEXT_CLAUSE.fullmatch(doc.text, s, cands[0].start):
        return _SKIP                # "on A from x to y and on B from u to v": B is the next numbers'
    if "," in doc.text[s:cands[0].start] and doc.between(evals, *doc.segment_before(n)):
        return _SKIP                # "BLEU-4 on A reaches 17.52, the BLEU-4 on B ...": A, before it
    return None if len(doc.run_of(evals, cands[0])) > 1 else _ref(cands[0])


def _ds_joint(doc: _Doc, n: _Num) -> Any:
    """"gains 4.1% on average across three benchmarks": a result stated jointly over several (a
    count "on KITTI over 4 tasks", "It spans 9 domains" describes the one dataset that spans them,
    unless the datasets follow it)."""
    if n.kind == "setting" and not doc.between(doc.evaluation_datasets(n), n.end, doc.sentence(n)[1]):
        return _SKIP
    joint = doc.memo(("joint", doc.groups[n.i][0].i),          # the same for every number of n's group
                     lambda: _JOINT.search(doc.text, doc.segment_before(n)[0], doc.segment_after(n)[1]))
    return None if joint is not None else _SKIP


def _ds_item_after(doc: _Doc, n: _Num) -> Any:
    """"37.8% MRR, 28.6% Hits@1 on FB15k-237", "81.43% compared with 80.47% on CULane": the next
    number's "on D" ends n's item too, when only measures lie between them and a dataset before
    n, if any, closed an earlier item ("on WN18RR, 37.8% ...")."""
    evals = doc.evaluation_datasets(n)
    s, e = doc.segment_after(n)
    k = doc.groups[n.i][-1].i + 1
    if n.kind != "result" or not evals or k >= len(doc.nums) or doc.nums[k].start != e or e - s > 80 \
            or _NOT_ITEM_GAP.search(doc.text[s:e]) or doc.between(evals, s, e):
        return _SKIP
    before = doc.between(evals, *doc.segment_before(n))
    if before and not _ITEM_END.search(doc.text, before[-1].end, doc.groups[n.i][0].start):
        return _SKIP
    ms, me = doc.segment_after(doc.nums[k])
    cands = doc.between(evals, ms, me)
    if not cands or not _ON_D.fullmatch(doc.text, ms, cands[0].start) or len(doc.run_of(evals, cands[0])) > 1:
        return _SKIP
    return _ref(cands[0])


def _ds_on_before(doc: _Doc, n: _Num) -> Any:
    evals = doc.evaluation_datasets(n)
    cands = doc.between(evals, *doc.segment_before(n))
    if not cands:
        return _SKIP
    return None if len(doc.run_of(evals, cands[-1])) > 1 else _ref(cands[-1])


def _ds_one_in_sentence(doc: _Doc, n: _Num) -> Any:
    if not doc.in_sentence(n, "dataset"):
        return _SKIP
    evals = doc.evaluation_datasets(n)
    names = doc.memo(("names", id(evals)), lambda: (evals, {o.name.lower() for o in evals}))[1]
    return _ref(evals[0]) if len(names) == 1 else None


def _ds_anaphor(doc: _Doc, n: _Num) -> Any:
    """"We evaluate on CUB-200. On this dataset, FooNet reaches 91%": the dataset a sentence refers
    back to is the one the paper introduces, else the last one named before it."""
    if not doc.sentence_has(_THIS_DATA, n) or n.kind == "setting" and _SYSTEMS_COUNTED.match(doc.text, n.end):
        return _SKIP                # "against 19 tracking methods": a count of systems, not of the data
    # the datasets named before n's sentence that are not data a system is trained on
    evals = doc.memo("evals-all", lambda: [o for o in doc.occ if o.role == "dataset" and not doc.training_use(o)])
    before = doc.between(evals, 0, doc.sentence(n)[0])
    intro = [o for o in before if o.name in doc.introduced]
    if len(doc.introduced) == 1 and intro:
        return _ref(intro[0])
    return _ref(before[-1]) if before else _SKIP


def _ds_previous_sentence(doc: _Doc, n: _Num) -> Any:
    s, e = doc.sentence(n)
    if n.sent == 0 or not _CONTINUES.match(doc.text[s:e]):
        return _SKIP
    prev = doc.sentence_evals(n.sent - 1)
    return _ref(prev[0]) if len({o.name.lower() for o in prev}) == 1 else _SKIP


def _ds_introduced(doc: _Doc, n: _Num) -> Any:
    """"We present BarBench. ... GPT-4o reaches only 41%": a result of the systems the paper
    evaluates, or a count of things after the benchmark is introduced ("It covers 1,200 tasks"),
    is on (or describes) the one benchmark the paper introduces."""
    if len(doc.introduced) != 1:
        return _SKIP
    first = _first(doc, doc.introduced[0])
    if n.kind != "setting":
        return first if doc.in_sentence(n, "system") or doc.sentence_has(_EVALUATED, n) else _SKIP
    if first is None or first.start > n.start or not _COUNT_TEXT.search(doc.text, n.start, n.end) or \
            not _THINGS_AFTER.match(doc.text, n.end) or _SYSTEMS_COUNTED.match(doc.text, n.end):
        return _SKIP
    return first


def _ds_discourse(doc: _Doc, n: _Num) -> Any:
    """"We evaluate on ALFWorld. ... FooNet reaches 61%": a result whose sentence names no dataset
    is reported on the one dataset the abstract evaluates on before it."""
    if n.kind == "setting" or doc.in_sentence(n, "dataset") or doc.sentence_has(_ANAPHOR, n):
        return _SKIP                # "reaches 40.1% there", "on both": the guideline names none
    names, last, evaluated = _evals_by_sentence(doc)[n.sent]
    if names != 1 or not _NAME_SHAPE.search(last.name) or not evaluated:
        return _SKIP                # one dataset, name-shaped (ALFWorld, MS COCO), that is evaluated on
    return _ref(last)


def _evals_by_sentence(doc: _Doc) -> list[tuple[int, _Occ | None, bool]]:
    """Per sentence, of the datasets evaluated on (not trained on) in the sentences before it:
    how many names (2 for more), the last one, whether one follows an evaluation cue; made
    in one pass over the abstract, not once per sentence."""
    def make() -> list[tuple[int, _Occ | None, bool]]:
        out, names, last, evaluated, occ = [], set(), None, False, iter(doc.occ)
        o = next(occ, None)
        for sent in range(len(doc.bounds)):
            out.append((min(len(names), 2), last, evaluated))
            while o is not None and o.sent <= sent:
                if o.role == "dataset" and not doc.training_use(o):
                    names.add(o.name.lower())
                    last = o
                    evaluated = evaluated or bool(_EVAL_BEFORE.search(doc.text, max(0, o.start - 60), o.start))
                o = next(occ, None)
        return out
    return doc.memo("evals-before", make)


DATASET_RULES: tuple[tuple[str, str, Rule], ...] = (
    ("system-property", "a 32B-parameter model: Qwen uses 32B parameters on MMLU", _ds_property),
    ("training-cost", "We pretrain FooNet on ImageNet for 166 hours", _no_training_cost),
    ("respectively", "2.1% and 3.4% on CUB and Cars, respectively", _ds_respectively),
    ("respectively-before", "We test on CUB and Cars. Gains are 2.1 and 3.4 points, respectively",
     _ds_respectively_before),
    ("joint", "improves by 4.1% on average across the three benchmarks", _ds_joint),
    ("on-after", "reaches 91.2% top-1 accuracy on ImageNet", _ds_on_after),
    ("item-after", "It gets 37.8% MRR, 28.6% Hits@1 on CUB", _ds_item_after),
    ("on-before", "On ImageNet, FooNet reaches 91.2% accuracy", _ds_on_before),
    ("one-in-sentence", "We evaluate FooNet on Synapse; it attains a Dice of 0.81", _ds_one_in_sentence),
    ("anaphor", "We release BarBench. Models score below 60% on our benchmark", _ds_anaphor),
    ("previous-sentence", "We test on ALFWorld. It improves success by 12 points", _ds_previous_sentence),
    ("introduced-benchmark", "We present BarBench. ... GPT-4o reaches only 41%", _ds_introduced),
    ("discourse", "We evaluate on ALFWorld. Across tasks, the agent solves 61% of them", _ds_discourse),
)


# -- method rules
def _to_value(doc: _Doc, n: _Num) -> bool:
    """Whether a later number of n's sentence follows it after "to" ("from 31.2% to 58.7%"):
    the numbers after n in turn, until the gap holds a character no such gap has."""
    k = n.i + 1
    while k < len(doc.nums) and doc.nums[k].sent == n.sent:
        m = doc.nums[k]
        if m.start > n.end:
            if _TO_GAP.fullmatch(doc.text, n.end, m.start):
                return True
            if _NOT_TO_GAP.search(doc.text, n.end, m.start):
                return False
        k += 1
    return False


def _me_from_to(doc: _Doc, n: _Num) -> Any:
    """"improves GPT-4o's success rate from 31.2% to 58.7%": the 'from' value is the possessor's."""
    before = doc.text[max(doc.sentence(n)[0], n.start - 12):n.start]
    if not re.search(r"\bfrom\s*\$?$", before) or not _to_value(doc, n):
        return _SKIP
    owners = [o for o in _systems(doc, n) if o.end <= n.start and (
        re.match(r"(?:'s|’s)\b", doc.text[o.end:o.end + 3])
        or _OF_END.search(doc.text[max(0, o.start - 8):o.start])
        and re.fullmatch(r"\s*from\s*\$?\s*", doc.text[o.end:n.start]))]
    return _ref(owners[-1]) if owners else None      # unnamed: the value before the method


def _me_nobody(doc: _Doc, n: _Num) -> Any:
    """"73% for the baseline", "92.5% for human annotators": no named system."""
    end = doc.groups[n.i][-1].end
    return None if _NOBODY_AFTER.match(doc.text, end, end + 60) else _SKIP


def _me_possessive(doc: _Doc, n: _Num) -> Any:
    """"outperforming the best prior model's 27.6%": the possessor's value (a system, or none)."""
    m = re.search(r"([\w.\-]+)['’]s?\s+\$?$", doc.text[max(0, n.start - 60):n.start])
    if not m or not re.search(r"['’]", m.group(0)):
        return _SKIP
    pos = n.start - len(m.group(0))
    owner = next((o for o in _systems(doc, n) if o.start <= pos < o.end or o.end == pos), None)
    return _ref(owner) if owner else None


def _me_for_system(doc: _Doc, n: _Num) -> Any:
    """"58.1% for GPT-4o", "GPT-4o (58.1%)", "GPT-4o (acc: 58.1%)": a system named right at the number."""
    end = doc.groups[n.i][-1].end
    for o in _systems(doc, n):
        if o.start >= end and re.fullmatch(r"\s*(?:\\?%|×|x)?\s*(?:for|by|of|with)\s+(?:the\s+)?", doc.text[end:o.start]) \
                or o.end <= n.start and re.fullmatch(r"\s*(?:\(|\(\s*\w+\s*[:=]?)\s*\$?\s*", doc.text[o.end:n.start]):
            return _ref(o)
    return _SKIP


@per_group
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
            not doc.occurs(_DIGIT, n, doc.sentence(n)[0], s):
        return _SKIP
    named = doc.between(_systems(doc, n), s + cue.end(), e)
    return _ref(named[-1]) if named else None


def _me_subject(doc: _Doc, n: _Num) -> Any:
    """"FooNet achieves 91.2%", "Llama3-8B outperforms PromptRank by 9.4%": the nearest system
    before the number that is not compared to, used or trained on."""
    if n.kind == "setting":
        return _SKIP
    s = doc.break_before(n, n.start)
    runs = doc.coordinated(doc.between(_systems(doc, n), s, n.start))
    for k, run in reversed(list(enumerate(runs))):       # from the last run
        lead = run[0].start          # (the patterns end the lead: searched over its last words)
        if k > 0 and (re.match(r"(?:'s|’s)\b", doc.text[run[-1].end:run[-1].end + 3])
                      or _OF_END.search(doc.text, doc.last_words(s, lead, 3), lead)):
            continue                # "FooNet improves GPT-4o's success rate", "the rate of GPT-4o": objects
        if _COMPARE_OBJ.search(doc.text, doc.last_words(s, lead, 8), lead):
            continue
        if run[-1].role == "system" and doc.occurs(_OWN, n, run[-1].end, n.start):
            break                   # "Compared with GPT-4o, our method ...": the paper's own
        return None if len(run) > 1 else _ref(run[0])       # "AceGPT and Jais reach 60%": stated jointly
    return _SKIP


def _me_nobody_subject(doc: _Doc, n: _Num) -> Any:
    """"Human annotators reach 92.5%", "random guessing scores 0.50": a person or chance is the
    subject of the clause (no system named before it or between it and the number)."""
    return _SKIP if n.kind == "setting" else _nobody_subject(doc, n)


@per_group
def _nobody_subject(doc: _Doc, n: _Num) -> Any:
    s, start = doc.segment_before(n)
    hits = [m for m in _NOBODY_SUBJECT.finditer(doc.text, s, start)
            if _SUBJECT_VERB.match(doc.text, m.end(), start)]
    if not hits or doc.between(_systems(doc, n), s, start) or _COMPARE_OBJ.search(doc.text[s:hits[-1].start()]) \
            or re.search(r"\b(?:than|to|of|with|over|against|versus|vs\.?|near|at|above|below)\s+(?:the\s+)?$",
                         doc.text[s:hits[-1].start()], re.I):
        return _SKIP
    return None


def _me_background(doc: _Doc, n: _Num) -> Any:
    """"backpropagation consumes around 70% of the training time. ... We propose FST": a number
    stated before the paper first speaks of its own work (we, our, this paper) is no result of it."""
    def first_own() -> int:
        return next((k for k, (a, b) in enumerate(doc.bounds) if OWN_VOICE.search(doc.text, a, b)), -1)
    return None if n.kind != "setting" and n.sent < doc.memo("first-own-sentence", first_own) else _SKIP


def _me_own(doc: _Doc, n: _Num) -> Any:
    return _SKIP if n.kind == "setting" else _first(doc, doc.main) or ""


def _me_setting_property(doc: _Doc, n: _Num) -> Any:
    """"PALO ... three scales (1.7B, 7B and 13B parameters)": a named system's own size or rate."""
    if n.kind != "setting" or not doc.main or not _property_after(doc, n) \
            or any(o.text != doc.main for o in _systems(doc, n)):
        return _SKIP
    return _first(doc, doc.main)


METHOD_RULES: tuple[tuple[str, str, Rule], ...] = (
    ("from-to", "FooNet improves GPT-4o's success rate from 31.2% to 58.7%", _me_from_to),
    ("nobody", "FooNet reaches 91% (73% for the baseline)", _me_nobody),
    ("training-cost", "Training FooNet takes 36 hours on one GPU", _no_training_cost),
    ("possessive", "FooNet reaches 38.5%, above the best prior model's 27.6%", _me_possessive),
    ("for-system", "FooNet reaches 91%, against 58.1% for GPT-4o", _me_for_system),
    ("baseline-segment", "FooNet reaches 91% compared to 73% previously", _me_baseline_segment),
    ("setting-property", "FooNet comes in three sizes (1B, 7B and 13B parameters)", _me_setting_property),
    ("nobody-subject", "Human annotators reach 92.5% on BarBench", _me_nobody_subject),
    ("subject", "Llama3-8B outperforms PromptRank by 9.4%", _me_subject),
    ("background", "Training consumes 70% of the time. We propose FooNet to cut it", _me_background),
    ("own", "our method improves accuracy by 3.2%", _me_own),      # a setting no rule gives a system: none
)
