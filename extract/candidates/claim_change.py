"""Absolute value or change, and the named system a change is measured against
(tests/gold/GUIDELINE.md, "Absolute value or change").

:func:`change_of` is called once per number by :func:`extract.candidates.claims.attach_claims`.
The first rule of :data:`CHANGE_RULES` that applies decides the value type; :data:`COMPARED_RULES`
find the compared system of a change.  A rule that fires records ``<rule>/<cue>`` (the
alternative of its vocabulary that matched), counted by ``bench/change_firings.py``.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from typing import Any, Callable

from .claims_doc import Ref, _covering, _Doc, _Num, _Occ, _ref, per_group
from .claims_rules import _SKIP, Rule
from .rules import fire

__all__ = ["ABSOLUTE", "CHANGE", "CHANGE_RULES", "COMPARED_RULES", "PARALLEL_RULE", "change_of"]

ABSOLUTE, CHANGE = "absolute", "change"

# Every alternative below fires on at least 10 of the 10,901 corpus abstracts, or its pattern is
# named in the guideline (bench/change_firings.py; the README's rule section gives the counts).
#: Verbs whose "by N" is a change ("improves accuracy by 9.2%", "outperforms X by 3 points");
#: "falls short of humans by 30%" is the guideline's.
_VERBS = {"improv": r"improv\w*", "outperform": r"outperform\w*", "surpass": r"surpass\w*", "reduc": r"reduc\w*",
          "increas": r"increas\w*", "decreas": r"decreas\w*", "fall": r"f[ae]ll\w*"}
#: Nouns of change before the number ("an average gain of 5.3%"; "an accuracy drop of 18%": the guideline's).
_NOUNS = {"gain": r"gains?", "improvement": r"improvements?", "increase": r"increases?", "speedup": r"speed-?ups?",
          "drop": r"drops?"}
#: Nouns of change after the number, up to three words on ("a 20% improvement", "2.3 BLEU
#: improvement", "10.0% relative explanation consistency improvement").
_AFTER_NOUNS = {"improvement": r"improvements?", "gain": r"gains?", "increase": r"increases?",
                "reduction": r"reductions?", "speedup": r"speed-?ups?", "drop": r"drops?", "loss": r"loss"}
#: Comparatives right after the number ("40% fewer FLOPs", "2.68% higher than"; "2-3x closer":
#: the guideline's).
_COMPARATIVES = {"higher": r"higher", "better": r"better", "fewer": r"fewer", "less": r"less(?!\s+than)",
                 "more": r"more(?!\s+than)", "faster": r"faster", "smaller": r"smaller", "larger": r"larger",
                 "closer": r"closer"}
_QUALIFIER = (r"(?:(?:up\s+to|over|about|nearly|almost|around|only|approximately|roughly|at\s+least|"
              r"more\s+than|on\s+average|as\s+much\s+as)\s+)*")
_OPEN = r"\$?\s*(?:\\sim\s*|~\s*|\\approx\s*)?\$?\s*"
#: "by a margin of", "by an average of", "by significant margins of", "by an average absolute IoU of"
_BY = rf"\bby\s+(?:(?:an?\s+)?(?:[\w\-]+\s+){{0,3}}?of\s+)?{_QUALIFIER}{_OPEN}$"
#: What a change's number carries: a percentage, a multiplier or points.
_CHANGE_UNIT = re.compile(r"\\?%|percent|×|\\times|\dx\b|\d\s*x\b|fold\b|times\b|points?\b|\bpp\b", re.I)


def _alt(table: dict[str, str]) -> str:
    return "|".join(f"(?P<{k}>{v})" for k, v in table.items())


_VERB_BY = re.compile(rf"\b(?:{_alt(_VERBS)})\b(?:[^.;:]{{0,80}}?){_BY}", re.I)
_PLAIN_BY = re.compile(_BY, re.I)
_NOUN_OF = re.compile(rf"\b(?:{_alt(_NOUNS)})\s+(?:(?:of|by)\s+)?{_QUALIFIER}{_OPEN}$", re.I)
_STOP = r"(?!(?:and|or|of|in|on|for|with|to|by|at|the|a|an|than|over|while|which|that)\b)"
#: (a word is at most 40 characters: "1-1-1-..." stays linear)
_NOUN_AFTER = re.compile(rf"[\s$}})]*(?:-?\s*points?\s+)?(?:{_STOP}[\w\-@]{{1,40}}\s+){{0,3}}?(?:{_alt(_AFTER_NOUNS)})\b", re.I)
_COMPARATIVE = re.compile(rf"[\s$}})]*(?:-?\s*points?\s+)?(?:{_alt(_COMPARATIVES)})\b", re.I)
_SIGNED = re.compile(r"(?:^|[\s(\[{$])\+\s*\$?\s*$")
_POINTS = re.compile(r"(?:percentage\s+points?|pp\b|p\.p\.)", re.I)
_MULTIPLIER = re.compile(r"(?:×|\\times|\d\s*x\b|-?\s*fold\b|\btimes\b)", re.I)
_DIMENSION = re.compile(r"[^×x\\]*\d\s*\$?\s*(?:×|\\times|x)\s*\$?\s*\d", re.I)   # "224×224"
_FROM_TO = re.compile(r"\bfrom\s+" + _OPEN + r"$", re.I)
_SHARE_OF = re.compile(r"[\s$}]*(?:\\?%|percent)?\s+of\s+(?:the\s+(?:[\w\-.]+(?:'s|’s)?\s+)?|[\w\-.]+(?:'s|’s)?\s+)"
                       r"(?P<share>performance|accuracy|cost)\b", re.I)    # not "77% of accuracy"


def _cue(m: re.Match, table: dict[str, str]) -> str:
    return next((k for k in table if m.group(k)), "?")


# -- value type rules: a rule returns (value type, cue) or _SKIP
def to_end(doc: _Doc, n: _Num) -> bool:
    """Whether ``n`` is the "to" end of "from 31.2% to 58.7%" (the number before it in its
    sentence is the "from" end)."""
    k = bisect_right(doc._ends, n.start) - 1         # the last number ending before n (sorted, disjoint)
    prev = doc.nums[k] if k >= 0 and doc.nums[k].sent == n.sent else None
    return bool(prev and re.fullmatch(r"\s*(?:\\?%|×|x)?\s*to\s*" + _OPEN, doc.text[prev.end:n.start], re.I)
                and _FROM_TO.search(doc.text[max(doc.sentence(n)[0], prev.start - 20):prev.start]))


def _vt_from_to(doc: _Doc, n: _Num) -> Any:
    """"from 31.2% to 58.7%": both ends are values as measured."""
    if _FROM_TO.search(doc.text[max(doc.sentence(n)[0], n.start - 20):n.start]):
        return ABSOLUTE, "from"
    return (ABSOLUTE, "to") if to_end(doc, n) else _SKIP


def _vt_sign(doc: _Doc, n: _Num) -> Any:
    """"+5.3% on ChronusAV", "(+1.8 mAP)": a signed gain (not "k+1" in a formula, not "-1, 0, +1")."""
    text = doc.text[n.start:n.end]
    signed = re.match(r"[\s$({\[]*\+", text) and (n.start == 0 or not doc.text[n.start - 1].isalnum()) \
        or _SIGNED.search(doc.text[max(0, n.start - 4):n.start])
    if signed and (re.search(r"\d[.,]\d", text) or _CHANGE_UNIT.search(text)
                   or re.match(r"\s*\$?\s*[A-Za-z]", doc.text[n.end:n.end + 4])):
        return CHANGE, "plus"
    return _SKIP


def _vt_points(doc: _Doc, n: _Num) -> Any:
    """"3.1 percentage points", "2.4 pp": a difference of percentages."""
    last = doc.groups[n.i][-1]
    points = _POINTS.search(doc.text[n.start:n.end]) or _POINTS.match(doc.text[last.end:last.end + 24].lstrip(" $}"))
    return (CHANGE, "points") if points else _SKIP


def _before(doc: _Doc, n: _Num) -> str:
    """The text of n's clause segment before its group (the "by" rules read it)."""
    return doc.text[slice(*doc.segment_before(n))]


