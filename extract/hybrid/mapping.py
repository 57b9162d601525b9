"""The hybrid answer mapped onto the default schema's fields.

Texts, values and units come from the rules' candidates (or, for a name beyond them, from
the span of the source it aligns to); the model contributes decisions only.  Which source
decides each field when the rules and the model disagree is a :class:`Combine`, chosen by
measurement (``bench/hybrid.py score``); with every field on "rules" the record is exactly
the rules' own decision (:func:`extract.decision.decide`), so a policy can never do worse
than the rules on a field it leaves to them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from pydantic import BaseModel

from ..candidates.claims import attach_claims
from ..config import DECIDE
from ..candidates.task import final_task
from ..decision import written_task as cut_task
from ..grounding import Aligner
from .answer import _ID
from .proposal import Proposal

SOURCES = ("model", "rules")


@dataclass(frozen=True)
class Combine:
    """Whose word decides each field.  The defaults are measured (``bench/hybrid.py score``,
    Qwen2.5-Coder-1.5B-Instruct behind llama-cpp-python's server on dev2, the README's
    Benchmarks): the model's task phrase scored better than the rules' (token F1 0.320
    against 0.292); its names (datasets F1 0.725 against 0.814) and its claims (claims F1
    0.735 against 0.906) scored worse; on contribution, kinds and drops it scored the same,
    and a tie goes to the rules (deterministic, and the same for every model)."""

    task: str = "model"           # "model" | "rules": the task phrase
    contribution: str = "rules"   # "model" | "rules"
    kinds: str = "rules"          # "model" | "rules": result or setting
    drops: str = "rules"          # "model": a number the model calls "drop" is left out | "rules": never
    #: "model": the model's labels and extra spans | "rules": the rules' names | "union": both
    names: str = "rules"
    #: "model": the model's metric/dataset/method per number | "rules": the claims rules,
    #: re-read with the final names | "fill": the rules', the model's where the rules have none
    claims: str = "rules"
    #: a dataset a number names but the record does not list joins ``datasets`` ("add") or
    #: is dropped from the claim ("listed")
    number_datasets: str = "listed"

    def as_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def everything(cls, source: str) -> "Combine":
        """Every field decided by ``source`` ("model" or "rules")."""
        return cls(**{f.name: source for f in fields(cls) if f.name != "number_datasets"})


def policy(decide: str) -> Combine:
    """The :class:`Combine` of ``--decide`` (:data:`extract.config.DECIDE`): "measured" is
    :class:`Combine`'s defaults (each field from the source that measured better with a 1.5B
    model); "model" lets the model decide every field (for a model known to be better than
    the rules everywhere)."""
    if decide not in DECIDE:
        raise ValueError(f"decide must be one of {', '.join(DECIDE)}, got {decide!r}")
    return Combine() if decide == "measured" else Combine.everything("model")


def written_task(task: str, proposal: Proposal) -> str:
    """The model's task phrase cut to its first clause and 12 words, without markup; the
    rules' phrase when the model wrote none."""
    cut = cut_task(task, proposal.text)
    if len(cut.split()) >= 2:
        return cut
    return proposal.rules.get("task") or final_task(proposal.candidates.task_hint, proposal.text)


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


def _unique(xs) -> list[str]:
    seen, out = set(), []
    for x in xs:
        if x and x.lower() not in seen:
            seen.add(x.lower())
            out.append(x)
    return out


def _names(proposal: Proposal, answer: BaseModel, combine: Combine, resolve) -> tuple[list[str], list[str]]:
    rules_m, rules_d = list(proposal.rules.get("method_names", ())), list(proposal.rules.get("datasets", ()))
    if combine.names == "rules":
        return rules_m, rules_d
    labels = {k: getattr(answer.names, k, "other") for k in proposal.names}
    model_m = [proposal.names[k].text for k, v in labels.items() if v in ("method", "both")]
    model_d = [proposal.names[k].text for k, v in labels.items() if v in ("dataset", "both")]
    model_m += [resolve(r) for r in answer.more_methods]
    model_d += [resolve(r) for r in answer.more_datasets]
    if combine.names == "union":
        return _unique(rules_m + model_m), _unique(rules_d + model_d)
    return _unique(model_m), _unique(model_d)


def _change(claim, d, claims: str, resolve) -> tuple[str, str | None]:
    """A number's value type and compared system: the claims rules' reading; under
    ``claims="model"`` the model's when it gave a value type, under ``"fill"`` the model's
    compared system where the rules name none."""
    value_type, compared = claim.value_type, claim.fields()["compared_to"]
    if d is None or claims not in ("model", "fill"):
        return value_type, compared
    m_compared = resolve(d.compared_to) if d.compared_to else None
    if claims == "model" and d.value_type is not None:
        return d.value_type, m_compared if d.value_type == "change" else None
    if claims == "fill" and value_type == "change" and compared is None:
        return value_type, m_compared
    return value_type, compared


def to_fields(proposal: Proposal, answer: BaseModel, combine: Combine = Combine()) -> dict:
    """The default schema's fields (``PaperExtraction``) from a validated hybrid answer."""
    resolve = _resolver(proposal)
    methods, datasets = _names(proposal, answer, combine, resolve)
    contribution = answer.contribution if combine.contribution == "model" else proposal.rules["contribution"]
    ruled = proposal.rules_numbers()
    kept = []                       # (key, candidate, the model's decision or None, kind)
    for key, num in proposal.numbers.items():
        d = getattr(answer.numbers, key, None)
        if d is not None and d.kind == "drop" and combine.drops == "model":
            continue
        kind = ruled[key]["kind"]
        if combine.kinds == "model" and d is not None and d.kind in ("result", "setting"):
            kind = d.kind
        kept.append((key, num, d, kind))
    rules_claims = attach_claims(proposal.text, [n for _, n, _, _ in kept], methods, datasets,
                                 kinds=[k for *_, k in kept], contribution=contribution)
    numbers = []
    for (key, num, d, kind), claim in zip(kept, rules_claims):
        metric, dataset, method = (claim.fields()[f] for f in ("metric", "dataset", "method"))
        value_type, compared_to = _change(claim, d, combine.claims, resolve)
        if combine.claims in ("model", "fill") and d is not None:
            m_metric = d.metric
            m_dataset = resolve(d.dataset) if d.dataset else None
            m_method = None if d.method is None else "" if d.method == "" else resolve(d.method)
            if combine.claims == "model":
                metric, dataset, method = m_metric, m_dataset, m_method
            else:
                metric, dataset = metric or m_metric, dataset or m_dataset
                method = method if method is not None else m_method
        if dataset and dataset.lower() not in {x.lower() for x in datasets}:
            if combine.number_datasets == "add":
                datasets.append(dataset)    # a number is reported on it: a named dataset
            else:
                dataset = None              # the record's claims name only its own datasets
        numbers.append({"text": num.text, "value": float(num.value), "unit": num.unit, "kind": kind,
                        "about": ruled[key].get("about", ""),
                        "metric": metric, "dataset": dataset, "method": method,
                        "value_type": value_type, "compared_to": compared_to})
    task = written_task(answer.task, proposal) if combine.task == "model" else proposal.rules["task"]
    return {"task": task, "contribution": contribution,
            "method_names": methods, "datasets": datasets, "numbers": numbers}
