"""OpenAI Batch API: the requests of a live ``--mode json_schema`` run, sent as a file.

``submit`` writes one request line per abstract (``custom_id`` = the record id, ``method``,
``url``, ``body``), uploads the file and creates the batch; ``collect`` (see
:mod:`extract.batch_collect`) turns the answers into records exactly as a live run would,
and fills the cache under the same key, so a later live run with the same options is a
cached rerun.

The body is built by instructor's own JSON_SCHEMA request handler from the same prompt,
schema and decoding parameters a live run uses: byte for byte the request a live
``extract run --mode json_schema`` sends (a test holds the two side by side).

What ``collect`` needs: the batch id and the same INPUTS and options as ``submit``.  The
batch's metadata carries a digest of every option that shapes a request, so ``collect``
with different options is refused; the uploaded input file is compared line by line with
the requests the inputs give now, so an abstract edited in between is reported, not
recorded with an answer about other text.  No API key is written anywhere: not in the
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
from .backends.instructor_fixes import prepared
from .backends.openai_compat import OPENAI_URL
from .config import RunConfig
from .errors import RecordError, UsageError
from .inputs import Item, Problem, expand, read_inputs
from .pipeline import Extractor, oversize
from .prompting import sha256

ENDPOINT = "/v1/chat/completions"
MAX_LINES = 50_000                   # OpenAI: requests per batch
MAX_BYTES = 190 * 1024 * 1024        # OpenAI: 200 MB per input file (kept under it)


def batch_config(config: RunConfig) -> RunConfig:
    """A batch is answered in one go against the schema: the live equivalent is the
    openai backend in ``json_schema`` mode, and that is the cache key it is filed under."""
    if len(config.base_urls) > 1:
        raise UsageError("a batch goes to one endpoint: give --base-url at most once")
    if not config.model:
        raise UsageError("--model is required for a batch")
    return config.with_(backend="openai", mode="json_schema")


def make_client(config: RunConfig, timeout: float = 600.0) -> openai.OpenAI:
    url = config.base_urls[0] if config.base_urls else OPENAI_URL
    if url.rstrip("/") == OPENAI_URL and not config.api_key:
        raise UsageError("OPENAI_API_KEY is not set (needed for api.openai.com); "
                         "or point --base-url at a local OpenAI-compatible server")
    return openai.OpenAI(base_url=url, api_key=config.api_key or "no-key", timeout=timeout)


def canonical(obj) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


class BatchRequests:
    """Request lines for abstracts, plus what collect needs to read their answers."""

    def __init__(self, config: RunConfig, extractor: Extractor | None = None):
        self.config = batch_config(config)
        self.extractor = extractor or Extractor(self.config)
        from instructor import Mode
        from instructor.v2.core.providers import Provider
        from instructor.v2.core.registry import mode_registry

        cfg = self.config
        handler = mode_registry.get_handler(Provider.OPENAI, Mode.JSON_SCHEMA, "request")
        kwargs = {"model": cfg.model, "messages": [], "temperature": cfg.temperature,
                  "max_tokens": cfg.max_tokens}
        if cfg.seed is not None:
            kwargs["seed"] = cfg.seed
        # instructor's handler adds response_format and passes the messages through: run it
        # once, then only the messages differ from one abstract to the next.
        _, self._template = handler(prepared(self.extractor.schema), kwargs)

    @property
    def request_sha(self) -> str:
        """Digest of everything but the abstract that shapes a request (and the cache key)."""
        ex, cfg = self.extractor, self.config
        return sha256(canonical({"tool_version": __version__, "fingerprint": ex.backend.fingerprint(),
                                 "prompt_sha": ex.prompt.sha, "schema_sha": ex.schema_sha,
                                 "reasks": cfg.reasks}))

    def body(self, item: Item) -> dict:
        """The chat request a live json_schema run sends for ``item``'s first attempt."""
        return {**self._template, "messages": list(self.extractor.prompt.render(item.text, item.title))}

    def line(self, item: Item) -> dict:
        return {"custom_id": item.id, "method": "POST", "url": ENDPOINT, "body": self.body(item)}


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
    try:
        for entry in _entries(inputs, reqs.config, notes):
            if isinstance(entry, Problem):
                report.problems.append(f"{entry.source}: {entry.reason}")
                continue
            if use_cache and cache.get(reqs.extractor.key(entry.text, entry.title)) is not None:
                report.cached += 1
                continue
            data = (json.dumps(reqs.line(entry), ensure_ascii=False) + "\n").encode("utf-8")
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
    for k, path in enumerate(report.files, 1):
        with path.open("rb") as fh:
            uploaded = client.files.create(file=(path.name, fh), purpose="batch")
        batch = client.batches.create(input_file_id=uploaded.id, endpoint=ENDPOINT,
                                      completion_window="24h",
                                      metadata={**meta, "part": f"{k}/{len(report.files)}"})
        report.batches.append(batch.id)
        log(f"batch {batch.id}: {path} uploaded as {uploaded.id}")
    return report


