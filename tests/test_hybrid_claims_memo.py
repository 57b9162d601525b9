"""The mapping's reuse of the rules' own claims call (same inputs: the same record)."""

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


def test_the_rules_claims_call_is_reused_only_as_it_was_made():
    p = hybrid.propose(TEXT)
    assert p.claims_memo is not None
    for numbers in ({"@N1": "result", "@N2": "result"}, {"@N1": "result", "@N2": "setting"}):
        answer = _answer(p, numbers)
        fresh = hybrid.decide_fields(dataclasses.replace(p, claims_memo=None), answer)
        assert hybrid.decide_fields(p, answer).fields == fresh.fields
