"""Turning collected name occurrences into scored :class:`NameCandidate` objects."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from itertools import takewhile

from ..text.lexicon import FUNCTION_WORDS, GENERIC_ACRONYMS
from ..text.literal import _joins, bounded_starts
from . import name_cues as cue
from .name_rules import (CAP_RULES, FORM_RULES, OCCURRENCE_RULES, ROLE_RULES, TASK_NOUN_END, Evidence, NameCandidate,
                         Verdict, cap, dataset_strength)
from .rules import fire, first


# what follows a name in a variant of it (FooNet-Lite, FooNet2, GCD+)
_VARIANT_TAIL = re.compile(r"(?:[-‐–+]?[A-Z0-9]|\+|-(?:base|large|small|tiny|mini|medium|huge|lite|light)\b)")
# the suffixes that name a collection ("-Eval" may name an evaluation method: DnA-Eval)
_BENCH_SUFFIX = re.compile(r"(?:Bench|Benchmark|Dataset|Corpus|Arena|Suite|Set|Data|Leaderboard)$", re.I)
# a name coordinated with another, after or before it, and what ends a list item
_SEP_AFTER = re.compile(r"(\))?(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)")
_SEP_BEFORE = re.compile(r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)$")
_ENDS_ITEM = re.compile(r"\s*(?:[,.;:)]|and\b|or\b|$)")
# "LOMO consists of a direct regressor (DR), ...": the parts of a name the sentence introduces
_WITH_A_NEW = re.compile(r"\b(?:with|via|using|through|by|introduces?|proposes?|novel|new|our|its|called|named|"
                         r"and\s+a|a\s+new)(?:\s+(?:a|an|the)(?:\s+[\w\-]+)?)?\s*$", re.I)
_COMPOSED_OF = re.compile(r"\b(?:consist(?:s|ing)?\s+of|compris(?:es|ing)|composed\s+of|made\s+up\s+of)\b", re.I)
# What may stand between an introducing verb and a long form the sentence introduces with its acronym
# ("we propose a novel WSD method with Knowledge-Enhanced ... Comprehension (KELESC)"): no word that
# says the name is used, studied or only a part of something else ("we build upon", "features of X")
_USES = re.compile(r"\b(?:us(?:e|es|ed|ing)|appl\w+|adopt\w*|based|inspired|motivated|follow\w*|extend\w*|leverag\w*|"
                   r"exploit\w*|employ\w*|utili[sz]\w*|task|problem|setting|than|like|such|between|into|to|by|upon|"
                   r"for|of|on|in)\b", re.I)
# what makes a later occurrence the subject of a verb ("KELESC achieves", "HIKE first integrates")
_DOES = re.compile(r"(?:\s+(?:also|further|first|then|significantly|consistently|substantially|effectively|only|not))*"
                   r"\s+(?:[a-z]+s|can|could|is|was|has|will|may)\b")
_FIRM = 0.8
_FORM_CUES = {"known-dataset", "dataset-suffix"}
_CONTEXT_CUES = {"on-X", "data-source", "dataset-list", "dataset-cue"}


def occurrence_index(t: str, names) -> dict[str, list[int]]:
    """``{name: bounded_starts(t, name)}``, in one pass over the text for many names (each
    position is checked against the lengths of the names starting with its character), so the
    cost grows with the text and the number of names, not with their product."""
    if len(names) <= 64:
        return {nm: bounded_starts(t, nm) for nm in names}
    lengths: dict[str, set[int]] = {}
    for nm in names:
        lengths.setdefault(nm[0], set()).add(len(nm))
    by_char = {ch: sorted(ls) for ch, ls in lengths.items()}
    out: dict[str, list[int]] = {nm: [] for nm in names}
    free: dict[str, int] = {}            # non-overlapping, as str.find from the previous end
    n = len(t)
    for i, ch in enumerate(t):
        ls = by_char.get(ch)
        if ls is None or i and _joins(t[i - 1]):
            continue
        for ln in ls:
            j = i + ln
            if j > n:
                break
            w = t[i:j]
            if w in out and (j == n or not _joins(t[j])) and i >= free.get(w, 0):
                out[w].append(i)
                free[w] = j
    return out


def score(self) -> list[NameCandidate]:
    """Scores, roles and cues of every candidate the finder collected."""
    t, aggs = self.text, self.aggs
    index = occurrence_index(t, list(aggs))
    for a in aggs.values():
        for o in (index[a.text] or [a.start])[:6]:
            e = o + len(a.text)
            occ = self.intro(o, e)
            if occ.strength >= 0.4:
                a.method = max(a.method, occ.strength)
                a.cues |= occ.cues
            ds, dc = dataset_strength(self.occurrence(o, e, 120))
            if ds:
                a.dataset = max(a.dataset, ds)
                a.cues |= dc
            for rule in OCCURRENCE_RULES:
                if rule.name == "model-cue" and a.shape == "long" or not rule.test(occ):
                    continue
                fire(rule.name)
                mode, weight, cues = rule.gives
                a.cues |= cues
                if mode == "introduced-dataset":
                    a.dataset, a.method = max(a.dataset, weight), max(a.method, 0.8)
                    break
        for rule in FORM_RULES:
            if rule.test(a):
                fire(rule.name)
                role, weight, cues = rule.gives
                a.cues |= cues
                if role == "method":
                    a.method = max(a.method, weight)
                else:
                    a.dataset = max(a.dataset, weight)      # (a "cue" rule's weight is 0)
    for a in aggs.values():
        # a dataset cued twice, by its form and its context or by two kinds of context, is firm
        if 0.5 <= a.dataset < _FIRM and not ({"model-pattern", "model-cue"} & a.cues):
            context = a.cues & _CONTEXT_CUES
            if a.cues & _FORM_CUES and context or len(context) >= 2:
                fire("corroborated-dataset")
                a.dataset = _FIRM
        # an introduced name with a dataset suffix (E-Bench, ToolBench) or a dataset noun ("we create a
        # Real-World Blurry Video Dataset (RBVD)") is an introduced benchmark
        if a.method >= 0.75 and {"we-propose", "title"} & a.cues and (
                "dataset-suffix" in a.cues and _BENCH_SUFFIX.search(a.text) or "dataset-noun-name" in a.cues):
            fire("introduced-suffix-benchmark")
            a.cues |= {"introduced", "dataset-cue"}
            a.dataset = max(a.dataset, a.method)
    # acronym partners share the introduction (a partner is always a candidate: Finder.add): every
    # name of a group of partners ("Facebook-Berkeley-Nets" with FBNet and FBNets) ends with the
    # group's strongest, whatever order the names are met in (until nothing changes)
    changed = True
    while changed:
        changed = False
        for a in aggs.values():
            for b in map(aggs.get, a.partners):
                fire("acronym-partners")
                shared = {"introduced", "called"} & (a.cues | b.cues)   # ("called" lifts a generic acronym's cap)
                method, dataset = max(a.method, b.method), max(a.dataset, b.dataset)
                if (a.method, a.dataset, b.method, b.dataset) != (method, dataset, method, dataset) \
                        or not shared <= a.cues & b.cues:
                    changed = True
                    a.method = b.method = method
                    a.dataset = b.dataset = dataset
                    a.cues |= shared
                    b.cues |= shared
    introduced = [a for a in aggs.values() if a.method >= 0.75]
    # where an introduced name is (first seen, or a whole occurrence inside a sentence)
    intro_at = sorted({(b.start, b.text) for b in introduced} | {(s0, b.text) for b in introduced for s0 in index[b.text]})
    # acronym defined in a sentence that introduces or uses an introduced name: a component
    composed_end: dict[int, int] = {}     # sentence start -> end of its first "consists of" (once a sentence)
    for a in aggs.values():
        if "acronym-def" in a.cues and a.method < 0.5 and a.text not in GENERIC_ACRONYMS:
            lf = aggs[min(a.partners)] if a.partners else a
            if re.search(r"(?:score|error|rate|ratio|accuracy|distance|divergence|metric|loss|index|"
                         r"coefficient|criterion|measure|statistic)s?$", lf.text, re.I):
                continue                                # a metric, not a component
            i, ss, se = self.sent(a.start)
            # "... with a new Wave Mixing Unit (WMU)", or a part: "LOMO consists of a direct regressor (DR)"
            named_with = _WITH_A_NEW.search(t[max(0, lf.start - 30):lf.start])
            if ss not in composed_end:
                composed_end[ss] = m.end() if (m := _COMPOSED_OF.search(t, ss, se)) else len(t) + 1
            if not named_with and composed_end[ss] > lf.start:
                continue
            ps = self.bounds[i - 1][0] if i > 0 else ss       # the sentence before counts too
            near = takewhile(lambda j: intro_at[j][0] < se, range(bisect_left(intro_at, (ps,)), len(intro_at)))
            if any(intro_at[j][1] != a.text for j in near):
                fire("co-introduced" if named_with else "composed-of")
                for c in [a, *map(aggs.get, a.partners)]:
                    c.method = max(c.method, 0.6)
                    c.cues.add("co-introduced")
    # an acronym whose capitalized long form its sentence introduces (after the introducing verb,
    # nothing between saying it is used or a part of something else) and that a later sentence makes
    # the subject of a verb: "we propose a model named CLIR with HIerarchical Knowledge Enhancement
    # (HIKE) ... HIKE first integrates"
    for a in aggs.values():
        if "acronym-def" in a.cues and a.method < 0.5 and a.text not in GENERIC_ACRONYMS and len(a.partners) == 1:
            lf = aggs[next(iter(a.partners))]
            if _introduced_acronym(self, a, lf, index[a.text]):
                fire("introduced-acronym-subject")
                for c in (a, lf) if "(" not in lf.text and ")" not in lf.text else (a,):     # (a long form cut well)
                    c.method = max(c.method, 0.75)
                    c.cues.add("we-propose")
    # variants of an introduced name (FooNet-Lite next to FooNet) are introduced too
    heads = {b.text: b for b in introduced if " " not in b.text and len(b.text) >= 3}
    for a in aggs.values():
        if " " not in a.text:
            for b in [heads[a.text[:n]] for n in range(3, len(a.text)) if a.text[:n] in heads]:
                if _VARIANT_TAIL.match(a.text, len(b.text)):
                    fire("variant")
                    a.method = max(a.method, 0.7)
                    a.cues.add("variant")
                    if "introduced" in b.cues:
                        a.cues.add("introduced")
                        a.dataset = max(a.dataset, b.dataset)
    # word-bounded occurrences of every candidate
    occ = {name: [(i, i + len(name)) for i in index[name]] for name in aggs}
    starts: dict[int, list[Evidence]] = {}
    ends: dict[int, list[Evidence]] = {}
    for name, spans_ in occ.items():
        for s0, e0 in spans_:
            starts.setdefault(s0, []).append(aggs[name])
            ends.setdefault(e0, []).append(aggs[name])
    # coordinated with a dataset ("on TabArena and WikiSQL"): a dataset too; named after an
    # introduced name in its introducing sentence ("we propose Rank Mimicking (RM) and
    # Prediction-guided Feature Imitation (PFI)", "two methods, EAI and EDS"): introduced too
    models, coordinated_at = {"model-pattern", "model-cue"}, set()

    def introduced_at(a: Evidence, s0: int) -> bool:
        """This occurrence of ``a`` is introduced: by its context, after its introduced long form
        ("Rank Mimicking (RM)"), or as the name coordinated with one."""
        if s0 in coordinated_at or self.intro(s0, s0 + len(a.text)).strength >= 0.75:
            return True
        k = s0 - 1 - (t[s0 - 2:s0] == " (") if t[s0 - 1:s0] == "(" else -1
        return any(p.text in a.partners and self.intro(k - len(p.text), k).strength >= 0.75 for p in ends.get(k, []))
    for _ in range(4):
        changed = False
        for a in aggs.values():
            own = a.method >= 0.75 and not models & a.cues and any(
                {"we-propose", "title", "coordinated"} & aggs[p].cues for p in [a.text, *a.partners])
            if a.dataset < 0.55 and not own:
                continue
            for s0, e0 in occ[a.text]:
                neigh = []
                if m := _SEP_AFTER.match(t, e0):
                    neigh += [(b, "or" not in m.group(0) and m.end(), bool(m.group(1))) for b in starts.get(m.end(), [])
                              if "," not in m.group(0) or _ENDS_ITEM.match(t, m.end() + len(b.text))]
                if m := _SEP_BEFORE.search(t[max(0, s0 - 12):s0]):
                    neigh += [(b, False, False) for b in ends.get(s0 - len(m.group(0)), [])
                              if "," not in m.group(0) or _ENDS_ITEM.match(t, e0)]
                for b, follows, paren in neigh:
                    if b is a or models & b.cues:
                        continue
                    if a.dataset >= 0.55 and not paren and b.dataset < min(a.dataset, 0.75):
                        fire("coordinated")
                        b.dataset = min(a.dataset, 0.75)
                        b.cues.add("dataset-list")
                        changed = True
                    if own and follows and b.method < 0.75 and introduced_at(a, s0):
                        fire("coordinated")
                        for c in [b, *map(aggs.get, b.partners)]:
                            c.method = max(c.method, 0.75)
                            c.cues.add("coordinated")
                        coordinated_at.add(follows)
                        changed = True
        if not changed:
            break
    # a candidate that only ever occurs inside a longer, better candidate is a fragment
    good = sorted((s0, e0) for b in aggs.values() if max(b.method, b.dataset) >= 0.5 for s0, e0 in occ[b.text])
    good_starts = [s0 for s0, _ in good]

    def inside(s0: int, e0: int) -> bool:       # names are at most 90 characters long
        lo, hi = bisect_left(good_starts, s0 - 90), bisect_right(good_starts, s0)
        return any(e0 <= be and be - bs > e0 - s0 for bs, be in good[lo:hi])
    for a in aggs.values():
        if occ[a.text] and all(inside(s0, e0) for s0, e0 in occ[a.text]):
            fire("fragment")
            a.method, a.dataset = min(a.method, 0.3), min(a.dataset, 0.3)
            a.cues.add("fragment")
    out = [c for c in map(_finish, aggs.values()) if c is not None]
    return sorted(out, key=lambda c: (c.start, c.end))


def _introduced_acronym(self, a: Evidence, lf: Evidence, at: list[int]) -> bool:
    """Acronym ``a`` right after its long form ``lf``, a capitalized phrase (not a task's name)
    that its sentence's last introducing verb before it introduces, with no word between saying
    it is used or a part of something else, and ``a`` the subject of a verb later on (``at``:
    where ``a`` occurs)."""
    t = self.text
    if not (lf.end <= a.start <= lf.end + 3 and " " in lf.text) or TASK_NOUN_END.search(lf.text) or any(
            not w[:1].isupper() for w in lf.text.split() if w.lower() not in FUNCTION_WORDS):
        return False
    verbs = list(cue.INTRO_ANYWHERE.finditer(t, self.sent(lf.start)[1], lf.start))
    if not verbs or _USES.search(t, verbs[-1].end(), lf.start) or len(t[verbs[-1].end():lf.start].split()) > 10:
        return False
    return any(_DOES.match(t, o + len(a.text)) for o in at if o >= a.end)


def _finish(a: Evidence) -> NameCandidate | None:
    """The candidate of ``a`` after :data:`CAP_RULES`, with the role :data:`ROLE_RULES` give."""
    v = Verdict(a)
    cap(CAP_RULES, v)
    decided = first(ROLE_RULES, v).gives(v)
    if decided is None:
        return None
    role, score = decided
    if role == "dataset" and "title" in v.cues:
        v.cues.add("introduced")        # the title's head is the paper's own: a dataset by its context, introduced
    return NameCandidate(a.text, a.start, a.end, role, round(score, 3), tuple(sorted(v.cues)))
