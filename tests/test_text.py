"""The text toolkit (extract.text): its doctests, and the properties its users rely on."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest
from hypothesis import given, strategies as st

import extract.text
from extract.text import acronym_definitions, is_model_name, parse_number, sentence_at, sentence_bounds, sentences

MODULES = [m.name for m in pkgutil.iter_modules(extract.text.__path__, "extract.text.")]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    res = doctest.testmod(importlib.import_module(name))
    assert res.failed == 0


@given(st.text(alphabet="Ab1 .;!?\n$(", max_size=80))
def test_sentence_bounds_cover_in_order(text):
    bounds = sentence_bounds(text)
    assert bounds[0][0] == 0 and bounds[-1][1] == len(text)
    for (s0, e0), (s1, e1) in zip(bounds, bounds[1:]):
        assert s0 <= e0 <= s1 <= e1 and text[e0:s1].strip() == ""
    for pos in range(len(text)):
        s, e = sentence_at(bounds, pos)
        assert s <= pos or s == bounds[0][0]


def test_the_rule_layer_splits_at_every_period():
    text = "Results follow Smith et al. The model wins. See Fig. 3 for more."
    assert len(sentences(text)) == 4


def test_acronym_long_forms_are_source_slices():
    text = "We train a Mixture of Experts (MoE) with Low-Rank Adaptation (LoRA; Hu et al.) and a GAN (GAN)."
    got = {d.short: d.long for d in acronym_definitions(text)}
    assert got == {"MoE": "Mixture of Experts", "LoRA": "Low-Rank Adaptation", "GAN": None}
    for d in acronym_definitions(text):
        assert text[d.start:d.end] == d.short
        assert d.long is None or text[d.long_start:d.long_end] == d.long


@pytest.mark.parametrize("text,long", [
    # the words' initials win over the shortest spelling (which reads "Constrained Hierarchical ...")
    ("an optimization-based Communication Resource Constrained Hierarchical Federated Learning (CRCHFL) framework",
     "Communication Resource Constrained Hierarchical Federated Learning"),
    ("a novel CM model, Asymmetric Mixed-Modal Moderation (AM3), to target", "Asymmetric Mixed-Modal Moderation"),
    ("we present Attend-and-Compare Module (ACM) for", "Attend-and-Compare Module"),        # one hyphenated word
    ("named Gradient-guided Knowledge Distillation (GKD).", "Gradient-guided Knowledge Distillation"),
    ("Socially Guided Intrinsic Motivation with Procedure Babbling (SGIM-PB).",
     "Socially Guided Intrinsic Motivation with Procedure Babbling"),
    ("Market1501, MSMT17 (Multi-Scene Multi-Time), and", []),       # "17" repeats nothing: no spelling
    # a 2 or a 4 is the word "to" or "for"; a function word inside a hyphenated word is not skipped
    ("we leverage a learning-to-learn (L2L) scheme", "learning-to-learn"),
    ("direct speech-to-unit translation (S2UT) models", "speech-to-unit translation"),
    # an article or "as" ends a long form
    ("is modeled as a multimodal image-to-image translation (MMI2IT) problem", [None]),
    # a digit-led acronym; glued to a word, a parenthesis holds arguments
    ("we then present 3D Neural Architecture Search (3D-NAS) to search", "3D Neural Architecture Search"),
    ("We design a new algorithm for WB(3CNF, 0-Val) by reducing it", []),
    # a hyphen in the acronym separates nothing its words spell
    ("we proposed an efficient Coarse-to-Fine Facet-Aware Ranking (C2F-FAR) framework",
     "Coarse-to-Fine Facet-Aware Ranking"),
    # a long form in quotes or emphasis ends before its closing mark
    ("we propose the “inverse square root linear unit” (ISRLU), a new", "inverse square root linear unit"),
    ("two submodules: \\emph{Optical Flow Encoder} (OFE) and", "Optical Flow Encoder"),
    # the acronym's capitals are its capitalized words' initials, lower-case words between them
    ("we propose a Dialogue structure and Disease knowledge aware Network (DDN), where",
     "Dialogue structure and Disease knowledge aware Network"),
    ("using the Real Time Recurrent Learning algorithm (RTRL) online", "Real Time Recurrent Learning algorithm"),
    ("a Multilevel Medical Embedding (MiME) of visits", "Multilevel Medical Embedding"),
    ("we study Batch Bayesian optimisation (BO) in parallel", "Bayesian optimisation"),
    # a list's words spell it across its commas; a function word may spell a letter or be skipped
    ("the Look, Listen, and Parse (LLP) dataset", "Look, Listen, and Parse"),
    ("a single recurrent Memory, Attention, and Control (MAC) cell", "Memory, Attention, and Control"),
    ("we use Learning to Rank (LTR) here", "Learning to Rank"),
    ("Specifically, we suggest an efficient sequential Monte Carlo (SMC) sampler", "sequential Monte Carlo"),
])
def test_acronym_long_form_by_initials(text, long):
    assert [d.long for d in acronym_definitions(text)] == (long if isinstance(long, list) else [long])



@pytest.mark.parametrize("name,expected", [("GPT-4o", True), ("Qwen2.5-7B", True), ("BERT-base", True),
                                           ("EvalAwareBench", False), ("ImageNet", False)])
def test_model_name(name, expected):
    assert is_model_name(name) is expected


@pytest.mark.parametrize("span,expected", [("85,229", (85229.0, None)), ("3\\times10^{-4}", (3 * 10.0 ** -4, None)),
                                           ("+5.3 pp", (5.3, "pp")), ("12 GPU-hours", (12.0, "GPU-hours")),
                                           ("GPT-4 reaches 71%", (71.0, "%")), ("no digits", None)])
def test_parse_number(span, expected):
    assert parse_number(span) == expected
