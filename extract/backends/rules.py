"""``--backend rules``: the rule layer alone decides - no model, instant, deterministic.

What a user wants for a first pass over a million abstracts: every number the rules find
(values normalized), the names they are confident of, their task phrase and contribution
label.  It is the rules' decision (:func:`extract.decision.decide`), the same
function the local backend falls back on, run in a process pool over the machine's cores
(:mod:`extract.pool`: the rules are pure Python, threads would share one core).  One
abstract never starts the pool: the rules run in this process until the run says it holds
more than one (:meth:`Backend.expect_batch`).  Answers do not depend on the pool: one worker
or many, the records are identical, in input order (the core keeps it).
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from ..config import RunConfig
from pydantic import ValidationError

from ..errors import FatalBackendError, SchemaFailure, UsageError, brief
from .base import Answer, Backend, Job, validate_options
from ..schema_loader import default_schema
from .local import rules_digest
from ..decision import CONSTRAINT_VERSION, RULES_POLICY, decide
from ..pool import BATCH, PER_WORKER, RulesPool

_NO_USAGE = {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class RulesBackend(Backend):
    """The rules alone, over ``workers`` processes (default: ``EXTRACT_WORKERS``, else one per
    available core, at most 8; 1 runs them in this process)."""

    name = "rules"
    describes_model = False     # no model: the run's stderr line says so
    any_schema = False          # the rules fill the default schema only

    def __init__(self, config: RunConfig, workers: int | None = None):
        super().__init__(config)
        self._check(config)
        if workers is None:
            env = os.environ.get("EXTRACT_WORKERS", "").strip()
            if env and not env.isdigit():
                raise UsageError(f"EXTRACT_WORKERS must be a whole number, got {env!r}")
            workers = int(env) if env else min(cpu_count(), 8)
        self.workers = max(1, workers)
        # two batches per worker (one computing, one queued), the next ones ready to go
        self.in_flight = None if self.workers == 1 else self.workers * (PER_WORKER + 1) * BATCH
        self._pool: RulesPool | None = None
        self._batch = False          # the run holds more than one abstract

    @staticmethod
    def _check(config: RunConfig) -> None:
        if config.model:
            raise UsageError("--backend rules runs no model; drop --model (or use --backend local)")

    @classmethod
    def config_fingerprint(cls, config: RunConfig) -> dict[str, Any]:
        validate_options(cls, config.backend_options)
        cls._check(config)
        return {"backend": cls.name, "constraints": CONSTRAINT_VERSION,
                "rules_sha256": rules_digest(), "policy": RULES_POLICY.as_dict()}

    def fingerprint(self) -> dict[str, Any]:
        return self.config_fingerprint(self.config)

    def expect_batch(self) -> None:
        self._batch = True

    def _executor(self) -> RulesPool | None:
        if self.workers == 1 or not (self._batch or self._pool is not None):
            return None
        if self._pool is None:
            self._pool = RulesPool(self.workers)
        return self._pool

    async def extract(self, job: Job) -> Answer:
        model = job.response_model
        if not issubclass(model, default_schema()):
            raise FatalBackendError(f"--backend rules fills the default schema only, not {model.__name__}; "
                             "use --backend local or openai for a custom --schema")
        pool = self._executor()
        if pool is None:
            fields = decide(job.text, title=job.title)
        else:
            fields = await asyncio.wrap_future(pool.submit("decide", job.text, None, None, job.title))
        try:
            obj = model.model_validate(fields, context={**job.context, "lenient": True})
        except ValidationError as e:     # a subclass schema refusing a rules' field
            raise SchemaFailure(f"rules answer failed validation: {brief(e)}", attempts=0) from None
        return Answer(obj, attempts=0, usage=dict(_NO_USAGE), model=None, decided_by="rules")

    async def aclose(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool = None
