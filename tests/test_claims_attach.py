"""Claims rules added for datasets coordinated with things that are no dataset; abstracts written
for these tests."""

from __future__ import annotations

from extract.candidates import find_candidates
from extract.candidates.claims import attach_claims


def _datasets(text, datasets):
    nums = find_candidates(text).numbers
    return {n.text: (c.dataset.text if c.dataset else None) for n, c in zip(nums, attach_claims(text, nums, ["GlideNav"], datasets))}


def test_without_respectively_the_number_keeps_its_dataset():
    text = "Experiments on HM3D and real-world homes show that GlideNav raises success rates by 4.1% and 9.8%."
    assert _datasets(text, ["HM3D"]) == {"4.1%": "HM3D", "9.8%": "HM3D"}


def _metrics(text):
    nums = find_candidates(text).numbers
    return {n.text: (c.metric.text if c.metric else None) for n, c in zip(nums, attach_claims(text, nums, ["GlideNav"], []))}


def test_a_changed_measure_keeps_its_noun_modifier():
    got = _metrics("GlideNav lowers routing cost by up to 35% and reduces activation memory by 2.5x.")
    assert got == {"35%": "routing cost", "2.5x": "activation memory"}
    # a determiner or a verb is no modifier of the measure
    assert _metrics("GlideNav lowers the cost by 35%.")["35%"] == "cost"


def test_a_long_form_dataset_has_no_short_head():
    """"MARL" heads the long form "MARL Benchmark for Warehouse Robots" but is no short mention of it."""
    text = "We test on the MARL Benchmark for Warehouse Robots. Standard MARL reaches 40.1% there."
    nums = find_candidates(text).numbers
    (claim,) = attach_claims(text, nums, [], ["MARL Benchmark for Warehouse Robots"])
    assert claim.dataset is None
