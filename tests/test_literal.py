"""extract.text.literal gives exactly the matches of the regular expressions it replaces."""

import re

from hypothesis import given, settings, strategies as st

from extract.text.literal import bounded_starts, starts

ALPHABET = "aAb1_-‐– .,é(Ab"
texts = st.text(alphabet=ALPHABET, max_size=60)
needles = st.text(alphabet=ALPHABET, min_size=1, max_size=4)


@settings(max_examples=400, deadline=None)
@given(texts, needles)
def test_starts_is_finditer_of_the_escaped_needle(text, needle):
    assert starts(text, needle) == [m.start() for m in re.finditer(re.escape(needle), text)]


@settings(max_examples=400, deadline=None)
@given(texts, needles)
def test_bounded_starts_is_the_word_and_hyphen_bounded_pattern(text, needle):
    pattern = r"(?<![\w\-‐–])" + re.escape(needle) + r"(?![\w\-‐–])"
    assert bounded_starts(text, needle) == [m.start() for m in re.finditer(pattern, text)]


def test_examples():
    t = "FooNet and FooNet-Lite beat xFooNet; FooNet."
    assert bounded_starts(t, "FooNet") == [0, t.rindex("FooNet")]
    assert starts("aaaa", "aa") == [0, 2]


def test_the_rules_compile_no_pattern_per_name():
    """The rules compile their patterns once: a second abstract that differs from a first only
    in its names compiles none (a pattern per name missed ``re``'s cache every time, cost more
    than the search, and pushed the rules' own patterns out of that cache)."""
    import re._compiler as compiler

    from extract.decision import decide

    shape = ("We propose {a}, a method for detecting forged signatures, and compare it with "
             "{b} and {c}-Large. On {d}Bench and {e}QA it reaches 91.2% accuracy, 3.1 points "
             "above {b}. {a} is released; the {e}QA benchmark and {d}Bench are used.")
    names = [("FooNet", "BarGPT", "Zeta", "Quux", "Wib"), ("PlimNet", "DrabGPT", "Kappa", "Morp", "Snig")]
    decide(shape.format(**dict(zip("abcde", names[0]))))
    real, seen = compiler.compile, []
    compiler.compile = lambda p, flags=0: seen.append(p) or real(p, flags)
    try:
        decide(shape.format(**dict(zip("abcde", names[1]))))
    finally:
        compiler.compile = real
    assert seen == []
