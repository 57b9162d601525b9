"""The hybrid answer mapped onto the default schema's fields.

Texts, values and units come from the rules' candidates (or, for a name beyond them, from
the span of the source it aligns to); the model contributes decisions only: which names are
introduced methods or datasets, the contribution, the task phrase, and per number whether it
is kept, its kind and what it belongs to.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from pydantic import BaseModel

from ..candidates.task import final_task, plain, polish
from ..grounding import Aligner
from .answer import _ID
from .proposal import Proposal

MAX_TASK_WORDS = 12
CONFIDENT = 0.8         # a rule score at which the rules' own role decision is trusted


@dataclass(frozen=True)
class Combine:
    """Which source decides each field when rules and model disagree.  The defaults are
    measured (``bench/hybrid.py score``, Qwen2.5-Coder-1.5B on dev2): that model is worse
    than the rules' cues at contribution and number kinds, so the rules' hint decides those
    where there is one; the model decides names, task and claims."""

    contribution: str = "rules"   # "model" | "rules": the rules' cue when they have one
    kinds: str = "rules"          # "model" | "rules": the rules' kind hint when they have one
    #: "model" | "union": plus every name the rules are confident of | "rules": the rules'
    #: hints decide the names (the model's labels and extra spans are not used)
    names: str = "union"
    #: the model's label counts for candidates the rules score at least this (below: "other")
    min_score: float = 0.5
    #: "model": the model's label is the role; "rules": the model keeps or vetoes a name
    #: ("other"), its side is the rules' hint when they have one
    roles: str = "model"
    #: a dataset a number is reported on joins ``datasets`` ("add") or is dropped ("listed")
    number_datasets: str = "listed"

    def as_dict(self) -> dict:
        return asdict(self)


def written_task(task: str, proposal: Proposal) -> str:
    """The model's task phrase cut to its first clause and 12 words, without markup; the
    rules' phrase when the model wrote none."""
    cut = re.split(r"[,;:?!]|\.(?:\s|$)", plain(task or ""), maxsplit=1)[0]
    cut = polish(" ".join(cut.split()[:MAX_TASK_WORDS]), proposal.text)
    if len(cut.split()) >= 2:
        return cut
    return final_task(proposal.candidates.task_hint, proposal.text)


def _resolver(proposal: Proposal):
    aligner = Aligner(proposal.text)

    def resolve(ref: str | None) -> str | None:
        """A candidate id -> its text; a span -> the source's own spelling; else None."""
        if ref is None:
            return None
        m = _ID.match(ref)
        if m:
            n = proposal.names.get(m.group(1) + m.group(2))
            return n.text if n is not None else None
        span = aligner.align(ref, unwrap_name=True)
        return span.text if span is not None else None
    return resolve


def _unique(xs: list[str | None]) -> list[str]:
    seen, out = set(), []
    for x in xs:
        if x and x.lower() not in seen:
            seen.add(x.lower())
            out.append(x)
    return out


def to_fields(proposal: Proposal, answer: BaseModel, combine: Combine = Combine()) -> dict:
    """The default schema's fields (``PaperExtraction``) from a validated hybrid answer."""
    resolve = _resolver(proposal)
    labels = {k: (getattr(answer.names, k, "other") if n.score >= combine.min_score else "other")
              for k, n in proposal.names.items()}
    if combine.roles == "rules":
        for k, n in proposal.names.items():
            if labels[k] != "other" and n.role_hint in ("method", "dataset") and labels[k] != "both":
                labels[k] = n.role_hint
    if combine.names == "union":
        for k, n in proposal.names.items():
            if labels[k] == "other" and n.score >= CONFIDENT and n.role_hint in ("method", "dataset"):
                labels[k] = n.role_hint
    more_m, more_d = answer.more_methods, answer.more_datasets
    if combine.names == "rules":
        labels = {k: (n.role_hint if n.role_hint in ("method", "dataset") and n.score >= combine.min_score
                      else "other") for k, n in proposal.names.items()}
        more_m = more_d = []
    methods = _unique([proposal.names[k].text for k, v in labels.items() if v in ("method", "both")]
                      + [resolve(r) for r in more_m])
    datasets = _unique([proposal.names[k].text for k, v in labels.items() if v in ("dataset", "both")]
                       + [resolve(r) for r in more_d])
    numbers = []
    decisions = answer.numbers
    for key, num in proposal.numbers.items():
        d = getattr(decisions, key, None)
        kind = d.kind if d is not None else (num.kind_hint or "result")
        if combine.kinds == "rules" and num.kind_hint in ("result", "setting") and kind != "drop":
            kind = num.kind_hint
        if kind == "drop":
            continue
        metric = d.metric if d is not None else None
        dataset = resolve(d.dataset) if d is not None and d.dataset else None
        if d is None or d.method is None:
            method = None
        else:
            method = "" if d.method == "" else resolve(d.method)
        if dataset and dataset.lower() not in {x.lower() for x in datasets}:
            if combine.number_datasets == "add":
                datasets.append(dataset)    # a number is reported on it: a named dataset
            else:
                dataset = None              # the record's claims name only its own datasets
        numbers.append({"text": num.text, "value": float(num.value), "unit": num.unit, "kind": kind,
                        "about": " ".join((num.about_hint or "").split())[:80],
                        "metric": metric, "dataset": dataset, "method": method})
    contribution = answer.contribution
    if combine.contribution == "rules" and proposal.candidates.contribution_hint:
        contribution = proposal.candidates.contribution_hint
    return {"task": written_task(answer.task, proposal), "contribution": contribution,
            "method_names": methods, "datasets": datasets, "numbers": numbers}
