"""The hybrid answer mapped onto the default schema's fields.

Texts, values and units come from the rules' candidates (or, for a name or number beyond
them, from the span of the source it aligns to, a number parsed by the rules' own parser);
the model decides.  Whose word counts for each field is a :class:`Combine`: "model" (the
model's answer is the record, the rules standing in only where that answer is missing or
invalid), "rules" (the rules' own decision, :func:`extract.decision.decide`) or "auto" (the
default: the model's, unless its reading of the abstract contradicts the text, see
:mod:`.checks`; then the rules' for that abstract).  ``extract calibrate`` measures the
three per field on a labeled sample and writes the best as a policy file (``--policy``).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from pydantic import BaseModel

from ..candidates.claims import attach_claims, title_name
from ..candidates.numbers import NumberCandidate
from ..config import DECIDE
from ..candidates.task import final_task
from ..decision import claims_key, written_task as cut_task
from ..errors import UsageError
from ..grounding import Aligner
from ..text import parse_number_at
from .answer import _ID
from .checks import Names, contradictions, generic, introduced, reference, stand_in
from .proposal import Proposal

SOURCES = ("model", "rules", "auto")
#: values a field of a policy file may take (names and claims also "union" / "fill")
CHOICES = {"names": SOURCES + ("union",), "claims": SOURCES + ("fill",), "number_datasets": ("add", "listed")}


@dataclass(frozen=True)
class Combine:
    """Whose word decides each field (see the module docstring).  The default is "auto"
    everywhere: the model decides unless its reading contradicts the text.  Nothing here
    depends on which model answered."""

    task: str = "auto"            # the task phrase
    contribution: str = "auto"
    kinds: str = "auto"           # result or setting
    drops: str = "auto"           # a number the model calls "drop" is left out (model) or kept (rules)
    #: the model's labels and extra spans | the rules' names | "union": both
    names: str = "auto"
    #: the model's metric/dataset/method per number | the claims rules, re-read with the
    #: final names | "fill": the rules', the model's where the rules have none
    claims: str = "auto"
    #: numbers the model added (spans the rules did not list) join the record
    added: str = "auto"
    #: a dataset a number names but the record does not list joins ``datasets`` ("add") or
    #: is dropped from the claim ("listed")
    number_datasets: str = "listed"

    def __post_init__(self):
        for f in fields(self):
            value, allowed = getattr(self, f.name), CHOICES.get(f.name, SOURCES)
            if value not in allowed:
                raise UsageError(f"policy field {f.name!r} must be one of {', '.join(allowed)}; got {value!r}")

    def as_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def everything(cls, source: str) -> "Combine":
        """Every field decided by ``source`` ("model", "rules" or "auto")."""
        return cls(**{f.name: source for f in fields(cls) if f.name != "number_datasets"})

    @classmethod
    def load(cls, path: str | Path) -> "Combine":
        """A policy file (``extract calibrate`` writes one): ``{"fields": {name: source}}``."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as e:
            raise UsageError(f"--policy {path}: cannot read it ({e.strerror or e})") from None
        except ValueError as e:
            raise UsageError(f"--policy {path}: not JSON ({e})") from None
        chosen = data.get("fields") if isinstance(data, dict) else None
        if not isinstance(chosen, dict):
            raise UsageError(f"--policy {path}: expected an object with \"fields\" (written by extract calibrate)")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(chosen) - known)
        if unknown:
            raise UsageError(f"--policy {path}: unknown field(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        return cls(**{k: str(v) for k, v in chosen.items()})


def policy(decide: str, policy_file: str | Path | None = None) -> Combine:
    """The :class:`Combine` of ``--decide`` (:data:`extract.config.DECIDE`) or of a policy
    file (``--policy``, which replaces it)."""
    if policy_file is not None:
        return Combine.load(policy_file)
    if decide not in DECIDE:
        raise ValueError(f"decide must be one of {', '.join(DECIDE)}, got {decide!r}")
    return Combine.everything(decide)


@dataclass
class Mapped:
    """A mapped answer: the schema's fields, which source decided each field, and why the
    model's reading was not trusted (``checks``, empty when it was)."""

    fields: dict
    decided: dict = field(default_factory=dict)
    checks: list = field(default_factory=list)


def written_task(task: str, proposal: Proposal) -> str:
    """The model's task phrase cut to its first clause and 12 words, without markup; the
    rules' phrase when the model wrote none."""
    cut = cut_task(task, proposal.text)
    if len(cut.split()) >= 2:
        return cut
    return proposal.rules.get("task") or final_task(proposal.candidates.task_hint, proposal.text,
                                                   proposal.candidates.task_titled)


def _resolver(proposal: Proposal):
    aligner = Aligner(proposal.text)

    def resolve(ref: str | None) -> str | None:
        """A candidate id -> its text; a span -> the source's own spelling; else None."""
        if ref is None:
            return None
        m = _ID.match(ref)
        if m:
            n = proposal.names.get(f"@{m.group(1)}{m.group(2)}")
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


def _names(proposal: Proposal, answer: BaseModel, source: str, resolve,
           checked: bool = False) -> tuple[list[str], list[str]]:
    rules_m, rules_d = list(proposal.rules.get("method_names", ())), list(proposal.rules.get("datasets", ()))
    if source == "rules":
        return rules_m, rules_d
    labels = _labels(proposal, answer)
    model_m = [proposal.names[k].text for k, v in labels.items() if v in ("method", "both")]
    model_d = [proposal.names[k].text for k, v in labels.items() if v in ("dataset", "both")]
    # a span the model adds is a name only with a letter in it ("12" is no dataset: no gold name lacks one)
    model_m += [x for x in map(resolve, answer.more_methods) if x and any(ch.isalpha() for ch in x)]
    model_d += [x for x in map(resolve, answer.more_datasets) if x and any(ch.isalpha() for ch in x)]
    if source == "union":
        return _unique(rules_m + model_m), _unique(rules_d + model_d)
    if checked:                 # the default: a generic phrase is no dataset unless the rules say so,
        ruled = {x.lower() for x in rules_d}
        model_d = [d for d in model_d if d and (d.lower() in ruled or not generic(d))]
        model_m += [m for m in introduced(proposal) if labels.get(proposal.ref(m)) in (None, "other")]
    return _unique(model_m), _unique(model_d)       # and a name the text introduces stays a method


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


def _labels(proposal: Proposal, answer: BaseModel) -> dict[str, str]:
    return {k: getattr(answer.names, k, None) or "other" for k in proposal.names}


def _same(a: str | None, b: str | None) -> bool:
    """Two claim references agree ("" and null alike, as ``extract eval`` scores them)."""
    return (a or "").strip().lower() == (b or "").strip().lower()


def _added(proposal: Proposal, answer: BaseModel, kept: list) -> list[tuple[str, NumberCandidate, BaseModel]]:
    """The model's added numbers as candidates: aligned to the abstract, value and unit
    from the rules' number parser (never the model's)."""
    aligner, out = Aligner(proposal.text), []
    for i, d in enumerate(getattr(answer, "more_numbers", None) or (), 1):
        span = aligner.align(d.text) if d.text else None
        parsed = parse_number_at(proposal.text, span.start, span.end) if span else None
        if parsed is None or d.kind == "drop" or any(n.start < span.end and span.start < n.end for n in kept):
            continue    # not a number, left out, or one the list keeps: its id decides (a listed number
            #             the model dropped and wrote again as a longer span, "400" as "400+", is the span)
        text = proposal.text[span.start:span.end]
        out.append((f"+{i}", NumberCandidate(text, span.start, span.end, parsed[0], parsed[1], d.kind, ""), d))
    return out


def _claims(proposal: Proposal, numbers: list, methods: list, datasets: list, kinds: list,
            contribution: str | None) -> list:
    """The claims rules' reading of ``numbers`` with the final names: the rules' own call's
    claims (computed with the proposal, in the worker) when it had the same inputs, else
    :func:`attach_claims` again."""
    memo, titled = proposal.claims_memo, title_name(proposal.names.values())
    if memo is not None and memo[0] == claims_key(numbers, methods, datasets, kinds, contribution, titled):
        return [memo[1][(n.start, n.end)] for n in numbers]
    return attach_claims(proposal.text, numbers, methods, datasets, kinds=kinds, contribution=contribution,
                         titled=titled)


def decide_fields(proposal: Proposal, answer: BaseModel, combine: Combine = Combine()) -> Mapped:
    """The default schema's fields (``PaperExtraction``) from a validated hybrid answer, with
    the source that decided each field and each number's ``rules_agree``."""
    resolve = _resolver(proposal)
    said = _names(proposal, answer, "model", resolve, checked=combine.names == "auto")
    checks = contradictions(proposal, answer, _labels(proposal, answer), *said)
    src = {f.name: ("rules" if checks else "model") if getattr(combine, f.name) == "auto"
           else getattr(combine, f.name) for f in fields(combine) if f.name != "number_datasets"}
    decided = dict(src)
    methods, datasets = said if src["names"] == "model" else \
        _names(proposal, answer, src["names"], resolve, checked=combine.names == "auto")
    contribution = answer.contribution if src["contribution"] == "model" else proposal.rules["contribution"]
    ruled = proposal.rules_numbers()
    kept = []                       # (key, candidate, the model's decision or None, kind)
    for key, num in proposal.numbers.items():
        d = getattr(answer.numbers, key, None)
        if d is not None and d.kind == "drop" and src["drops"] == "model":
            continue
        kind = ruled[key]["kind"]
        if src["kinds"] == "model" and d is not None and d.kind in ("result", "setting"):
            kind = d.kind
        kept.append((key, num, d, kind))
    if src["added"] == "model":
        kept += [(key, num, d, d.kind) for key, num, d in _added(proposal, answer, [n for _, n, _, _ in kept])]
    rules_claims = _claims(proposal, [n for _, n, _, _ in kept], methods, datasets,
                           [k for *_, k in kept], contribution)
    numbers, stood_in = [], 0
    listed = {x.lower() for x in datasets}
    names = Names.of(methods, datasets)
    for (key, num, d, kind), claim in zip(kept, rules_claims):
        metric, dataset, method = (claim.fields()[f] for f in ("metric", "dataset", "method"))
        if src["names"] == "rules" and key in ruled:      # the rules' own reading, exactly
            metric, dataset, method = (ruled[key].get(f) for f in ("metric", "dataset", "method"))
        agree = None
        if d is not None and d.kind == "drop":
            agree = False               # the model left out a number the rules keep
        elif d is not None:
            m_metric = d.metric
            m_dataset = resolve(d.dataset) if d.dataset else None
            m_method = None if d.method is None else "" if d.method == "" else resolve(d.method)
            mine = ruled.get(key)       # the rules' own reading of this number (none if added)
            agree = mine is not None and d.kind == mine.get("kind") and _same(m_dataset, mine.get("dataset")) \
                and _same(m_method, mine.get("method"))
            if combine.claims == "auto" and src["claims"] == "model":  # its reading, where it is an answer
                (m_metric, m_dataset, m_method), fixed = stand_in(
                    (m_metric, m_dataset, m_method), (metric, dataset, method), claim.rules, names,
                    listed if combine.number_datasets == "listed" else None)
                stood_in += fixed
            if src["claims"] == "model":
                metric, dataset, method = m_metric, m_dataset, m_method
            elif src["claims"] == "fill":
                metric, dataset = metric or m_metric, dataset or m_dataset
                method = method if method is not None else m_method
        elif src["claims"] == "model" and ruled.get(key) is not None:
            stood_in += 1               # the model left this number out: the rules' reading
        model_d = d if d is not None and d.kind != "drop" else None
        value_type, compared_to = _change(claim, model_d, src["claims"], resolve)
        if combine.claims == "auto" and src["claims"] == "model":
            compared_to = reference(compared_to, claim.fields()["compared_to"], method, names)
        if src["names"] == "rules" and key in ruled and "value_type" in ruled[key]:
            value_type, compared_to = ruled[key].get("value_type"), ruled[key].get("compared_to")
        if dataset and dataset.lower() not in listed:
            if combine.number_datasets == "add":
                datasets.append(dataset)    # a number is reported on it: a named dataset
                listed.add(dataset.lower())
            else:
                dataset = None              # the record's claims name only its own datasets
        entry = {"text": num.text, "value": float(num.value), "unit": num.unit, "kind": kind,
                 "about": ruled[key].get("about", "") if key in ruled else "",
                 "metric": metric, "dataset": dataset, "method": method,
                 "value_type": value_type, "compared_to": compared_to, "at": num.start}
        if agree is not None:
            entry["rules_agree"] = agree
        numbers.append(entry)
    if stood_in:
        decided["claims"] = "model+rules"
    task = proposal.rules["task"]
    if src["task"] == "model":
        task = written_task(answer.task, proposal)
    return Mapped({"task": task, "contribution": contribution, "method_names": methods,
                   "datasets": datasets, "numbers": numbers}, decided, checks)


def to_fields(proposal: Proposal, answer: BaseModel, combine: Combine = Combine()) -> dict:
    """The default schema's fields (``PaperExtraction``) from a validated hybrid answer."""
    return decide_fields(proposal, answer, combine).fields