@per_group
def _vt_verb_by(doc: _Doc, n: _Num) -> Any:
    """"improves accuracy by 9.2%", "outperforms PromptRank by 9.43%, 7.68%, and 4.82%"."""
    m = _VERB_BY.search(_before(doc, n))
    return (CHANGE, _cue(m, _VERBS)) if m else _SKIP


@per_group
def _vt_by_unit(doc: _Doc, n: _Num) -> Any:
    """"accelerates queries by 5x", "drops by 4%": "by" a percentage, multiplier or points."""
    group = doc.groups[n.i]
    unit = _CHANGE_UNIT.search(doc.text, group[0].start, group[-1].end + 8)
    return (CHANGE, "by") if unit and _PLAIN_BY.search(_before(doc, n)) else _SKIP


@per_group
def _vt_noun_of(doc: _Doc, n: _Num) -> Any:
    """"an average accuracy drop of 18%", "an average gain of 5.3%"."""
    m = _NOUN_OF.search(_before(doc, n))
    return (CHANGE, _cue(m, _NOUNS)) if m else _SKIP


def _vt_noun_after(doc: _Doc, n: _Num) -> Any:
    """"a 20% improvement", "2.3 BLEU improvement", "1% loss in accuracy"."""
    m = _NOUN_AFTER.match(doc.text, n.end) or _NOUN_AFTER.match(doc.text, doc.groups[n.i][-1].end)
    return (CHANGE, _cue(m, _AFTER_NOUNS)) if m else _SKIP


