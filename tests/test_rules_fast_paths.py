"""The rule layer's fast paths give exactly what they replace: patterns rewritten so that re
scans for a literal (against the pattern they replace), scans written by hand (against the
pattern), and the cheap tests that skip a pattern (never where it matches)."""

import re

from hypothesis import given, settings, strategies as st

from extract.candidates import task
from extract.candidates.task_phrase import _drop_parens, plain
from extract.text.literal import folded
from extract.text.spans import _MATH, _URL, notice_spans
from extract.text.sentences import _SENT_END

ALPHABET = "aAbB1 .;!?\n\t$\\()[]_-—–`*\"'wW©cC:/"
texts = st.text(alphabet=ALPHABET, max_size=80)


def _matches(rx: re.Pattern, text: str) -> list:
    return [(m.span(), m.groups()) for m in rx.finditer(text)]


# pattern -> the pattern it replaces (same matches, same groups)
REWRITTEN = {
    _SENT_END: r"(?<=[.!?;])\s+(?=[A-Z\[(\"'`$*\\]|\d)|\n\s*\n",
    _MATH: r"(?<![\\$])\$(?!\$)([^$\n]{1,300}?)(?<!\\)\$|\\\((.{1,300}?)\\\)",
    _URL: r"https?://[^\s)\]>]+|\]\([^)\s]*\)|\bwww\.[^\s)]+",
}


@settings(max_examples=500, deadline=None)
@given(texts.map(lambda t: t.replace("w", "www.").replace("W", "Www")))
def test_rewritten_patterns_match_as_the_ones_they_replace(text):
    for rx, old in REWRITTEN.items():
        assert _matches(rx, text) == _matches(re.compile(old), text), old


@settings(max_examples=500, deadline=None)
@given(texts)
def test_plain_helpers_are_the_patterns_they_replace(text):
    assert _drop_parens(text) == re.sub(r"(?<!\s)\s*\([^()]*\)", "", text)
    from extract.candidates import task_phrase as tp
    assert tp._UNDERSCORE_WRAP.sub(r"\1", text) == re.sub(r"(?<![\w\\])_(?=[A-Za-z])([^_\n]+?)(?<=\S)_(?!\w)", r"\1",
                                                            text)
    assert tp._DASHES.sub(" — ", text) == re.sub(r"-{2,3}|—|–(?=\s)", " — ", text)
    plain.cache_clear()


def test_folded_holds_every_letter_re_ignorecase_matches():
    letter = re.compile("[a-z]", re.I)
    for c in map(chr, range(0x110000)):
        if letter.fullmatch(c):
            f = folded(c)
            assert len(f) == 1 and re.fullmatch(f, c, re.I), hex(ord(c))
    assert folded("İnput ſet ıt") == "input set it"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="©(cC) opyrightOPYRIGHT 2019.,ſıİ", max_size=40))
def test_notices_sought_only_where_one_can_be(text):
    from extract.text.spans import _NOTICE
    assert notice_spans(text) == [m.span() for m in _NOTICE.finditer(text)]


def test_task_cue_words_are_in_every_match():
    """A sentence matched by a task cue's pattern always passes its word test (_may)."""
    for rx in task._NEEDS:
        @settings(max_examples=50, deadline=None)
        @given(st.from_regex(rx))
        def check(s):
            assert task._may(rx, folded(s)), (rx.pattern, s)
        check()


# -- name_finder.dataset_lists -------------------------------------------------------------
from extract.candidates import contribution  # noqa: E402
from extract.candidates import name_cues as cue  # noqa: E402
from extract.candidates import name_finder as nf  # noqa: E402
from extract.candidates import name_forms  # noqa: E402
from extract.candidates import name_naming as naming  # noqa: E402
from extract.text.lexicon import DATASET_NOUN_ENDS, DATASET_NOUN_STARTS, DATASET_NOUNS, WE_STARTS  # noqa: E402
from extract.text.literal import matches_from, word_starts  # noqa: E402

_WORDS = ["datasets", "Benchmarks", "benchmark", "data sets", "DataSets", "corpora", "test set", "testbeds",
          "such as", "including", "e.g.,", "the", "and", "or", "on", "with", "across", "is", "to", "we", "can",
          "Cora", "PubMed", "wiki-small", "GLUE", "v2", "1.1", "COCO val2017", "WMT14 en-de", "simulated", "long-range",
          "repository", "ſuite", "İmageNet", "x_data", "(", ")", ":", ",", ";", ".", "\n"]
dataset_texts = st.lists(st.sampled_from(_WORDS), max_size=14).map(" ".join)


