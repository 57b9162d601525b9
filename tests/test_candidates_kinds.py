"""Number kinds (result or setting) on sentences written for these tests."""

from __future__ import annotations

from extract.candidates.numbers import explain_numbers


def _kinds(text):
    return {n.text: n.kind_hint for n, _ in explain_numbers(text)}


def test_compound_adjective_is_no_result_verb():
    """"lower-body", "higher-order": an adjective, not "lower"/"higher" as a result."""
    got = _kinds("The planner runs upper-body control at 200 Hz and lower-body control at 40 Hz.")
    assert got == {"200 Hz": "setting", "40 Hz": "setting"}
    assert _kinds("Latency is 30% lower than before.")["30%"] == "result"
