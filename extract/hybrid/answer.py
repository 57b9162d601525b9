"""The per-abstract response model of the hybrid extractor (``pydantic.create_model``).

Shape (every property required in the JSON Schema, as OpenAI strict mode wants)::

    {"task": "...", "contribution": "method",
     "names": {"@C1": "method", "@C2": "dataset", "@C3": "other"},
     "more_methods": ["a verbatim span"], "more_datasets": [],
     "numbers": {"@N1": {"kind": "result", "metric": "accuracy", "dataset": "@C2", "method": "@C1",
                         "value_type": "change", "compared_to": "@C3"},
                 "@N2": {"kind": "drop", ...}},
     "more_numbers": [{"text": "8.1K", "kind": "setting", "metric": null, ...}]}

Ids are written ``@C1``/``@N1``, a form no abstract writes: a dataset named "C4" is a span
of the abstract, never candidate 4 (a bare ``C4`` that is not in the abstract is still read
as the id, for a model that forgets the ``@``).

``names`` and ``numbers`` admit exactly this abstract's candidate and number ids as keys
(``additionalProperties: false``): the ids are the schema's enum, so an endpoint that
enforces the schema (OpenAI structured outputs, vLLM guided decoding, a llama.cpp grammar)
cannot invent a number id, and every candidate gets an explicit label (a small model cannot
forget one).  An invented key (``@C99``) from an endpoint that does not enforce the schema is
dropped alone: the other labels stand.  A number the rules missed comes back in
``more_numbers`` as a verbatim span, aligned to the abstract and parsed by the rules' own
number parser.  Names beyond the candidates (``more_*``), added numbers and number references
are candidate ids or verbatim spans: a span that is not in the abstract is rejected
(re-asked) until the last attempt, where it is dropped.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, create_model, field_validator, model_validator

from ..grounding import Aligner
from ..text import parse_number_at
from .proposal import Proposal

#: an id as the listing writes it (``@C4``); ``_BARE`` the same without the ``@``, read as an
#: id only when it is not a span of the abstract
_ID = re.compile(r"^\s*@\s*([CN])(\d+)\s*$")
_BARE = re.compile(r"^\s*([CN])(\d+)\s*$")
NUMBER_KINDS = ("result", "setting", "drop")
#: method = introduced by this paper; dataset = a named dataset/benchmark/environment;
#: both = a dataset or benchmark this paper introduces; other = neither
NAME_LABELS = ("method", "dataset", "both", "other")
#: Names beyond the candidates, per list (maxItems: a small model cannot loop in a list).
MAX_MORE = 8
#: Bounds on the free strings, in the JSON Schema only (a grammar-constrained model cannot
#: loop in one: measured, SmolLM2 wrote a 1,000-token metric without them).  Pydantic does
#: not enforce them: a long answer from an unconstrained endpoint is cut or aligned later,
#: not re-asked.
MAX_CHARS = {"task": 120, "metric": 60, "dataset": 80, "method": 80, "compared_to": 80, "more_methods": 80,
             "more_datasets": 80, "text": 40}


def _bound(node: dict, limit: int) -> None:
    """``maxLength`` on every string branch of ``node`` (a property, an ``anyOf``, array items)."""
    if node.get("type") == "string" and "enum" not in node:
        node["maxLength"] = limit
    for sub in node.get("anyOf", ()):
        _bound(sub, limit)
    if isinstance(node.get("items"), dict):
        _bound(node["items"], limit)


def _all_required(schema: dict) -> None:
    """JSON Schema post-processing: every property required (defaults stay in Pydantic, so a
    model that omits one is not failed for it) and the free strings bounded."""
    props = schema.get("properties")
    if isinstance(props, dict):
        schema["required"] = list(props)
        for name, p in props.items():
            p.pop("default", None)
            if name in MAX_CHARS:
                _bound(p, MAX_CHARS[name])


def lenient(info: ValidationInfo) -> bool:
    """The last attempt (or no source to check against): drop what cannot be grounded."""
    ctx = info.context or {}
    return ("source" not in ctx or bool(ctx.get("lenient"))
            or ctx.get("attempt", 0) >= ctx.get("last_attempt", 10**9))


def _grounded(values: list[str], info: ValidationInfo, ids: frozenset[str], what: str) -> list[str]:
    """Keep candidate ids and spans of the source.  An unknown id is rejected (re-asked);
    a span that is not in the source too, unless the context says ``drop_ungrounded`` (the
    core's choice: one request per abstract, a stray span is dropped rather than paid for
    with a second call)."""
    ctx = info.context or {}
    source = ctx.get("source")
    aligner = Aligner(source) if source else None
    out, bad = [], []
    for v in values:
        v = v.strip()
        if not v:
            continue
        m = _ID.match(v)
        bare = None if m else _BARE.match(v)
        in_text = not m and (aligner is None or aligner.align(v, unwrap_name=True) is not None)
        if m and f"@{m.group(1)}{m.group(2)}" in ids:
            out.append(f"@{m.group(1)}{m.group(2)}")
        elif m:
            bad.append(f"{v} (no such candidate id)")
        elif in_text:
            out.append(v)                   # a span of the abstract ("C4" the dataset)
        elif bare and f"@{bare.group(1)}{bare.group(2)}" in ids:
            out.append(f"@{bare.group(1)}{bare.group(2)}")     # an id written without its "@"
        elif bare:
            bad.append(f"{v} (no such candidate id)")
        elif not ctx.get("drop_ungrounded"):
            bad.append(f"{v!r} (not in the abstract)")
    if bad and not lenient(info):
        raise ValueError(f"{what}: " + "; ".join(bad[:6]) + ". Use a listed id or copy a span "
                         "verbatim from the abstract, or leave it out.")
    return out


def _ref(value: Optional[str], info: ValidationInfo, ids: frozenset[str]) -> Optional[str]:
    if value is None or value.strip() == "":
        return value if value is None else ""
    kept = _grounded([value], info, ids, "number reference")
    return kept[0] if kept else None


def answer_model(proposal: Proposal, contributions: tuple[str, ...],
                 base: type[BaseModel] | None = None) -> type[BaseModel]:
    """The response model for ``proposal``'s abstract: one class per shape (its number and
    candidate ids), built once and reused, so its JSON schema is made once too (instructor
    and the backends cache by class).  ``base``: a mixin the class also derives from (the
    OpenAI backend's: instructor's ``ResponseSchema``, so instructor uses the class as it
    is instead of building a wrapper class per shape); the JSON schema is the same."""
    return _answer_model(tuple(proposal.numbers), tuple(proposal.names), tuple(contributions), base)


@lru_cache(maxsize=8)
def _root(base: type[BaseModel] | None) -> type[BaseModel]:
    """The answer model's base class: every property required (see :func:`_all_required`)."""
    bases = (base,) if base is not None else (BaseModel,)
    return type(bases[0])("AnswerBase", bases, {"__module__": __name__,
                          "model_config": ConfigDict(json_schema_extra=_all_required)})


