"""The record of a name the rules found (:class:`NameCandidate`) and the evidence collected
for it while the finder reads the text (:class:`Evidence`)."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Evidence", "NameCandidate"]


@dataclass(frozen=True)
class NameCandidate:
    text: str
    start: int
    end: int
    role_hint: str | None
    score: float
    cues: tuple[str, ...]


@dataclass
class Evidence:
    """Everything the finder learnt about one surface form: where it first occurs, the cues
    that fired, the method/dataset strengths, and its acronym partners."""
    text: str
    start: int
    end: int
    cues: set[str] = field(default_factory=set)
    method: float = 0.0
    dataset: float = 0.0
    partners: set[str] = field(default_factory=set)
    shape: str = ""
