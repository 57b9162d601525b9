"""Any OpenAI-compatible endpoint (OpenAI, vLLM, llama.cpp server, Ollama) via instructor.

Layers, each with one job:
* ``openai.AsyncOpenAI`` with ``max_retries=0``: the transport, one client per replica,
  with a cap on the response size (:func:`.replicas.http_client`);
* :meth:`OpenAIBackend._send`: one model request (the SDK's request path, without its
  per-call walks of the body and of the answer: :mod:`.completions`).  It is the function instructor calls, so
  a transient fault (429, 5xx, a timeout, a dropped connection) is retried right here, on
  the next healthy replica, with the very same messages: a 429 during a re-ask does not
  restart the conversation.  ``--timeout`` bounds each request as a whole, body included;
* ``instructor``: the schema held to the model, with bounded re-asks on validation errors
  (the source text rides along as validation context, so ungrounded strings are re-asked);
  an answer still invalid after the last re-ask keeps its valid fields (:mod:`.salvage`).

The bound is one number per record: at most ``reasks + retries + 1`` requests; re-asks
spend ``reasks``, transient faults spend ``retries`` (see :mod:`extract.errors`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from contextvars import ContextVar
from dataclasses import dataclass, field

import instructor
import openai
from instructor.core.exceptions import InstructorRetryException

from ..config import RunConfig
from ..errors import FatalBackendError, SchemaFailure, TransientBackendError, UsageError
from . import completions
from .base import Answer, Backend, Job, validate_options
from .instructor_fixes import ANSWER_BASE, OWN_USAGE, VERBATIM, install, load_handlers, prepared
from .replicas import Replica, ReplicaSet, check_base_url, http_client
from .salvage import salvage_completion
from .transport import ErrorBody, _root, attempts, backoff, classify, message_of, scrub

OPENAI_URL = "https://api.openai.com/v1"
_MODES = {"tools": instructor.Mode.TOOLS, "json_schema": instructor.Mode.JSON_SCHEMA,
          "json": instructor.Mode.JSON}


def endpoint_urls(config: RunConfig) -> tuple[str, ...]:
    """The endpoints of ``config`` (OpenAI's when none is given); api.openai.com without a
    key is refused here, once, for live runs and batches alike."""
    urls = tuple(check_base_url(u) for u in config.base_urls) or (OPENAI_URL,)
    if OPENAI_URL in urls and not config.api_key:
        raise UsageError("OPENAI_API_KEY is not set (needed for api.openai.com); "
                         "or point --base-url at a local OpenAI-compatible server")
    return urls


@dataclass
class _Record:
    """What one record's requests have spent so far (one per :meth:`extract` call)."""

    context: dict
    retries_left: int
    requests: int = 0
    transient: int = 0
    usage: dict = field(default_factory=lambda: {"prompt_tokens": 0, "completion_tokens": 0,
                                                 "total_tokens": 0})
    model: str | None = None


_CURRENT: ContextVar[_Record | None] = ContextVar("extract_openai_record", default=None)


def _quiet_instructor_logs() -> None:
    """instructor logs every failed call at ERROR; with no handler anywhere, Python's
    last-resort handler would print those on stderr.  A NullHandler on instructor's
    logger stops that and nothing else: ``propagate`` is left alone, so an application
    that configured logging still gets instructor's records."""
    log = logging.getLogger("instructor")
    if not any(isinstance(h, logging.NullHandler) for h in log.handlers):
        log.addHandler(logging.NullHandler())


def _check_completion(completion) -> None:
    """A 200 that carries an error object instead of choices: a clear, retried fault."""
    if getattr(completion, "choices", None):
        return
    said = message_of(getattr(completion, "model_extra", None) or {})
    raise ErrorBody("endpoint answered HTTP 200 with " + (f"an error: {said}" if said
                                                          else "no choices"))


def _strict_json(text):
    """``text`` as strict JSON when it is JSON only but for raw control characters inside
    its strings (llama-cpp-python's schema grammars admit those: its ``char`` rule is
    ``[^"\\]``, so a newline in a string is sampled raw and instructor's parser rejects
    the whole answer); any other text is returned as it is."""
    if not isinstance(text, str):
        return text
    try:
        json.loads(text)
        return text
    except ValueError:
        pass
    try:
        return json.dumps(json.loads(text, strict=False), ensure_ascii=False)
    except ValueError:
        return text


def _repair_strings(completion) -> None:
    """Escape raw control characters in the completion's JSON (tool arguments, content)."""
    for choice in completion.choices:
        message = getattr(choice, "message", None)
        if message is None:
            continue
        for call in getattr(message, "tool_calls", None) or ():
            fn = getattr(call, "function", None)
            if fn is not None:
                fn.arguments = _strict_json(fn.arguments)
        if getattr(message, "content", None):
            message.content = _strict_json(message.content)


class OpenAIBackend(Backend):
    name = "openai"
    #: a capable model: the default schema gets the hybrid job (``--prompt auto``)
    hybrid = True
    answer_base = ANSWER_BASE

    def __init__(self, config: RunConfig):
        super().__init__(config)
        self.urls = urls = self._endpoints(config)
        install()
        _quiet_instructor_logs()
        key = config.api_key or "no-key"   # local servers ignore it; the client needs one
        try:
            self.replicas = ReplicaSet([
                Replica(url, openai.AsyncOpenAI(
                    base_url=url, api_key=key, max_retries=0, timeout=config.timeout,
                    http_client=http_client(config.timeout, config.max_tokens)))
                for url in urls], fail_fast_after=min(2, config.retries + 1))
        except (ValueError, TypeError) as e:
            raise UsageError(f"--base-url: not a valid URL ({scrub(str(e), key)})") from None
        self.client = instructor.AsyncInstructor(
            client=None, create=instructor.patch(create=self._send, mode=_MODES[config.mode]),
            mode=_MODES[config.mode], provider=instructor.Provider.OPENAI)
        load_handlers(instructor.Provider.OPENAI, _MODES[config.mode])

    @staticmethod
    def _endpoints(config: RunConfig) -> tuple[str, ...]:
        """The endpoints of ``config``, after the checks of the options a request needs."""
        if not config.model:
            raise UsageError("--model is required with --backend openai")
        if config.mode not in _MODES:
            raise UsageError(f"--mode must be one of {', '.join(_MODES)}")
        return endpoint_urls(config)

    @staticmethod
    def _fingerprint(config: RunConfig, urls) -> dict:
        return {"model": config.model, "base_urls": sorted(urls), "mode": config.mode, **config.decoding()}

    @classmethod
    def config_fingerprint(cls, config: RunConfig) -> dict:
        validate_options(cls, config.backend_options)
        return cls._fingerprint(config, cls._endpoints(config))

    def fingerprint(self) -> dict:
        return self._fingerprint(self.config, self.urls)

    async def _send(self, *args, **kwargs):
        """One model request for the current record, retried on transient faults within
        the record's budget.  instructor calls this for the first ask and every re-ask."""
        cfg, rec = self.config, _CURRENT.get()
        if rec is None:             # called outside extract(): a budget of its own
            rec = _Record({}, cfg.retries)
        body = None if args else completions.request_body(kwargs)    # serialized once, retries alike
        while True:
            replica = self.replicas.pick()
            rec.requests += 1
            try:
                async with asyncio.timeout(cfg.timeout):
                    if body is None:
                        completion = await replica.client.chat.completions.create(*args, **kwargs)
                    else:
                        completion = await completions.create(replica.client, body)
                _check_completion(completion)
                _repair_strings(completion)
            except Exception as exc:  # noqa: BLE001 - classified right here
                err = classify(exc, cfg.timeout)
                err.attempts = rec.requests
                if isinstance(err, FatalBackendError):
                    self.replicas.refuse(replica, str(err))    # raises when none is left
                elif isinstance(err, TransientBackendError):
                    self.replicas.failed(replica, getattr(err, "connect", False), str(err),
                                         unanswered=getattr(err, "unanswered", False))
                else:
                    raise err from None
                if rec.retries_left <= 0:
                    raise err from None
                rec.retries_left -= 1
                rec.transient += 1
                await asyncio.sleep(backoff(rec.transient, getattr(err, "retry_after", None),
                                            cfg.retry_max_wait))
                continue
            self.replicas.succeeded(replica)
            rec.model = getattr(completion, "model", None) or rec.model
            usage = getattr(completion, "usage", None)
            for k in rec.usage:
                rec.usage[k] += int(getattr(usage, k, 0) or 0)
            rec.context["attempt"] = rec.context.get("attempt", 0) + 1
            return completion

    async def extract(self, job: Job) -> Answer:
        cfg = self.config
        rec = _Record(dict(job.context, attempt=0, last_attempt=cfg.reasks + 1,
                           **{VERBATIM: True}), cfg.retries)
        params = {"temperature": cfg.temperature, "max_tokens": cfg.max_tokens}
        if cfg.seed is not None:
            params["seed"] = cfg.seed
        token, own = _CURRENT.set(rec), OWN_USAGE.set(True)     # tokens counted in _send
        try:
            obj = await self.client.create(
                model=cfg.model, messages=list(job.messages),
                response_model=prepared(job.response_model), max_retries=cfg.reasks,
                context=rec.context, **params)
            notes: list[str] = []
        except Exception as exc:  # noqa: BLE001 - classified right here
            err = classify(exc, cfg.timeout)
            if cfg.mode == "json_schema" and "json_object" in str(_root(exc)):
                # llama-cpp-python's server refuses response_format json_schema (HTTP 500)
                err = FatalBackendError("the endpoint does not support --mode json_schema "
                                        "(response_format type json_schema); use --mode tools or json")
            kept = None
            if isinstance(err, SchemaFailure) and isinstance(exc, InstructorRetryException):
                kept = salvage_completion(job.response_model, exc.last_completion, rec.context)
            if kept is None:
                err.attempts = rec.requests
                err.usage = dict(rec.usage)
                if isinstance(err, SchemaFailure):
                    err.args = (str(err).replace("answer stayed invalid", "answer stayed invalid "
                                                 f"after {attempts(rec.requests)}", 1),)
                raise err from None
            obj, notes = kept
        finally:
            OWN_USAGE.reset(own)
            _CURRENT.reset(token)
        return Answer(obj, attempts=rec.requests, usage=rec.usage,
                      model=rec.model or cfg.model, notes=notes)

    async def aclose(self) -> None:
        for r in self.replicas.replicas:
            await r.client.close()
