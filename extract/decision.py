"""The rules' plan for one abstract and the rules' decision (core: no model, no backend).

A tiny local model cannot be trusted to copy spans: it pastes the abstract into ``task``,
loops on one name and invents numbers.  So the deterministic candidate layer
(:mod:`extract.candidates`) finds every name and number that *could* be exported, and the
model is only asked to *choose* among them through a per-abstract JSON schema whose fields
admit nothing else (enums of candidate texts, bounded arrays, two labels, a bounded task
phrase).  :func:`build_plan` makes that schema and the text listing the choices;
:func:`map_answer` turns the model's choices back into the default schema's fields, taking
texts, values and units from the candidates, never from the model; :func:`resolve_roles`
removes duplicates and contradictions.  :func:`decide` is the rules' own decision (no model:
``--backend rules``, the local backend's fallback and the hybrid extractor's proposal).

The grammar a llama.cpp model is held to is made from the plan's schema in
:mod:`extract.backends.grammar`.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from typing import Any, Sequence

from .candidates.claims import attach_claims, claimed_systems, title_name
from .candidates.name_rules import named_a_dataset
from .candidates.task import MIN_WORDS, final_task, plain, polish, task_phrases
from .schema_loader import contributions, default_schema
from .text import is_model_name
from .text.spans import rules_text

#: Bump when the candidate/constraint logic changes answers: part of the fingerprint.
CONSTRAINT_VERSION = "choices-5"

CONTRIBUTIONS = contributions(default_schema())     # read from the schema's Literal
KINDS = ("result", "setting")
#: What the model may say about an offered name (labels mode).
NAME_LABELS = ("other", "introduced", "dataset")
MAX_METHODS = 8
MAX_DATASETS = 10
TASK_MAX_CHARS = 90
# The task phrase the model writes, enforced by the grammar.  "free": up to 89 characters
# without sentence punctuation.  "phrase": 3-12 words starting lower-case, without commas,
# periods or brackets - a tiny model then cannot paste the abstract's first sentence.
TASK_PATTERNS = {
    "free": r"^[A-Za-z0-9][^\".;:\\\n\t]{0,88}$",
    "phrase": r"^[a-z][^ ,.;:\"()\[\]\\\n\t]{0,24}( [^ ,.;:\"()\[\]\\\n\t]{1,24}){2,11}$",
}

#: Fixed instructions appended to the job's system prompt (kept first: prefix-cached).
CHOICE_INSTRUCTIONS = """\
Rules found the candidate names and numbers listed after the abstract; you only choose among them.
Answer with one JSON object:
- "task": the research problem as a short noun phrase: one of the listed task phrases when there are any.
- "contribution": method, benchmark, dataset, analysis, theory or system.
- "names": for each candidate name, "introduced" (a method, model, artifact or benchmark this paper itself introduces), "dataset" (an existing dataset, benchmark, corpus or environment it names) or "other".
- "kinds": for each listed number, "result" (a claimed outcome) or "setting" (scale or configuration).
Leave a list empty rather than guess."""


@dataclass(frozen=True)
class Policy:
    """How rule hints and model choices are combined (measured by bench/embedded.py).

    The defaults scored best on the dev gold with SmolLM2-135M: the rules decide roles,
    contribution and number kinds (the model was measured worse at each); the model keeps or
    vetoes names the rules are unsure of (score 0.5-0.8).  The task phrase is the rules' too
    (bench/task_phrase.py: picking among the rules' verbatim phrases, the model scored 0.48
    token F1 on the gold sets against 0.58 for the rules' first choice); the model picks only
    when the rules have no cue at all."""

    keep_score: float = 0.8        # names at or above this rule score are kept without asking
    drop_score: float = 0.5        # names below it are never offered
    task_from_hint: bool = True    # use the rules' task phrase when there is one
    contribution: str = "hint"     # "hint" (the model only when rules have none) | "model"
    kinds_from_hint: bool = True   # number kinds from rules where they have a hint
    use_model: bool = True         # False: rules alone decide (the rules backend)
    #: rules alone: names of middling score (drop_score..keep_score) kept on their hint's
    #: side, as the tiny model mostly does (dev2: datasets 0.29 -> 0.50, methods 0.73 -> 0.71)
    uncertain_by_hint: bool = False
    names: str = "labels"          # "labels": one label per offered name; "lists": pick lists
    task_style: str = "pick"       # "pick" a phrase cut from the abstract, else a TASK_PATTERNS key
    roles_from_hint: bool = True   # labels mode: the model keeps/vetoes, rules give the role

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class Plan:
    """What one abstract's model call is asked, and what rules already decided."""

    schema: dict                                  # JSON schema the grammar is built from
    choices_text: str                             # appended to the user message
    offered: list[Any] = field(default_factory=list)        # NameCandidates the model picks among
    kept_methods: list[Any] = field(default_factory=list)   # decided by rules
    kept_datasets: list[Any] = field(default_factory=list)
    numbers: list[Any] = field(default_factory=list)        # every NumberCandidate, in order
    asked_kinds: dict[str, int] = field(default_factory=dict)  # JSON key -> index in numbers
    name_keys: dict[str, Any] = field(default_factory=dict)    # JSON key/enum value -> NameCandidate
    task: str | None = None                       # decided by rules, else None (model writes it)
    contribution: str | None = None               # decided by rules, else None
    text: str = ""                                # the abstract (claims are read from it)
    names: list[Any] = field(default_factory=list)          # every NameCandidate


def _enum_texts(names: Sequence[Any]) -> list[str]:
    out, seen = [], set()
    for n in names:
        if n.text not in seen:
            seen.add(n.text)
            out.append(n.text)
    return out


_UNSAFE = re.compile(r'[\\"\x00-\x1f\x7f]')


def _safe_keys(names: Sequence[Any]) -> dict[str, Any]:
    """JSON-safe keys for names (first candidate per text).  llama-cpp-python's converter
    mis-escapes backslashes and quotes in enum values and property names (the model would
    then write invalid JSON), so those characters are left out of keys; the mapping gives
    the candidate back."""
    out: dict[str, Any] = {}
    texts: set[str] = set()
    for n in names:
        if n.text in texts:
            continue
        texts.add(n.text)
        base = " ".join(_UNSAFE.sub("", n.text).split()) or "name"
        key, i = base, 2
        while key in out:
            key, i = f"{base} #{i}", i + 1
        out[key] = n
    return out


def _number_key(text: str, used: set[str]) -> str:
    """A short JSON key for a number: its digits and unit without markup, made unique."""
    base = re.sub(r"[^0-9A-Za-z.,%+\-×]", "", text) or "n"
    key, i = base, 2
    while key in used:
        key, i = f"{base}#{i}", i + 1
    used.add(key)
    return key


def _oneline(s: str, limit: int = 60) -> str:
    s = " ".join(str(s).split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


def build_plan(cands: Any, policy: Policy = Policy(), text: str = "") -> Plan:
    """The per-abstract choice schema for candidates ``cands`` (an ``extract.candidates.Candidates``)
    found in ``text`` (the abstract, which task phrases are cut from)."""
    text = rules_text(text)     # (as the candidates read it: a wrapped line's break is a space)
    plan = Plan(schema={}, choices_text="", numbers=list(cands.numbers), text=text, names=list(cands.names))
    for n in cands.names:
        if n.score < policy.drop_score:
            continue
        if n.score >= policy.keep_score and n.role_hint in ("method", "dataset"):
            (plan.kept_methods if n.role_hint == "method" else plan.kept_datasets).append(n)
        elif n.role_hint == "model" and n.score >= policy.keep_score:
            continue        # a confidently external model name: neither introduced nor a dataset
        else:
            plan.offered.append(n)

    props: dict[str, dict] = {}
    if policy.task_from_hint and cands.task_hint:
        # the rules' phrase (the hint polished, else their best candidate, else a cut of the
        # first sentence: always 3-12 words when the abstract has them)
        plan.task = final_task(cands.task_hint, text, cands.task_titled)
    else:
        phrases = task_phrases(text) if policy.task_style == "pick" and text else []
        fallback = final_task(None, text) if policy.task_style == "pick" and text and not phrases else None
        if phrases:
            props["task"] = {"enum": phrases}
        elif fallback and len(fallback.split()) >= MIN_WORDS:
            plan.task = fallback        # nothing verbatim to pick: the rules' cut, not free writing
        else:
            props["task"] = {"type": "string", "pattern": TASK_PATTERNS.get(policy.task_style, TASK_PATTERNS["free"])}
    if policy.contribution == "hint" and cands.contribution_hint in CONTRIBUTIONS:
        plan.contribution = cands.contribution_hint
    else:
        props["contribution"] = {"enum": list(CONTRIBUTIONS)}

    plan.name_keys = _safe_keys(plan.offered)
    method_enum = list(plan.name_keys)
    dataset_enum = [k for k, n in plan.name_keys.items() if n.role_hint != "model"]
    if policy.names == "labels" and method_enum:
        props["names"] = {"type": "object", "additionalProperties": False, "required": method_enum,
                          "properties": {t: {"enum": list(NAME_LABELS)} for t in method_enum}}
    else:
        if method_enum:
            props["methods"] = {"type": "array", "items": {"enum": method_enum},
                                "maxItems": min(len(method_enum), MAX_METHODS)}
        if dataset_enum:
            props["datasets"] = {"type": "array", "items": {"enum": dataset_enum},
                                 "maxItems": min(len(dataset_enum), MAX_DATASETS)}

    used: set[str] = set()
    kind_props: dict[str, dict] = {}
    lines = []
    for i, num in enumerate(plan.numbers):
        if policy.kinds_from_hint and num.kind_hint in KINDS:
            continue
        key = _number_key(num.text, used)
        plan.asked_kinds[key] = i
        kind_props[key] = {"enum": list(KINDS)}
        about = f" ({_oneline(num.about_hint)})" if num.about_hint else ""
        lines.append(f"{json.dumps(key, ensure_ascii=False)}{about}")
    if kind_props:
        props["kinds"] = {"type": "object", "properties": kind_props,
                          "required": list(kind_props), "additionalProperties": False}

    if not policy.use_model:
        if policy.uncertain_by_hint:
            plan.kept_methods += [n for n in plan.offered if n.role_hint == "method"]
            plan.kept_datasets += [n for n in plan.offered if n.role_hint == "dataset"]
        props, lines, method_enum, dataset_enum = {}, [], [], []
        plan.offered, plan.asked_kinds, plan.name_keys = [], {}, {}
        plan.task = plan.task or final_task(cands.task_hint, text, cands.task_titled)
        plan.contribution = plan.contribution or cands.contribution_hint
    plan.schema = {"type": "object", "properties": props, "required": list(props),
                   "additionalProperties": False}
    parts = []
    if "enum" in props.get("task", {}):
        parts.append("Task phrases: " + "; ".join(props["task"]["enum"]))
    if method_enum or dataset_enum:
        parts.append("Candidate names: " + "; ".join(method_enum))
    if plan.kept_methods or plan.kept_datasets:
        parts.append("Already decided: methods " + ", ".join(_enum_texts(plan.kept_methods) or ["-"])
                     + "; datasets " + ", ".join(_enum_texts(plan.kept_datasets) or ["-"]))
    if lines:
        parts.append("Numbers to label: " + "; ".join(lines))
    plan.choices_text = "\n".join(parts)
    return plan


def resolve_roles(methods: list[Any], datasets: list[Any], contribution: str) -> tuple[list[Any], list[Any]]:
    """Remove duplicates and contradictions between the two name lists.

    A span is both a method and a dataset only when the paper introduces a benchmark or
    dataset (the guideline lists introduced benchmarks in both: a dataset candidate with the
    rules' "introduced" cue is added to the methods); otherwise it stays on the
    side its rule hint names (method when there is none).  A model name is never a dataset.
    """
    def introduced_dataset(x: Any) -> bool:
        return x.role_hint == "dataset" and "introduced" in (x.cues or ())

    methods = list(methods) + [d for d in datasets if introduced_dataset(d)]

    def dedupe(xs: list[Any]) -> list[Any]:
        seen, out = set(), []
        for x in xs:
            k = x.text.lower()
            if k not in seen:
                seen.add(k)
                out.append(x)
        return out

    methods, datasets = dedupe(methods), dedupe([d for d in datasets if d.role_hint != "model"])
    both = {m.text.lower() for m in methods} & {d.text.lower() for d in datasets}
    both -= {d.text.lower() for d in datasets if introduced_dataset(d)}
    if both and contribution not in ("benchmark", "dataset"):
        methods = [m for m in methods if m.text.lower() not in both or m.role_hint != "dataset"]
        datasets = [d for d in datasets if d.text.lower() not in both or d.role_hint == "dataset"]
    return methods[:MAX_METHODS * 2], datasets[:MAX_DATASETS * 2]


def written_task(task: str, text: str = "") -> str:
    """A phrase a model wrote freely, cut to its first clause and 12 words, without markup
    (polished against ``text``, the abstract, when given)."""
    task = plain(task or "")
    task = re.split(r"[,;:?!]|\.(?:\s|$)", task, maxsplit=1)[0]
    return polish(" ".join(task.split()[:12]), text)


def claims_key(numbers: Sequence[Any], methods: Sequence[Any], datasets: Sequence[Any],
               kinds: Sequence[Any], contribution: str | None, titled: str | None = None) -> tuple:
    """Everything :func:`attach_claims` reads besides the text, as one hashable value: the
    numbers' spans and kinds in text order, the name texts in order, the contribution and the
    title's name (two calls on one text with equal keys return the same claims)."""
    def text(x):
        return x if isinstance(x, str) else getattr(x, "text", "")
    spans = sorted((n["start"], n["end"], k) if isinstance(n, dict) else (n.start, n.end, k)
                   for n, k in zip(numbers, kinds))
    return (tuple(spans), tuple(map(text, methods)), tuple(map(text, datasets)), contribution, titled)


def map_answer(plan: Plan, answer: dict, policy: Policy = Policy(), memo: dict | None = None) -> dict:
    """The default schema's fields from the model's choices plus the rules' decisions.

    Every text, value and unit comes from a candidate; the model only contributes the
    selection, the labels and (when rules have none) the task phrase."""
    offered = plan.name_keys
    picked_m = [offered[t] for t in answer.get("methods", []) if t in offered]
    picked_d = [offered[t] for t in answer.get("datasets", []) if t in offered]
    for t, label in (answer.get("names") or {}).items():
        n = offered.get(t)
        if n is None or label not in NAME_LABELS[1:]:
            continue            # "other": the model vetoes an uncertain name
        # the model decides whether an uncertain name belongs; its role comes from the rules
        # when they have one (they are measured to be better at roles than a tiny model)
        role = n.role_hint if n.role_hint in ("method", "dataset") and policy.roles_from_hint else None
        if role == "method" or (role is None and label == "introduced"):
            picked_m.append(n)
        if role == "dataset" or (role is None and label == "dataset" and n.role_hint != "model"):
            picked_d.append(n)
    vetoed = {offered[t].text for t, label in (answer.get("names") or {}).items() if t in offered and label == "other"}
    decided = [n.text for n in plan.kept_methods + plan.kept_datasets + picked_m + picked_d] + list(vetoed)
    picked_m += claimed_systems(plan.text, plan.numbers, plan.names, decided)   # subjects of results
    contribution = plan.contribution or answer.get("contribution")
    if contribution not in CONTRIBUTIONS:
        contribution = "method"
    methods, datasets = resolve_roles(plan.kept_methods + picked_m, plan.kept_datasets + picked_d,
                                      contribution)
    kinds = answer.get("kinds") or {}
    numbers = []
    asked = {i: k for k, i in plan.asked_kinds.items()}
    for i, num in enumerate(plan.numbers):
        kind = kinds.get(asked[i]) if i in asked else num.kind_hint
        if kind not in KINDS:
            kind = num.kind_hint if num.kind_hint in KINDS else "result"
        numbers.append({"text": num.text, "value": float(num.value), "unit": num.unit,
                        "kind": kind, "about": _oneline(num.about_hint or "", 80), "at": num.start})
    number_kinds = [e["kind"] for e in numbers]
    titled = title_name(plan.names)
    claims = attach_claims(plan.text, plan.numbers, methods, datasets, kinds=number_kinds,
                           contribution=contribution, titled=titled)
    if memo is not None:    # the call and its claims by span: extract.hybrid's mapping reuses them
        memo["claims"] = (claims_key(plan.numbers, methods, datasets, number_kinds, contribution, titled),
                          {(n.start, n.end): c for n, c in zip(plan.numbers, claims)})
    for entry, claim in zip(numbers, claims):
        entry.update(claim.fields())    # metric, dataset, method: read from the sentence by rules
    task = plan.task or written_task(str(answer.get("task", "")))
    # a pretrained model's name (Llama3-8B, GPT-4o) is never one of the rules' datasets, unless
    # a dataset noun names it one ("the Human3.6M dataset", "the Persona-Chat dataset"; a
    # model's own dataset label is not filtered: extract.hybrid keeps it)
    shaped = {d.text.lower() for d in datasets if is_model_name(d.text) and not named_a_dataset(d.text, d.cues)}
    for entry in numbers:
        if entry.get("dataset") and entry["dataset"].lower() in shaped:
            entry["dataset"] = None
    return {"task": task or "unspecified", "contribution": contribution,
            "method_names": [m.text for m in methods],
            "datasets": [d.text for d in datasets if d.text.lower() not in shaped], "numbers": numbers}


#: The policy of the rules path: no model call, the rules' choices stand (names they are
#: unsure of on the side their hint names: measured in the README's Benchmarks).
RULES_POLICY = Policy(use_model=False, uncertain_by_hint=True)


def decide(text: str, cands: Any = None, memo: dict | None = None, title: str | None = None) -> dict:
    """The default schema's fields as the rules decide them for ``text`` (``cands``: its
    candidates when already found; ``title``: the paper's title, read for the name its head
    gives): the one call site of the rules' decision."""
    from .candidates import find_candidates

    plan = build_plan(cands if cands is not None else find_candidates(text, title), RULES_POLICY, text)
    return map_answer(plan, {}, RULES_POLICY, memo)
