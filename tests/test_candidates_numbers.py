"""Number candidates: every form the guideline names, plus property tests."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st

from extract.candidates import find_candidates, find_numbers, parse_number
from extract.text.numparse import parse_number_at
from extract.text.spans import rules_text, unemphasized


@pytest.mark.parametrize("span,expected", [
    ("85,229", (85229.0, None)),
    ("11.25%", (11.25, "%")),
    ("$\\sim650\\times$", (650.0, "×")),
    ("80B", (80e9, None)),
    ("32k", (32000.0, None)),
    ("79\\%", (79.0, "%")),
    ("$94.4$%", (94.4, "%")),
    ("-3.2", (-3.2, None)),
    ("+5.3%", (5.3, "%")),
    ("2.5x", (2.5, "×")),
    ("10^6", (1e6, None)),
    ("10^{6}", (1e6, None)),
    ("1e-3", (1e-3, None)),
    ("$3\\times 10^{-4}$", (3e-4, None)),
    ("1.2 million", (1.2e6, None)),
    ("± 0.3", (0.3, None)),
    ("d=53", (53.0, None)),
    ("120 ms", (120.0, "ms")),
    ("3.1 percentage points", (3.1, "pp")),
])
def test_parse_number_forms(span, expected):
    value, unit = parse_number(span)
    assert math.isclose(value, expected[0], rel_tol=1e-9)
    assert unit == expected[1]


@pytest.mark.parametrize("span", ["", "no digits", "three phases", None, 12])
def test_parse_number_none(span):
    assert parse_number(span) is None


def _texts(text):
    return [(c.text, c.value, c.unit) for c in find_numbers(text)]


@pytest.mark.parametrize("text,expected", [
    ("a speedup of $\\sim650\\times$ overall", [("$\\sim650\\times$", 650.0, "×")]),
    ("reducing cost by up to 79\\% over", [("79\\%", 79.0, "%")]),
    ("reaches $94.4$% recall", [("$94.4$%", 94.4, "%")]),
    ("contains 85,229 examples", [("85,229", 85229.0, None)]),
    ("a 32k context and an 80B model", [("32k", 32000.0, None), ("80B", 80e9, None)]),
    ("is 2.5x faster", [("2.5x", 2.5, "×")]),
    ("uses 10^6 and 10^{6} tokens", [("10^6", 1e6, None), ("10^{6}", 1e6, None)]),
    ("a learning rate of 1e-3 works", [("1e-3", 1e-3, None)]),
    ("with $d=53$ dimensions", [("$d=53$", 53.0, None)]),
    ("vocabulary size scales to $131,072$, along", [("$131,072$", 131072.0, None)]),
    ("(e.g., +5.3% average gain)", [("+5.3%", 5.3, "%")]),
    ("the loss changes by -3.2 on average", [("-3.2", -3.2, None)]),
    ("scores 85.2 ± 0.3 on it", [("85.2", 85.2, None), ("± 0.3", 0.3, None)]),
    ("a 4.7$\\times$ reduction", [("4.7$\\times$", 4.7, "×")]),
    ("latency of 120 ms", [("120 ms", 120.0, "ms")]),
    ("about 1.2 million pairs", [("1.2 million", 1.2e6, None)]),
    # a "×" before a number multiplies sizes, it is no "times" (unless rendered twice: "2\\times2\\times")
    ("a resolution of 1024 × 1024 pixels", [("1024", 1024.0, None), ("1024", 1024.0, None)]),
    ("on $160 \\times 160$ CelebA", [("160", 160.0, None), ("160", 160.0, None)]),
    ("2.4\\times2.4\\times faster", [("2.4\\times", 2.4, "×"), ("2.4\\times", 2.4, "×")]),
])
def test_find_numbers_forms(text, expected):
    assert _texts(text) == expected


def test_ranges_give_one_candidate_per_endpoint():
    got = _texts("gains of 3-5% and 10–20 points, 7 to 70B parameters")
    assert got == [("3", 3.0, "%"), ("5%", 5.0, "%"), ("10", 10.0, None), ("20", 20.0, None),
                   ("7", 7e9, None), ("70B", 70e9, None)]


def test_a_tilde_joins_a_range_as_a_dash_does():
    """"85∼95%", "2~3%", "3$\\sim$5 min": the first end takes the second's unit, as in "3-5%"
    (the one reading of a range's joint, extract.text.numparse.range_joint, which the claims share)."""
    got = _texts("it reaches 85∼95% of the full model and gains 2~3% in accuracy within 3$\\sim$5 min")
    assert [(t, u) for t, _, u in got] == [("85", "%"), ("∼95%", "%"), ("2", "%"), ("~3%", "%"), ("3", "min"),
                                           ("5 min", "min")]
    text = "it reaches 85∼95% of the full model"
    assert parse_number_at(text, 11, 13) == (85.0, "%")


@pytest.mark.parametrize("text", [
    "We fine-tune Llama3-8B and GPT-4 and GPT-4o-mini.",
    "Results with Qwen2.5-7B are reported.",
    "Accepted at NeurIPS 2026 as a poster.",
    "an $\\ell_1$ penalty and $O(n^2)$ time",
    "a threshold below the theoretical $\\frac{2}{\\eta}$ boundary",
    "reaches $\\epsilon$-suboptimality with $O(\\epsilon^{-2})$ sample complexity",
    "In Stage 2 and Phase 3 we train; see Table 4.",
    "as shown in prior work [12] and [3, 4].",
    "three phases and ten families",
    "on CIFAR-10 with top-1 accuracy and pass@1",
    "text-to-image (T2I) models and 3D scenes, the 2nd round",
    "see https://example.org/v2/123 for details",
    "first released in 2023 and updated since 2024.",
    "evaluated with Claude 3.5 Sonnet and AlpacaEval 2.0",
])
def test_digits_inside_names_are_skipped(text):
    assert find_numbers(text) == []


def test_years_as_quantities_are_kept():
    assert [c.value for c in find_numbers("context windows of 1024 and 2048 tokens")] == [1024.0, 2048.0]


@pytest.mark.parametrize("text,kinds", [
    ("improves accuracy by 9.2\\% while reducing latency", ["result"]),
    ("E-GEO contains 13,747 realistic, multi-sentence consumer product queries", ["setting"]),
    ("across 44 independently trained vision and language encoders", ["setting"]),
    ("a 7B model trained on 2 trillion tokens", ["setting", "setting"]),
    ("achieves a 3.5x speedup", ["result"]),
    ("improves average accuracy by 3.1 points", ["result"]),
    ("completes 18 of 20 trials", ["result", "setting"]),
    (r"for $\alpha = 0.7$ and $p = 1$ the bound holds, with r = 0.82 and $\rho = -0.62$",      # an assignment is a setting
     ["setting", "setting", "result", "result"]),
    ("using only 1% of the labels", ["setting"]),
    ("a 256-dimensional embedding and 8-bit weights", ["setting", "setting"]),
    ("the correlation is strong (r = 0.82, p < 0.001)", ["result", "result"]),
    ("it runs at 32 FPS, 30fps on a phone and 25 fps on a CPU", ["result", "result", "result"]),   # a speed measured
])
def test_kind_hints(text, kinds):
    assert [c.kind_hint for c in find_numbers(text)] == kinds


def test_about_hint_names_the_counted_thing():
    (c,) = find_numbers("DocPTBench comprises over 1,300 high-resolution photographed documents.")
    assert c.about_hint.endswith("documents")


def test_offsets_slice_back():
    text = "We get 79\\% and $94.4$% and $\\sim650\\times$ and +5.3% and 85,229 and 80B."
    for c in find_numbers(text):
        assert text[c.start:c.end] == c.text


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=200))
def test_property_offsets_and_no_raise(text):
    nums = find_numbers(text)
    for c in nums:
        assert text[c.start:c.end] == c.text
        assert isinstance(c.value, float)
    assert find_numbers(text) == nums


