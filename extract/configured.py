"""What a run's configuration makes of a request, before any abstract is read: the schema,
the job (plain or hybrid), the prompt and its digests, the policy, the few-shot turns, and
the configuration identity records carry (``provenance.config``).

:class:`~extract.pipeline.Extractor` is built on :func:`configure`.  A driver that needs
only the identity (the Ray engine's, to read what an output already holds) calls
:func:`run_identity`, which asks the backend's class for its fingerprint
(:meth:`~extract.backends.base.Backend.config_fingerprint`) instead of building the backend:
no client, no model, no worker pool; the value is the one the built Extractor has.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import examples as few_shot
from . import hybrid
from .backends.base import backend_class, backends_for_any_schema, load_backend
from .config import RunConfig
from .errors import UsageError
from .identity import config_identity
from .prompting import load_schema, prompt_for, schema_json, sha256
from .schema_loader import is_default_schema


@dataclass(frozen=True)
class BackendFacts:
    """What the set-up needs of a backend: its name, fingerprint and capabilities."""

    name: str
    fingerprint: dict
    hybrid: bool = False
    describes_model: bool = True
    any_schema: bool = True

    @classmethod
    def of(cls, backend) -> "BackendFacts":
        """The facts of a built backend."""
        return cls(backend.name, backend.fingerprint(), bool(getattr(backend, "hybrid", False)),
                   getattr(backend, "describes_model", True), getattr(backend, "any_schema", True))

    @classmethod
    def unbuilt(cls, config: RunConfig) -> "BackendFacts | None":
        """The facts of the backend ``config`` names, from its class (checking what its
        constructor checks of ``config``), or None when the class cannot tell them without
        being built."""
        klass = backend_class(config.backend)
        of_config = getattr(klass, "config_fingerprint", None)
        fingerprint = of_config(config) if of_config is not None else None
        if fingerprint is None:
            return None
        return cls(klass.name, fingerprint, bool(getattr(klass, "hybrid", False)),
                   getattr(klass, "describes_model", True), getattr(klass, "any_schema", True))


@dataclass(frozen=True)
class Configured:
    """A run's request set-up (see the module docstring)."""

    schema: type
    #: the hybrid design (rules propose, the model decides): the default schema with
    #: ``--prompt auto`` on a backend with a capable model, or ``--prompt hybrid``
    hybrid: bool
    prompt: Any
    #: whose word counts per field (``--decide`` or ``--policy FILE``); the cache keeps the
    #: model's raw answer under a key without it, so another policy never re-asks
    combine: Any
    policy: dict
    prompt_sha: str            # provenance.prompt_sha: the prompt, policy and examples
    key_sha: str               # the cache key's prompt part: the prompt and examples, no policy
    tag: str | None            # the policy a cached hybrid answer was mapped under
    examples: tuple            # --examples, loaded
    shots: tuple               # their few-shot turns in this run's request format
    schema_sha: str
    fingerprint: dict
    #: the configuration records are made with (part of their identity: a rerun with
    #: another one into the same output is refused, or replaces them with --redo)
    identity: dict


def configure(config: RunConfig, backend: BackendFacts) -> Configured:
    """The request set-up of ``config`` on ``backend``; a one-line UsageError for a
    combination that cannot run."""
    schema = load_schema(config.schema)
    if not backend.any_schema and not is_default_schema(schema):
        raise UsageError(
            f"--schema {getattr(config.schema, '__name__', config.schema)}: backend "
            f"{backend.name} fills the default schema only; a custom schema needs a "
            f"model: --backend {' or '.join(backends_for_any_schema()) or '(none installed)'} "
            "with --model (or --base-url URL --model M)")
    is_hybrid = hybrid.applies(schema, config.prompt, backend.hybrid)
    if config.prompt == hybrid.PROMPT and not is_hybrid:
        raise UsageError("--prompt hybrid needs the default schema (or a subclass of it); "
                         "a custom schema is sent with --prompt auto or extract")
    prompt = prompt_for(hybrid.prompt_name(config.prompt, is_hybrid, config.proposal), schema)
    combine = hybrid.policy(config.decide, config.policy)
    policy = {"decide": config.decide if config.policy is None else None,
              "file": str(config.policy) if config.policy is not None else None,
              "digest": hybrid.policy_digest(combine)}
    prompt_sha = hybrid.prompt_digest(prompt.sha, combine) if is_hybrid else prompt.sha
    key_sha = hybrid.prompt_digest(prompt.sha) if is_hybrid else prompt.sha
    examples, shots = _few_shot(config, backend, schema, prompt, is_hybrid)
    if shots:           # folded into the prompt digest, so into every cache key and prompt_sha
        digest = few_shot.digest(shots)
        prompt_sha = sha256(f"{prompt_sha}:examples:{digest}")
        key_sha = sha256(f"{key_sha}:examples:{digest}")
    schema_sha = sha256(schema_json(schema))
    identity = config_identity(
        backend=backend.name, fingerprint=backend.fingerprint, schema=str(config.schema),
        schema_sha=schema_sha, prompt=prompt.name if backend.describes_model else None,
        prompt_sha=prompt.sha, decide=_decide(config, combine) if is_hybrid else None)
    if shots:           # --examples change what the model is shown
        identity["examples"] = few_shot.digest(shots)[:12]
    return Configured(schema, is_hybrid, prompt, combine, policy, prompt_sha, key_sha,
                      hybrid.record_tag(combine) if is_hybrid else None, examples, shots,
                      schema_sha, backend.fingerprint, identity)


def _decide(config: RunConfig, combine) -> str:
    """``--decide`` as the configuration names it, with any field the policy sets
    otherwise than that choice's defaults."""
    base = hybrid.policy(config.decide).as_dict()
    extra = {k: v for k, v in combine.as_dict().items() if base.get(k) != v}
    return " ".join([config.decide, *(f"{k}={v}" for k, v in sorted(extra.items()))])


def _few_shot(config: RunConfig, backend: BackendFacts, schema, prompt, is_hybrid: bool) -> tuple[tuple, tuple]:
    """``--examples``: the examples and their few-shot turns in this run's request format."""
    if not config.examples:
        return (), ()
    if not backend.describes_model:
        raise UsageError(f"--examples: backend {backend.name} runs no model to show them to; "
                         "give a model (--backend local --model PATH.gguf, or --base-url URL --model M)")
    if not is_default_schema(schema):
        raise UsageError("--examples are records of the default schema; a custom --schema takes none")
    if backend.name == "local" and not is_hybrid:
        # in-process, the plain job is choices among the rules' candidates, not a record
        raise UsageError("--examples with --backend local need the hybrid job: --model PATH.gguf "
                         "(the packaged tiny model only chooses among the rules' candidates)")
    examples = few_shot.load_examples(config.examples)
    return examples, few_shot.turns(examples, prompt, is_hybrid, config.proposal == "reading")


def run_identity(config: RunConfig) -> dict:
    """The configuration identity an :class:`~extract.pipeline.Extractor` of ``config`` has,
    without building its backend when the backend's class can tell its fingerprint (a
    plugin's that cannot is built, and nothing else is)."""
    facts = BackendFacts.unbuilt(config)
    if facts is None:
        facts = BackendFacts.of(load_backend(config))
    return configure(config, facts).identity