def _keep_known(ids: frozenset[str]) -> dict:
    """The validators of a model whose keys are ids: an invented key (``@C99``) is dropped
    alone, the other entries kept."""
    def only_known(cls, data):
        if isinstance(data, dict):
            return {k: v for k, v in data.items() if k in ids}
        return data
    return {"_known": model_validator(mode="before")(classmethod(only_known))}


_STRICT = ConfigDict(extra="forbid", json_schema_extra=_all_required)


@lru_cache(maxsize=256)     # one per candidate list (12 in 1,000 real abstracts)
def _name_models(name_ids: tuple[str, ...]) -> tuple[type[BaseModel], type[BaseModel], type[BaseModel]]:
    """(NumberDecision, MoreNumber, Names) for these candidate ids: the sub-models that
    depend on the candidates alone, built once and shared by every shape that has them."""
    ref_ids = frozenset(name_ids)

    class NumberDecision(BaseModel):
        model_config = _STRICT
        kind: Literal[NUMBER_KINDS] = Field(  # type: ignore[valid-type]
            description="result = a claimed outcome; setting = scale or configuration; "
                        "drop = not a quantity (part of a name, a year, a section number)")
        metric: Optional[str] = Field(default=None,
                                      description="what it measures, copied from the abstract")
        dataset: Optional[str] = Field(default=None,
                                       description="candidate id or name of the dataset it is on")
        method: Optional[str] = Field(default=None, description="candidate id or name of the system it "
                                                               "belongs to; '' = the paper's own unnamed approach")
        # absolute value or change (null: the rules' reading stands), and a change's named reference
        value_type: Optional[Literal["absolute", "change"]] = Field(
            default=None, description="change = a gain, drop, speedup or other difference or ratio to a "
                                      "reference value ('by 3.1 points', '+5.3%', '40% fewer'); absolute = a value as measured")
        compared_to: Optional[str] = Field(default=None, description="for a change: candidate id or name of the "
                                                                    "system it is measured against; null when unnamed")

        @field_validator("metric")
        @classmethod
        def _metric(cls, v, info: ValidationInfo):
            if v is None or not v.strip():
                return None
            kept = _grounded([v], info, frozenset(), "metric")
            return kept[0] if kept else None

        @field_validator("dataset", "method", "compared_to")
        @classmethod
        def _refs(cls, v, info: ValidationInfo):
            return _ref(v, info, ref_ids)

    class MoreNumber(NumberDecision):
        """A number the rules did not list: its text a verbatim span of the abstract."""
        model_config = _STRICT
        text: str = Field(description="the number with its unit, copied verbatim from the abstract")

        @field_validator("text")
        @classmethod
        def _span(cls, v, info: ValidationInfo):
            return _number_span(v, info)

    label = Literal[NAME_LABELS]  # type: ignore[valid-type]
    Names = create_model("Names", __config__=_STRICT, __validators__=_keep_known(ref_ids),
                         **{k: (label, "other") for k in name_ids})
    return NumberDecision, MoreNumber, Names


