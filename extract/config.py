"""The one frozen configuration object a run is described by.

``RunConfig()`` is the plain defaults: nothing is read from the environment, so a program
gets the same run everywhere.  ``RunConfig.from_env(**overrides)`` applies the environment
exactly as the ``extract`` command does (the one-call API uses it):

    EXTRACT_BACKEND    backend name (default: RunConfig.backend)
    EXTRACT_MODEL      model name, or a .gguf path for the embedded backend
    EXTRACT_CACHE_DIR  answer cache directory (default: ./cache)
    OPENAI_BASE_URL    endpoint(s) of the openai backend (space- or comma-separated)
    OPENAI_API_KEY     key of the openai backend (never in a log, a cache key or an export)

An API key or base URL in the environment never chooses the backend by itself.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import NamedTuple

from . import redact
from .errors import UsageError

DEFAULT_CACHE_DIR = Path("cache")
ENV_BACKEND, ENV_MODEL, ENV_CACHE_DIR = "EXTRACT_BACKEND", "EXTRACT_MODEL", "EXTRACT_CACHE_DIR"


class Range(NamedTuple):
    """The values a numeric field accepts: ``kind`` (int or float), ``lo`` <= x <= ``hi``
    (``hi`` None: no upper bound).  Floats must be finite."""

    kind: type
    lo: float
    hi: float | None = None

    def describe(self) -> str:
        what = "an integer" if self.kind is int else "a number"
        return f"{what} >= {self.lo:g}" if self.hi is None else f"{what} from {self.lo:g} to {self.hi:g}"

    def problem(self, value) -> str | None:
        """None when ``value`` is in range, else what is wrong with it."""
        kinds = (int,) if self.kind is int else (int, float)
        if isinstance(value, bool) or not isinstance(value, kinds):
            return f"got {type(value).__name__} {value!r}"
        if not math.isfinite(value) or value < self.lo or (self.hi is not None and value > self.hi):
            return f"got {value!r}"
        return None


# The accepted range of every numeric field, defined here once: RunConfig checks them and the
# CLI builds its click.IntRange/FloatRange options from them (extract.cli.common.ranged).
RANGES: dict[str, Range] = {
    "temperature": Range(float, 0.0, 2.0),
    "max_tokens": Range(int, 16),
    "reasks": Range(int, 0, 10),
    "retries": Range(int, 0, 50),
    "retry_max_wait": Range(float, 0.0),
    "timeout": Range(float, 0.1),
    "concurrency": Range(int, 1, 1024),
    "limit": Range(int, 0),
    "max_chars": Range(int, 100),
    "max_tokens_total": Range(int, 1),
}
_OPTIONAL = {"limit", "max_tokens_total"}      # None: no limit
MODES = ("tools", "json_schema", "json")
DECIDE = ("auto", "model", "rules")            # --decide (extract.hybrid.mapping.policy)
#: --proposal: what the hybrid job shows the model besides the abstract.  reading = the numbered
#: numbers and name candidates with the rules' whole reading (labels, kinds, metric, dataset,
#: method, task, contribution) to copy or correct; spans = the same numbers (with their context)
#: and candidates, without the rules' reading (the model reads the text alone)
PROPOSALS = ("reading", "spans")


class Options(Mapping):
    """A frozen, hashable ``str -> str`` mapping: backend options (``-O KEY VALUE``)."""

    __slots__ = ("_items",)

    def __init__(self, items: Mapping | tuple | list = ()):
        pairs = items.items() if isinstance(items, Mapping) else items
        object.__setattr__(self, "_items", tuple(sorted((str(k), str(v)) for k, v in pairs)))

    def __getitem__(self, key: str) -> str:
        for k, v in self._items:
            if k == key:
                return v
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return (k for k, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(self._items)

    def __eq__(self, other) -> bool:
        return isinstance(other, Mapping) and dict(self) == dict(other)

    def __setattr__(self, *_):  # pragma: no cover - frozen
        raise AttributeError("Options is read-only")

    def __repr__(self) -> str:
        return f"Options({dict(self._items)!r})"

    def __reduce__(self):              # pickled (Ray sends the config to its workers)
        return (Options, (self._items,))


@dataclass(frozen=True)
class RunConfig:
    """Everything that shapes a run.  Built once (by the CLI or a caller), never mutated.

    ``api_key`` is excluded from ``repr`` and from every cache key and export.
    """

    backend: str = "rules"                 # entry-point name in group "extract.backends" (rules: no model)
    model: str | None = None               # model name, or a GGUF path for the local backend
    base_urls: tuple[str, ...] = ()        # OpenAI-compatible endpoints (several = replicas)
    api_key: str | None = field(default=None, repr=False, compare=False)
    mode: str = "tools"                    # instructor mode for remote models: tools | json_schema | json
    #: ``module:Class``, ``path/file.py:Class``, or (Python API) the Pydantic model class itself
    schema: "str | type" = "extract.schemas.paper:PaperExtraction"
    #: auto: the hybrid job (rules propose, the model decides) for the default schema on a
    #: backend with a capable model, else "extract"; or a name of prompts/<name>.*.txt
    prompt: str = "auto"
    #: the hybrid job: whose word counts, "auto" (the model, unless its reading of an abstract
    #: contradicts the text: then the rules), "model" or "rules" (every field)
    decide: str = "auto"
    #: a policy file of ``extract calibrate`` (per field: model, rules or auto); replaces ``decide``
    policy: Path | None = None
    #: the hybrid job's proposal (:data:`PROPOSALS`): with the rules' reading, or the spans alone
    proposal: str = "reading"
    temperature: float = 0.0
    max_tokens: int = 1024
    seed: int | None = 0
    reasks: int = 2                        # instructor re-asks after a schema failure
    retries: int = 6                       # transient-fault retries (tenacity)
    retry_max_wait: float = 30.0           # cap of the exponential backoff, seconds
    timeout: float = 60.0                  # one HTTP request, seconds
    concurrency: int = 8
    cache_dir: Path = DEFAULT_CACHE_DIR
    use_cache: bool = True
    limit: int | None = None
    max_chars: int = 20_000                # longer abstracts are rejected, never sent whole
    max_tokens_total: int | None = None    # token budget for the whole run
    backend_options: Options = field(default_factory=Options)  # -O KEY VALUE, the backend validates
    #: --examples FILE: few-shot examples shown to the model (extract.examples); their
    #: rendered turns are part of the prompt digest, so of every cache key
    examples: str | None = None

    def __post_init__(self):
        # the key and the URLs' credentials are masked wherever they would be printed
        redact.register(self.api_key)
        for url in ((self.base_urls,) if isinstance(self.base_urls, str) else self.base_urls or ()):
            redact.register_url(url)
        _validate(self)
        if not isinstance(self.backend_options, Options):
            object.__setattr__(self, "backend_options", Options(self.backend_options or ()))
        if self.policy is not None and not isinstance(self.policy, Path):
            object.__setattr__(self, "policy", Path(self.policy))
        if not isinstance(self.cache_dir, Path):
            object.__setattr__(self, "cache_dir", Path(self.cache_dir))
        if isinstance(self.base_urls, str):
            object.__setattr__(self, "base_urls", (self.base_urls,))

    def with_(self, **changes) -> "RunConfig":
        return replace(self, **changes)

    def decoding(self) -> dict:
        """Decoding parameters: part of every cache key."""
        return {"temperature": self.temperature, "max_tokens": self.max_tokens, "seed": self.seed}

    @classmethod
    def from_env(cls, environ: Mapping | None = None, **overrides) -> "RunConfig":
        """The defaults with the environment applied (see the module docstring), then
        ``overrides``.  An override of None means "not given" and keeps the default."""
        values = env_defaults(environ)
        values.update({k: v for k, v in overrides.items() if v is not None})
        unknown = set(values) - {f.name for f in fields(cls)}
        if unknown:
            raise UsageError(f"unknown option(s): {', '.join(sorted(unknown))}")
        return cls(**values)


_FLAGS = {"base_urls": "--base-url", "retry_max_wait": None, "seed": None}   # else --field-name


def _bad(name: str, expected: str, got: str) -> UsageError:
    flag = _FLAGS.get(name, "--" + name.replace("_", "-"))
    return UsageError(f"option {name}{f' ({flag})' if flag else ''} must be {expected}; {got}")


def _validate(cfg: RunConfig) -> None:
    """One-line UsageErrors naming the field (and its CLI option) and what it accepts."""
    for name, rng in RANGES.items():
        value = getattr(cfg, name)
        if value is None and name in _OPTIONAL:
            continue
        got = rng.problem(value)
        if got:
            none = " or None (no limit)" if name in _OPTIONAL else ""
            raise _bad(name, rng.describe() + none, got)
    if cfg.seed is not None and (isinstance(cfg.seed, bool) or not isinstance(cfg.seed, int)):
        raise _bad("seed", "an integer or None", f"got {cfg.seed!r}")
    if not isinstance(cfg.backend, str) or not cfg.backend.strip():
        raise _bad("backend", "a non-empty string", f"got {cfg.backend!r}")
    if not (isinstance(cfg.schema, type) or (isinstance(cfg.schema, str) and cfg.schema.strip())):
        raise _bad("schema", "module:Class, path/file.py:Class or a Pydantic model class",
                   f"got {cfg.schema!r}")
    if cfg.model is not None and (not isinstance(cfg.model, str) or not cfg.model.strip()):
        raise _bad("model", "a non-empty string or None (the backend's default)", f"got {cfg.model!r}")
    if cfg.decide not in DECIDE:
        raise _bad("decide", "one of " + ", ".join(DECIDE), f"got {cfg.decide!r}")
    if cfg.proposal not in PROPOSALS:
        raise _bad("proposal", "one of " + ", ".join(PROPOSALS), f"got {cfg.proposal!r}")
    if cfg.mode not in MODES:
        raise _bad("mode", "one of " + ", ".join(MODES), f"got {cfg.mode!r}")
    urls = (cfg.base_urls,) if isinstance(cfg.base_urls, str) else cfg.base_urls
    if not isinstance(urls, (tuple, list)) or any(not isinstance(u, str) or not u.strip() for u in urls):
        raise _bad("base_urls", "non-empty URL strings", f"got {cfg.base_urls!r}")
    if isinstance(cfg.cache_dir, str) and not cfg.cache_dir.strip():
        raise _bad("cache_dir", "a directory path", "got an empty string")
    pairs = cfg.backend_options.items() if isinstance(cfg.backend_options, Mapping) else cfg.backend_options or ()
    for key, _ in pairs:
        if not str(key).strip():
            raise UsageError("option -O KEY VALUE: KEY must be a non-empty option name; got ''")


def remote_from_env(environ: Mapping | None = None) -> tuple[tuple[str, ...], str | None]:
    """``OPENAI_BASE_URL`` and ``OPENAI_API_KEY`` as (base_urls, api_key)."""
    env = os.environ if environ is None else environ
    base = env.get("OPENAI_BASE_URL") or ""
    urls = tuple(u for u in base.replace(",", " ").split() if u)
    key = env.get("OPENAI_API_KEY") or None
    redact.register(key)
    for url in urls:
        redact.register_url(url)
    return urls, key


def env_defaults(environ: Mapping | None = None) -> dict:
    """The RunConfig fields the environment sets (only those that are set)."""
    env = os.environ if environ is None else environ
    urls, key = remote_from_env(env)
    out: dict = {}
    if env.get(ENV_BACKEND):
        out["backend"] = env[ENV_BACKEND].strip()
    if env.get(ENV_MODEL):
        out["model"] = env[ENV_MODEL].strip()
    if env.get(ENV_CACHE_DIR):
        out["cache_dir"] = Path(env[ENV_CACHE_DIR])
    if urls:
        out["base_urls"] = urls
    if key:
        out["api_key"] = key
    return out
