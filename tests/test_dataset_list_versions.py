"""A dataset list's item keeps its version after a second word ("Pascal VOC 2012", "NYU Depth v2",
"ActivityNet v1.3"), and a version is never an item of its own; a measurement after a metric is
no version ("PA-MPJPE 42.6mm")."""

from __future__ import annotations

import pytest

from extract.decision import decide


@pytest.mark.parametrize("text, want", [
    ("We evaluate on three widely adopted benchmarks: Cityscapes, CamVid and Pascal VOC 2012, with gains.",
     ["Cityscapes", "CamVid", "Pascal VOC 2012"]),
    ("Experiments on the datasets NYU Depth v2 and SUN RGB-D show gains.", ["NYU Depth v2", "SUN RGB-D"]),
    ("We report results across the splits of ActivityNet v1.3 and THUMOS14 here.", ["ActivityNet v1.3", "THUMOS14"]),
])
def test_a_list_item_keeps_its_version(text, want):
    assert decide(text)["datasets"] == want


def test_a_version_is_no_item_and_a_measurement_no_version():
    assert "V2" not in decide("We evaluate on both synthetic and real datasets (DDFF12 and NYU depth V2) here.")["datasets"]
    assert not any("42" in d for d in decide("We propose ZeDO. It reaches PA-MPJPE 42.6mm on the 3DPW dataset.")["datasets"])