_NUMERIC_ALPHABET = "0123456789.,%$\\^{}-+±~ xXkKMBT×e=()[]abcdtimesum_"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=_NUMERIC_ALPHABET, max_size=60))
def test_property_numeric_soup(text):
    for c in find_numbers(text):
        assert text[c.start:c.end] == c.text
    r = parse_number(text)
    assert r is None or isinstance(r[0], float)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_property_parse_number_never_raises(text):
    parse_number(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_property_find_candidates_deterministic(text):
    a, b = find_candidates(text), find_candidates(text)
    assert a == b
    for n in a.numbers:                   # (a wrapped line's break read as a space)
        assert rules_text(text)[n.start:n.end] == n.text
    for n in a.names:                     # (and emphasis markup too)
        assert unemphasized(rules_text(text))[n.start:n.end] == n.text


def test_parse_number_agrees_with_find_numbers_on_shipped_abstracts():
    """Value and unit of every candidate re-parse from its own text, except a range's first
    endpoint, which inherits the unit/multiplier written after the second."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent
    for path in sorted((root / "gold").glob("*-abstracts.txt")):
        for text in path.read_text().split("\n")[1:]:
            cands = find_numbers(text)
            for c, nxt in zip(cands, cands[1:] + [None]):
                value, unit = parse_number(c.text)
                if nxt is not None and re.fullmatch(r"\s*(?:-|–|—|to|~|and)\s*", text[c.end:nxt.start]):
                    continue
                assert math.isclose(value, c.value, rel_tol=1e-9) and unit == c.unit, c


@pytest.mark.parametrize("span,expected", [("50\\,000", 50000.0), ("50{,}000", 50000.0), ("10 000", 10000.0),
                                           ("1\u2009000", 1000.0)])
def test_thousands_separators(span, expected):
    assert parse_number(span)[0] == expected
    assert [c.value for c in find_numbers(f"about {span} items")] == [expected]


def test_plural_numerals_are_not_seconds():
    from extract.candidates import find_numbers
    assert find_numbers("strings of 0s and 1s") == []
    assert find_numbers("since the 1990s") == []
    assert [(n.value, n.unit) for n in find_numbers("it took 10s per image")] == [(10.0, "s")]


def test_a_version_after_a_name_is_part_of_the_name_not_a_number():
    """'VQA 2.0', 'MultiWOZ 2.1': digits of a name (the guideline); a score after a measure and a
    number with a unit stay numbers."""
    from extract.candidates.numbers import find_numbers
    assert [n.text for n in find_numbers("We evaluate on VQA 2.0, MultiWOZ 2.1 and OntoNotes 5.0.")] == []
    assert [n.text for n in find_numbers("It reaches BLEU 27.3 and mAP 45.2 on COCO.")] == ["27.3", "45.2"]
    assert [n.text for n in find_numbers("FooNet 2.5 times faster, ResNeXt 5.5$\\times$ smaller")] == \
        ["2.5 times", "5.5$\\times$"]


def test_the_parser_reads_a_product_of_sizes_as_the_number_layer_does():
    """A span the model adds is read by parse_number: "224×224" is a size there too, no "times"."""
    assert parse_number("224×224") == (224.0, None) and parse_number("$160 \\times 160$") == (160.0, None)
    assert parse_number("2.5×") == (2.5, "×") and parse_number("2.4\\times2.4\\times") == (2.4, "×")


def test_a_latex_en_dash_is_no_minus_sign():
    """'10--15' is a range written with TeX's en dash, not 10 and -15."""
    got = [(n.text, n.value) for n in find_numbers("It cuts memory by a factor of 10--15 and errors by 5--8%.")]
    assert got == [("10", 10.0), ("15", 15.0), ("5", 5.0), ("8%", 8.0)]
