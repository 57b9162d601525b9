"""Hostile text does not stall the rule layer (issue 20, "Hangs"): every pass is linear in the
abstract's length, with no truncation.  The shapes below took minutes before (``1,1,1,...``
grew with the square of its length: 75 s at 8,000 characters); each test must finish within
pytest-timeout's bound and still read the ordinary sentence around the hostile part.  How the
time grows is printed by bench/rules_adversarial.py, not asserted here."""

from __future__ import annotations

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
