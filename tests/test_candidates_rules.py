"""Every rule of the rule tables fires on its own example (and decides it as the table says)."""

from __future__ import annotations

import pytest

from extract.candidates import find_candidates
from extract.candidates.number_rules import KIND_RULES
from extract.candidates.numbers import explain_numbers
from extract.candidates.rules import Rule, all_rules, first, trace
from extract.candidates.task import task_candidates, task_hint


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


ALL = [(concept, rule) for concept, table in all_rules().items() for rule in table]


def test_every_rule_name_is_unique():
    names = [rule.name for _, rule in ALL]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("concept,rule", ALL, ids=lambda x: x if isinstance(x, str) else x.name)
def test_every_rule_fires_on_its_example(concept, rule):
    with trace() as fired:
        c = find_candidates(rule.example, rule.title or None)
    assert rule.name in fired
    if concept == "contribution":
        assert c.contribution_hint == rule.at
    elif concept == "task" and rule.title:
        assert task_hint(rule.example, rule.title) == rule.at
    elif concept == "task":
        assert any(t.cue == rule.name[len("task-"):] and t.raw == rule.at for t in task_candidates(rule.example))
    else:
        assert rule.at in rule.example


def test_unregistered_rule_names_do_not_fire():
    """A rule that fires must be in a table (so it is tested and counted)."""
    known = {rule.name for _, rule in ALL}
    for _, rule in ALL:
        with trace() as fired:
            find_candidates(rule.example, rule.title or None)
        assert fired <= known, fired - known