def _vt_comparative(doc: _Doc, n: _Num) -> Any:
    """"40% fewer FLOPs", "2.68% and 16.67% higher than", "3.1 points higher"."""
    m = _COMPARATIVE.match(doc.text, n.end) or _COMPARATIVE.match(doc.text, doc.groups[n.i][-1].end)
    if not m or not _CHANGE_UNIT.search(doc.text[n.start:m.end()]):
        return _SKIP                # "3 larger models", "10 more tasks": counts, not changes
    return CHANGE, _cue(m, _COMPARATIVES)


def _vt_multiplier(doc: _Doc, n: _Num) -> Any:
    """"a 20x speedup", "reduces latency by 3.8x": a result that is a ratio (not "224×224")."""
    if n.kind == "setting" or not _MULTIPLIER.search(doc.text[n.start:n.end] + doc.text[n.end:n.end + 6].split(" ")[0]) \
            or _DIMENSION.match(doc.text[n.start:n.end + 12]) \
            or re.search(r"\d\s*\$?\s*(?:×|\\times|x)\s*\$?\s*$", doc.text[max(0, n.start - 12):n.start]):
        return _SKIP
    return CHANGE, "times"


def _vt_share_of(doc: _Doc, n: _Num) -> Any:
    """"retains 95% of the teacher's accuracy": a share of a reference's value."""
    m = _SHARE_OF.match(doc.text, n.end)
    return (CHANGE, m.group("share").lower()) if m and re.search(r"\\?%|percent", doc.text[n.start:m.end()]) else _SKIP


_PARALLEL_GAP = re.compile(r"(?:[^.;:]|(?<=\d)\.(?=\d)){0,70}")     # ("on MultiWOZ 2.0 and": a version's point)
_MEASURED = re.compile(rf"\b(?:reach\w*|achiev\w*|attain\w*|obtain\w*|scor\w*|from|yield\w*|with|at|"
                       rf"while|whereas|but|{'|'.join(_VERBS.values())})\b", re.I)


def _vt_parallel(doc: _Doc, n: _Num, previous: str | None) -> Any:
    """"by 7.17% on LLaMA3, and by 3.26% on Mistral", "margins of 4.8% mAP 5.4% AP50": a number
    that continues the previous change of its clause (joined by "and" or a comma, or only a
    measure's name between them) is a change too."""
    if previous != CHANGE or n.kind == "setting":          # (the first number has no previous)
        return _SKIP
    prev = doc.nums[n.i - 1]
    gap = doc.text[prev.end:n.start]
    if prev.sent != n.sent or not _PARALLEL_GAP.fullmatch(gap) or _MEASURED.search(gap) \
            or re.search(r",\s*\w{3,}ing\b|\b(?:when|if)\b", gap) or gap.count(")") > gap.count("("):
        return _SKIP                # "..., adding only 3.6% parameters", "(... 19.3 points), 35.3%": no longer the change
    if re.search(r"\band\b|,", gap) or re.fullmatch(r"[\s$}]*[A-Za-z][\w@\-]*(?:\s+[A-Za-z][\w@\-]*)?[\s$]*", gap):
        return CHANGE, "and"        # "4.8% mAP 5.4% AP50": only a measure's name between them
    return _SKIP


