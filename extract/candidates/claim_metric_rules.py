"""The claims metric rules: what each number measures, each rule with one example (the contract
of :mod:`.claims_rules`: a :class:`Ref`, None, or ``_SKIP``; the first rule that applies decides)."""

from __future__ import annotations

import re
from typing import Any

from .claim_metric import HEADS, is_generic
from .claims_doc import Ref, _Doc, _Num, _pair, _ref, per_group
from .claims_rules import _SKIP, Rule

# the comparatives that say what a change changes ("3x faster", "2x smaller"): no measure of the
# sentence is taken for the number (_mt_nearest), the measure right after them is (_AFTER_GAP)
_CHANGED = "faster|smaller|larger"
_AFTER_GAP = re.compile(r"\s*(?:\)\s*)?(?:points?\s+(?:of\s+|in\s+)?)?(?:(?:improvements?|gains?|increases?|"
                        r"reductions?|drops?|boosts?)\s+(?:in|on|of)\s+(?:the\s+)?)?(?:(?:higher|lower|"
                        r"better|absolute|relative|" + _CHANGED + r")\s+)?")
#: How far a gap _AFTER_GAP takes can reach: white space and at most 34 of the characters ) a-z.
_AFTER_REACH = re.compile(r"(?:\s*[)a-z]){0,40}\s*")
# the words that qualify a value ("by up to 12%", "approximately 38%")
_QUALIFIER = r"(?:up\s+to|over|about|nearly|around|only|just|approximately|roughly|more\s+than|less\s+than|almost)"
_BEFORE_GAP = re.compile(r"\s*(?:\)\s*)?(?:[—–]\s*)?(?:scores?\s+)?(?:of|=|:|is|was|at|reaches|reached|to|by|\(|\(\s*\w+\s*)?"
                         r"\s*" + _QUALIFIER + r"?\s*\$?\s*(?:\\sim\s*|~\s*|\+\s*)?")
_COUNT_HEADS = {"number", "amount", "fraction", "share", "proportion", "percentage", "size", "count", "level"}
_VERB_NP_BY = re.compile(r"\b(?:improv\w*|boost\w*|increas\w*|reduc\w*|lower\w*|decreas\w*|"
                         r"enhanc\w*|accelerat\w*|speeds?\s+up)\s+(?:the\s+|its\s+|their\s+)?"
                         r"((?:[\w\-@]+\s+){0,5}?[\w\-@]+)(?:\s*\([\w\-@]+\))?\s+(?:by|of|from)\s+(?:" + _QUALIFIER + r"\s+|"
                         r"an\s+average\s+of\s+|a\s+factor\s+of\s+)?\$?\s*$", re.I)
_STOPS = set("""that which from in on of for with and to across over by at than out per is are was were while whereas
as into versus vs respectively compared relative them it""".split())
# Nouns of occasions a result is counted over ("in 45% of cases"), never what it measures.
_INSTANCE_NOUNS = set("""cases trials pairs instances runs episodes attempts seeds scenarios tokens times occasions
iterations steps""".split())
_EVENT_SHARE_BEFORE = re.compile(r"(?:\b(?:in|on)|\b(?:sav|reduc|cut|trim|remov|eliminat)\w*)\s+(?:only\s+|about\s+|"
                                 r"over\s+|nearly\s+|around\s+|up\s+to\s+|just\s+|roughly\s+)?"
                                 r"[\s$~{}]*(?:\\sim)?[\s$~{}]*$", re.I)
_UNIT_NOUNS = {"points", "point", "pp", "percent", "percentage", "times", "fold"}
_MODALS = {"can", "could", "will", "would", "may", "might", "must", "should", "shall", "compared"}
_NOT_PLURAL = set("""this thus across less process analysis basis various previous its has was does is as us plus
versus whereas""".split())