def _old_dataset_patterns() -> tuple[re.Pattern, re.Pattern]:
    """The two patterns as dataset_lists built them per call before they were compiled once."""
    item, gloss = nf._ITEM, nf._PAREN           # (the item as it reads today: the build is what is compared)
    lst = item + gloss + r"(?:\s*,\s*(?:and\s+|or\s+)?" + item + gloss + r"|\s+(?:and|or)\s+" + item + gloss + r")*"
    after = re.compile(cue.NOT_VERB + r"\b(?:" + DATASET_NOUNS + r")\s*(?:\(|:|,(?=\s*(?:such|like|"
                       r"including|e\.g|namely)))?\s*(?:such\s+as|like|"
                       r"including|e\.g\.,?|namely)?\s*(?:the\s+)?" + nf._NOT_A_VERB + r"(?P<lst>" + lst + r")", re.I)
    adjectives = r"(?:(?!(?:and|or|of|in|on|for|to|with|by|from|at|as|is|are|was|were|than)\b)[a-z][a-z\-]+\s+){0,2}?"
    before = re.compile(r"(?:\b(?:on|across|the|and|with)\s+)" + adjectives + r"(?P<lst>" + lst + r")\s+(?:"
                        + DATASET_NOUNS + r")\b")
    return after, before


@settings(max_examples=300, deadline=None)
@given(st.from_regex(re.compile(r"(?:" + DATASET_NOUNS + r")", re.I), fullmatch=True))
def test_every_dataset_noun_starts_with_one_of_its_starts_and_ends_with_one_of_its_ends(noun):
    assert folded(noun).startswith(DATASET_NOUN_STARTS), noun
    assert folded(noun).endswith(DATASET_NOUN_ENDS), noun


@settings(max_examples=400, deadline=None)
@given(dataset_texts)
def test_dataset_list_patterns_match_as_before(text):
    after, before = _old_dataset_patterns()
    fast = matches_from(nf._AFTER_NOUN, text, word_starts(text, DATASET_NOUN_STARTS))
    assert [(m.span(), m.groups()) for m in fast] == _matches(after, text)
    assert _matches(nf._BEFORE_NOUN, text) == _matches(before, text)


# -- name_finder's other scans, numbers, acronyms ------------------------------------------
from extract.candidates.name_shapes import SYMBOL_NAME, WRAPPED  # noqa: E402
from extract.candidates import task_phrase as tp  # noqa: E402
from extract.text import acronyms, numparse  # noqa: E402


@settings(max_examples=200, deadline=None)
@given(st.from_regex(WRAPPED), st.from_regex(SYMBOL_NAME), st.from_regex(naming.NAMED_OWN))
def test_scans_skipped_only_in_texts_they_cannot_match(wrapped, symbol, called):
    assert any(ch in wrapped for ch in nf._WRAPPERS)
    assert not symbol.isascii() or "$" in symbol
    assert any(w in called for w in naming.NAMING_WORDS)


_INTRO_WORDS = ["We", "we", "This paper", "this work", "Here we", "here, we", "ſhow", "also", "propose", "introduce",
                "presents", "it", "as", "our model", "X", "FooNet", "called", "named", "Bar", "so-called", "Baz",
                "a", "the", "of", ",", ".", "(", "1.5", "2,000", ".5", "GPT-4", "12 000", "TIDE", "(Tidal Image Denoising)",
                "RPKD (Random Prototype)", "x-Y (Long Form Here)", "which", "using", "is", ";", "$x$", "\\cite",
                "— and", "such as", "trained on", "Open Web Tables", "x-Multi-View", "of", "_Mirror", "Slow‐Fast",
                "Two–Agent", "contributes", "release", "develops a", "the notion of"]
intro_texts = st.lists(st.sampled_from(_INTRO_WORDS), max_size=14).map(" ".join)

OLD = {
    nf._NAMED_CAPITALIZED: nf._NAMED_CAPITALIZED.pattern.replace("(?=[cndt,])", "", 1),
    numparse.CORE: numparse.CORE.pattern.replace(r"(?=[\d.])", "", 1),
    tp.BOUNDARY: tp.BOUNDARY.pattern.replace(r"(?=[\s,;:?!.$\\])", "", 1),
    nf._CAPITALIZED_RUN: r"(?<![\w\-])(?:[A-Z][\w\-‐–]*[A-Za-z0-9])(?:\s+(?:(?:of|for|from)\s+)?"
                         r"[A-Z][\w\-‐–]*[A-Za-z0-9]){1,6}",
    name_forms._SPELLING_RUN: r"(?<![\w\-])[A-Z][\w\-‐–]*[A-Za-z0-9](?:\s+(?:(?:of|for|from|and)\s+)?"
                      r"[A-Z][\w\-‐–]*[A-Za-z0-9]){0,6}",
    acronyms.ACRO_BEFORE_PAREN: r"(?<![\w\-])(?P<acr>[A-Z][A-Za-z0-9]*(?:[-‐–][A-Za-z0-9]+)*)\s*\((?P<long>[A-Za-z]"
                                r"[^()\n;]{2,120}?)\s*\)",
}


