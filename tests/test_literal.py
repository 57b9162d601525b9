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
