"""The run: inputs -> cache or backend -> grounded records -> sink, N requests in flight.

Records are emitted in input order through a bounded window, so output is deterministic
and memory stays flat however long the input is.  A failing record goes to the errors
file; only a :class:`FatalBackendError` (every record would fail) or the token budget
stops the run.

Resume is keyed on identity (:mod:`extract.identity`: id, input, text digest and the
configuration): an input whose record of the same text and configuration is held is
skipped; one whose text changed is extracted again (named on stderr) and replaces its old
record; one whose record another configuration made only with ``--redo``.

``--max-tokens-total`` is a budget the run does not overshoot: a request is admitted only
when the tokens spent, plus a reservation for each request in flight, plus its own
reservation (prompt estimate + ``max_tokens``) fit in it.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timezone

from pydantic import ValidationError

from ._version import __version__
from . import examples as few_shot
from . import hybrid
from .backends.base import Backend, Job, load_backend
from .cache import AnswerCache, cache_key
from .config import RunConfig
from .configured import BackendFacts, configure
from .errors import FatalBackendError, RecordError, SchemaFailure, TransientBackendError, brief
from .identity import origin
from .inputs import Item, Problem
from .output import RecordSink
from .pool import RulesPool, proposal_workers
from .record import build_record, error_entry
from .summary import Summary, settle_problem


def oversize(text: str, max_chars: int) -> str | None:
    """Why an abstract is not sent (too long), or None."""
    if len(text) > max_chars:
        return f"abstract is {len(text):,} characters, over --max-chars {max_chars:,}; not sent"
    return None


class _Budget:
    """``--max-tokens-total`` as admission control: ``admit`` holds a reservation until
    ``release`` swaps it for what was really spent.  A request waits while others in
    flight may free room; when none is in flight and it does not fit, the run stops."""

    def __init__(self, total: int | None):
        self.total, self.spent, self.reserved = total, 0, 0
        self.largest = 0                       # the most one request has cost so far
        self._changed = asyncio.Condition()

    async def admit(self, estimate: int) -> int | None:
        if not self.total:
            return 0
        need = max(estimate, self.largest)
        async with self._changed:
            while self.spent + self.reserved + need > self.total:
                if self.reserved == 0:
                    return None
                await self._changed.wait()
            self.reserved += need
        return need

    def release(self, held: int, spent: int) -> None:
        if not self.total:
            return
        self.reserved -= held
        self.spent += spent
        self.largest = max(self.largest, spent)

        async def wake():
            async with self._changed:
                self._changed.notify_all()
        asyncio.ensure_future(wake())


@dataclass(frozen=True)
class Request:
    """One abstract's request: the backend's job, and for the hybrid job the rules'
    proposal (deterministic from text and title) its answer is mapped back with."""

    job: Job
    proposal: hybrid.Proposal | None = None


class Extractor:
    """Extraction of single abstracts with caching; :meth:`run` drives a whole batch."""

    def __init__(self, config: RunConfig, backend: Backend | None = None):
        self.config = config
        self.backend = backend or load_backend(config)
        c = configure(config, BackendFacts.of(self.backend))
        self.schema, self.hybrid, self.prompt = c.schema, c.hybrid, c.prompt
        self.combine, self.policy = c.combine, c.policy          # see extract.configured
        self.prompt_sha, self._key_sha, self._tag = c.prompt_sha, c.key_sha, c.tag
        self.examples, self._shots = c.examples, c.shots
        self.schema_sha = c.schema_sha
        #: --proposal: the rules' reading shown, or only the spans (its own template: digest, keys, identity)
        self.reading = config.proposal == "reading"
        self.cache = AnswerCache(config.cache_dir, config.use_cache)
        self._fingerprint = c.fingerprint
        self.identity = c.identity         # the configuration records are made with
        self._proposals: RulesPool | None = None     # the hybrid proposals' worker pool
        self._lending = False              # the event loop computes proposals (see _lend)
        self._room = lambda: True          # a request slot is free (the run's gate)

    def key(self, text: str, title: str | None = None) -> str:
        return cache_key(backend=self.backend.name, fingerprint=self._fingerprint,
                         prompt_sha=self._key_sha, schema_sha=self.schema_sha,
                         reasks=self.config.reasks, text=self.prompt.key_text(text, title))

    def _check(self, item: Item) -> None:
        reason = oversize(item.text, self.config.max_chars)
        if reason:
            raise RecordError(reason)

    def _record(self, item: Item, obj, meta: dict, cached: bool) -> dict:
        provenance = {
            "backend": self.backend.name, "model": meta.get("model") or self.config.model,
            "prompt_sha": self.prompt_sha, "schema_sha": self.schema_sha,
            "tool_version": __version__, "cached": cached, "attempts": meta["attempts"],
            "usage": meta["usage"], "extracted_at": meta["extracted_at"],
            "config": self.identity,
        }
        if meta.get("decided_by"):
            provenance["decided_by"] = meta["decided_by"]
        if self.examples:       # digests of the examples' abstracts: eval warns on gold among them
            provenance["examples"] = [few_shot.text_digest(e.text) for e in self.examples]
        if meta.get("decided") is not None:     # the hybrid job: who decided each field, and why
            provenance["policy"] = dict(self.policy)
            provenance["decided"] = dict(meta["decided"])
            if meta.get("checks"):
                provenance["checks"] = list(meta["checks"])
        record = build_record(item, obj, provenance)
        if meta.get("notes"):
            record["notes"] = list(meta["notes"])
        return record

    def from_cache(self, item: Item) -> tuple[dict, bool, dict] | None:
        """(record, True, {}) when the answer is cached, else None."""
        self._check(item)
        if not self.cache.enabled:          # --no-cache: no key to compute
            return None
        hit = self.cache.get(self.key(item.text, item.title))
        if hit is None:
            return None
        try:                  # an entry that no longer validates is a miss, not a failure
            if self.hybrid and hit.get("policy") != self._tag:
                return self._remap(item, hit)
            obj = self.schema.model_validate(hit.get("answer"))
            return self._record(item, obj, hit, True), True, {}
        except (ValidationError, KeyError, TypeError, SchemaFailure):
            return None

    def _remap(self, item: Item, hit: dict) -> tuple[dict, bool, dict] | None:
        """A cached hybrid answer mapped under this run's policy (no model call)."""
        if not isinstance(hit.get("raw"), dict):
            return None
        request = self.request(item)
        raw = request.job.response_model.model_validate(
            hit["raw"], context={"source": item.text, "lenient": True})
        obj, decided, checks = self.mapped(item, request, raw, attempts=hit["attempts"], usage=hit["usage"])
        meta = {**hit, "answer": obj.model_dump(mode="json"), "decided": decided, "checks": checks}
        return self._record(item, obj, meta, True), True, {}

    def mapped(self, item: Item, request: Request, raw, *, attempts: int, usage: dict):
        """(the schema's object, decided per field, checks) of a raw hybrid answer."""
        m = hybrid.decide_fields(request.proposal, raw, self.combine)
        try:
            obj = self.schema.model_validate(m.fields, context={"source": item.text, "lenient": True})
        except ValidationError as e:
            raise SchemaFailure(f"mapped answer failed validation: {brief(e)}",
                                attempts=attempts, usage=usage) from None
        return obj, m.decided, m.checks

    def request(self, item: Item, proposal: hybrid.Proposal | None = None) -> Request:
        """What is sent for ``item`` (live or in a batch): the plain job against the schema,
        or the hybrid job (the rules' numbered proposal, decided under the per-abstract
        answer model) with the proposal its answer is mapped back with (``proposal``: when
        already computed, by :meth:`prepare`)."""
        if not self.hybrid:
            return Request(Job(item.id, item.text,
                               few_shot.with_turns(self.prompt.render(item.text, item.title), self._shots),
                               self.schema, {"source": item.text}, item.title))
        proposal = proposal or hybrid.propose(item.text, item.title)
        return Request(Job(item.id, item.text,
                           few_shot.with_turns(hybrid.render_messages(self.prompt, proposal, self.reading), self._shots),
                           hybrid.answer_model(proposal, hybrid.contributions(self.schema),
                                               getattr(self.backend, "answer_base", None)),
                           {"source": item.text, "drop_ungrounded": True}, item.title), proposal)

    def finish(self, item: Item, request: Request, obj, *, model: str | None, attempts: int,
               usage: dict, extracted_at: str | None = None, notes=(),
               decided_by: str | None = None) -> dict:
        """A validated answer to ``request`` -> the cached record (live runs and batch
        collect alike).  A hybrid answer is mapped onto the schema's fields first: texts,
        values and offsets are the rules', the model decided."""
        extra = {}
        if request.proposal is not None:
            raw = obj
            obj, decided, checks = self.mapped(item, request, raw, attempts=attempts, usage=usage)
            extra = {"raw": raw.model_dump(mode="json"), "policy": self._tag,
                     "decided": decided, "checks": checks}
            decided_by = "model"
        return self.remember(item, obj, model=model, attempts=attempts, usage=usage,
                             extracted_at=extracted_at, notes=notes, decided_by=decided_by, extra=extra)

    async def prepare(self, item: Item) -> Request:
        """:meth:`request`, with the hybrid proposal (the whole rule layer, ~8 ms of CPU)
        computed in the rules' worker pool once the run holds more than one abstract, so
        the event loop only sends and maps (the run asks before taking a request slot:
        proposals are computed ahead of the requests)."""
        if self._proposals is None:
            return self.request(item)
        future = self._proposals.submit("propose", item.text, item.title)
        self._lend_soon()
        proposal = await asyncio.wrap_future(future)
        return self.request(item, proposal)

    def _pool_for_proposals(self) -> None:
        if self.hybrid and self._proposals is None and proposal_workers() > 0:
            self._proposals, self._lending = RulesPool(proposal_workers()), False
            self._proposals.start()

    def _lend_soon(self) -> None:
        """While the proposals' worker starts (its imports: 0.2-1 s), the event loop computes
        the oldest waiting proposals itself (:meth:`_lend`), so the first requests do not
        wait for it; asked at each proposal and each request's end, never once the worker
        is ready."""
        pool = self._proposals
        if pool is not None and not self._lending and not pool.warm:
            self._lending = True
            asyncio.get_running_loop().call_soon(self._lend)

    def _lend(self) -> None:
        """One proposal computed here, then the next at the loop's next iteration (what
        arrived meanwhile is read between two), while a request slot is free: with every
        slot taken, the answers come first and the worker may be ready by the time one is
        free."""
        pool = self._proposals
        if pool is not None and self._room() and pool.run_here():
            asyncio.get_running_loop().call_soon(self._lend)
        else:
            self._lending = False

    async def ask(self, item: Item, request: Request | None = None) -> tuple[dict, bool, dict]:
        """Ask the backend (no cache read), cache the answer: (record, False, tokens spent).
        ``request``: :meth:`request`'s for ``item`` when already built."""
        self._check(item)
        request = request or self.request(item)
        answer = await self.backend.extract(request.job)
        record = self.finish(item, request, answer.obj, model=answer.model, attempts=answer.attempts,
                             usage=answer.usage, notes=answer.notes, decided_by=answer.decided_by)
        return record, False, answer.usage

    def remember(self, item: Item, obj, *, model: str | None, attempts: int, usage: dict,
                 extracted_at: str | None = None, notes=(), decided_by: str | None = None,
                 extra: dict | None = None) -> dict:
        """Cache a fresh answer under ``item``'s key and return its record (``extra``: the
        hybrid job's raw answer, policy digest and per-field sources)."""
        meta = {"answer": obj.model_dump(mode="json"), "model": model, "attempts": attempts,
                "usage": usage, "extracted_at": extracted_at
                or datetime.now(timezone.utc).isoformat(timespec="seconds"), **(extra or {})}
        if notes:
            meta["notes"] = list(notes)
        if decided_by:
            meta["decided_by"] = decided_by
        if self.cache.enabled:              # --no-cache: nothing to dump or key
            self.cache.set(self.key(item.text, item.title), meta)   # serialized as it is written
        return self._record(item, obj, meta, False)

    async def extract(self, item: Item) -> tuple[dict, bool, dict]:
        """(record, cached, tokens spent now) for one item, or raise."""
        return self.from_cache(item) or await self.ask(item)

    def reservation(self, request: Request) -> int:
        """Tokens ``request`` may cost at most on its first call: its messages as sent (the
        hybrid proposal's listing included), estimated at 3 characters a token (on the high
        side), plus ``max_tokens``."""
        chars = sum(len(str(m.get("content", ""))) for m in request.job.messages)
        return chars // 3 + 1 + self.config.max_tokens

    async def run(self, entries: Iterable[Item | Problem], sink: RecordSink,
                  progress=None, note=None) -> Summary:
        cfg, summary, started = self.config, Summary(), time.monotonic()
        note = note or (lambda msg: print(f"extract: {msg}", file=sys.stderr))
        width = max(1, min(cfg.concurrency, self.backend.max_concurrency or cfg.concurrency))
        width = getattr(self.backend, "in_flight", None) or width
        gate = asyncio.Semaphore(width)
        self._room = lambda: not gate.locked()
        window = max(64, 8 * width)
        pending: deque = deque()
        fatal: list[BaseException] = []
        budget = _Budget(cfg.max_tokens_total)

        async def guarded(item: Item):
            if fatal or summary.stopped:
                return None
            hit = self.from_cache(item)       # cache lookups do not hold a request slot
            if hit is not None:
                return hit
            request = await self.prepare(item)   # nor proposals (from_cache checked the size)
            async with gate:
                if fatal or summary.stopped:
                    return None
                held = await budget.admit(self.reservation(request))
                if held is None:
                    if not summary.stopped:
                        summary.stopped = (f"token budget of {cfg.max_tokens_total:,} spent "
                                           "(the next request could go over it); rerun with "
                                           "the same -o to continue")
                    return None
                spent = 0
                try:
                    result = await self.ask(item, request)
                    spent = int(result[2].get("total_tokens", 0) or 0)
                    return result
                except FatalBackendError as e:
                    fatal.append(e)
                    raise
                except Exception as e:
                    spent = int((getattr(e, "usage", None) or {}).get("total_tokens", 0) or 0)
                    raise
                finally:
                    budget.release(held, spent)
                    self._lend_soon()        # its slot is free (once this returns)

        def settle(entry, task) -> None:
            if isinstance(entry, Problem):
                settle_problem(entry, summary, sink)
            else:
                exc = task.exception() if not task.cancelled() else None
                if task.cancelled() or (exc is None and task.result() is None):
                    pass  # not run: the run is stopping; a rerun picks it up
                elif exc is not None:
                    if isinstance(exc, FatalBackendError):
                        return
                    sink.reached(entry.source, entry.id)
                    summary.failed += 1
                    reason = str(exc) or type(exc).__name__
                    attempts = getattr(exc, "attempts", 0) or 0
                    if isinstance(exc, TransientBackendError):
                        reason = (f"gave up after {attempts} attempt{'' if attempts == 1 else 's'}: "
                                  f"{reason}")
                    for k in summary.tokens:
                        summary.tokens[k] += int((getattr(exc, "usage", None) or {}).get(k, 0) or 0)
                    sink.error(error_entry(entry.id, entry.source, reason, attempts))
                else:
                    record, cached, spent = task.result()
                    sink.reached(entry.source, entry.id)
                    sink.record(record)
                    summary.ok += 1
                    summary.cached += cached
                    summary.dropped += len(record.get("dropped") or ())
                    summary.invalid += sum(1 for n in record.get("notes") or ()
                                           if ": dropped (" in n)
                    for k in summary.tokens:
                        summary.tokens[k] += int(spent.get(k, 0) or 0)
            if progress is not None:
                progress.update(1)

        async def drain(until: int) -> None:
            while len(pending) > until:
                entry, task, after = pending.popleft()
                if task is not None:
                    await asyncio.wait([task])
                settle(entry, task)
                for source in after.values():   # inputs skipped (done) after this one
                    sink.reached(source)

        def skip(entry: Item) -> None:
            """A done input: reached once everything read before it is settled."""
            if pending:
                pending[-1][2][origin(entry.source)] = entry.source
            else:
                sink.reached(entry.source, entry.id)

        try:
            taken = 0
            for entry in entries:
                if fatal or summary.stopped:
                    break
                if isinstance(entry, Item):
                    state = sink.state(entry.id, entry.text, entry.source)
                    if state == "done":
                        summary.skipped += 1
                        skip(entry)
                        continue
                    if cfg.limit is not None and taken >= cfg.limit:
                        break
                    if state == "changed":
                        summary.changed += 1
                        if summary.changed <= 5:
                            note(f"{entry.id} ({entry.source}): the text differs from the one "
                                 "its record was extracted from; extracting it again")
                    taken += 1
                    if taken == 2:           # more than one: a worker pool pays off now
                        self.backend.expect_batch()
                        self._pool_for_proposals()
                    pending.append((entry, asyncio.ensure_future(guarded(entry)), {}))
                    if taken <= width:       # the first requests go out while reading on
                        await asyncio.sleep(0)
                else:
                    pending.append((entry, None, {}))
                while pending and (len(pending) >= window or pending[0][1] is None
                                   or pending[0][1].done()):
                    await drain(len(pending) - 1)
            await drain(0)
        finally:
            for _, task, _ in pending:
                if task is not None:
                    task.cancel()
            await self.backend.aclose()
            if self._proposals is not None:
                self._proposals.close()
                self._proposals = None
            self.cache.close()
        if fatal:
            summary.stopped = str(fatal[0])
        return summary.finish(started, fatal=bool(fatal))
