"""The name a paper's title gives what the paper introduces: "EfficientNet: Rethinking Model
Scaling ...", "TAO: A Large-Scale Benchmark for Tracking Any Object", "Sever: A Robust
Meta-Algorithm ...".  The title's head (one token before a colon) is the paper's own artifact
when the abstract writes it as a whole word outside a URL; a dataset or benchmark when the
title's next words say so (their first noun of a kind, before "for/of/with/..."), else a method.
On the real corpus (10,901 abstracts) 2,051 titles open with one token and a colon, 1,528 of
those tokens are in their abstract, and the other rules missed 187 of them (docs/rule-precision.md).
The finder (:mod:`.name_finder`) calls :func:`title_head` with the title."""

from __future__ import annotations

import re

from ..text.lexicon import FUNCTION_WORDS, GENERIC_ACRONYMS
from ..text.literal import bounded_starts
from ..text.spans import excluded_spans
from .name_rules import TASK_NOUN_END
from .name_shapes import is_namey
from .rules import fire

__all__ = ["TITLE_HEAD", "title_head", "title_kind", "title_phrase_kind"]

TITLE_HEAD = re.compile(r"\s*(?P<head>[^\s:]{2,40})\s*:\s+(?P<rest>\S.*)", re.S)
# The head noun of the title's next phrase, by kind (the first one up to a preposition). Not
# contribution's _KIND: a title's kind noun follows method-like modifiers ("A Large Retail 3D Model
# Dataset"), and an adjective there is no kind ("MoTo: A Zero-shot Plug-in ... Navigation").
# (the prepositions a title's phrase ends at: no kind noun is read after one)
_PREPS = r"for|of|with|to|in|on|via|from|by|and|towards?"
_KIND = re.compile(rf"(?:(?!\b(?:{_PREPS})\b)[^;:])*?\b(?:"
                   r"(?P<dataset>datasets?|database|corpus|corpora|data\s+set)|(?P<benchmark>benchmarks?|test\s*bed|"
                   r"leaderboard|challenge|suite)|(?P<system>library|toolkit|toolbox|tool|package|software|platform)"
                   r")\b(?!-)", re.I)


# A title's head of two to five words, capitalized but for function words ("Staged Contact
# Optimization: ...", "The Moral Integrity Corpus: ..."), no list ("TreeQN and ATreeC").
_TITLE_RUN = re.compile(r"\s*(?:The\s+)?(?P<head>[A-Z0-9][^\s:,;&()]*(?:\s+(?!and\b)[^\s:,;&()]+){1,4})"
                        r"\s*:\s+(?P<rest>\S.*)", re.S)
_GOES_ON = re.compile(r"\s+(?:[A-Z]|for\s+[A-Z])")
# ... and no task's or problem's name ("we propose a new task called 'Complete the Look'", "the
# problem of Competitive Ant Coverage", "Federated Learning is a machine learning setting")
_TASK_BEFORE = re.compile(r"\b(?:tasks?|problems?|settings?)\b\W+(?:\w+\W+){0,2}$")
_TASK_AFTER = re.compile(r"\W*(?:\([^)]*\)\s*)?is\s+an?\s+(?:[\w-]+\s+){0,4}(?:task|problem|setting|topic)\b")


def title_kind(title: str | None) -> str | None:
    """What the title says its head is: dataset, benchmark or system; None for anything else
    (a method) or a title without a head."""
    m = TITLE_HEAD.match(title or "") or _TITLE_RUN.match(title or "")
    k = _KIND.match(m.group("rest")) if m else None
    return k.lastgroup if k else None


# A title whose own phrase is a collection ("MVTec AD -- A Comprehensive Real-World Dataset for
# ...", "Thai Nested Named Entity Recognition Corpus", "Text Is No More Enough! A Benchmark for ..."):
# its kind noun heads a part of the title (nothing but a preposition or a mark after it, no
# preposition before it), never a modifier ("Benchmark Generation Framework", "Dataset Geography"),
# and one: "Generating Synthetic Datasets by ...", "..., Datasets, Models and Methods" name none.
_PART = re.compile(r"\s*(?::|!|\?|\s[-–—]+\s)\s*")
_PHRASE_KIND = re.compile(rf"(?:towards?\s+)?(?:(?!\b(?:{_PREPS}|using)\b)[^;:])*?"
                          r"\b(?<!-)(?:(?P<dataset>dataset|database|corpus|data\s+set)|(?P<benchmark>benchmark)|"
                          r"(?P<system>library|toolkit|toolbox|tool|package|platform))"
                          rf"(?=\s*$|\s*[,.;(]|\s+(?:{_PREPS}|using|that)\b)", re.I)

_KIND_WORDS = ("data", "corpus", "benchmark", "librar", "tool", "package", "platform")    # (their first letters)


def title_phrase_kind(title: str | None) -> str | None:
    """dataset, benchmark or system when a part of the title is the phrase of one, else None."""
    low = (title or "").lower()
    if not any(w in low for w in _KIND_WORDS):
        return None
    for part in _PART.split(title or ""):
        if m := _PHRASE_KIND.match(part):
            return m.lastgroup
    return None


def title_head(f, title: str) -> None:
    """Add the title's head to finder ``f`` as the paper's own name (an introduced dataset when
    :func:`title_kind` says so), at its first whole-word occurrence outside a URL; and the long form
    of an acronym that is the whole title, or all of it after the head ("Rotational Unit of Memory",
    "... a novel RNN model ...: Rotational Unit of Memory (RUM)")."""
    m = TITLE_HEAD.match(title)
    whole = {" ".join(x.split()).rstrip(".").lower() for x in (title, m and m.group("rest")) if x}
    for a in list(f.aggs.values()):
        if "long-form" in a.cues and " " in a.text and a.text.lower() in whole:
            fire("title-long-form")
            f.add(a.start, a.end, {"title"}, method=0.8)
    if not m:
        m = _TITLE_RUN.match(title)
        if not m or TASK_NOUN_END.search(m.group("head")) or any(
                w[:1].islower() and w not in FUNCTION_WORDS for w in m.group("head").split()):
            return
    if m.group("head") in GENERIC_ACRONYMS:
        return
    head, t = m.group("head"), f.text
    urls = excluded_spans(t)
    # (a run of words is the name where the text does not go on with it: never "Behind the
    # Curtain" of "Behind the Curtain Detector")
    at = next((s for s in bounded_starts(t, head) if not any(a <= s < b for a, b in urls)
               and not (" " in head and (_GOES_ON.match(t, s + len(head)) or _TASK_BEFORE.search(t, max(0, s - 40), s)
                                        or _TASK_AFTER.match(t, s + len(head))))), None)
    if at is None:
        return
    fire("title-run" if " " in head else "title-head")
    shape = is_namey(head)[1] or "title"
    if title_kind(title) in ("dataset", "benchmark"):
        f.add(at, at + len(head), {"title", "introduced", "dataset-cue"}, method=0.85, dataset=0.85, shape=shape)
    else:
        f.add(at, at + len(head), {"title"}, method=0.8, shape=shape)      # (a dataset by its context stays one)