@lru_cache(maxsize=1024)
def _numbers_model(number_ids: tuple[str, ...], name_ids: tuple[str, ...]) -> type[BaseModel]:
    """Numbers: one decision per number id (the decision model is the candidates')."""
    decision = _name_models(name_ids)[0]
    return create_model("Numbers", __config__=_STRICT, __validators__=_keep_known(frozenset(number_ids)),
                        **{k: (decision, None) for k in number_ids})


@lru_cache(maxsize=1024)     # shapes seen on 10,901 real abstracts: a few hundred
def _answer_model(number_ids: tuple[str, ...], name_ids: tuple[str, ...],
                  contributions: tuple[str, ...], base: type[BaseModel] | None = None) -> type[BaseModel]:
    _, MoreNumber, Names = _name_models(name_ids)
    Numbers = _numbers_model(number_ids, name_ids)

    def more_validator(cls, v, info: ValidationInfo):
        return _grounded(v, info, frozenset(), info.field_name)

    def spans_kept(cls, v, info: ValidationInfo):
        """Added numbers whose span was dropped (not in the abstract, on the last attempt)
        or that repeat a listed number are left out."""
        out, seen = [], set()
        for x in v:
            key = getattr(x, "text", None)
            if key and key not in seen:
                seen.add(key)
                out.append(x)
        return out

    return create_model(
        "PaperAnswer",
        __doc__="Decisions about one abstract's candidates (ids from the listing).",
        __base__=_root(base), __module__=__name__,
        __validators__={"_more": field_validator("more_methods", "more_datasets")(classmethod(more_validator)),
                        "_added": field_validator("more_numbers")(classmethod(spans_kept))},
        task=(str, Field(description="the research problem, a short noun phrase of 3-12 words")),
        contribution=(Literal[contributions], Field(description="the main kind of contribution")),  # type: ignore[valid-type]
        names=(Names, Field(default_factory=Names, description="one label per candidate id")),
        more_methods=(list[str], Field(default_factory=list, max_length=MAX_MORE, description="names this paper introduces that "
                                       "are not candidates, copied verbatim")),
        more_datasets=(list[str], Field(default_factory=list, max_length=MAX_MORE, description="named datasets that are not "
                                        "candidates, copied verbatim")),
        numbers=(Numbers, Field(default_factory=Numbers, description="one decision per number id")),
        more_numbers=(list[MoreNumber], Field(default_factory=list, max_length=MAX_MORE,
                                              description="numbers the list missed, text copied verbatim; usually []")),
    )


def _number_span(v: str, info: ValidationInfo) -> str:
    """An added number's text: a span of the abstract that the rules' number parser reads
    and that no listed number covers (the validation context's ``listed``: the listed
    numbers' ``(start, end)``; the model class is one per shape, so the abstract's own
    spans come with the context).  A span not in the abstract (or without digits) is
    re-asked, or dropped (``""``) on the last attempt and with ``drop_ungrounded``."""
    ctx = info.context or {}
    source = ctx.get("source")
    v = (v or "").strip()
    if not source:
        return v
    span = Aligner(source).align(v) if v else None
    problem = None
    if span is None:
        problem = f"{v!r} is not in the abstract"
    elif parse_number_at(source, span.start, span.end) is None:
        problem = f"{v!r} has no number the parser reads"
    elif any(a < span.end and span.start < b for a, b in ctx.get("listed", ())):
        return ""                        # already listed: its id decides it
    if problem is None:
        return source[span.start:span.end]
    if lenient(info) or (span is None and ctx.get("drop_ungrounded")):
        return ""
    raise ValueError(f"more_numbers: {problem}. Copy a number verbatim from the abstract, or leave it out.")
