"""The one frozen configuration object a run is described by."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path

DEFAULT_CACHE_DIR = Path("cache")


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
    schema: str = "extract.schemas.paper:PaperExtraction"
    prompt: str = "extract"                # prompts/<name>.system.txt and .user.txt
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

    def with_(self, **changes) -> "RunConfig":
        return replace(self, **changes)

    def decoding(self) -> dict:
        """Decoding parameters: part of every cache key."""
        return {"temperature": self.temperature, "max_tokens": self.max_tokens, "seed": self.seed}


def remote_from_env(environ: dict | None = None) -> tuple[tuple[str, ...], str | None]:
    """``OPENAI_BASE_URL`` and ``OPENAI_API_KEY`` as (base_urls, api_key)."""
    env = os.environ if environ is None else environ
    base = env.get("OPENAI_BASE_URL") or ""
    return ((base,) if base else ()), (env.get("OPENAI_API_KEY") or None)
