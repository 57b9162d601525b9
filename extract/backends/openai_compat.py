"""Any OpenAI-compatible endpoint (OpenAI, vLLM, llama.cpp server, Ollama) via instructor.

Layers, each with one job:
* ``openai.AsyncOpenAI`` with ``max_retries=0``: the transport;
* ``instructor``: the schema held to the model, with bounded re-asks on validation errors
  (the source text rides along as validation context, so ungrounded strings are re-asked);
* ``tenacity`` here: the only retry of transient faults (see :mod:`.transport`);
* :class:`ReplicaSet`: several ``--base-url`` values spread the load; a replica that keeps
  failing is set aside for a while.
"""

from __future__ import annotations

import itertools
import logging
import os
import time
from dataclasses import dataclass, field

import instructor
import openai
from instructor.core.hooks import Hooks
from tenacity import AsyncRetrying, retry_if_exception_type, stop_after_attempt

from ..config import RunConfig
from ..errors import FatalBackendError, TransientBackendError, UsageError
from .base import Answer, Backend, Job
from .instructor_fixes import VERBATIM, prepared
from .transport import _root, backoff, classify

OPENAI_URL = "https://api.openai.com/v1"
_MODES = {"tools": instructor.Mode.TOOLS, "json_schema": instructor.Mode.JSON_SCHEMA,
          "json": instructor.Mode.JSON}

logging.getLogger("instructor").addHandler(logging.NullHandler())
logging.getLogger("instructor").propagate = False


def _http_client(config: RunConfig):
    """openai's aiohttp transport when aiohttp is installed (it is, with instructor): less
    client CPU per request than the default httpx stack, and client CPU is what bounds
    throughput with many requests in flight (bench/throughput.py: 0.63 -> 0.76 of the
    ceiling).  None (the SDK's default transport) when a proxy is configured in the
    environment: httpx honours HTTP(S)_PROXY, this aiohttp session does not."""
    if any(os.environ.get(v) or os.environ.get(v.upper())
           for v in ("https_proxy", "http_proxy", "all_proxy")):
        return None
    try:
        return openai.DefaultAioHttpClient(timeout=config.timeout)
    except RuntimeError:
        return None


@dataclass
class Replica:
    url: str
    client: instructor.AsyncInstructor
    streak: int = 0          # consecutive transient failures
    benched_until: float = 0.0


class ReplicaSet:
    """Round-robin over healthy replicas; ``bench_after`` failures in a row set a replica
    aside for ``bench_seconds`` (doubling while it keeps failing, capped at 5 minutes)."""

    def __init__(self, replicas: list[Replica], bench_after: int = 3, bench_seconds: float = 5.0):
        self.replicas = replicas
        self.bench_after = bench_after
        self.bench_seconds = bench_seconds
        self._cycle = itertools.cycle(range(len(replicas)))

    def pick(self) -> Replica:
        now = time.monotonic()
        for _ in range(len(self.replicas)):
            r = self.replicas[next(self._cycle)]
            if r.benched_until <= now:
                return r
        return min(self.replicas, key=lambda r: r.benched_until)

    def succeeded(self, r: Replica) -> None:
        r.streak = 0

    def failed(self, r: Replica) -> None:
        r.streak += 1
        if len(self.replicas) > 1 and r.streak >= self.bench_after:
            extra = r.streak - self.bench_after
            r.benched_until = time.monotonic() + min(300.0, self.bench_seconds * 2 ** extra)


