"""The rule engine: a rule is a named table entry (its test, what it gives, one example), tried in
order by :func:`first`; the rules that fire are recorded while a :func:`trace` is open (tests check
each example fires its rule; ``bench/rule_firings.py`` counts them on the corpus)."""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

__all__ = ["Rule", "fire", "first", "trace", "tracing"]

_TRACE: ContextVar[set[str] | None] = ContextVar("extract_rule_trace", default=None)


@dataclass(frozen=True)
class Rule:
    """``test(ctx)``: whether it applies; ``gives``: what it assigns; ``example``: a text it fires
    on (with ``title``, for the rules that read a title), ``at``: the span there it is evaluated at."""
    name: str
    test: Callable[[Any], Any]
    gives: Any
    example: str
    at: str = ""
    title: str = ""


def tracing() -> bool:
    """Whether a :func:`trace` is open (a cached result would hide the rules that fire)."""
    return _TRACE.get() is not None


def fire(name: str) -> None:
    """Record that the rule ``name`` fired (a no-op unless a :func:`trace` is open)."""
    if (seen := _TRACE.get()) is not None:
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
    from . import contribution, name_code_rules, name_rules, number_rules, task
    return {"numbers": number_rules.KIND_RULES,
            "names": name_code_rules.FINDER_RULES + name_rules.INTRO_RULES + name_rules.FORM_RULES,
            "roles": (name_rules.DATASET_RULES + name_rules.OCCURRENCE_RULES + name_code_rules.SCORING_RULES
                      + name_rules.CAP_RULES + name_rules.ROLE_RULES),
            "contribution": contribution.CONTRIBUTION_RULES, "task": task.TASK_RULES}
