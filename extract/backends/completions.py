"""One chat completion through the openai SDK's own client, without its per-call walks.

``chat.completions.create`` spends, per request, more CPU in Python than the HTTP request
itself on a loopback server:

* the body: it builds a dict of its ~40 parameters and "transforms" it (a walk of every
  message and of the whole tool schema against its typed parameters: the identity on plain
  JSON).  :func:`request_body` serializes the very same body, the given fields in the SDK's
  own order with the SDK's own JSON encoder (what recurs in every request, the system
  prompt and a shape's tool parameters, written once), and :func:`create` posts those bytes with
  ``client.post``: the SDK's request path (its headers, the API key, the timeout, the HTTP
  client and its hooks, the status errors), without the walk; a retry posts the same bytes;
* the answer: the SDK builds the ChatCompletion with ``construct_type``, a walk in Python
  (~0.1-0.2 ms a completion with a tool call).  A well-formed completion is validated by
  pydantic instead (~0.01 ms, an equal object); anything else (an error object in a 200, an
  odd field, a body that is not JSON) is read as the SDK reads it.

A call with a field the SDK acts on (``stream``, ``extra_body``...) or does not know, or an
SDK without these helpers, goes through ``chat.completions.create`` as it is
(:func:`request_body` returns None).  tests/test_hybrid_remote.py checks that the bytes on
the wire are the SDK's own, first ask, re-ask and retry alike.
"""

from __future__ import annotations

import inspect

import openai
import pydantic
from openai.types.chat import ChatCompletion

try:                       # openai 3 is built on httpx2, openai 2 on httpx
    import httpx2 as httpx
except ImportError:        # pragma: no cover - openai 2
    import httpx

try:
    from openai._models import construct_type as _construct
    from openai._utils._json import openapi_dumps as _dumps
except ImportError:        # pragma: no cover - another SDK layout: create() as it is
    _construct = _dumps = None

#: the body fields of ``chat.completions.create`` in the order the SDK writes them (its
#: signature's order, which is its body's)
_BODY_ORDER = tuple(k for k in inspect.signature(openai.resources.chat.AsyncCompletions.create).parameters
                    if k not in ("self", "extra_headers", "extra_query", "extra_body", "timeout"))
_BODY_KEYS = frozenset(_BODY_ORDER) - {"stream"}
_USABLE = (_dumps is not None and _construct is not None
           and "content" in inspect.signature(openai.AsyncOpenAI.post).parameters)
#: what ``create`` asks of the request path besides the body: the API key as a bearer token
_OPTIONS = {"security": {"bearer_auth": True}}


def request_body(kwargs: dict) -> bytes | None:
    """The bytes ``chat.completions.create(**kwargs)`` sends as its body, or None when the
    SDK itself must build the request (see the module docstring).  The JSON of an object is
    the JSON of its items joined, so the body is written field by field, message by message
    and tool by tool, and what recurs in every request (the system prompt, a shape's tool
    parameters) is written once (:func:`_recurring`)."""
    if not _USABLE or not kwargs.keys() <= _BODY_KEYS or not {"model", "messages"} <= kwargs.keys():
        return None
    items = [_dumps(k) + b":" + _field(k, kwargs[k]) for k in _BODY_ORDER
             if k in kwargs and not isinstance(kwargs[k], (openai.NotGiven, openai.Omit))]
    return b"{" + b",".join(items) + b"}"


def _field(name: str, value) -> bytes:
    if name in ("messages", "tools") and type(value) is list and all(type(x) is dict for x in value):
        return b"[" + b",".join(_object(x) for x in value) + b"]"
    return _dumps(value)


def _object(obj: dict) -> bytes:
    """A message or a tool: its JSON, with a long string (the system prompt) and a tool's
    function ``parameters`` (one dict per answer shape) written once."""
    if not all(type(k) is str for k in obj):
        return _dumps(obj)
    items = []
    for k, v in obj.items():
        if type(v) is dict and k == "function" and all(type(x) is str for x in v):
            v = b"{" + b",".join(_dumps(x) + b":" + (_recurring(y) if x == "parameters" else _dumps(y))
                                 for x, y in v.items()) + b"}"
        elif type(v) is str and len(v) >= 1024:
            v = _recurring(v)
        else:
            v = _dumps(v)
        items.append(_dumps(k) + b":" + v)
    return b"{" + b",".join(items) + b"}"


#: id -> (the object, its JSON): kept with the object, so an id is never another object's
_WRITTEN: dict[int, tuple[object, bytes]] = {}


def _recurring(value) -> bytes:
    """``value``'s JSON, written once for a string or for a tool's parameters, which no one
    changes once made (instructor caches them per class and copies before it adds to a
    schema); another value, or after 1,024 of them, is written again."""
    seen = _WRITTEN.get(id(value))
    if seen is not None and seen[0] is value:
        return seen[1]
    if len(_WRITTEN) >= 1024:
        _WRITTEN.clear()
    data = _dumps(value)
    _WRITTEN[id(value)] = (value, data)
    return data


async def create(client: openai.AsyncOpenAI, body: bytes):
    """``chat.completions.create`` of the body :func:`request_body` made: the completion (or
    what the SDK makes of a 200 that is not one)."""
    response = await client.post("/chat/completions", content=body, cast_to=httpx.Response,
                                 options=_OPTIONS)
    return completion_of(response)


def completion_of(response):
    """A 200's body as ``chat.completions.create`` returns it: a ChatCompletion; for a body
    that is not a well-formed one, the SDK's own lenient reading (``construct_type`` of the
    JSON, the text of a body that is not JSON under another content type)."""
    raw = response.content
    try:
        return ChatCompletion.model_validate_json(raw)
    except (pydantic.ValidationError, ValueError):
        pass
    content_type = response.headers.get("content-type", "*").split(";")[0]
    if not content_type.endswith("json"):
        try:
            data = response.json()
        except Exception:  # noqa: BLE001 - as the SDK: the text, for the caller to judge
            return response.text
    else:
        data = response.json()          # not JSON under a JSON content type: raises, as the SDK
    return None if data is None else _construct(type_=ChatCompletion, value=data)