# A ratio's own phrase says what it is a ratio of ("3x fewer parameters", "4x faster residual
# computing", "8-24x computation reduction", "3 times speedup"); a bare change noun says nothing
# ("4x gains", "a 2x improvement"), nor does a bare comparative ("5x faster than X")
_SPACE = re.compile(r"\s*")
_COMPARATIVES = ("faster", "slower", "smaller", "larger", "fewer", "less", "more", "higher", "lower", "better", "cheaper",
                 "shorter", "longer", "greater")
_RATIO_END = re.compile(r"(?:[×xX]|\\?times)\W*$")       # (× written x or TeX's \times)
_PERCENT_END = re.compile(r"%\W*$")        # (TeX's \% ends so too)
_NOT_NP = r"(?!(?:than|on|in|with|for|while|whereas|and|or|but|also|often|compared|over|at|to|when|as|by|the|of|during|" \
          r"respectively|across|per|without|from|under|using|via|its|their|our|an?|is|are|was|were)\b)"
_RATIO_PHRASE = re.compile(
    r"\s*\$?\s*((?:" + "|".join(_COMPARATIVES) + ")"
    r"(?:\s+" + _NOT_NP + r"[A-Za-z][\w\-]*){1,3}(?:(?<=number|amount)\s+of\s+[a-z][\w\-]*)?|(?:" + _NOT_NP + r"[A-Za-z][\w\-]*\s+){0,2}(?:speed-?ups?|acceleration)"
    r"|(?:" + _NOT_NP + r"[A-Za-z][\w\-]*\s+){1,2}(?:reductions?|improvements?|increases?|savings?|compression|gains?))"
    r"(?![\w\-])")


# After a comparative, what no measure ends in (an adjective: "8% more accurate", "more data
# efficient") and what a one-word measure ends in (a noun: "less time", "fewer samples")
_ADJECTIVE_END = re.compile(r"(?:ive|ous|[ai]ble|ful|ient|(?<!m)ent|ant|-\w+ing|accurate|precise|robust|compact|stable|"
                            r"realistic|natural)$", re.I)
_NOUN_END = re.compile(r"(?:s|tion|sion|ness|ity|ing|age|ance|ence|ure|time|data|memory|compute|speed|energy|"
                       r"power|latency|cost|error|torque|effort|bandwidth|traffic|drift|noise|overhead)$", re.I)


@per_group
def _mt_ratio(doc: _Doc, n: _Num) -> Any:
    """"8-24× computation reduction", "3x fewer parameters": a ratio's measure is the phrase after
    it, and after a comparative the noun phrase the comparative qualifies ("68% fewer questions":
    questions; the value type says the number is a change, and a table's column is the measure,
    "parameters" for "7x fewer parameters" and "1.2B parameters" alike); "8% more accurate" names
    no noun and keeps its words."""
    last = doc.groups[n.i][-1]
    ratio = _RATIO_END.search(doc.text, last.start, last.end)
    if not ratio and not _PERCENT_END.search(doc.text, last.start, last.end) \
            or not (m := _RATIO_PHRASE.match(doc.text, last.end)):
        return _SKIP
    first = m.group(1).split()[0]
    if not ratio and first not in _COMPARATIVES:
        return _SKIP
    at = _SPACE.match(doc.text, m.start(1) + len(first) if first in _COMPARATIVES else m.end(1)).end()
    if not ratio and doc.between(doc.metrics, at, m.end(1)):
        return _SKIP                # a share compared, "68% fewer questions", "4% less torque", unless
    #                                 it names a measure ("15% higher grasp success rate"): _mt_after's
    if any(p.head_start == at for p in doc.between(doc.metrics, at - 40, at + 1)):
        return _SKIP                # a measure's own phrase ("4x faster run-time", "16.5x model footprint
    #                                 compression ratio"): _mt_after's
    words = doc.text[at:m.end(1)].split()
    if first in _COMPARATIVES and words and not _ADJECTIVE_END.search(words[-1]) \
            and (len(words) > 1 or _NOUN_END.search(words[0])):
        return Ref(doc.text[at:m.end(1)], at, m.end(1))     # "68% fewer questions": questions
    return Ref(m.group(1), m.start(1), m.end(1))