CHANGE_RULES: tuple[tuple[str, str, Rule], ...] = (
    ("from-to", "FooNet raises accuracy from 31.2% to 58.7%", _vt_from_to),
    ("sign", "FooNet gains +5.3% on ChronusAV", _vt_sign),
    ("points", "FooNet improves F1 by 3.1 percentage points", _vt_points),
    ("verb-by", "FooNet outperforms PromptRank by 9.43% in F1", _vt_verb_by),
    ("by-unit", "FooNet accelerates queries by 5x", _vt_by_unit),
    ("noun-of", "FooNet shows an average accuracy drop of 18% on blurred images", _vt_noun_of),
    ("noun-after", "FooNet yields a 2.3 BLEU improvement", _vt_noun_after),
    ("comparative", "FooNet needs 40% fewer FLOPs", _vt_comparative),
    ("multiplier", "FooNet's training speedup reaches 20x on one GPU", _vt_multiplier),
    ("share-of", "FooNet retains 95% of the teacher's accuracy", _vt_share_of),
)


#: Tried when no rule of :data:`CHANGE_RULES` applies, with the previous number's value type.
PARALLEL_RULE = ("parallel", "FooNet improves BLEU by 2.1 on WMT14 and by 1.3 on WMT16", _vt_parallel)


# -- compared system rules (changes only): a rule returns (Ref, cue) or _SKIP
_COMPARE = {"over": r"over", "than": r"than", "compared": r"compared\s+(?:to|with|against)|in\s+comparison\s+(?:to|with)",
            "outperform": r"outperform\w*"}
_GAP_WORD = r"(?!(?:on|in|with|for|using|at|of|by|from|to|and|or|when|while)\b)[\w\-]+"
_COMPARE_BEFORE = re.compile(rf"\b(?:{_alt(_COMPARE)})\s+(?:the\s+)?(?:{_GAP_WORD}\s+){{0,4}}?"
                             rf"(?P<appositive>{_GAP_WORD},\s+)?$", re.I)
#: "X improves GPT-4o's success rate by 27 points" (the guideline's example)
_POSSESSED = re.compile(r"\bimprov\w*\s+(?:the\s+)?$", re.I)
#: A name followed by one of these names a class of systems ("hashing ReID methods"), not one.
_CLASS_AFTER = re.compile(r"\s*(?:-?based\s+)?(?:[a-z]+\s+)?(?:methods?|approach(?:es)?|models|baselines|systems|techniques?|networks|"
                          r"frameworks|algorithms|solvers?|detectors|architectures|variants)\b", re.I)
#: A family, not a system: "LSTMs", "ResNets", "SNN-based", "GNN-like".
_FAMILY = re.compile(r"(?:[A-Z]{2,}s|Nets|-(?:based|like|style|type))$")
#: The reference stated right after the number's group: "by 270% over deep learning based SotA methods".
_CUE_AFTER = re.compile(rf"[^.;:]{{0,30}}?\b(?:{_alt(_COMPARE)})\b", re.I)
#: A name by its shape (OFA, PromptRank, LoRA, GPT-4, RT-DETR), for a compared system the
#: record does not list; generic acronyms are not systems.
_NAME_SHAPE = re.compile(r"(?<![\w\-.])[A-Z][A-Za-z0-9]*(?:[A-Z]|\d)[\w]*(?:[-.][A-Za-z0-9]+)*")
#: A Title Case name of up to three words or parts ("Faster R-CNN", "Polygon-RNN++", "Hard Thresholding").
_TITLE_NAME = re.compile(r"(?<![\w\-.])[A-Z][a-z]+(?:(?:\s+|-)[A-Z][\w]*(?:-[A-Za-z0-9]+)*\+*){1,2}(?![\w\-])")
_GENERIC = set("""sota ai llm llms mllm mllms vlm vlms lm lms nlp rl ml dl cnn cnns rnn rnns gnn gnns mlp mlps gpu gpus
cpu cpus tpu flops gflops tflops macs api apis us uk eu usa nn nns ann anns dnn dnns snn snns vit vits""".split())


