"""``collect``: a finished batch's answers -> validated, grounded records, like a live run.

Each answer is validated with the response model (lenient: the source rides along, but a
batch cannot re-ask, so ungrounded strings are dropped from the record and counted, as on
a live run's last attempt), grounded through the schema's ``export``, written through the
same :class:`RecordSink` (``-o`` resumes, errors file) and filed in the cache under the key
a live ``--mode json_schema`` run with the same options looks up.

Answers come from a batch id (output and error files downloaded) or from local result
files in the OpenAI batch output format (``--results``: e.g. vLLM's ``run_batch``).  Each
abstract's answer is found by the digest of the request it gives now
(:func:`extract.identity.request_digest`, the ``custom_id`` submit wrote), never by its
position or id: an abstract inserted, moved or edited since submit finds no answer meant
for another one, and nothing wrong is cached.  With the batch's input file (``--verify``)
the digests are read from the submitted bodies, so batches whose ``custom_id`` is a record
id (submitted by earlier versions) are matched by digest too.
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

from .backends.openai_batch import (ResultIndex, answer_of, downloaded, make_client, open_batch,
                                    usage_of)
from .batch import BatchRequests, _entries
from .config import RunConfig
from .errors import RecordError, UsageError, brief
from .identity import request_digest
from .inputs import Item, Problem
from .output import RecordSink
from .summary import Summary
from .summary import settle_problem
from .record import error_entry


@dataclass
class CollectSummary(Summary):
    absent: int = 0        # inputs not in this batch (another part, cached at submit, or
    #                        an abstract or option changed since)
    strays: int = 0        # answers to requests no input gives now

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
            text += (f"; {self.strays} answers match no request these inputs give (an "
                     "abstract or option changed since submit?): not collected")
        return text


def _when(body: dict) -> str:
    created = body.get("created")
    try:
        moment = datetime.fromtimestamp(int(created), timezone.utc)
    except (TypeError, ValueError, OverflowError, OSError):
        moment = datetime.now(timezone.utc)
    return moment.isoformat(timespec="seconds")


def _submitted(client: openai.OpenAI, file_id: str, tmp: Path, log) -> dict[str, str] | None:
    """Digest of each submitted body -> its custom_id, from the batch's input file; None
    when the endpoint will not hand the file back (answers are then found by custom_id,
    which submit makes the digest)."""
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
                out[request_digest(line["body"])] = str(line["custom_id"])
            except (ValueError, KeyError, TypeError):
                continue
    path.unlink()
    return out


def collect(inputs, config: RunConfig, sink: RecordSink, *, batch_id: str | None = None,
            results: tuple[Path, ...] = (), client: openai.OpenAI | None = None,
            verify: bool = True, log=None, progress=None,
            reqs: BatchRequests | None = None) -> CollectSummary:
    """Records for INPUTS from a batch (or result files) into ``sink``."""
    log = log or (lambda msg: print(f"extract: {msg}", file=sys.stderr))
    if bool(batch_id) == bool(results):
        raise UsageError("give a batch id or --results FILE, not both or neither")
    reqs = reqs or BatchRequests(config)
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
        settle_problem(entry, summary, sink)
        return
    sink.reached(entry.source, entry.id)        # collect settles each entry as it reads it
    item = entry
    request = ex.request(item)           # the hybrid proposal is the submit's: deterministic
    digest = request_digest(reqs.body(item, request))
    cid = submitted.get(digest) if submitted is not None else digest
    if cid is not None:
        seen.add(cid)                    # this answer is asked for, whatever happens next
    if sink.is_done(item.id, item.text, item.source):
        summary.skipped += 1
        return
    hit = ex.from_cache(item)
    if hit is not None:
        sink.record(hit[0])
        summary.add_record(hit[0], cached=True)
        return
    if cid is None or (submitted is None and cid not in index):
        summary.absent += 1              # another part, cached at submit, or changed since
        return

    def fail(reason: str) -> None:
        summary.failed += 1
        sink.error(error_entry(item.id, item.source, reason, attempts=1))

    line = index.get(cid)
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
