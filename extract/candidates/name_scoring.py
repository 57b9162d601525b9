"""Turning collected name occurrences into scored :class:`NameCandidate` objects."""

from __future__ import annotations

import re

from ..text.acronyms import upper_count
from ..text.lexicon import DATASET_SUFFIXES, GENERIC_ACRONYMS, is_known_dataset, is_model_name
from . import name_cues as cue
from .name_types import Evidence, NameCandidate



def score(self) -> list[NameCandidate]:
    """Scores, roles and cues of every candidate the finder collected."""
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
            if cue.MODEL_AFTER.match(t[e:e + 60]) and "long" != a.shape:
                a.cues.add("model-cue")
            if cue.SELF_DATASET_BEFORE.search(t[max(0, o - 80):o]) or \
                    cue.NOUN_CALLED_BEFORE.search(t[max(0, o - 60):o]) or (
                    ms >= 0.75 and cue.APPOS_DATASET.match(t[e:e + 90])):
                a.cues |= {"introduced", "dataset-cue"}
                a.dataset = max(a.dataset, 0.85)
                a.method = max(a.method, 0.8)
        if any(a.text.endswith(suf) and len(a.text) > len(suf) + 1 for suf in DATASET_SUFFIXES) \
                and " " not in a.text:
            a.cues.add("dataset-suffix")
            a.dataset = max(a.dataset, 0.65)
        if is_known_dataset(a.text):
            a.cues.add("known-dataset")
            a.dataset = max(a.dataset, 0.75)
        if is_model_name(a.text) and " " not in a.text:
            a.cues.add("model-pattern")
    # a long form or capitalized run that ends in a dataset noun names a dataset
    for a in aggs.values():
        if a.shape in ("long", "run") and re.search(r"\s(?:Benchmark|Dataset|Corpus|Suite|Challenge|"
                                                    r"Arena|Collection|Leaderboard|Database)s?$", a.text):
            a.dataset = max(a.dataset, 0.75)
            a.cues.add("dataset-noun-name")
    # acronym partners share the introduction
    for a in aggs.values():
        for p in a.partners:
            b = aggs.get(p)
            if b is not None:
                a.method = b.method = max(a.method, b.method)
                a.dataset = b.dataset = max(a.dataset, b.dataset)
                if "introduced" in a.cues or "introduced" in b.cues:
                    a.cues.add("introduced")
                    b.cues.add("introduced")
                    a.dataset = b.dataset = max(a.dataset, b.dataset)
    introduced = [a for a in aggs.values() if a.method >= 0.75]
    # acronym defined in a sentence that introduces or uses an introduced name: a component
    for a in aggs.values():
        if "acronym-def" in a.cues and a.method < 0.5 and a.text not in GENERIC_ACRONYMS:
            longs = [aggs[p] for p in a.partners if p in aggs] or [a]
            lf = longs[0]
            if re.search(r"(?:score|error|rate|ratio|accuracy|distance|divergence|metric|loss|index|"
                         r"coefficient|criterion|measure|statistic)s?$", lf.text, re.I):
                continue                                # a metric, not a component
            if not re.search(r"\b(?:with|via|using|through|by|introduces?|proposes?|novel|new|our|"
                             r"its|called|named|and\s+a|a\s+new)\s*$",
                             t[max(0, lf.start - 30):lf.start], re.I):
                continue
            i, ss, se = self.sent(a.start)
            if any(ss <= b.start < se or b.text in t[ss:se] for b in introduced if b is not a):
                a.method = max(a.method, 0.6)
                a.cues.add("co-introduced")
                for p in a.partners:
                    if p in aggs:
                        aggs[p].method = max(aggs[p].method, 0.6)
                        aggs[p].cues.add("co-introduced")
    # variants of an introduced name (CurvAR-Lite next to CurvAR) are introduced too
    for a in aggs.values():
        if " " not in a.text and not a.model:
            for b in introduced:
                if b is not a and " " not in b.text and len(b.text) >= 3 and \
                        re.match(re.escape(b.text) + r"(?:[-‐–+]?[A-Z0-9]|\+)", a.text):
                    a.method = max(a.method, 0.7)
                    a.cues.add("variant")
                    if "introduced" in b.cues:
                        a.cues.add("introduced")
                        a.dataset = max(a.dataset, b.dataset)
    # word-bounded occurrences of every candidate
    occ = {name: [(m.start(), m.end()) for m in
                  re.finditer(r"(?<![\w\-‐–])" + re.escape(name) + r"(?![\w\-‐–])", t)]
           for name in aggs}
    starts: dict[int, list[Evidence]] = {}
    ends: dict[int, list[Evidence]] = {}
    for name, spans_ in occ.items():
        for s0, e0 in spans_:
            starts.setdefault(s0, []).append(aggs[name])
            ends.setdefault(e0, []).append(aggs[name])
    # coordinated with a dataset ("on LongBench and RULER"): a dataset too
    sep_after = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")
    sep_before = re.compile(r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)$")
    for _ in range(4):
        changed = False
        for a in aggs.values():
            if a.dataset < 0.55:
                continue
            for s0, e0 in occ[a.text]:
                neigh = []
                m = sep_after.match(t, e0)
                if m:
                    neigh += [b for b in starts.get(m.end(), []) if "," not in m.group(0) or
                              re.match(r"\s*(?:[,.;:)]|and\b|or\b|$)", t[m.end() + len(b.text):])]
                m = sep_before.search(t[max(0, s0 - 12):s0])
                if m:
                    neigh += [b for b in ends.get(s0 - len(m.group(0)), []) if "," not in m.group(0) or
                              re.match(r"\s*(?:[,.;:)]|and\b|or\b|$)", t[e0:])]
                for b in neigh:
                    if b is not a and b.dataset < min(a.dataset, 0.75) and not ({"model-pattern", "model-cue"} & b.cues):
                        b.dataset = min(a.dataset, 0.75)
                        b.cues.add("dataset-list")
                        changed = True
        if not changed:
            break
    # a candidate that only ever occurs inside a longer, better candidate is a fragment
    good = [(s0, e0, b) for b in aggs.values() if max(b.method, b.dataset) >= 0.5
            for s0, e0 in ([(m.start(), m.end()) for m in re.finditer(re.escape(b.text), t)])]
    for a in aggs.values():
        if not occ[a.text]:
            continue
        if all(any(bs <= s0 and e0 <= be and len(b.text) > len(a.text) for bs, be, b in good)
               for s0, e0 in occ[a.text]):
            a.method, a.dataset = min(a.method, 0.3), min(a.dataset, 0.3)
            a.cues.add("fragment")
    out: list[NameCandidate] = []
    for a in aggs.values():
        out.append(_finish(a))
    out = [c for c in out if c is not None]
    out.sort(key=lambda c: (c.start, c.end))
    return out


def _finish(a: Evidence) -> NameCandidate | None:
    base = a.text.rstrip("s") if a.text.endswith("s") and upper_count(a.text) >= 2 else a.text
    generic = a.text in GENERIC_ACRONYMS or base in GENERIC_ACRONYMS
    plural = a.text.endswith("s") and upper_count(a.text) >= 2 and a.text[:-1].isupper() is False \
        and re.fullmatch(r"[A-Z][A-Za-z0-9\-]*[A-Z]s", a.text) is not None
    cues = set(a.cues)
    method, dataset = a.method, a.dataset
    if generic:
        cues.add("generic")
        method = min(method, 0.05)
        dataset = min(dataset, 0.05)
    if "lowercase-coinage" in cues and not a.partners:
        # an uncapitalized phrase is a name only by its context: never fully confident
        method = min(method, 0.7 if ("appositive" in cues or "called" in cues) else 0.55)
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
