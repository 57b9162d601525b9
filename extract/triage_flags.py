"""The flags one paper (or one failure) raises, with their evidence (:mod:`extract.triage`
lists them with their weights)."""

from __future__ import annotations

import re

from .text import sentence_at, sentence_bounds
from .names import NameIndex
from .records import Failure, Number, Paper, Span
from .triage_context import marked_context
from .triage_cues import (COMPARISON, DIGIT_QUANTITY, EVALUATION, METRIC_WORDS, REFERENCE, SUPERLATIVE,
                          own_sentences, span_problem, value_problem)
from .triage_model import FLAG_TYPES, Evidence, Flag


def _claim_spans(n: Number) -> list[tuple[str, Span]]:
    out = [(f, s) for f, s in (("metric", n.metric), ("dataset", n.dataset), ("method", n.method),
                               ("compared_to", n.compared_to))
           if isinstance(s, Span) and s.text]
    return out


def paper_flags(p: Paper) -> list[Flag]:
    """Every flag one paper raises, with its evidence."""
    text, bounds = p.text, sentence_bounds(p.text)
    found: dict[str, list[Evidence]] = {}

    def add(code: str, ev: Evidence) -> None:
        found.setdefault(code, []).append(ev)

    def ev_span(s: Span, note: str = "") -> Evidence:
        if s.grounded:
            return Evidence(s.text, s.start, s.end, marked_context(text, bounds, s.start, s.end), note)
        return Evidence(s.text, s.start, s.end, "", note)

    if not p.schema_ok:
        add("other_schema", Evidence("", note="extraction fields missing or of another shape"))
    for d in p.dropped:
        add("partial", Evidence(d, note="dropped: not in the abstract"))
    for n in p.numbers:
        why = span_problem(text, n)
        if why:
            add("number_not_in_source", Evidence(n.text, n.start, n.end, "", why))
    for n in p.numbers:
        why = value_problem(n.text, n.value)
        if why:
            add("value_mismatch", ev_span(n, why))
    names = [*(("method", m) for m in p.methods), *(("dataset", d) for d in p.datasets),
             *(("claim " + f, s) for n in p.numbers for f, s in _claim_spans(n))]
    seen: set = set()
    for what, s in names:
        why = span_problem(text, s)
        if why and (s.text, s.start) not in seen:
            seen.add((s.text, s.start))
            add("name_not_in_source", Evidence(s.text, s.start, s.end, "", f"{what}: {why}"))
    if not p.schema_ok:
        return _finish(found)

    def by_sentence(code: str, nums: list, note) -> None:
        """One evidence item per sentence, every number of it marked; ungrounded ones alone."""
        groups: dict[int, list] = {}
        for n in nums:
            if n.grounded:
                groups.setdefault(sentence_at(bounds, n.start)[0], []).append(n)
            else:
                add(code, ev_span(n, note(n)))
        for ns in groups.values():
            first = ns[0]
            add(code, Evidence(", ".join(n.text for n in ns), first.start, first.end,
                               marked_context(text, bounds, first.start, first.end,
                                              more=[(n.start, n.end) for n in ns[1:]]),
                               "; ".join(x for x in (note(n) for n in ns) if x)))

    results = [n for n in p.numbers if n.kind == "result"]
    own = own_sentences(p, bounds)
    own_text = " ".join(text[a:b] for a, b in bounds if a in own)
    systems = [n.method.text for n in results if isinstance(n.method, Span) and n.method.text.strip()]
    index = NameIndex()  # the paper's own names, long form and acronym merged
    index.add(p.id, [m.text for m in p.methods] + systems, text)
    own_groups = {index.group(m.text, p.id) for m in p.methods}
    compared = any(index.group(s, p.id) not in own_groups for s in systems) or \
        any(n.compared_to for n in results)     # a change measured against a named system
    if results and not compared and not COMPARISON.search(own_text):
        by_sentence("no_comparison", results, lambda n: "")
    dataset_names = [re.compile(r"(?<!\w)" + re.escape(d.text) + r"(?!\w)") for d in p.datasets
                     if d.text.strip()]
    for n in results:
        if not n.has_claims:
            continue
        # a flag names what the paper's text lacks, not what the extractor missed: a metric
        # stated in the number's sentence, or one of the record's datasets named there
        lo, hi = sentence_at(bounds, n.start) if n.grounded else (0, 0)
        sentence = text[lo:hi]
        if n.metric is None and not (n.grounded and METRIC_WORDS.search(sentence)):
            add("result_no_metric", ev_span(n, "metric: not stated"))
        if n.dataset is None and p.datasets and not (n.grounded and any(rx.search(sentence) for rx in dataset_names)):
            add("result_no_dataset", ev_span(n, "dataset: none named for this result"))
        if n.is_change and n.compared_to is None and n.grounded and \
                not REFERENCE.search(text, *sentence_at(bounds, n.start)):
            add("change_no_reference", ev_span(n, "a change: measured against what is not said"))
    for n in p.numbers:
        if n.rules_agree is False:
            add("rules_disagree", ev_span(n, _reading(n)))
    number_sentences = {sentence_at(bounds, n.start)[0] for n in p.numbers if n.grounded}
    superlatives: dict[int, list[re.Match]] = {}
    for m in SUPERLATIVE.finditer(text):
        lo, hi = sentence_at(bounds, m.start())
        if lo not in own or lo in number_sentences or DIGIT_QUANTITY.search(text, lo, hi):
            continue
        superlatives.setdefault(lo, []).append(m)
    for ms in superlatives.values():
        first = ms[0]
        add("unsupported_superlative", Evidence(
            ", ".join(dict.fromkeys(m.group(0) for m in ms)), first.start(), first.end(),
            marked_context(text, bounds, first.start(), first.end(), more=[m.span() for m in ms[1:]])))
    if p.numbers and not results and all(n.kind == "setting" for n in p.numbers):
        by_sentence("settings_only", p.numbers, lambda n: n.about)
    if p.contribution != "theory":
        if not p.numbers:
            add("no_numbers", Evidence("", note="the extraction has no numbers"))
        if not p.datasets:
            # only when the paper's own sentences report an evaluation: a text that evaluates
            # nothing lacks no dataset
            m = next((m for m in EVALUATION.finditer(text) if sentence_at(bounds, m.start())[0] in own), None)
            if m:
                add("no_dataset", Evidence(m.group(0), m.start(), m.end(),
                                           marked_context(text, bounds, m.start(), m.end()),
                                           "evaluation reported, no dataset named"))
    return _finish(found)


def _reading(n: Number) -> str:
    """The record's reading of a number, as a note: kind, dataset, method."""
    method = n.method.text if isinstance(n.method, Span) else ('"" (own approach)' if n.method == "" else "none")
    return f"kept: {n.kind or '?'}; dataset {n.dataset.text if n.dataset else 'none'}; method {method}"


def _finish(found: dict[str, list[Evidence]]) -> list[Flag]:
    flags = [Flag(c, FLAG_TYPES[c].weight, FLAG_TYPES[c].label, ev) for c, ev in found.items()]
    flags.sort(key=lambda f: (-f.points, -f.weight, f.code))
    return flags


def failure_flags(f: Failure) -> list[Flag]:
    note = f.reason + (f" (after {f.attempts} attempt{'s' if f.attempts != 1 else ''})" if f.attempts else "")
    return [Flag("failed", FLAG_TYPES["failed"].weight, FLAG_TYPES["failed"].label, [Evidence("", note=note)])]
