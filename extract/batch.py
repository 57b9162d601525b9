"""OpenAI Batch API: the requests of a live ``--mode json_schema`` run, sent as a file.

``submit`` writes one request line per distinct request (``custom_id`` = the request's own
digest, :func:`extract.identity.request_digest`; ``method``, ``url``, ``body``), uploads the
file and creates the batch; ``collect`` (see
:mod:`extract.batch_collect`) turns the answers into records exactly as a live run would,
and fills the cache under the same key, so a later live run with the same options is a
cached rerun.  With the default ``--prompt auto`` each request is the hybrid job
(:meth:`extract.pipeline.Extractor.request`: the rules' numbered proposal and the abstract's
own answer schema); collect rebuilds the same proposal (deterministic from text and title)
and maps each answer back through :meth:`~extract.pipeline.Extractor.finish`, as a live run
does.

The request format, the client and the Batch API calls are the openai backend's
(:mod:`extract.backends.openai_batch`): byte for byte the request a live ``extract run
--mode json_schema`` sends.  This module decides which abstracts go into which file.

What ``collect`` needs: the batch id and the same INPUTS and options as ``submit``.  The
batch's metadata carries a digest of every option that shapes a request, so ``collect``
with different options is refused.  Answers are matched to abstracts by the digest of the
request each abstract gives now, never by position or record id: an abstract edited,
inserted or moved in between gets no answer meant for another (it is "not in this batch"),
and the answers nothing asks for any more are counted.  No API key is written anywhere: not in the
file, not in the metadata.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import openai

from ._version import __version__
from .backends.openai_batch import (MAX_BYTES, MAX_LINES, canonical, make_client, request_line,
                                    request_template, upload)
from .backends.openai_batch import status as batch_status
from .config import RunConfig
from .errors import UsageError
from .idindex import IdIndex
from .identity import request_digest
from .inputs import Item, Problem, expand, read_inputs
from .pipeline import Extractor, Request, oversize
from .prompting import sha256

def batch_config(config: RunConfig) -> RunConfig:
    """A batch is answered in one go against the schema: the live equivalent is the
    openai backend in ``json_schema`` mode, and that is the cache key it is filed under."""
    if len(config.base_urls) > 1:
        raise UsageError("a batch goes to one endpoint: give --base-url at most once")
    if not config.model:
        raise UsageError("--model is required for a batch")
    return config.with_(backend="openai", mode="json_schema")


class BatchRequests:
    """Request lines for abstracts, plus what collect needs to read their answers."""

    def __init__(self, config: RunConfig, extractor: Extractor | None = None):
        self.config = batch_config(config)
        self.extractor = extractor or Extractor(self.config)
        self._template = request_template(self.extractor.schema, self.config)

    def template(self, request: Request) -> dict:
        """The body without messages: one for the plain job; the hybrid job's answer model
        is the abstract's own (its number and candidate ids), so its template is too."""
        model = request.job.response_model
        if model is self.extractor.schema:
            return self._template
        return request_template(model, self.config)

    @property
    def request_sha(self) -> str:
        """Digest of everything but the abstract that shapes a request (and the cache key)."""
        ex, cfg = self.extractor, self.config
        return sha256(canonical({"tool_version": __version__, "fingerprint": ex.backend.fingerprint(),
                                 "prompt_sha": ex.prompt_sha, "schema_sha": ex.schema_sha,
                                 "reasks": cfg.reasks}))

    def line(self, item: Item, request: Request | None = None) -> dict:
        """The request line for ``item``; its ``custom_id`` is the body's digest."""
        request = request or self.extractor.request(item)
        line = request_line("", self.template(request), request.job.messages)
        line["custom_id"] = request_digest(line["body"])
        return line

    def body(self, item: Item, request: Request | None = None) -> dict:
        """The chat request a live json_schema run sends for ``item``'s first attempt."""
        return self.line(item, request)["body"]


@dataclass
class SubmitReport:
    batches: list[str] = field(default_factory=list)     # batch ids, one per part
    files: list[Path] = field(default_factory=list)       # the local request files
    requests: int = 0
    cached: int = 0
    problems: list[str] = field(default_factory=list)     # "file:line: reason"


def _entries(inputs, config: RunConfig, notes: list[str]) -> Iterator[Item | Problem]:
    files, skipped = expand(inputs)
    notes.extend(skipped)
    for entry in read_inputs(files):
        reason = oversize(entry.text, config.max_chars) if isinstance(entry, Item) else None
        if reason:
            entry = Problem(entry.source, reason, entry.id)
        yield entry


def part_path(keep: Path, k: int) -> Path:
    """``batch.jsonl``, then ``batch.2.jsonl``, ``batch.3.jsonl`` ... for further parts."""
    if k == 1:
        return keep
    stem = keep.name[: -len(".jsonl")] if keep.name.endswith(".jsonl") else keep.name
    return keep.with_name(f"{stem}.{k}.jsonl")


def write_requests(inputs, config: RunConfig, keep: Path, max_lines: int = MAX_LINES,
                   max_bytes: int = MAX_BYTES, use_cache: bool = True,
                   log=None) -> tuple[BatchRequests, SubmitReport]:
    """Stream request lines into ``keep`` (and further parts past the limits); abstracts
    already in the cache are left out: ``collect`` takes them from the cache."""
    log = log or (lambda msg: print(f"extract: {msg}", file=sys.stderr))
    reqs, report, notes = BatchRequests(config), SubmitReport(), []
    cache = reqs.extractor.cache
    fh, lines, size = None, 0, 0
    written = IdIndex()          # request digests already in a file: one line per request
    try:
        for entry in _entries(inputs, reqs.config, notes):
            if isinstance(entry, Problem):
                report.problems.append(f"{entry.source}: {entry.reason}")
                continue
            if use_cache and cache.get(reqs.extractor.key(entry.text, entry.title)) is not None:
                report.cached += 1
                continue
            line = reqs.line(entry)
            if line["custom_id"] in written:   # the same request (same text, another id):
                continue                        # its answer serves both
            written.add(line["custom_id"])
            data = (json.dumps(line, ensure_ascii=False) + "\n").encode("utf-8")
            if fh is None or lines >= max_lines or (lines and size + len(data) > max_bytes):
                if fh is not None:
                    fh.close()
                path = part_path(keep, len(report.files) + 1)
                path.parent.mkdir(parents=True, exist_ok=True)
                fh, lines, size = path.open("wb"), 0, 0
                report.files.append(path)
            fh.write(data)
            lines, size = lines + 1, size + len(data)
            report.requests += 1
    finally:
        if fh is not None:
            fh.close()
        cache.close()
        written.close()
    for note in notes:
        log(note)
    return reqs, report


def submit(inputs, config: RunConfig, keep: Path, client: openai.OpenAI | None = None,
           max_lines: int = MAX_LINES, use_cache: bool = True, log=None) -> SubmitReport:
    """Write the request file(s), upload each and create one batch per file."""
    log = log or (lambda msg: print(f"extract: {msg}", file=sys.stderr))
    reqs, report = write_requests(inputs, config, keep, max_lines=max_lines,
                                  use_cache=use_cache, log=log)
    if not report.files:
        return report
    client = client or make_client(reqs.config)
    meta = {"tool": "extract", "extract_version": __version__, "request_sha": reqs.request_sha,
            "model": str(reqs.config.model)[:500]}
    report.batches.extend(upload(client, report.files, meta, log))
    return report


def status(batch_id: str, config: RunConfig, client: openai.OpenAI | None = None) -> dict:
    """The batch as a plain dict (what ``extract batch status`` prints)."""
    return batch_status(batch_id, client or make_client(config))
