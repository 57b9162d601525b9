"""The rule engine: a rule is a named table entry (what it tests, what it gives, one example),
evaluated in order by :func:`first`; every rule that fires is recorded while a :func:`trace`
is open, so tests check that each example fires its rule and ``bench/rule_firings.py`` counts
how many abstracts each rule fires on.

Tables live with their concept: number kinds in :mod:`.number_rules`, name contexts and name
scores in :mod:`.name_rules`.  Adding a rule is adding one entry there; the parametrized tests
in tests/test_candidates_rules.py pick it up.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

__all__ = ["Rule", "fire", "first", "trace", "tracing"]

_TRACE: ContextVar[set[str] | None] = ContextVar("extract_rule_trace", default=None)


@dataclass(frozen=True)
class Rule:
    """One rule: ``test(ctx)`` says whether it applies; ``gives`` is what it assigns (a kind,
    a role and weight, a cue); ``example`` is a text it fires on, ``at`` the span there it is
    evaluated at (a number, a name)."""
    name: str
    test: Callable[[Any], Any]
    gives: Any
    example: str
    at: str = ""


def tracing() -> bool:
    """Whether a :func:`trace` is open (a cached result would hide the rules that fire)."""
    return _TRACE.get() is not None


def fire(name: str) -> None:
    """Record that the rule ``name`` fired (a no-op unless a :func:`trace` is open)."""
    seen = _TRACE.get()
    if seen is not None:
        seen.add(name)


def first(rules: Sequence[Rule], ctx: Any) -> Rule | None:
    """The first rule of ``rules`` whose test holds for ``ctx`` (recorded as fired)."""
    for rule in rules:
        if rule.test(ctx):
            fire(rule.name)
            return rule
    return None


@contextmanager
def trace() -> Iterator[set[str]]:
    """Collect the names of the rules that fire inside the block."""
    token = _TRACE.set(set())
    try:
        yield _TRACE.get()
    finally:
        _TRACE.reset(token)


def all_rules() -> dict[str, tuple[Rule, ...]]:
    """Every rule table by concept: numbers, names, roles (name scoring), contribution, task."""
    from . import contribution, name_rules, number_rules, task
    return {"numbers": number_rules.KIND_RULES,
            "names": name_rules.FINDER_RULES + name_rules.INTRO_RULES + name_rules.FORM_RULES,
            "roles": (name_rules.DATASET_RULES + name_rules.OCCURRENCE_RULES + (name_rules.DATASET_NOUN_NAME,)
                      + name_rules.SCORING_RULES + name_rules.CAP_RULES + name_rules.ROLE_RULES),
            "contribution": contribution.CONTRIBUTION_RULES, "task": task.TASK_RULES}
