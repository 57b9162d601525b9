"""``collect``: a finished batch's answers -> validated, grounded records, like a live run.

Each answer is validated with the response model (lenient: the source rides along, but a
batch cannot re-ask, so ungrounded strings are dropped from the record and counted, as on
a live run's last attempt), grounded through the schema's ``export``, written through the
same :class:`RecordSink` (``-o`` resumes, errors file) and filed in the cache under the key
a live ``--mode json_schema`` run with the same options looks up.

Answers come from a batch id (output and error files downloaded) or from local result
files in the OpenAI batch output format (``--results``: e.g. vLLM's ``run_batch``).
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import openai
from pydantic import ValidationError

from .backends.openai_batch import (ResultIndex, answer_of, canonical, downloaded, make_client, open_batch,
                                    usage_of)
from .batch import BatchRequests, _entries
from .config import RunConfig
from .errors import RecordError, UsageError, brief
from .inputs import Item, Problem
from .output import RecordSink
from .pipeline import Summary
from .prompting import sha256
from .record import error_entry


@dataclass
class CollectSummary(Summary):
    absent: int = 0        # inputs not in this batch (another part, or cached at submit)
    strays: int = 0        # answers whose custom_id matches no input

    def add_usage(self, usage: dict) -> None:
        for k in self.tokens:
            self.tokens[k] += usage.get(k, 0)

    def add_record(self, record: dict, cached: bool) -> None:
        self.ok += 1
        self.cached += cached
        self.dropped += len(record.get("dropped") or ())

    def line(self) -> str:
        text = super().line()
        if self.absent:
            text += f"; {self.absent} inputs not in this batch"
        if self.strays:
            text += f"; {self.strays} answers match no input id"
        return text


def _when(body: dict) -> str:
    created = body.get("created")
    try:
        moment = datetime.fromtimestamp(int(created), timezone.utc)
    except (TypeError, ValueError, OverflowError, OSError):
        moment = datetime.now(timezone.utc)
    return moment.isoformat(timespec="seconds")


def _submitted(client: openai.OpenAI, file_id: str, tmp: Path, log) -> dict[str, str] | None:
    """custom_id -> digest of the submitted body, from the batch's input file; None when
    the endpoint will not hand the file back (the inputs are then not checked)."""
    try:
        [path] = downloaded(client, [file_id], tmp)
    except openai.APIError as e:
        log(f"cannot download the batch's input file {file_id} ({type(e).__name__}); "
            "inputs are not checked against what was submitted")
        return None
    out: dict[str, str] = {}
    with path.open("rb") as fh:
        for raw in fh:
            try:
                line = json.loads(raw)
                out[str(line["custom_id"])] = sha256(canonical(line.get("body")))
            except (ValueError, KeyError, TypeError):
                continue
    path.unlink()
    return out


def collect(inputs, config: RunConfig, sink: RecordSink, *, batch_id: str | None = None,
            results: tuple[Path, ...] = (), client: openai.OpenAI | None = None,
            verify: bool = True, log=None, progress=None) -> CollectSummary:
    """Records for INPUTS from a batch (or result files) into ``sink``."""
    log = log or (lambda msg: print(f"extract: {msg}", file=sys.stderr))
    if bool(batch_id) == bool(results):
        raise UsageError("give a batch id or --results FILE, not both or neither")
    reqs = BatchRequests(config)
    ex, summary, started = reqs.extractor, CollectSummary(), time.monotonic()
    with tempfile.TemporaryDirectory(prefix="extract-batch-") as tmpdir:
        tmp, submitted = Path(tmpdir), None
        if batch_id:
            client = client or make_client(reqs.config)
            batch = open_batch(client, batch_id, reqs.request_sha)
            if verify:
                submitted = _submitted(client, batch.input_file_id, tmp, log)
            paths = downloaded(client, [batch.output_file_id, batch.error_file_id], tmp)
            if batch.status != "completed":
                log(f"batch {batch_id} is {batch.status}: collecting the answers it has")
        else:
            paths = [Path(p) for p in results]
        index = ResultIndex(paths)
        if index.unreadable:
            log(f"{index.unreadable} lines of the batch output are not readable JSON; skipped")
        seen: set[str] = set()
        try:
            for entry in _entries(inputs, reqs.config, []):
                _one(entry, reqs, index, submitted, sink, summary, seen)
                if progress is not None:
                    progress.update(1)
        finally:
            index.close()
            ex.cache.close()
        summary.strays = len(set(index.where) - seen)
    return summary.finish(started)


def _one(entry: Item | Problem, reqs: BatchRequests, index: ResultIndex,
         submitted: dict[str, str] | None, sink: RecordSink, summary: CollectSummary,
         seen: set[str]) -> None:
    ex = reqs.extractor
    if isinstance(entry, Problem):
        if entry.skipped:
            summary.no_abstract += 1
        else:
            summary.problems += 1
        sink.error(error_entry(entry.id, entry.source, entry.reason, kind="input",
                               status="skipped" if entry.skipped else "error"))
        return
    item = entry
    seen.add(item.id)
    if sink.is_done(item.id, item.text):
        summary.skipped += 1
        return
    in_batch = item.id in index or (submitted is not None and item.id in submitted)
    hit = ex.from_cache(item)
    if hit is not None:
        sink.attempted(item.id)
        sink.record(hit[0])
        summary.add_record(hit[0], cached=True)
        return
    if not in_batch:
        summary.absent += 1
        return
    sink.attempted(item.id)

    def fail(reason: str) -> None:
        summary.failed += 1
        sink.error(error_entry(item.id, item.source, reason, attempts=1))

    request = ex.request(item)           # the hybrid proposal is the submit's: deterministic
    if submitted is not None:
        if item.id not in submitted:
            return fail("answered in the batch but not in its input file")
        if submitted[item.id] != sha256(canonical(reqs.body(item, request))):
            return fail("the abstract or the prompt changed since submit; not collected "
                        "(submit it again, or run it live)")
    line = index.get(item.id)
    if line is None:
        return fail("submitted, but the batch output has no line for it")
    try:
        body, content = answer_of(line)
    except RecordError as e:
        summary.add_usage(usage_of(((line.get("response") or {}).get("body")) or {}))
        return fail(str(e))
    usage = usage_of(body)
    summary.add_usage(usage)
    job = request.job
    try:
        obj = job.response_model.model_validate_json(content, context={**job.context, "lenient": True})
        record = ex.finish(item, request, obj, model=body.get("model") or reqs.config.model,
                           attempts=1, usage=usage, extracted_at=_when(body))
    except ValidationError as e:
        return fail(f"answer invalid, and a batch cannot re-ask: {brief(e)}")
    except RecordError as e:
        return fail(str(e))
    sink.record(record)
    summary.add_record(record, cached=False)
