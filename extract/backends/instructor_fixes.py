"""Adjustments to instructor (1.17) internals, for correctness and throughput.

Nothing is changed when this module is imported: :func:`install` applies the patches, and
the OpenAI backend calls it when it is built.  Each patch is scoped or behaviour-preserving:

* ``handle_templating`` is skipped only for calls whose validation context carries the
  :data:`VERBATIM` marker (extract's own); every other instructor call is templated as
  shipped;
* ``reject_async_validators`` remembers a class that passed (the answer for a class does
  not change), so instructor's seven checks per request cost one;
* :func:`load_handlers` loads a mode's handlers when the backend is built, not at the
  first request (on the event loop);
* the OpenAI handlers' tool schema of a hybrid answer shape is made from the one written for
  its candidate list (:mod:`.shape_schemas`: byte for byte instructor's own);
* :func:`prepared` builds instructor's wrapper of a response model once per model, and none
  for a model that already derives from instructor's ``ResponseSchema`` (:data:`ANSWER_BASE`:
  the hybrid job's answer models do, one class per shape instead of two).
* instructor's running token total (a ``CompletionUsage`` made per call, the answer's usage
  added into it field by field, a deep copy of it per answer: ~0.1 ms a request) is skipped
  only for calls made while :data:`OWN_USAGE` is set: extract's OpenAI backend counts the
  tokens of each request itself, in the function instructor calls, and never reads
  instructor's total; every other instructor call keeps it.

With another instructor layout the patches are skipped and instructor behaves as shipped
(tests/test_scale.py::test_abstract_reaches_the_model_verbatim notices the one that
matters for correctness; tests/test_reliability_backend.py tests each patch).
"""

from __future__ import annotations

import functools
import importlib
import weakref
from contextvars import ContextVar

from . import shape_schemas


def _optional(module: str, attr: str | None = None):
    """instructor's ``module`` (or its ``attr``), or None with another instructor layout (the
    patch that needs it is then skipped)."""
    try:
        found = importlib.import_module(module)
    except ImportError:  # pragma: no cover - another instructor version
        return None
    return getattr(found, attr, None) if attr else found


_instructor_patch = _optional("instructor.v2.core.patch")
_async_validators = _optional("instructor.v2.validation.async_validators")
_response_schema = _optional("instructor.v2.core.function_calls", "response_schema")
ANSWER_BASE = _optional("instructor.v2.core.function_calls", "ResponseSchema")
_registry = _optional("instructor.v2.core.registry", "mode_registry")
_openai_schema = _optional("instructor.v2.providers.openai.schema")
_retry = _optional("instructor.v2.core.retry")
#: set while a backend that counts its own tokens calls instructor (see :func:`_own_usage`)
OWN_USAGE: ContextVar[bool] = ContextVar("extract_own_usage", default=False)
VERBATIM = "_extract_verbatim"     # context marker: send messages exactly as rendered
_templating = getattr(_instructor_patch, "handle_templating", None)
_reject_async = getattr(_async_validators, "reject_async_validators", None)
#: weak: the hybrid job's answer model is a class per abstract, not to be kept for the run
_no_async_validators: "weakref.WeakSet[type]" = weakref.WeakSet()


def _verbatim_templating(kwargs, mode, provider=None, context=None):
    """instructor renders every message as a Jinja2 template when a validation context is
    given: an abstract with ``{{``, ``{#`` or ``{%`` was altered or failed, and trailing
    newlines were cut.  Our calls carry the marker and are sent verbatim; others are not
    touched."""
    if isinstance(context, dict) and context.get(VERBATIM):
        return kwargs
    return _templating(kwargs, mode, provider, context)


def _reject_async_once(model) -> None:
    """instructor walks the response model's whole MRO for async validators 7 times per
    request (~20% of the client's CPU in a profile at concurrency 32); a class that passed
    once passes for good."""
    if isinstance(model, type) and model in _no_async_validators:
        return
    _reject_async(model)
    if isinstance(model, type):
        _no_async_validators.add(model)


def _own_usage() -> None:
    """instructor's usage accounting in its retry loop, skipped while :data:`OWN_USAGE` is
    set (no running total: the answer's ``usage`` is left as the endpoint sent it, and
    instructor attaches no total to the answer or its retry error); as shipped otherwise."""
    if _retry is None or getattr(_retry, "_extract_own_usage", False):
        return
    names = ("_initialize_usage", "has_compatible_usage", "update_total_usage")
    if not all(callable(getattr(_retry, n, None)) for n in names):
        return          # pragma: no cover - another instructor layout: as shipped
    initialize, compatible, update = (getattr(_retry, n) for n in names)

    def _initialize_usage(provider):
        return None if OWN_USAGE.get() else initialize(provider)

    def has_compatible_usage(response, total_usage):
        return False if OWN_USAGE.get() else compatible(response, total_usage)

    def update_total_usage(response, total_usage):
        return response if OWN_USAGE.get() else update(response=response, total_usage=total_usage)

    _retry._initialize_usage = _initialize_usage
    _retry.has_compatible_usage = has_compatible_usage
    _retry.update_total_usage = update_total_usage
    _retry._extract_own_usage = True


def load_handlers(provider, mode) -> None:
    """Load instructor's handlers of ``mode`` now.  instructor imports a provider's handlers
    at its first request (with ``requests``, ``urllib3`` and ``docstring_parser``: ~0.1 s of
    CPU), which is on the event loop of a run, in front of the first requests; a backend
    loads them when it is built instead."""
    if _registry is not None:
        try:
            _registry.get_handlers(provider, mode)
        except Exception:  # noqa: BLE001 - instructor reports it again at the first request
            pass


def install() -> None:
    """Apply the patches (idempotent)."""
    if _templating is not None and _instructor_patch.handle_templating is not _verbatim_templating:
        _instructor_patch.handle_templating = _verbatim_templating
    if _reject_async is not None and hasattr(_instructor_patch, "reject_async_validators"):
        _async_validators.reject_async_validators = _reject_async_once
        _instructor_patch.reject_async_validators = _reject_async_once
    _derive_shape_schemas()
    _own_usage()


def _derive_shape_schemas() -> None:
    """instructor's OpenAI handlers write a hybrid answer shape's tool schema from the one
    written for its candidate list (:mod:`.shape_schemas`), not with pydantic per shape."""
    handlers = _optional("instructor.v2.providers.openai.handlers")
    if _openai_schema is None or handlers is None:
        return
    real = getattr(handlers, "generate_openai_schema", None)
    if real is _openai_schema.generate_openai_schema and callable(real):
        handlers.generate_openai_schema = shape_schemas.deriving(real)


@functools.lru_cache(maxsize=1024)   # one per hybrid answer shape (extract.hybrid.answer)
def prepared(model: type) -> type:
    """The response model wrapped the way instructor wraps it, once per model: instructor
    otherwise builds a new wrapper class per request (and so misses its own schema cache),
    which cost ~4 ms of CPU a request and capped throughput well below the endpoint's."""
    if _response_schema is None or (ANSWER_BASE is not None and issubclass(model, ANSWER_BASE)):
        return model            # already instructor's ResponseSchema: instructor uses it as it is
    return _response_schema(model)