def _mt_respectively(doc: _Doc, n: _Num) -> Any:
    s, e = doc.sentence(n)
    return _pair(doc, n, doc.memo(("metrics-in", n.sent), lambda: doc.between(doc.metrics, s, e))) or _SKIP


def _mt_after(doc: _Doc, n: _Num) -> Any:
    """"91.2% top-1 accuracy", "10-15% improvements in multilingual performance"."""
    end = doc.groups[n.i][-1].end
    reach = _AFTER_REACH.match(doc.text, end).end()         # no gap ends beyond: linear in the text
    for p in doc.between(doc.metrics, end, reach + 1):
        if _AFTER_GAP.fullmatch(doc.text[end:p.start]):
            return _ref(p)
    return _SKIP


# the lower-case words that may follow a measure's acronym ("78.5% IDF1 in MOT17", "1.80 SacreBLEU
# improvement"); any other makes the acronym a modifier of its noun ("0.2 GPU days")
_AFTER_MEASURE = set("""in on for and or with at of over under compared vs versus while which when whereas than
improvement improvements gain gains increase points respectively using by from to""".split())
# an acronym of capitals right after a number ("37.2% PQ", "2.49 SPICE", "63.8% HOTA", "59.75% TAR@0.1"),
# no unit ("0.76 BL/s")
_ACRONYM_AFTER = re.compile(r"\s*(?:\\?%)?\s*([A-Z][A-Za-z0-9]*[A-Z0-9](?:@[\d.]*\d)?)(?![\w\-/])")


def _mt_acronym_after(doc: _Doc, n: _Num) -> Any:
    """"63.8% HOTA, 80.6% MOTA": a result's measure named by the acronym right after it, when it
    is no name of the abstract's ("45.1 COCO" names no measure)."""
    m = _ACRONYM_AFTER.match(doc.text, n.end) if n.kind != "setting" else None
    if not m or sum(ch.isupper() for ch in m.group(1)) < max(2, len(m.group(1)) / 2) \
            or any(o.start <= m.start(1) < o.end for o in doc.occ):
        return _SKIP
    nxt = re.match(r"\s+([a-z]+)", doc.text[m.end(1):m.end(1) + 20])
    if nxt and nxt.group(1) not in _AFTER_MEASURE:
        return _SKIP                # "0.2 GPU days", "7 DOF robotic arm": it modifies a noun
    return Ref(m.group(1), m.start(1), m.end(1))


def _mt_before(doc: _Doc, n: _Num) -> Any:
    s, start = doc.segment_before(n)
    for p in reversed([p for p in doc.between(doc.metrics, s, start) if p.end <= start]):
        if _BEFORE_GAP.fullmatch(doc.text[p.end:start]):
            wide = _mt_verb_np(doc, n)          # "reducing pivot cost by 79%": the verb's whole object
            return wide if isinstance(wide, Ref) and wide.start < p.start and wide.end == p.end else _ref(p)
    return _SKIP


