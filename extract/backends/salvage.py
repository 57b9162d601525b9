"""A bad field never sinks its record: the last answer, minus the fields that stay invalid.

When an answer is still invalid after the last re-ask, :func:`salvage` validates it again
with each failing part taken out: a failing element of a list is dropped; a failing field
falls back to its default, or to its type's empty value (``""``, ``[]``, ``None``) when it
has none.  If the rest validates, the record is kept and each removal is named in its
``notes`` ("task: dropped (task must be a short noun phrase...)").  A field that has no
valid empty value (a required ``Literal``) still fails the record.
"""

from __future__ import annotations

import json
import typing
from typing import Any

from pydantic import BaseModel, ValidationError

_EMPTY = {str: "", list: [], dict: {}}


def answer_text(completion: Any) -> str | None:
    """The JSON the model wrote in a chat completion (a tool call's arguments or the
    message content)."""
    try:
        message = completion.choices[0].message
    except (AttributeError, IndexError, TypeError):
        return None
    calls = getattr(message, "tool_calls", None) or []
    if calls:
        return getattr(getattr(calls[0], "function", None), "arguments", None)
    return getattr(message, "content", None)


def _empty(annotation: Any) -> tuple[bool, Any]:
    origin = typing.get_origin(annotation) or annotation
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        args = typing.get_args(annotation)
        if type(None) in args:
            return True, None
        return _empty(args[0]) if args else (False, None)
    if origin in _EMPTY:
        return True, type(_EMPTY[origin])()
    return False, None


def _brief(msg: str) -> str:
    msg = msg.removeprefix("Value error, ")
    return msg if len(msg) <= 160 else msg[:157] + "..."


def salvage(model: type[BaseModel], data: Any, context: dict,
            rounds: int = 6) -> tuple[BaseModel, list[str]] | None:
    """(object, notes) from ``data`` with its invalid parts removed, or None."""
    if not isinstance(data, dict):
        return None
    data, notes = dict(data), []
    ctx = dict(context, lenient=True)
    for _ in range(rounds):
        try:
            return model.model_validate(data, context=ctx), notes
        except ValidationError as e:
            errors = e.errors()
        drops: dict[str, set[int]] = {}
        for err in errors:
            loc = err.get("loc") or ()
            if not loc or not isinstance(loc[0], str):
                return None
            name, msg = loc[0], _brief(str(err.get("msg", "")))
            field = model.model_fields.get(name)
            if len(loc) >= 2 and isinstance(loc[1], int) and isinstance(data.get(name), list):
                drops.setdefault(name, set()).add(loc[1])
                notes.append(f"{name}[{loc[1]}]: dropped ({msg})")
                continue
            if field is None:
                data.pop(name, None)
            elif not field.is_required():
                data.pop(name, None)
            else:
                ok, value = _empty(field.annotation)
                if not ok or data.get(name, object()) == value:
                    return None
                data[name] = value
            notes.append(f"{name}: dropped ({msg})")
        for name, idx in drops.items():
            data[name] = [v for i, v in enumerate(data[name]) if i not in idx]
    return None


def salvage_completion(model: type[BaseModel], completion: Any,
                       context: dict) -> tuple[BaseModel, list[str]] | None:
    text = answer_text(completion)
    if not isinstance(text, str):
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return salvage(model, data, context)
