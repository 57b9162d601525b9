"""The small interface every backend implements, and how backends are found.

A backend turns one :class:`Job` into one validated Pydantic object.  It owns its own
transport (HTTP client, in-process model) and its own transient-fault retries; the core
owns caching, grounding, records and output.  Backends are registered as entry points
in the group ``extract.backends`` (``name = "module:Class"``), so a plugin package can add
one without touching this code.
"""

from __future__ import annotations

import abc
import importlib
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pydantic import BaseModel

from ..config import RunConfig
from ..errors import UsageError


@dataclass(frozen=True)
class Job:
    """One abstract to extract: the rendered prompt plus what validation needs."""

    id: str
    text: str                       # the source abstract, exactly as read
    messages: tuple[dict, ...]      # chat messages rendered from prompts/
    response_model: type[BaseModel]
    context: dict = field(default_factory=dict, compare=False)  # instructor validation context
    title: str | None = None        # the paper's title, when the input has one (the rules read it)


@dataclass
class Answer:
    """What a backend returns: the validated object and what it cost."""

    obj: BaseModel
    attempts: int = 1               # model calls, re-asks included
    usage: dict = field(default_factory=dict)   # prompt_tokens, completion_tokens, total_tokens
    model: str | None = None        # the model that answered, as the endpoint names it
    notes: list[str] = field(default_factory=list)  # invalid fields dropped to keep the record
    decided_by: str | None = None   # provenance: "model", "rules", "rules+model"


class Backend(abc.ABC):
    """Subclass this and register it under ``extract.backends``."""

    name: ClassVar[str]
    #: how many jobs may be in flight at once (an in-process model says 1)
    max_concurrency: ClassVar[int | None] = None
    #: how many jobs the run keeps in flight whatever ``--concurrency`` says (that option is
    #: about requests to a server); None: ``--concurrency``.  The rules keep enough in flight
    #: for their worker pool's batches.
    in_flight: int | None = None
    #: the backend's own options (``-O KEY VALUE``), as a Pydantic model (llm-style); None
    #: takes none.  Validated values are ``self.options``; put those that shape answers in
    #: ``fingerprint()``.
    Options: ClassVar[type[BaseModel] | None] = None
    #: True: the model is capable enough for the hybrid job (rules propose, the model decides);
    #: the core then asks it, for the default schema, instead of the plain extraction job
    hybrid: bool = False
    #: a mixin the hybrid job's per-shape answer model also derives from (the OpenAI
    #: backend: instructor's ``ResponseSchema``, so no wrapper class is built per shape)
    answer_base: ClassVar[type[BaseModel] | None] = None
    #: False for a backend that runs no model (the run's stderr line then says so)
    describes_model: ClassVar[bool] = True
    #: False for a backend that fills the default schema only (the rules): a custom
    #: ``--schema`` is then refused before the run starts
    any_schema: ClassVar[bool] = True

    def __init__(self, config: RunConfig):
        self.config = config
        self.options = validate_options(type(self), config.backend_options)

    @abc.abstractmethod
    def fingerprint(self) -> dict[str, Any]:
        """Everything about this backend that shapes an answer (model, endpoint,
        decoding parameters, weights digest...).  Goes into cache keys: never secrets."""

    @classmethod
    def config_fingerprint(cls, config: RunConfig) -> dict[str, Any] | None:
        """The :meth:`fingerprint` a backend built from ``config`` has, told by the class
        without building it (no client, no model, no worker pool), after the checks its
        constructor makes of ``config`` (a one-line UsageError); the class attributes
        (``hybrid``, ``describes_model``, ``any_schema``) hold for it too.  None (the
        default): only a built backend can tell (a model file's digest, a ``hybrid`` that
        depends on the configuration)."""
        return None

    @abc.abstractmethod
    async def extract(self, job: Job) -> Answer:
        """Return a validated object for ``job`` or raise a ``RecordError`` (this record
        failed), ``FatalBackendError`` (every record would fail) or ``BudgetExhausted``."""

    def expect_batch(self) -> None:
        """The run holds more than one abstract: a backend with a start-up cost worth paying
        only for many (the rules' worker pool) may pay it now.  Default: nothing."""
        return None

    async def aclose(self) -> None:  # pragma: no cover - default is nothing to close
        return None


def validate_options(cls: type, given) -> BaseModel | None:
    """``given`` (str -> str) checked against ``cls.Options``: a one-line UsageError."""
    from pydantic import ValidationError

    model = getattr(cls, "Options", None)
    name = getattr(cls, "name", cls.__name__)
    if model is None:
        if given:
            raise UsageError(f"backend {name!r} takes no -O options (got {', '.join(given)})")
        return None
    unknown = set(given) - set(model.model_fields)
    if unknown:
        known = ", ".join(sorted(model.model_fields)) or "none"
        raise UsageError(f"backend {name!r} has no option {', '.join(sorted(unknown))} "
                         f"(its options: {known})")
    try:
        return model.model_validate(dict(given))
    except ValidationError as e:
        err = e.errors()[0]
        raise UsageError(f"backend {name!r}: -O {'.'.join(map(str, err['loc']))}: "
                         f"{err['msg']}") from None


#: The backends this package registers (pyproject's ``extract.backends`` entry points, which
#: tests/test_startup.py holds this equal to): found without reading every installed
#: distribution's metadata, which costs a start-up more than the rest of a rules run's set-up.
BUILTIN = {
    "openai": "extract.backends.openai_compat:OpenAIBackend",
    "local": "extract.backends.local:LocalBackend",
    "rules": "extract.backends.rules:RulesBackend",
}


def _entry_points() -> dict:
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group="extract.backends")}


def installed_backends() -> list[str]:
    return sorted(set(BUILTIN) | set(_entry_points()))


def has_backend(name: str) -> bool:
    """Whether a backend of that name is installed (a built-in one: no metadata read)."""
    return name in BUILTIN or name in _entry_points()


def backend_class(name: str) -> type[Backend]:
    """The class of the backend named ``name``: a built-in one, else a plugin's entry point."""
    if name in BUILTIN:
        module, _, attr = BUILTIN[name].partition(":")
        return getattr(importlib.import_module(module), attr)
    found = _entry_points()
    if name not in found:
        known = ", ".join(sorted(set(BUILTIN) | set(found)))
        raise UsageError(f"unknown backend {name!r} (available: {known})")
    return found[name].load()


def backends_for_any_schema() -> list[str]:
    """The installed backends that can fill a custom schema (``any_schema``)."""
    out = []
    for name in installed_backends():
        try:
            if getattr(backend_class(name), "any_schema", True):
                out.append(name)
        except Exception:  # pragma: no cover - a broken plugin is named elsewhere
            continue
    return out


def load_backend(config: RunConfig) -> Backend:
    """Instantiate the backend named by ``config.backend``."""
    return backend_class(config.backend)(config)