@per_group
def _mt_verb_np(doc: _Doc, n: _Num) -> Any:
    """"improves task performance by 41%", "reduces the error from 6.8% to 1.5%": the measure is the
    improved noun phrase."""
    s, e = doc.segment_before(n)
    if not (m := _VERB_NP_BY.search(doc.text[s:e])):
        return _SKIP
    ps, pe = s + m.start(1), s + m.end(1)
    inside = [p for p in doc.between(doc.metrics, ps, pe) if p.end <= pe]
    if inside:
        lead = doc.text[ps:inside[0].start]
        if inside[0].end == pe and len(doc.text[ps:pe].split()) <= 3 and re.fullmatch(r"(?:[a-z][a-z\-]*\s+)+", lead) \
                and not re.search(r"\b(?:the|a|an|its|their|our|of|in|on|for|and|or|overall|mean|average)\b", lead):
            return Ref(doc.text[ps:pe], ps, pe)      # "reducing pivot cost by 79%": the measure's own modifier
        return _ref(inside[0])
    cut = re.split(r"\s+(?:in|of|for|on|across|over|when|while|with|at)\s+", doc.text[ps:pe], maxsplit=1)[0]
    if cut.lower() in _COUNT_HEADS:
        cut = " ".join(doc.text[ps:pe].split()[:5])        # "the number of passages read"
    if re.match(r"(?:upon|over|on|in|of|by|to|from|with|against|an?|several|many|various|all|most|both|each|"
                r"the\s+(?:current|previous|prior))\b", cut, re.I) or \
            re.search(r"\b(?:SOTA|state-of-(?:the-)?art|baselines?)\b", cut, re.I) or \
            re.fullmatch(r"[A-Z][\w\-]*(?:\s+[A-Z0-9][\w\-]*)+|[A-Z][\w\-]*[a-z][\w\-]*|[a-z]+ing", cut):
        return _SKIP                # (a system, "boosting Mask RCNN from 40.3%", "improves ResNet by 2%"
    #                                 (not an acronym: "reduces the FPR95 by 12%"), or "ranging from 2%")
    return Ref(cut, ps, ps + len(cut)) if len(cut.split()) <= 4 else _SKIP


# a word a comma may follow inside a count's phrase: a lower-case modifier ("3,000 human-human,
# interactive dialogues", "53K semi-supervised, partially annotated images", "short, noisy clips")
_MODIFIER = re.compile(r"[a-z]+-[a-z][\w\-]*|[a-z]+(?:ed|al|ive|ous|ic|ble|ful|ary|(?<!m)ent|ant)|"
                       r"novel|new|short|long|large|small|real|rich|diverse|noisy|clean")


def _mt_count_noun(doc: _Doc, n: _Num) -> Any:
    """"12 real-world tasks", "2 million sentences", "33% of curated data": what a
    count or a share counts - the words after it up to their last plural noun (a share: up to
    the clause's first stop word)."""
    end = doc.groups[n.i][-1].end
    share = doc.text[n.start:n.end].rstrip("$").endswith("%")
    if not share and not re.search(r"\d\s*(?:[KMBTk]|thousand|million|billion|trillion)?\+?\$?$", doc.text[n.start:n.end]):
        return _SKIP                # 30s, 5 ms, 3x: a measured quantity, not a count
    m = re.match(r"\s*of\s+(?:the\s+)?" if share else r"\s*\+?\s*", doc.text[end:end + 8])
    if m is None:
        return _SKIP                # "15% improvements": a share only counts with "of"
    pos, keep = end + m.end(), []
    for w in list(re.finditer(r"[A-Za-z][\w\-]*", doc.text[pos:pos + 80]))[:6]:
        gap = doc.text[pos + (keep[-1].end() if keep else 0):pos + w.start()]
        word = w.group(0).lower()       # (a comma first: "0.998, twelve model pairs" is a new phrase; a comma
        #                                 after a noun ends the phrase: "96.8% of the performance, runs ...")
        comma = r"\s*|,\s*" if keep and _MODIFIER.fullmatch(keep[-1].group(0)) else r"\s*"
        if word in _STOPS and (word != "and" or not keep) or not re.fullmatch(comma, gap) \
                or keep and (word in _MODALS or word.endswith("ing")):
            break
        keep.append(w)
    while keep and keep[-1].group(0).lower() == "and":
        keep.pop()
    if len(keep) > 1 and keep[0].group(0).lower() in _COMPARATIVES:
        keep = keep[1:]             # "4 million fewer trainable parameters": what is counted, as _mt_ratio reads it
    plural = [i for i, w in enumerate(keep) if w.group(0).endswith("s") and len(w.group(0)) > 3
              and w.group(0).lower() not in _NOT_PLURAL]
    if plural:
        keep = keep[:plural[0] + 1]
    elif not share:                 # (a share has its "of")
        return _SKIP
    if not keep or any(w.group(0).lower() == "and" for w in keep) and not plural:
        return _SKIP
    s, e, first = pos + keep[0].start(), pos + keep[-1].end(), doc.groups[n.i][0].start
    if keep[-1].group(0).lower() in _UNIT_NOUNS:
        return _SKIP                # "2.1 points", "3 percentage points": a unit, not a measure
    if n.kind != "setting" and not HEADS.search(doc.text[s:e]) and (
            keep[-1].group(0).lower() in _INSTANCE_NOUNS
            or _EVENT_SHARE_BEFORE.search(doc.text, max(doc.sentence(n)[0], first - 60), first)):
        return _SKIP                # "in 32% of trials", "saving 8% of training tokens": how often or
    return Ref(doc.text[s:e], s, e)  # how much, not what the result measures


