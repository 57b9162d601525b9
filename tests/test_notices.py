"""Copyright notices are publisher boilerplate, no part of the abstract (issue 20 item 12): their
years are no numbers, their words no names and no task phrase."""

from __future__ import annotations

import pytest

from extract.decision import decide
from extract.text.spans import notice_spans, rules_text

BODY = "We propose FooNet for image retrieval. FooNet reaches 91.2% top-1 accuracy on ImageNet."


@pytest.mark.parametrize("notice", ["© 2024 Elsevier B.V. All rights reserved.", "(c) 2023 IEEE.",
                                    "Copyright 2022 by the authors.", "(C) 2021 The Authors",
                                    "Copyright © 2021, The Author(s), under exclusive licence to Springer Nature."])
@pytest.mark.parametrize("where", ["after", "before"])
def test_a_notice_gives_no_number_name_or_task(notice, where):
    text = f"{BODY} {notice}" if where == "after" else f"{notice} {BODY}"
    rec = decide(text)
    assert [n["text"] for n in rec["numbers"]] == ["91.2%"]
    assert rec["numbers"][0]["dataset"] == "ImageNet"
    assert rec["method_names"] == ["FooNet"] and rec["datasets"] == ["ImageNet"]
    low = rec["task"].lower()
    assert not any(w in low for w in ("copyright", "elsevier", "ieee", "authors", "©", "rights"))


def test_blanking_keeps_offsets_and_the_rest():
    text = f"{BODY} © 2024 Elsevier B.V. All rights reserved."
    blank = rules_text(text)
    assert len(blank) == len(text) and blank.startswith(BODY) and not blank[len(BODY):].strip()


@pytest.mark.parametrize("text", ["We run case (c) 2023 times with 5 seeds.", "Results (c) 2023 images are kept.",
                                  "We study copyright law in 40 countries."])
def test_no_notice_without_its_shape(text):
    assert notice_spans(text) == []
