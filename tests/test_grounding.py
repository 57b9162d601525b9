from hypothesis import given, strategies as st

from extract.grounding import Aligner, align, unwrap


def test_exact_fuzzy_and_missing():
    s = r"We reach 79\% and $\sim650\times$ with **EpiPivot** on Llama3-8B, 8 GPUs."
    assert align(s, "79%").text == r"79\%" and align(s, "79%").status == "fuzzy"
    span = align(s, "**EpiPivot**", unwrap_name=True)
    assert (span.text, span.status) == ("EpiPivot", "exact")
    assert align(s, "epipivot").text == "EpiPivot"
    assert align(s, "ImageNet") is None


def test_digits_inside_names_are_not_matched():
    s = "Llama3-8B beats GPT-4 with 8 layers."
    span = align(s, "8")
    assert s[span.start:span.end] == "8" and span.start == s.index("8 layers")
    assert align("Only Llama3-8B here.", "8") is None


def test_taken_spans_prefer_the_next_occurrence():
    s = "10 runs, then 10 more."
    a = Aligner(s)
    first = a.align("10")
    second = a.align("10", taken=frozenset({(first.start, first.end)}))
    assert (first.start, second.start) == (0, s.rindex("10"))


def test_unwrap():
    assert unwrap(r"\texttt{FooNet}") == "FooNet"
    assert unwrap("**`Bar`**") == "Bar"
    assert unwrap(" plain ") == "plain"


@given(st.text(min_size=1, max_size=200), st.data())
def test_any_substring_aligns_back(source, data):
    i = data.draw(st.integers(0, len(source) - 1))
    j = data.draw(st.integers(i + 1, len(source)))
    span = Aligner(source).align(source[i:j])
    if span is not None:
        assert source[span.start:span.end] == span.text


@given(st.text(max_size=200), st.text(max_size=30))
def test_align_never_returns_a_wrong_slice(source, needle):
    span = align(source, needle, unwrap_name=True)
    assert span is None or source[span.start:span.end] == span.text


def test_a_number_is_exported_at_the_occurrence_the_rules_found():
    """A number whose text occurs earlier in a formula ("$x_2$") keeps the rules' own offset,
    not the first occurrence of its text; two occurrences of one text are two numbers."""
    from extract import extract

    text = "Let $x_2$ be the input. We evaluate on 2 benchmarks and reach 81.5% accuracy, 2 points above the baseline."
    got = [(n["text"], n["start"]) for n in extract(text)["extraction"]["numbers"]]
    assert got == [("2", 39), ("81.5%", 62), ("2", 78)]
    twice = "The model runs at 30 FPS on one GPU. With pruning it still runs at 30 FPS."
    assert [n["start"] for n in extract(twice)["extraction"]["numbers"]] == [18, 67]


def test_a_character_that_lower_cases_to_two_keeps_the_offsets():
    """"İ" lower-cases to "i̇" (two code points): the normalized text's index stays one entry per
    character, so a fuzzy match after it maps back to the right span (found by hypothesis)."""
    source = "1 İ 00 and then FooNet"
    span = align(source, "**FooNet**", unwrap_name=True)
    assert span is not None and source[span.start:span.end] == "FooNet"
    span = align(source, "i̇ 00")
    assert span is not None and source[span.start:span.end] == "İ 00"