@settings(max_examples=400, deadline=None)
@given(intro_texts)
def test_name_scans_match_as_before(text):
    for rx in (nf._INTRO_VERB_THEN, contribution._INTRO, contribution._NEW):     # tried at a subject only
        fast = matches_from(rx, text, word_starts(text, WE_STARTS))
        assert [(m.span(), m.groups()) for m in fast] == _matches(rx, text)
    named = matches_from(naming.NAMED_OWN, text, word_starts(text, naming.NAMING_WORDS))
    assert [(m.span(), m.groups()) for m in named] == _matches(naming.NAMED_OWN, text)
    for rx, old in OLD.items():
        assert old != rx.pattern and _matches(rx, text) == _matches(re.compile(old, rx.flags), text), old


# -- claim_metric.HEADS, contribution._THEORY, name_shapes.TOKEN and WRAPPED ----------------
from extract.candidates import claim_metric, claims_doc, contribution, name_shapes  # noqa: E402

_SHAPE_WORDS = ["accuracy", "Top-1 accuracy", "F1", "mAP", "AUC", "ſuccess rate", "Kendall", "\u212aendall", "İoU", "mıou", "R^2",
                "x-accuracy", "@map", "a", "in time", "We prove", "Upper bounds", "theoretical", "ıdentifiable",
                "NP-hardness", "bound", "Foo-Net", "x1", "\\tau", "@b", "_c", "$", "$x$", "\\$", "$$", "**Bold**",
                "`code`", "\"q\"", "\\emph{x}", "drop", "-", ".", ",", "\n", "(", "é", "c++", "ab--", "+", "/", "&", "aB", "x.y", "7B", "1.5M", "b-C"]
shape_texts = st.lists(st.sampled_from(_SHAPE_WORDS), max_size=14).map(lambda ws: "".join(
    w + " " * (i % 3 != 2) for i, w in enumerate(ws)))
OLD_SHAPES = {
    claim_metric.HEADS: claim_metric.HEADS.pattern.replace("(?=[abcdefhiklmnoprstw])", "", 1),
    name_shapes.TOKEN: r"(?<![\w\\@])[A-Za-z][A-Za-z0-9]*(?:(?:--|[-‐–/+&.])[A-Za-z0-9]+)*",
    name_shapes.WRAPPED: name_shapes.WRAPPED.pattern.replace(r"|\$(?<![\\$]\$)(?!", r"|(?<![\\$])\$(?!", 1),
}


@settings(max_examples=400, deadline=None)
@given(shape_texts)
def test_shape_and_metric_scans_match_as_before(text):
    for rx, old in OLD_SHAPES.items():
        want = _matches(re.compile(old, rx.flags), text)
        if rx is name_shapes.TOKEN:     # TOKEN skips what tokens() skipped: a plain lower-case word no "+" follows
            want = [(sp, g) for sp, g in want if not (re.fullmatch("[a-z]+", text[sp[0]:sp[1]])
                                                      and text[sp[1]:sp[1] + 1] != "+")]
        assert old != rx.pattern and _matches(rx, text) == want, old
    old = r"(?<![\w\-.])[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*(?:\s\d+(?:\.\d+)?[BM]\b)?"     # less the ones with no capital
    assert _matches(claims_doc._SYSTEM_TOKEN, text) == [(m.span(), ()) for m in re.finditer(old, text) if not m[0].islower()]
    for rx, old in ((claim_metric._FOLDED_HEADS, OLD_SHAPES[claim_metric.HEADS]),     # on the fold: as re.I on the text
                    (contribution._THEORY, contribution._THEORY.pattern.replace("(?=[abceghilmnoprstuw])", "", 1))):
        assert _matches(rx, folded(text)) == _matches(re.compile(old, re.I), text), old


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="aAbZz1).!?%] -/", max_size=40))
def test_glued_sentence_ends_sought_only_where_one_can_be(text):
    from extract.text.sentences import _GLUED_END, _GLUED_HINT
    assert bool(_GLUED_HINT.search(text)) or not _GLUED_END.search(text)
