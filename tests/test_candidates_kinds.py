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


def test_share_of_data_or_trainable_parameters_is_a_setting():
    got = _kinds("Our detector reaches an mAP of 41.2 with just 5% of the annotated data, "
                 "and adapts with only 0.3% trainable parameters.")
    assert got["41.2"] == "result"
    assert got["5%"] == "setting" and got["0.3%"] == "setting"
    assert _kinds("Training on less than 20% of curated data suffices.")["20%"] == "setting"
    # a share that is itself the outcome stays a result
    assert _kinds("Pruning improves accuracy by 4% of the baseline score.")["4%"] == "result"


def test_state_of_the_art_spelled_with_spaces_is_a_result_cue():
    assert _kinds("Our parser scores 74.2, above the previous state of the art of 71 on this corpus.")["71"] == "result"


def test_a_range_is_one_quantity_with_one_kind():
    """Both ends read the text before the first and the unit after the second."""
    got = _kinds("The pruning improves recall by 4 to 15 points over the dense model.")
    assert got == {"4": "result", "15": "result"}
    got = _kinds("The accelerators support mixed precision (1-8 bits) for inference.")
    assert got == {"1": "setting", "8": "setting"}
    got = _kinds("The method needs only around 10-20% of labeled samples.")
    assert got == {"10": "setting", "20%": "setting"}
    got = _kinds("The denoiser improves on the previous best by 7-12 dB.")
    assert got == {"7": "result", "12 dB": "result"}


def test_a_gain_counted_in_times_is_a_result():
    got = _kinds("We decrease the number of parameters by 8 times and repeat each run 5 times.")
    assert got == {"8": "result", "5": "setting"}
    assert _kinds("The distillation yields a 5 to 20-fold smaller model than the baseline.") == {"5": "result", "20": "result"}
