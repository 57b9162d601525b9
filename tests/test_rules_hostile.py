"""Hostile text does not stall the rule layer (issue 20, "Hangs"): every pass is linear in the
abstract's length, with no truncation.  The shapes below took minutes before (``1,1,1,...``
grew with the square of its length: 75 s at 8,000 characters); each test must finish within
pytest-timeout's bound and still read the ordinary sentence around the hostile part, and the
rules' CPU time may grow about 4x when the text grows 4x, never 16x (quadratic).  The figures
per shape are printed by bench/rules_adversarial.py."""

from __future__ import annotations

import time

import pytest

from extract.decision import decide

NORMAL = "We propose FooNet. On COCO, FooNet reaches 52.1 AP at 120 FPS. "

SHAPES = {
    "run of spaces": NORMAL + " " * 20000 + NORMAL,
    "run of line breaks": NORMAL + " \n" * 10000 + NORMAL,
    "1,1,1,...": NORMAL + ",".join(["1"] * 6000) + ". " + NORMAL,
    "numbers and separators": NORMAL + " ".join(f"{i % 97}.{i % 7}% ;" for i in range(2500)) + ". " + NORMAL,
    "brackets": NORMAL + "(" * 10000 + ")" * 10000 + " " + NORMAL,
    "one 20k-character sentence": NORMAL + "FooNet improves BLEU by 2.1 points on WMT14 and " * 420 + "ends. " + NORMAL,
    "acronyms inside long forms": NORMAL + " ".join(f"gamma delta (GD{i % 9}) based model combination (GD{i % 9}MC)"
                                                     for i in range(600)) + ". " + NORMAL,
    # each "a" may spell a letter of the acronym or be skipped: read once per (word, letter)
    "function words before a long acronym": NORMAL + "a " * 400 + "(" + "A" * 40 + "B) " + NORMAL,
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", list(SHAPES))
def test_hostile_shapes_finish_and_keep_the_ordinary_claim(name):
    rec = decide(SHAPES[name])
    ap = [n for n in rec["numbers"] if n["text"] == "52.1"]
    assert ap and all(n["dataset"] == "COCO" and n["method"] == "FooNet" for n in ap)


def test_claims_keep_the_callers_order_of_numbers():
    """The claims rules read the numbers in text order; claims come back in the order given."""
    from extract.candidates.claims import attach_claims
    text = "FooNet reaches 91.2% on ImageNet and 52.3 mIoU on ADE20K."
    a, b = text.index("91.2%"), text.index("52.3")
    spans = [{"start": b, "end": b + 4, "kind": "result"}, {"start": a, "end": a + 5, "kind": "result"}]
    got = [c.fields()["dataset"] for c in attach_claims(text, spans, ["FooNet"], ["ImageNet", "ADE20K"])]
    assert got == ["ADE20K", "ImageNet"]


#: Shapes by length n: the issue's (runs of spaces, digits and separators, brackets, one long
#: sentence) and those that were quadratic in some pass of the claims or number rules.
GROWING = {
    "run of spaces": lambda n: NORMAL + " " * n + NORMAL,
    "1,1,1,...": lambda n: NORMAL + ",".join(["1"] * (n // 2)) + ". " + NORMAL,
    "1-1-1-...": lambda n: NORMAL + "-".join(["1"] * (n // 2)) + " " + NORMAL,
    "1x1x1...": lambda n: NORMAL + "x".join(["1"] * (n // 2)) + " " + NORMAL,
    "numbers and separators": lambda n: NORMAL + " ".join(f"{i % 97}.{i % 7}% ;" for i in range(n // 8)) + ". " + NORMAL,
    "brackets": lambda n: NORMAL + "(" * (n // 2) + ")" * (n // 2) + " " + NORMAL,
    "one long sentence of claims": lambda n: "FooNet improves BLEU by 2.1 points on WMT14 and " * (n // 48) + "ends.",
    "one long sentence of comparisons": lambda n: "FooNet improves accuracy" + ", ".join(
        f" by {i % 9}.1% on Set{i}" for i in range(n // 16)) + ". " + NORMAL,
    "a long segment before a list": lambda n: NORMAL + "the model is good and " * (n // 44)
    + ", ".join(["1.5%"] * (n // 12)) + ". " + NORMAL,
    # thousands of distinct names (name scoring was one pass over the text per name)
    "thousands of distinct names": lambda n: NORMAL + "We compare with " + ", ".join(f"Net{i}" for i in range(n // 8)) + ".",
    "bare web addresses": lambda n: NORMAL + "see a.com/Net) " + "a.com/x)" * (n // 8) + ". " + NORMAL,
    "many introduced names": lambda n: NORMAL + " ".join(f"We propose Big{i}Net (BN{i}), a model." for i in range(n // 36)),
}


def _cpu(text: str) -> float:
    """The least CPU time of this thread over two runs of the rules on ``text`` (CPU time, not
    wall time: other processes on the machine do not count)."""
    best = float("inf")
    for _ in range(2):
        t0 = time.thread_time()
        decide(text)
        best = min(best, time.thread_time() - t0)
    return best


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", list(GROWING))
def test_hostile_shapes_grow_linearly(name):
    """4x the text costs about 4x the time (linear), 16x if a pass is quadratic: the bound 9
    leaves room for noise and n log n, and fails every quadratic pass these shapes had."""
    make = GROWING[name]
    decide(make(500))                   # warm: patterns compiled, caches filled
    small, large = _cpu(make(2000)), _cpu(make(8000))
    assert large / max(small, 1e-3) < 9, f"{name}: {small:.3f}s at 2,000 chars, {large:.3f}s at 8,000"


@pytest.mark.timeout(300)
def test_acronym_definitions_in_one_sentence_grow_linearly():
    """Thousands of acronym definitions in one sentence: each one's "consists of" test searched
    the sentence up to it (quadratic: 11x for 4x the text at these sizes); now once a sentence."""
    def make(n: int) -> str:
        return NORMAL + " ".join(f"Big Fat Net (BFN{i})" for i in range(n // 20)) + ". " + NORMAL
    decide(make(500))
    small, large = _cpu(make(10000)), _cpu(make(40000))
    assert large / max(small, 1e-3) < 7, f"{small:.3f}s at 10,000 chars, {large:.3f}s at 40,000"
