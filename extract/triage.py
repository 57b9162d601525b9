"""Reviewer triage: which papers' claims to question first.

Each paper gets flags, each with the evidence (spans of the abstract, or the failure reason)
that triggered it, and a score.  A flag marked *per item* counts once per item (number,
name or sentence) up to three times; the others count once.  The score is the sum of
weight × count; papers are listed by score, highest first, then in file order.

============================  ======  ========  ================================================
flag                          weight  per item  fires when
============================  ======  ========  ================================================
``failed``                    5       no        the paper is in the errors file next to the
                                                records: nothing was extracted
``number_not_in_source``      4       yes       a number's text is not at its offsets or not in
                                                the abstract at all
``no_comparison``             3       no        results are claimed but none belongs to another
                                                named system (a baseline) and the paper's own
                                                sentences name no comparison ("than",
                                                "outperforms", "compared with", "baseline", ...)
``partial``                   3       yes       the model named strings that are not in the
                                                abstract; they were dropped
``result_no_metric``          2       yes       a result's claim does not say what it measures
                                                (metric null) and its sentence names no
                                                metric either
``value_mismatch``            2       yes       a number's value is not the numeral its text
                                                states ("85,229" read as 85.229)
``name_not_in_source``        2       yes       a method, dataset or claim name is not at its
                                                offsets / not in the abstract
``unsupported_superlative``   2       yes       one of the paper's own claim sentences says
                                                "state-of-the-art", "significantly",
                                                "outperforms", ... with no number in it
                                                (background sentences are not counted)
``settings_only``             2       no        there are numbers but all are settings (sizes,
                                                counts): no claimed result is quantified
``rules_disagree``            2       yes       the rules' reading of a number (kind, dataset,
                                                method) and the model's differ: read it first
                                                (``--disagree`` lists only these)
``result_no_dataset``         1       yes       a result's claim names no dataset although the
                                                paper names datasets, none in its sentence
``change_no_reference``       1       yes       a change (a gain, drop or speedup: ``value_type``
                                                "change") names no system it is measured against
                                                and its sentence names no reference at all
                                                ("over", "than", "upon", "baseline", "SOTA",
                                                "prior", ...): over what?
``no_numbers``                1       no        no number at all (not for ``theory`` papers)
``no_dataset``                1       no        no dataset named although the paper's own
                                                sentences report an evaluation (experiments,
                                                "evaluated on", benchmarks; not for ``theory``)
``other_schema``              0       no        the record is not of the default schema: shown,
                                                not scored
============================  ======  ========  ================================================

The paper's own claim sentences are those with a result number or one of its method names,
those in its own voice ("we", "our", "this paper", "the proposed") and those opening with
"Experiments"/"Results"; the rest (typically the opening background) are not searched for
superlatives or comparisons.  The cue lists are English-only and lexical: they point a
reviewer at a sentence, they do not judge it.
"""

from __future__ import annotations

from typing import Sequence

from .records import RecordSet
from .triage_cues import own_sentences, value_problem
from .triage_flags import failure_flags, paper_flags
from .triage_model import FLAG_TYPES, PER_ITEM_CAP, Evidence, Flag, FlagType, Marked, Triage, flags_help

__all__ = ["FLAG_TYPES", "PER_ITEM_CAP", "Evidence", "Flag", "FlagType", "Marked", "Triage", "failure_flags",
           "flags_help", "own_sentences", "paper_flags", "select", "triage", "value_problem"]


def triage(rs: RecordSet) -> list[Triage]:
    """Every paper of the records and errors files, highest score first."""
    out = []
    for p in rs.papers:
        flags = paper_flags(p)
        out.append(Triage(p.id, p.title, p.source, p.task, p.contribution, sum(f.points for f in flags), flags))
    for f in rs.failures:
        flags = failure_flags(f)
        out.append(Triage(f.id, None, f.source, "", "", sum(fl.points for fl in flags), flags, failed=True))
    order = {t.id: i for i, t in enumerate(out)}
    out.sort(key=lambda t: (-t.score, order[t.id]))
    return out


def select(items: Sequence[Triage], top: int | None = None, min_score: int | None = None,
           only: str | None = None) -> list[Triage]:
    """The items with a score of at least ``min_score`` (and flag ``only``), at most the
    first ``top`` of them."""
    out = [t for t in items if (min_score is None or t.score >= min_score)
           and (only is None or any(f.code == only for f in t.flags))]
    return out[:top] if top is not None else out
