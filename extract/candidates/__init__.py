"""Deterministic candidate layer: numbers, names and hints found by rules in an abstract.

Everything here is pure and offset-exact: for every candidate ``rules_text(text)[c.start:c.end] ==
c.text`` (a name: of ``unemphasized(rules_text(text))``), the source's own characters but for a
wrapped line's break and a name's emphasis markup, read as spaces.
A backend (e.g. the embedded model) can restrict its answers to these candidates, so what it
exports is grounded by construction.

>>> c = find_candidates("We propose FooNet, which improves accuracy by 3.2% on BarBench.")
>>> [n.text for n in c.numbers], [(m.text, m.role_hint) for m in c.names]
(['3.2%'], [('FooNet', 'method'), ('BarBench', 'dataset')])
"""

from __future__ import annotations

from dataclasses import dataclass

from ..text.lexicon import is_model_name
from ..text.numparse import parse_number
from .contribution import contribution_hint
from .name_finder import NameCandidate, find_names, select_names
from .numbers import NumberCandidate, find_numbers
from .task import titled_task_hint
from ..text.spans import rules_text, unemphasized

__all__ = ["Candidates", "NameCandidate", "NumberCandidate", "find_candidates", "find_names",
           "find_numbers", "is_model_name", "parse_number", "select_names"]


@dataclass(frozen=True)
class Candidates:
    numbers: tuple[NumberCandidate, ...]
    names: tuple[NameCandidate, ...]
    contribution_hint: str | None
    task_hint: str | None
    task_titled: bool = False       # the task hint is the title's (final_task reads it so)


def find_candidates(text: str, title: str | None = None) -> Candidates:
    """All candidates of one abstract (``title``: its paper's title, a cue to the name the
    paper introduces). Never raises on a string; deterministic."""
    if not isinstance(text, str):
        text = ""
    text = rules_text(text)     # "© 2024 Elsevier B.V.": no number, name or task there; lines unwrapped
    numbers = tuple(find_numbers(text))
    title = title if isinstance(title, str) else None
    names = tuple(find_names(unemphasized(text), title, marked=text))
    task, titled = titled_task_hint(text, title)
    return Candidates(numbers, names, contribution_hint(text, names, title), task, titled)