@dataclass
class _Tally:
    """Counts model calls and sums token usage across re-asks (instructor hooks)."""

    context: dict
    calls: int = 0
    usage: dict = field(default_factory=lambda: {"prompt_tokens": 0, "completion_tokens": 0,
                                                 "total_tokens": 0})
    model: str | None = None

    def on_error(self, *args, **kwargs) -> None:
        """A call that got no answer (rare: the hook binds keyword metadata, which costs)."""
        self.calls += 1

    def on_response(self, response) -> None:
        # Counted here rather than on "completion:kwargs": instructor binds that hook's
        # keyword arguments (the whole request) with inspect per call, ~5% of the CPU of a
        # request.  The response hook fires before the answer is validated, so the
        # validator sees the same attempt number.
        self.calls += 1
        self.context["attempt"] = self.context.get("attempt", 0) + 1
        self.model = getattr(response, "model", None) or self.model
        u = getattr(response, "usage", None)
        for k in self.usage:
            self.usage[k] += int(getattr(u, k, 0) or 0)


class OpenAIBackend(Backend):
    name = "openai"

    def __init__(self, config: RunConfig):
        super().__init__(config)
        if not config.model:
            raise UsageError("--model is required with --backend openai")
        if config.mode not in _MODES:
            raise UsageError(f"--mode must be one of {', '.join(_MODES)}")
        urls = tuple(u.rstrip("/") for u in config.base_urls) or (OPENAI_URL,)
        if OPENAI_URL in urls and not config.api_key:
            raise UsageError("OPENAI_API_KEY is not set (needed for api.openai.com); "
                             "or point --base-url at a local OpenAI-compatible server")
        self.urls = urls
        key = config.api_key or "no-key"   # local servers ignore it; the client needs one
        self.replicas = ReplicaSet([
            Replica(url, instructor.from_openai(
                openai.AsyncOpenAI(base_url=url, api_key=key, max_retries=0,
                                   timeout=config.timeout, http_client=_http_client(config)),
                mode=_MODES[config.mode]))
            for url in urls])

    def fingerprint(self) -> dict:
        return {"model": self.config.model, "base_urls": sorted(self.urls),
                "mode": self.config.mode, **self.config.decoding()}

    def _wait(self, state) -> float:
        exc = state.outcome.exception()
        hint = getattr(exc, "retry_after", None)
        return backoff(state.attempt_number, hint, self.config.retry_max_wait)

    async def extract(self, job: Job) -> Answer:
        cfg = self.config
        tally = _Tally(dict(job.context, last_attempt=cfg.reasks + 1, **{VERBATIM: True}))
        hooks = Hooks()
        hooks.on("completion:error", tally.on_error)
        hooks.on("completion:response", tally.on_response)
        params = {"temperature": cfg.temperature, "max_tokens": cfg.max_tokens}
        if cfg.seed is not None:
            params["seed"] = cfg.seed
        retrying = AsyncRetrying(stop=stop_after_attempt(cfg.retries + 1), wait=self._wait,
                                 retry=retry_if_exception_type(TransientBackendError), reraise=True)
        async for attempt in retrying:
            with attempt:
                replica = self.replicas.pick()
                tally.context["attempt"] = 0
                try:
                    obj, _ = await replica.client.chat.completions.create_with_completion(
                        model=cfg.model, messages=list(job.messages),
                        response_model=prepared(job.response_model), max_retries=cfg.reasks,
                        context=tally.context, hooks=hooks, **params)
                except Exception as exc:  # noqa: BLE001 - classified right here
                    err = classify(exc)
                    if cfg.mode == "json_schema" and "json_object" in str(_root(exc)):
                        # llama-cpp-python's server refuses response_format json_schema (HTTP 500)
                        err = FatalBackendError("the endpoint does not support --mode json_schema "
                                                "(response_format type json_schema); use --mode tools or json")
                    if isinstance(err, TransientBackendError):
                        self.replicas.failed(replica)
                    err.attempts = max(getattr(err, "attempts", 0) or 0, tally.calls)
                    err.usage = dict(tally.usage)
                    raise err from None
                self.replicas.succeeded(replica)
        return Answer(obj, attempts=tally.calls, usage=tally.usage, model=tally.model or cfg.model)

    async def aclose(self) -> None:
        for r in self.replicas.replicas:
            await r.client.client.close()
