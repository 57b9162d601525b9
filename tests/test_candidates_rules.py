"""Every rule of the rule tables fires on its own example (and decides it as the table says)."""

from __future__ import annotations

import pytest

from extract.candidates.numbers import explain_numbers
from extract.candidates.number_rules import KIND_RULES
from extract.candidates.rules import Rule, first, trace


def test_rule_names_are_unique():
    names = [r.name for r in KIND_RULES]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("rule", KIND_RULES, ids=lambda r: r.name)
def test_kind_rule_example_fires(rule):
    decided = {n.text: (n.kind_hint, name) for n, name in explain_numbers(rule.example)}
    assert decided.get(rule.at) == (rule.gives, rule.name)


def test_first_rule_wins_and_is_traced():
    rules = (Rule("a", lambda x: x > 1, "big", "2"), Rule("b", lambda x: True, "any", "0"))
    with trace() as fired:
        assert first(rules, 5).gives == "big" and first(rules, 0).gives == "any"
    assert fired == {"a", "b"}
    with trace() as fired:
        first(rules, 0)
    assert fired == {"b"}