def _shaped(doc: _Doc, n: _Num) -> list[Ref]:
    """The name-shaped tokens of n's sentence that are no dataset, metric, number or generic
    acronym, in text order: found once per sentence, the overlap test in O(log n), so a long
    sentence of many numbers stays linear."""
    def make():
        sent_s, sent_e = doc.sentence(n)
        # the sentence's own occurrences, metric phrases and numbers
        busy = _covering([(o.start, o.end) for o in doc._occ_by_sent.get(n.sent, ())]
                         + [(p.start, p.end) for p in doc.between(doc.metrics, sent_s, sent_e)]
                         + [(m.start, m.end) for m in doc.between(doc.nums, sent_s, sent_e)])
        runs = [m for m in _TITLE_NAME.finditer(doc.text, sent_s, sent_e)      # (not the sentence's first word)
                if doc.text[sent_s:m.start()].strip(" \n\"“(") and not busy(m.start(), m.end())]
        in_run = _covering([m.span() for m in runs])
        shaped = [m for m in _NAME_SHAPE.finditer(doc.text, sent_s, sent_e)
                  if not all(part in _GENERIC for part in m.group(0).lower().split("-")) and not busy(m.start(), m.end())
                  and not in_run(m.start(), m.end())]
        return [Ref(m.group(0), m.start(), m.end()) for m in sorted(shaped + runs, key=lambda m: m.start())]
    return doc.memo(("change-shaped", n.sent), make)


def _clause(doc: _Doc, n: _Num) -> tuple[int, int]:
    """From the last clause break before n's group to the end of the segment after it."""
    return doc.break_before(n, doc.groups[n.i][0].start), doc.segment_after(n)[1]


def _text(o: Any) -> str:
    return o.name if isinstance(o, _Occ) else o.text


class _Cued:
    """Sorted items of a sentence with ``test(o, w)`` read over text[w:o.start], w at most
    ``width`` characters before o and never before the clause start: found once per sentence,
    re-read only for the items within ``width`` of a clause start (linear in a long sentence)."""

    def __init__(self, items: list[Any], test: Callable[[Any, int], Any], width: int, sent_s: int):
        self.items, self.starts, self.test, self.width = items, [o.start for o in items], test, width
        self.hit = [(o, c) for o in items if (c := test(o, max(sent_s, o.start - width))) is not None]
        self.hit_starts = [o.start for o, _ in self.hit]

    def found(self, s: int, lo: int, e: int, at: int | None = None) -> list[tuple[Any, Any]]:
        """(item, value) in [lo, e) as read from the clause start s on: those within ``width`` of
        s, then of the rest the first (``at`` None) or the two nearest ``at``."""
        near = [(o, c) for o in self.items[bisect_left(self.starts, max(lo, s)):bisect_left(self.starts, min(e, s + self.width))]
                if (c := self.test(o, max(s, o.start - self.width))) is not None]
        a, b = bisect_left(self.hit_starts, max(lo, s + self.width)), bisect_left(self.hit_starts, e)
        k = a if at is None else bisect_left(self.hit_starts, at, a, b)
        return near + [self.hit[j] for j in ((k,) if at is None else (k - 1, k)) if a <= j < b]


class _Named:
    """The systems of a sentence a change can be compared to, for one method (its own name is
    none), of each kind (its occurrences, then name-shaped tokens) in text order; the named ones
    merged with their coordinated runs; built once per sentence."""

    def __init__(self, doc: _Doc, n: _Num, method: Any):
        self.doc, sent_s = doc, doc.sentence(n)[0]
        own = method.text.lower() if isinstance(method, Ref) else None
        parts = [[o for o in part if _text(o).lower() != own]
                 for part in (doc.in_sentence(n, ("method", "system")), _shaped(doc, n))]
        named = [[o for o in part if not (_text(o) == doc.main or _CLASS_AFTER.match(doc.text, o.end)
                                          or _FAMILY.search(_text(o)))] for part in parts]
        self.named = sorted(named[0] + named[1], key=lambda o: o.start)
        self.named_starts = [o.start for o in self.named]
        self.run_at: list[tuple[int, int]] = []         # per named: its run's bounds in named
        for run in doc.coordinated(self.named):
            lo = len(self.run_at)
            self.run_at += [(lo, lo + len(run))] * len(run)
        # the comparison cue before each named system; "GPT-4o's success rate" after "improves"
        self.cues = [_Cued(part, self._cue, 60, sent_s) for part in named]
        self.owners = [_Cued(part, self._owner, 30, sent_s) for part in parts]

    def _owner(self, o: Any, w: int) -> bool | None:
        t = self.doc.text
        return True if re.match(r"(?:'s|’s)\s", t[o.end:o.end + 3]) and _POSSESSED.search(t[w:o.start]) else None

    def _cue(self, o: Any, w: int) -> str | None:
        t = self.doc.text
        m = _COMPARE_BEFORE.search(t[w:o.start])
        return _cue(m, _COMPARE) if m and (not m.group("appositive") or re.match(r"\s*(?:,|\)|by\b)", t[o.end:o.end + 4])) \
            else None

    def first_owner(self, s: int, e: int) -> Any | None:
        """The first system in [s, e) (occurrences first) that is the possessor after "improves"."""
        return next((o for kind in (0, 1) for o, _ in self.owners[kind].found(s, s, e) if kind == 0 or o.end <= e), None)

    def nearest_hit(self, s: int, lo: int, e: int, at: int) -> tuple[int, int, int, Any, str] | None:
        """The named system in [lo, e) with a cue (read from s on) nearest to ``at``:
        (distance, kind, start, system, cue), an occurrence first on a tie."""
        return min(((abs(o.start - at), kind, o.start, o, c) for kind in (0, 1)
                    for o, c in self.cues[kind].found(s, lo, e, at) if kind == 0 or o.end <= e),
                   key=lambda x: x[:3], default=None)


