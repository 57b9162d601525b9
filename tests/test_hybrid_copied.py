"""The default's check of one reading copied across a sentence (extract.hybrid.checks), and
the mapping's reuse of the rules' own claims call (same inputs: the same record)."""

import dataclasses

from fakescript import hybrid_payload
from extract import hybrid
from extract.schemas.paper import PaperExtraction

TEXT = ("We propose FooNet, a sparse planner. In simulation, FooNet achieves a 91% success rate "
        "on BoulderField (compared to 73% for the baseline).")


def _answer(p, numbers):
    model = hybrid.answer_model(p, hybrid.contributions(PaperExtraction))
    payload = hybrid_payload(names={"@C1": "method", "@C2": "dataset"}, numbers=numbers)
    return model.model_validate(payload, context={"source": p.text, "lenient": True})


def _claims(fields):
    return [(n["text"], n["dataset"], n["method"]) for n in fields["numbers"]]


def test_one_reading_copied_to_numbers_the_rules_tell_apart_gives_way_to_the_rules():
    p = hybrid.propose(TEXT)
    assert [(d["dataset"], d["method"]) for d in p.rules["numbers"]] == [("BoulderField", "FooNet"), ("BoulderField", None)]
    both = {"kind": "result", "dataset": "@C2", "method": "@C1"}
    copied = hybrid.decide_fields(p, _answer(p, {"@N1": both, "@N2": both}))
    assert _claims(copied.fields) == [("91%", "BoulderField", "FooNet"), ("73%", "BoulderField", None)]
    assert copied.decided["claims"] == "model+rules"
    # --decide model takes the model's word without the checks
    model = hybrid.decide_fields(p, _answer(p, {"@N1": both, "@N2": both}), hybrid.Combine.everything("model"))
    assert _claims(model.fields) == [("91%", "BoulderField", "FooNet"), ("73%", "BoulderField", "FooNet")]
    # readings that differ are the model's (here: the baseline's number on no system)
    apart = hybrid.decide_fields(p, _answer(p, {"@N1": both, "@N2": {**both, "method": ""}}))
    assert _claims(apart.fields) == [("91%", "BoulderField", "FooNet"), ("73%", "BoulderField", "")]
    assert apart.decided["claims"] == "model"


def test_the_rules_claims_call_is_reused_only_as_it_was_made():
    p = hybrid.propose(TEXT)
    assert p.claims_memo is not None
    for numbers in ({"@N1": "result", "@N2": "result"}, {"@N1": "result", "@N2": "setting"}):
        answer = _answer(p, numbers)
        fresh = hybrid.decide_fields(dataclasses.replace(p, claims_memo=None), answer)
        assert hybrid.decide_fields(p, answer).fields == fresh.fields
