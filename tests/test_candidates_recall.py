"""Name recall and precision rules (issue 12, "The rules cap recall"), each on sentences
written for the test, not taken from a gold abstract."""

from __future__ import annotations

from extract.candidates import find_names, select_names
from extract.text.acronyms import acronym_definitions


def _by_text(text):
    return {c.text: c for c in find_names(text)}


def _selected(text, threshold=0.5):
    return select_names(find_names(text), threshold)


def test_hyphenated_first_word_belongs_to_the_long_form():
    d = acronym_definitions("Test-time adaptation (TTA) adjusts a model while it runs.")[0]
    assert d.long == "Test-time adaptation"
    d = acronym_definitions("We study zero-shot entity linking (ZEL) in depth.")[0]
    assert d.long == "zero-shot entity linking"


def test_long_form_of_a_generic_acronym_is_not_a_name():
    text = ("Scans from Magnetic Resonance Imaging (MRI) and Computed Tomography (CT) are noisy, "
            "so we evaluate on Large Language Models (LLMs) benchmarks.")
    methods, datasets = _selected(text)
    assert not {"Magnetic Resonance Imaging", "Computed Tomography", "Large Language Models"} & set(methods + datasets)


def test_long_form_of_a_new_acronym_is_still_a_name():
    methods, _ = _selected("We propose Sparse Echo Routing (SER), a router for experts.")
    assert {"Sparse Echo Routing", "SER"} <= set(methods)


def test_our_name_followed_by_model_is_the_papers_own():
    text = "We train ParaLex on web text. Our ParaLex models beat every baseline on QuoteBench."
    c = _by_text(text)["ParaLex"]
    assert c.role_hint == "method" and "model-cue" not in c.cues


def test_to_model_is_a_verb_not_a_model_cue():
    text = "We propose TabWeaver for synthetic rows. Long prompts let TabWeaver to model tables of any size."
    assert "model-cue" not in _by_text(text)["TabWeaver"].cues


def test_languages_are_not_datasets():
    text = ("We pool 30 English and Chinese datasets into one corpus. The benchmarks, including "
            "Hindi, Urdu and TyDiQA, cover many scripts.")
    _, datasets = _selected(text)
    assert not {"English", "Chinese", "Hindi", "Urdu"} & set(datasets)
    assert "TyDiQA" in datasets


def test_a_verb_after_a_dataset_noun_starts_no_list():
    text = "Collecting labelled datasets is labour-intensive. We propose LabelLoom to cut that cost."
    assert "labour-intensive" not in _by_text(text)


def test_participle_compounds_are_modifiers():
    text = "Using a GPU-accelerated simulator and a CLIP-conditioned policy, we train RoboDancer."
    names = _by_text(text)
    assert "GPU-accelerated" not in names and "CLIP-conditioned" not in names
    assert "RoboDancer" in names


def test_acronym_then_its_long_form_in_parentheses():
    d = acronym_definitions("We propose TIDE (Tidal Image Denoising), a denoiser for sonar.")
    assert [(x.short, x.long) for x in d] == [("TIDE", "Tidal Image Denoising")]
    methods, _ = _selected("We propose TIDE (Tidal Image Denoising), a denoiser for sonar.")
    assert {"TIDE", "Tidal Image Denoising"} <= set(methods)


def test_a_parenthesis_that_does_not_spell_the_acronym_is_no_long_form():
    assert acronym_definitions("We test on GSM8K (grade school math) and COCO (the 2017 split).") == []


def test_namely_after_a_dataset_noun_lists_datasets():
    text = "We propose RankFuse, which wins on three benchmarks, namely TriviaBase, WebQA and NatQ."
    methods, datasets = _selected(text)
    assert "TriviaBase" in datasets and "TriviaBase" not in methods
    assert "RankFuse" in methods


def test_namely_still_introduces_a_method():
    methods, _ = _selected("We design a new sampler, namely EchoSampler, for sparse graphs.")
    assert "EchoSampler" in methods


def test_a_name_and_its_gloss_without_commas_is_the_name():
    methods, _ = _selected("To solve this we propose GlowPath a novel technique that traces light paths.")
    assert "GlowPath" in methods and not any(" a novel" in m for m in methods)


def test_lowercase_plural_phrase_is_a_description():
    text = "We further propose sparse routing tables for the experts of a mixture."
    assert "sparse routing tables" not in _selected(text)[0]
    # with its acronym it is a name
    text = "We propose sparse routing tables (SRT) for the experts of a mixture."
    assert "sparse routing tables" in _selected(text)[0]