def _named(doc: _Doc, n: _Num, method: Any) -> _Named:
    key = method.text.lower() if isinstance(method, Ref) else None
    return doc.memo(("change-named", n.sent, key), lambda: _Named(doc, n, method))


def _co_cue(doc: _Doc, n: _Num, method: Any) -> Any:
    """"outperforms PromptRank by 9.43%", "+8.26% over OFA", "compared with GPT-4o, ... by 5%";
    "over A, B and C by 1%, 2% and 3%" pairs in order, "over A and B by 3%" names no single one."""
    s, e = _clause(doc, n)
    named, group = _named(doc, n, method), doc.groups[n.i]
    after = _CUE_AFTER.match(doc.text, group[-1].end, e)
    best = named.nearest_hit(s, after.end() if after else s, e, n.start)
    if best is None:
        return (None, _cue(after, _COMPARE)) if after else _SKIP
    o, cue = best[3], best[4]
    lo, hi = named.run_at[bisect_left(named.named_starts, o.start)]
    lo, hi = max(lo, bisect_left(named.named_starts, s)), min(hi, bisect_left(named.named_starts, e))
    if hi - lo > 1:
        if len(group) != hi - lo or not doc.is_list(group):
            return None, cue        # compared jointly with several systems (a range is one quantity: "3-35x")
        o = named.named[lo + n.i - group[0].i]
    return _ref(o), cue             # (a name-shaped token is a Ref already: _ref gives an equal one)


def _co_possessed(doc: _Doc, n: _Num, method: Any) -> Any:
    """"X improves GPT-4o's success rate by 27 points": the system whose value is improved."""
    o = _named(doc, n, method).first_owner(_clause(doc, n)[0], n.start)
    return _SKIP if o is None else (_ref(o), "possessive")


COMPARED_RULES: tuple[tuple[str, str, Callable[[_Doc, _Num, Any], Any]], ...] = (
    ("compare-cue", "FooNet outperforms PromptRank by 9.43% in F1", _co_cue),
    ("possessive", "FooNet improves GPT-4o's success rate by 27 points", _co_possessed),
)


def change_of(doc: _Doc, n: _Num, method: Any, previous: str | None) -> tuple[str, Ref | None, tuple[str, str]]:
    """(value type, compared system or None, (value-type rule, compared rule)) of number ``n``;
    ``method`` is the system the claims rules gave it (never its own reference), ``previous``
    the value type of the number before it."""
    value_type, rule = ABSOLUTE, ""
    for name, _, test in CHANGE_RULES + ((*PARALLEL_RULE[:2], lambda d, x: _vt_parallel(d, x, previous)),):
        if (got := test(doc, n)) is not _SKIP:
            (value_type, cue), rule = got, name
            fire(f"change:{name}/{cue}")
            break
    if value_type != CHANGE:
        return value_type, None, (rule, "")
    for name, _, test in COMPARED_RULES:
        if (got := test(doc, n, method)) is not _SKIP:
            fire(f"compared:{name}/{got[1]}")
            return CHANGE, got[0], (rule, name if got[0] is not None else "")
    return CHANGE, None, (rule, "")
