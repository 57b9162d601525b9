"""``--backend rules``: the rule layer alone decides - no model, instant, deterministic.

What a user wants for a first pass over a million abstracts: every number the rules find
(values normalized), the names they are confident of, their task phrase and contribution
label.  It is the rules' decision (:func:`extract.decision.decide`), the same
function the local backend falls back on, run in a process pool over the machine's cores
(the rules are pure Python: threads would share one core).  Answers do not depend on the
pool: one worker or many, the records are identical, in input order (the core keeps it).
"""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any

from ..config import RunConfig
from pydantic import ValidationError

from ..errors import FatalBackendError, SchemaFailure, UsageError, brief
from .base import Answer, Backend, Job
from ..schema_loader import default_schema
from .local import rules_digest
from ..decision import CONSTRAINT_VERSION, RULES_POLICY, decide

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
        if config.model:
            raise UsageError("--backend rules runs no model; drop --model (or use --backend local)")
        if workers is None:
            env = os.environ.get("EXTRACT_WORKERS", "").strip()
            if env and not env.isdigit():
                raise UsageError(f"EXTRACT_WORKERS must be a whole number, got {env!r}")
            workers = int(env) if env else min(cpu_count(), 8)
        self.workers = max(1, workers)
        self._pool: ProcessPoolExecutor | None = None

    def fingerprint(self) -> dict[str, Any]:
        return {"backend": self.name, "constraints": CONSTRAINT_VERSION,
                "rules_sha256": rules_digest(), "policy": RULES_POLICY.as_dict()}

    def _executor(self) -> ProcessPoolExecutor | None:
        if self.workers == 1:
            return None
        if self._pool is None:
            # forkserver: workers do not inherit the event loop's threads and locks
            self._pool = ProcessPoolExecutor(self.workers, mp_context=get_context("forkserver"))
        return self._pool

    async def extract(self, job: Job) -> Answer:
        model = job.response_model
        if not issubclass(model, default_schema()):
            raise FatalBackendError(f"--backend rules fills the default schema only, not {model.__name__}; "
                             "use --backend local or openai for a custom --schema")
        pool = self._executor()
        if pool is None:
            fields = decide(job.text)
        else:
            fields = await asyncio.get_running_loop().run_in_executor(pool, decide, job.text)
        try:
            obj = model.model_validate(fields, context={**job.context, "lenient": True})
        except ValidationError as e:     # a subclass schema refusing a rules' field
            raise SchemaFailure(f"rules answer failed validation: {brief(e)}", attempts=0) from None
        return Answer(obj, attempts=0, usage=dict(_NO_USAGE), model=None, decided_by="rules")

    async def aclose(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