def status(batch_id: str, config: RunConfig, client: openai.OpenAI | None = None) -> dict:
    """The batch as a plain dict (what ``extract batch status`` prints)."""
    client = client or make_client(config)
    try:
        batch = client.batches.retrieve(batch_id)
    except openai.NotFoundError:
        raise UsageError(f"no batch {batch_id!r} at this endpoint") from None
    keys = ("id", "status", "request_counts", "input_file_id", "output_file_id",
            "error_file_id", "created_at", "completed_at", "expires_at", "metadata", "errors")
    dumped = batch.model_dump(mode="json")
    return {k: dumped.get(k) for k in keys}


def _download(client: openai.OpenAI, file_id: str, dest: Path) -> Path:
    with client.files.with_streaming_response.content(file_id) as response:
        response.stream_to_file(dest)
    return dest


class ResultIndex:
    """Answers of a batch by ``custom_id`` (byte offsets into the files: memory stays
    small however many answers there are)."""

    def __init__(self, paths: list[Path]):
        self.paths = paths
        self.where: dict[str, tuple[int, int]] = {}
        self.unreadable = 0
        for n, path in enumerate(paths):
            with path.open("rb") as fh:
                offset = 0
                for raw in fh:
                    try:
                        cid = json.loads(raw).get("custom_id")
                    except (ValueError, AttributeError):
                        cid = None
                    if cid is None:
                        self.unreadable += 1
                    else:
                        self.where[str(cid)] = (n, offset)
                    offset += len(raw)
        self._fhs = [p.open("rb") for p in paths]

    def __contains__(self, cid: str) -> bool:
        return cid in self.where

    def get(self, cid: str) -> dict | None:
        if cid not in self.where:
            return None
        n, offset = self.where[cid]
        fh = self._fhs[n]
        fh.seek(offset)
        return json.loads(fh.readline())

    def close(self) -> None:
        for fh in self._fhs:
            fh.close()


def _error_text(err) -> str:
    """The message of an error in any of the shapes batch runners write: a string (vLLM),
    ``{"code", "message"}`` (OpenAI) or ``{"error": {...}}`` (an error response body)."""
    if isinstance(err, dict) and isinstance(err.get("error"), dict):
        err = err["error"]
    if isinstance(err, dict):
        code, msg = err.get("code"), err.get("message")
        return f"{code}: {msg}" if code and msg else str(msg or code or err)[:500]
    return str(err)[:500]


def answer_of(line: dict) -> tuple[dict, str]:
    """(completion body, JSON text of the answer) of one output line, or raise RecordError
    with the reason (per-line ``status_code``, request errors, truncation, refusals)."""
    err = line.get("error")
    if err:
        raise RecordError(f"batch request failed: {_error_text(err)}")
    response = line.get("response") or {}
    status_code = response.get("status_code")
    body = response.get("body") or {}
    if status_code != 200:
        detail = _error_text(body) if body.get("error") else ""
        raise RecordError(f"HTTP {status_code} in the batch output{': ' + detail if detail else ''}"
                          " (a batch is not retried: rerun live or submit again)")
    choices = body.get("choices") or []
    if not choices:
        raise RecordError("batch answer has no choices")
    choice = choices[0]
    message = choice.get("message") or {}
    if choice.get("finish_reason") == "length":
        raise RecordError("output truncated at max_tokens (raise --max-tokens)")
    if message.get("refusal"):
        raise RecordError(f"the model refused: {str(message['refusal'])[:300]}")
    content = message.get("content")
    if not isinstance(content, str) or not content.strip():
        raise RecordError("batch answer has no content")
    return body, content


def usage_of(body: dict) -> dict:
    u = body.get("usage") or {}
    return {k: int(u.get(k) or 0) for k in ("prompt_tokens", "completion_tokens", "total_tokens")}


def downloaded(client: openai.OpenAI, file_ids: list[str | None], tmpdir: Path) -> list[Path]:
    return [_download(client, fid, tmpdir / f"{fid}.jsonl") for fid in file_ids if fid]
