"""A queued fake Backend for tests of the core (like llm's MockModel): answers are queued
per abstract text (or in one FIFO), every Job it is given is recorded, and an exception in
the queue is raised instead of answering.  Tests of the transport use tests/fakeserver.py."""

from __future__ import annotations

from collections import deque
from typing import Any

from pydantic import BaseModel

from extract.backends.base import Answer, Backend, Job
from extract.config import RunConfig


class MockBackend(Backend):
    name = "mock"

    def __init__(self, config: RunConfig | None = None, *, model: str = "mock-1", max_concurrency: int | None = None):
        super().__init__(config or RunConfig(backend="mock"))
        self.model = model
        self.queue: deque = deque()
        self.by_text: dict[str, deque] = {}
        self.jobs: list[Job] = []
        self.closed = False
        if max_concurrency is not None:
            self.max_concurrency = max_concurrency

    def enqueue(self, *answers: Any, text: str | None = None) -> "MockBackend":
        """Queue answers (a dict of fields, a model instance, or an exception to raise),
        for the abstract ``text`` or, without it, for whichever abstract comes next."""
        (self.by_text.setdefault(text, deque()) if text is not None else self.queue).extend(answers)
        return self

    def fingerprint(self) -> dict[str, Any]:
        return {"model": self.model}

    async def extract(self, job: Job) -> Answer:
        self.jobs.append(job)
        queue = self.by_text.get(job.text) or self.queue
        if not queue:
            raise AssertionError(f"MockBackend: no answer queued for {job.id}")
        item = queue.popleft()
        if isinstance(item, BaseException):
            raise item
        obj = item if isinstance(item, BaseModel) else job.response_model.model_validate(item, context=job.context)
        return Answer(obj, attempts=1, usage={"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
                      model=self.model)

    async def aclose(self) -> None:
        self.closed = True
