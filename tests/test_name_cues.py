"""name_cues.EndCue: its prefilters never change what its pattern finds."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from extract.candidates import name_cues as cue

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from candidates_dump import corpus  # noqa: E402  (bench/candidates_dump.py: seeds/ and tests/gold/)

END_CUES = {k: v for k, v in vars(cue).items() if isinstance(v, cue.EndCue)}


def _span(m):
    return m and m.span()


def test_every_end_cue_is_found():
    assert {"INTRO_BEFORE", "DATASET_BEFORE", "ON_BEFORE", "TRAINED_ON_BEFORE", "OUR_BEFORE"} <= set(END_CUES)


def test_same_matches_as_the_pattern_before_every_word_of_the_local_abstracts():
    # the windows the name rules search: up to 160 characters before a word
    checked = hits = 0
    for _, text in corpus():
        for w in re.finditer(r"(?<!\S)[^\s]", text):
            before = text[max(0, w.start() - 160):w.start()]
            for name, c in END_CUES.items():
                want = _span(c.pattern.search(before))
                assert _span(c.search(before)) == want, (name, before)
                checked += 1
                hits += want is not None
    assert checked > 100_000 and hits > 1_000


# a window each cue matches, for every kind of ending its matches have
_MATCHED = [
    ("DATASET_BEFORE", "results on the benchmarks "), ("DATASET_BEFORE", "two datasets: "), ("DATASET_BEFORE", "two datasets ("),
    ("DATASET_BEFORE", "the benchmark — "), ("DATASET_BEFORE", "datasets such as "), ("DATASET_BEFORE", "datasets like the "),
    ("DATASET_BEFORE", "corpora including "), ("DATASET_BEFORE", "a suite includes "), ("DATASET_BEFORE", "the suite include "),
    ("DATASET_BEFORE", "benchmarks, e.g., "), ("DATASET_BEFORE", "benchmarks e.g. "), ("DATASET_BEFORE", "benchmarks namely "),
    ("DATASET_BEFORE", "the dataset ["), ("DATASET_BEFORE", "data sets such as Foo, Bar and "),
    ("DATASET_BEFORE", "testbeds like Foo or the "), ("DATASET_BEFORE", "environments such as Foo, "),
    ("DATASET_BEFORE", "a public sources "),
    ("DATASET_COMMA_BEFORE", "a new corpus, "), ("DATASET_COMMA_BEFORE", "a new corpus, the "),
    ("NAMELY_DATASETS", "datasets, namely "), ("NAMELY_DATASETS", "datasets, i.e. "), ("NAMELY_DATASETS", "datasets i.e., "),
    ("SELF_DATASET_BEFORE", "our new benchmark "), ("SELF_DATASET_BEFORE", "a curated test set, "),
    ("SELF_DATASET_BEFORE", "a newly built collection called "), ("SELF_DATASET_BEFORE", "our splits named "),
    ("SELF_DATASET_BEFORE", "our archive dubbed "), ("SELF_DATASET_BEFORE", "our repository termed "),
    ("NOUN_CALLED_BEFORE", "a dataset which we call "), ("NOUN_CALLED_BEFORE", "a corpus we name "),
    ("NOUN_CALLED_BEFORE", "a suite we term "), ("NOUN_CALLED_BEFORE", "a suite we dub "),
    ("NOUN_CALLED_BEFORE", "a benchmark called "), ("NOUN_CALLED_BEFORE", "a benchmark, named "),
    ("DATA_FROM_BEFORE", "data from "), ("DATA_FROM_BEFORE", "images from the "), ("DATA_FROM_BEFORE", "questions drawn from Foo, "),
    ("DATA_FROM_BEFORE", "questions drawn from Foo and "), ("DATA_FROM_BEFORE", "questions drawn from Foo v2 or "),
    ("TRAINED_ON_BEFORE", "models trained on "), ("TRAINED_ON_BEFORE", "pre-trained on the "),
    ("TRAINED_ON_BEFORE", "fine-tuned on 10,000 hours of "), ("TRAINED_ON_BEFORE", "trained on Foo, "),
    ("TRAINED_ON_BEFORE", "finetuning it on Foo and "), ("TRAINED_ON_BEFORE", "training on Foo or "),
    ("OUR_BEFORE", "with our "), ("OUR_BEFORE", "our new "), ("OUR_BEFORE", "our novel "), ("OUR_BEFORE", "our proposed "),
    ("OUR_BEFORE", "our resulting "),
    ("ON_BEFORE", "it scores well on "), ("ON_BEFORE", "across the "), ("ON_BEFORE", "on challenging "),
    ("ON_BEFORE", "on standard "), ("ON_BEFORE", "across popular "), ("ON_BEFORE", "on Foo, "), ("ON_BEFORE", "on Foo Bar and "),
    ("ON_BEFORE", "on Foo or "),
    ("RESULT_ON_BEFORE", "2% on "), ("RESULT_ON_BEFORE", "results across the "), ("RESULT_ON_BEFORE", "gains on Foo, "),
    ("RESULT_ON_BEFORE", "gains on Foo and "),
    ("INTRO_OUR_NOUN", "our method "), ("INTRO_OUR_NOUN", "our new objective, "), ("INTRO_OUR_NOUN", "our proposed tool called "),
    ("INTRO_OUR_NOUN", "our library, dubbed "),
    ("INTRO_BEFORE", "we propose "), ("INTRO_BEFORE", "we propose a simple yet effective "), ("INTRO_BEFORE", "namely "),
    ("INTRO_BEFORE", "i.e., "), ("INTRO_BEFORE", "denoted as "), ("INTRO_BEFORE", "abbreviated as "),
    ("INTRO_BEFORE", "referred to as "), ("INTRO_BEFORE", "we put forward "), ("INTRO_BEFORE", "a model called **"),
    ("COORD_INTRO_BEFORE", "We study drift and construct "),
]


@pytest.mark.parametrize("name, window", _MATCHED)
def test_each_kind_of_ending_is_found(name, window):
    c = getattr(cue, name)
    assert c.pattern.search(window)
    for s in (window, window.upper(), window.rstrip(), window.rstrip() + "\n", "It was so. " + window):
        assert _span(c.search(s)) == _span(c.pattern.search(s))



_WORDS = sorted(set(cue._NOUN_WORDS + cue._INTRO_NEEDS + cue._LIST_ENDS + cue._OUR_NOUNS + cue._CALLED_WORDS)
                | {"we", "propose", "such", "as", "like", "including", "e.g.,", "namely", "i.e.,", "on", "across", "of",
                   "our", "new", "trained", "pre-trained", "fine-tuned", "from", "data", "drawn", "results", "2%",
                   "this", "paper", "then", "a", "novel", "[", "(", ":", "—", "**", "Foo", "X-1", "ıs", "İn", "ſet",
                   "Kit", "Łódź", "Café"})
_SEPS = st.sampled_from([" ", " ", " ", "  ", "\n", "\t", ", ", "", "\u00a0"])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_WORDS), st.sampled_from(["lower", "upper", "title", "same"]), _SEPS),
                max_size=9), st.sampled_from(["", " ", "\n", " \n", "  "]))
def test_same_matches_as_the_pattern_on_made_up_windows(parts, tail):
    s = "".join(getattr(w, case)() if case != "same" else w for w, case, _ in parts[:1]) + "".join(
        sep + (getattr(w, case)() if case != "same" else w) for w, case, sep in parts[1:]) + tail
    for name, c in END_CUES.items():
        assert _span(c.search(s)) == _span(c.pattern.search(s)), (name, s)


def test_a_prefilter_passes_a_text_it_cannot_read_exactly():
    # re.IGNORECASE equates the dotless ı with i, ſ with s, the Kelvin sign with k: lower case
    # does not, so a text that is not ASCII goes to the pattern itself
    for s in ("results on the ſet", "trained on the data of", "our propoſed ", "our neẇ "):
        for c in END_CUES.values():
            assert _span(c.search(s)) == _span(c.pattern.search(s))
    assert cue.OUR_BEFORE.search("We present our propoſed ") and cue.OUR_BEFORE.pattern.search("our propoſed ")