_COMPARED = re.compile(r"\s*(?:" + _CHANGED + r")\b", re.I)


def _mt_nearest(doc: _Doc, n: _Num) -> Any:
    """The nearest specific metric phrase in the number's own segment of the sentence (results
    only: a setting such as d=35 next to "speedup" does not measure it)."""
    if n.kind == "setting" or _COMPARED.match(doc.text, doc.groups[n.i][-1].end):
        return _SKIP                # ("3x faster", "8x smaller": the comparative says what changes)
    e = doc.segment_after(n)[1]
    cands = [p for p in doc.between(doc.metrics, doc.segment_before(n)[0], e) if p.end <= e and not is_generic(p)]
    return _ref(min(cands, key=lambda p: min(abs(p.start - n.end), abs(n.start - p.end)))) if cands else _SKIP


# "a maximum speed of 0.27 m/s", "a terminal payload of up to 1.4 kg", "with average SROCC values of
# 0.8972": the noun phrase a value is of, not a change's noun ("an improvement of 3%": no measure
# named) nor a container's ("a total of 12")
_OF_PHRASE = re.compile(r"\b(?:an?|the|with)\s+((?:(?!(?:an?|the)\s)[A-Za-z][\w\-]*\s+){0,2}[A-Za-z][\w\-]*)\s+of\s+"
                        r"(?:" + _QUALIFIER + r"\s+)?[$~]*$", re.I)
_NOT_MEASURED = set("""improvement improvements gain gains increase increases reduction reductions drop drops decrease
boost margin margins factor total range average maximum minimum amount number numbers percentage subset set dataset
suite case problem record sota state-of-the-art sequence variant existence series mix consists importance
customization characteristic baseline""".split())


def _mt_of_phrase(doc: _Doc, n: _Num) -> Any:
    """"a maximum speed of 0.27 m/s", "an EAO of 0.434": the noun phrase right before "of"."""
    m = _OF_PHRASE.search(doc.text, max(doc.sentence(n)[0], n.start - 60), n.start)
    if not m or m.group(1).split()[-1].lower() in _NOT_MEASURED:
        return _SKIP
    return Ref(m.group(1), m.start(1), m.end(1))


METRIC_RULES: tuple[tuple[str, str, Rule], ...] = (
    ("respectively", "mAP, AP50 and mIoU improve by 4.8%, 5.4% and 3.9%, respectively", _mt_respectively),
    ("ratio-phrase", "achieves 8-24× computation reduction", _mt_ratio),
    ("after", "reaches 91.2% top-1 accuracy", _mt_after),
    ("acronym-after", "tracks at 63.8% HOTA", _mt_acronym_after),
    ("before", "with a Dice of 0.81", _mt_before),
    ("verb-np", "improves explanation faithfulness by 10%", _mt_verb_np),
    ("count-noun", "on 12 real-world tasks", _mt_count_noun),
    ("of-phrase", "the arm reaches a maximum speed of 0.27 m/s", _mt_of_phrase),
    ("nearest", "the success rate rises, up to 92% on hard tasks", _mt_nearest),
)
