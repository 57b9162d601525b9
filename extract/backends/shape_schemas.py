"""instructor's tool schema of a hybrid answer shape, made from a shape already written.

The hybrid job's response model is one class per shape: its number ids and its candidate
ids (:mod:`extract.hybrid.answer`).  instructor writes each class's tool schema with
pydantic's JSON schema generator, ~3 ms a shape (59 shapes in 1,000 corpus abstracts, on the
event loop).  Two shapes with the same candidates differ only in ``$defs.Numbers``: one
``{"$ref": "#/$defs/NumberDecision"}`` property per number id, all of them required.  So a
shape's schema is its candidate list's one-number shape's (instructor's own, written once
per candidate list: 12 in those 1,000) with its number ids put in: ~0.2 ms.

Byte for byte instructor's own: the process's first derived schema (of two numbers or more)
is compared with instructor's, and a difference (another pydantic or instructor) turns the
derivation off for the process; tests/test_hybrid_cpu.py compares the seeds' shapes and a
grid.  Any other class, a shape without numbers (no NumberDecision in its ``$defs``) and a
class that is not the answer model's own for its shape get instructor's schema as it is.
"""

from __future__ import annotations

import functools
import json
from typing import Callable, get_args

from pydantic import BaseModel

#: "ok": False once a derived schema differed from instructor's; "checked": the first was compared
STATE = {"ok": True, "checked": False}


def shape_of(model: type) -> tuple | None:
    """(number ids, candidate ids, contribution labels, base) of a hybrid answer class, or
    None for any other class (or a class that is not the answer model of its shape)."""
    from ..hybrid.answer import _answer_model     # the answer model of a shape, built once

    if getattr(model, "__module__", None) != _answer_model.__module__ or model.__name__ != "PaperAnswer":
        return None
    try:
        fields = model.model_fields
        numbers = tuple(fields["numbers"].annotation.model_fields)
        names = tuple(fields["names"].annotation.model_fields)
        contributions = get_args(fields["contribution"].annotation)
    except (AttributeError, KeyError, TypeError):
        return None
    root = model.__mro__[1]                      # AnswerBase, over the backend's base or BaseModel
    if root.__name__ != "AnswerBase" or len(root.__bases__) != 1:
        return None
    base = None if root.__bases__[0] is BaseModel else root.__bases__[0]
    shape = (numbers, names, contributions, base)
    return shape if _answer_model(*shape) is model else None


def deriving(schema_of: Callable[[type], dict]) -> Callable[[type], dict]:
    """``schema_of`` (instructor's ``generate_openai_schema``), deriving hybrid answer
    shapes' schemas as the module docstring says; one schema per class, kept."""

    @functools.lru_cache(maxsize=1024)      # one per answer shape (extract.hybrid.answer)
    def tool_schema(model):
        made = _derived(model, schema_of) if STATE["ok"] else None
        return made if made is not None else schema_of(model)
    tool_schema.__wrapped__ = schema_of
    return tool_schema


def _derived(model: type, schema_of: Callable[[type], dict]) -> dict | None:
    shape = shape_of(model)
    if shape is None or len(shape[0]) < 2:
        return None
    from ..hybrid.answer import _answer_model

    numbers = shape[0]
    schema = json.loads(json.dumps(schema_of(_answer_model(("@N1",), *shape[1:]))))
    made = schema.get("parameters", {}).get("$defs", {}).get("Numbers")
    entry = (made or {}).get("properties", {}).get("@N1")
    if entry is None or not isinstance(made.get("required"), list):
        return None
    made["properties"] = {k: dict(entry) for k in numbers}
    made["required"] = list(numbers)
    if not STATE["checked"]:
        STATE["checked"] = True
        if json.dumps(schema) != json.dumps(schema_of(model)):
            STATE["ok"] = False
            return None
    return schema
