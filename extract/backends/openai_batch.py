"""The OpenAI Batch API side of the openai backend: the request line format, the client,
uploading, status, downloading, and reading answers back.

A request body is built by instructor's own JSON_SCHEMA request handler from the prompt,
response model and decoding parameters: byte for byte the request a live ``--mode
json_schema`` run of :class:`~.openai_compat.OpenAIBackend` sends, the hybrid job's
per-abstract answer model included (tests/test_batch.py and tests/test_hybrid_remote.py
hold the two side by side).  The endpoint and key check is the live backend's (:func:`.openai_compat.endpoint_urls`).
Orchestration (which abstracts go into which file, collecting into records) is in
:mod:`extract.batch` and :mod:`extract.batch_collect`.
"""

from __future__ import annotations

import json
from pathlib import Path

import openai
from pydantic import BaseModel

from ..config import RunConfig
from ..errors import BackendError, BatchNotReady, RecordError, UsageError
from .instructor_fixes import prepared
from .openai_compat import endpoint_urls

__all__ = ["ENDPOINT", "MAX_BYTES", "MAX_LINES", "PENDING", "ResultIndex", "answer_of", "canonical",
           "downloaded", "make_client", "open_batch", "request_line", "request_template", "status",
           "upload", "usage_of"]

ENDPOINT = "/v1/chat/completions"
MAX_LINES = 50_000                   # OpenAI: requests per batch
MAX_BYTES = 190 * 1024 * 1024        # OpenAI: 200 MB per input file (kept under it)
PENDING = ("validating", "in_progress", "finalizing", "cancelling")


def make_client(config: RunConfig, timeout: float = 600.0) -> openai.OpenAI:
    """A synchronous client for the first endpoint of ``config`` (batches go to one)."""
    url = endpoint_urls(config)[0]
    return openai.OpenAI(base_url=url, api_key=config.api_key or "no-key", timeout=timeout)


def canonical(obj) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def request_template(schema: type[BaseModel], config: RunConfig) -> dict:
    """The request body a live json_schema run sends, without its messages.

    instructor's handler adds ``response_format`` and passes the messages through: it is run
    once, then only the messages differ from one abstract to the next."""
    from instructor import Mode
    from instructor.v2.core.providers import Provider
    from instructor.v2.core.registry import mode_registry

    handler = mode_registry.get_handler(Provider.OPENAI, Mode.JSON_SCHEMA, "request")
    kwargs = {"model": config.model, "messages": [], "temperature": config.temperature,
              "max_tokens": config.max_tokens}
    if config.seed is not None:
        kwargs["seed"] = config.seed
    _, template = handler(prepared(schema), kwargs)
    return template


def request_line(custom_id: str, template: dict, messages) -> dict:
    return {"custom_id": custom_id, "method": "POST", "url": ENDPOINT,
            "body": {**template, "messages": list(messages)}}


def upload(client: openai.OpenAI, paths: list[Path], metadata: dict, log) -> list[str]:
    """Upload each request file and create one batch per file; the batch ids."""
    ids = []
    for k, path in enumerate(paths, 1):
        with path.open("rb") as fh:
            uploaded = client.files.create(file=(path.name, fh), purpose="batch")
        batch = client.batches.create(input_file_id=uploaded.id, endpoint=ENDPOINT,
                                      completion_window="24h",
                                      metadata={**metadata, "part": f"{k}/{len(paths)}"})
        ids.append(batch.id)
        log(f"batch {batch.id}: {path} uploaded as {uploaded.id}")
    return ids


def _retrieve(client: openai.OpenAI, batch_id: str):
    try:
        return client.batches.retrieve(batch_id)
    except openai.NotFoundError:
        raise UsageError(f"no batch {batch_id!r} at this endpoint") from None


def status(batch_id: str, client: openai.OpenAI) -> dict:
    """The batch as a plain dict (what ``extract batch status`` prints)."""
    keys = ("id", "status", "request_counts", "input_file_id", "output_file_id",
            "error_file_id", "created_at", "completed_at", "expires_at", "metadata", "errors")
    dumped = _retrieve(client, batch_id).model_dump(mode="json")
    return {k: dumped.get(k) for k in keys}


def open_batch(client: openai.OpenAI, batch_id: str, request_sha: str):
    """The batch, once it has finished and was submitted with the same options (its
    metadata carries their digest); else a clear error."""
    batch = _retrieve(client, batch_id)
    meta = batch.metadata or {}
    if meta.get("request_sha") and meta["request_sha"] != request_sha:
        raise UsageError(f"batch {batch_id} was submitted with other options (model, prompt, "
                         "schema, decoding, --reasks or --base-url): give collect the same "
                         "options as submit")
    counts = batch.request_counts
    done = f"{counts.completed + counts.failed}/{counts.total} answered" if counts else ""
    if batch.status in PENDING:
        raise BatchNotReady(f"batch {batch_id} is {batch.status} ({done}); collect it once "
                            f"`extract batch status {batch_id}` says completed")
    if batch.status == "failed":
        errs = "; ".join(f"line {e.line}: {e.message}" if e.line else str(e.message)
                         for e in ((batch.errors.data if batch.errors else None) or [])[:5])
        raise BackendError(f"batch {batch_id} failed validation: {errs or 'no reason given'}")
    return batch


def _download(client: openai.OpenAI, file_id: str, dest: Path) -> Path:
    with client.files.with_streaming_response.content(file_id) as response:
        response.stream_to_file(dest)
    return dest


def downloaded(client: openai.OpenAI, file_ids: list[str | None], tmpdir: Path) -> list[Path]:
    return [_download(client, fid, tmpdir / f"{fid}.jsonl") for fid in file_ids if fid]


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
