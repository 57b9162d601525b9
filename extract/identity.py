"""A record's identity, in one place: which paper, from which text, made how.

Every engine that writes records (the asyncio run, ``batch collect``, a Ray job) resumes an
output by these rules, so they live here, pure (no I/O):

* **the paper** is its id plus its *origin*, the input it came from: the part of the
  record's ``source`` before ``:LINE`` (a path as given, or ``<stdin:LABEL>``).  Default
  ids already name their origin (``<label>#<n>``); the origin tells apart two inputs that
  give the same explicit id;
* **the text** is :func:`text_digest` of the abstract;
* **the configuration** is :func:`config_identity`: what the user chose that changes the
  extraction (backend, model, mode, prompt, schema, ``--decide``, sampling); not the
  endpoint's address, ``--max-tokens`` or the code's own digests, so a moved server, a
  larger token limit or an upgrade still resumes.  Records carry it as
  ``provenance.config``.

:func:`resume_state` says what a run does with an input given the records an output holds
for its id; :func:`supersedes` which of those a new record replaces.  Batch requests are
matched to answers by :func:`request_digest`, the digest of the request itself.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Iterable

__all__ = ["Held", "LEGACY", "config_digest", "config_identity", "differences", "origin",
           "record_config", "request_digest", "resume_state", "supersedes", "text_digest"]

#: fingerprint keys that are the code's or the endpoint's, not the user's configuration
NOT_CONFIG = frozenset({"base_urls", "rules_sha256", "llama_cpp", "constraints", "max_tokens"})
LEGACY = "(not recorded)"


def _digest(data: str, n: int = 32) -> str:
    return hashlib.sha256(data.encode("utf-8", "surrogatepass")).hexdigest()[:n]


def text_digest(text: str) -> str:
    """The content half of a record's identity (128 bits of SHA-256 of the text)."""
    return _digest(text)


def origin(source: Any) -> str | None:
    """The input a record came from: its ``source`` without the ``:LINE`` (None when unknown)."""
    if not isinstance(source, str) or not source:
        return None
    head, sep, tail = source.rpartition(":")
    return head if sep and tail.isdigit() else source


def request_digest(body: Any) -> str:
    """The ``custom_id`` of a batch request: a digest of the request body itself (model,
    messages, schema, decoding), so an answer can only ever be attached to the request it
    answers."""
    canonical = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "req-" + _digest(canonical)


def _clean(fingerprint: dict) -> dict:
    out = {}
    for k, v in fingerprint.items():
        if k in NOT_CONFIG:
            continue
        if isinstance(v, dict):
            v = {kk: vv for kk, vv in v.items() if kk not in NOT_CONFIG}
        out[k] = v
    return out


def config_identity(*, backend: str, fingerprint: dict, schema: str, schema_sha: str,
                    prompt: str | None = None, prompt_sha: str | None = None,
                    decide: str | None = None) -> dict:
    """The configuration a record is made with, as short named parts (compared and named
    when a rerun differs).  ``prompt`` and ``decide`` only when a model reads them."""
    ident: dict[str, Any] = {"backend": backend}
    for k, v in sorted(_clean(fingerprint).items()):
        if k != "backend":
            ident[k] = v
    ident["schema"] = f"{schema}@{schema_sha[:12]}"
    if prompt is not None:
        ident["prompt"] = f"{prompt}@{(prompt_sha or '')[:12]}"
    if decide is not None:
        ident["decide"] = decide
    return ident


def config_digest(ident: dict) -> str:
    return _digest(json.dumps(ident, sort_keys=True, ensure_ascii=False, default=str), 16)


def record_config(rec: dict, current: dict | None) -> dict:
    """The configuration ``rec`` was made with.  A record written before configurations
    were recorded is taken as made with ``current`` when its backend and schema digest
    agree with it (all it recorded), else as the one it names."""
    prov = rec.get("provenance") if isinstance(rec.get("provenance"), dict) else {}
    ident = prov.get("config")
    if isinstance(ident, dict):
        return ident
    if current is None:
        return {}
    backend, sha = prov.get("backend"), str(prov.get("schema_sha") or "")
    if backend == current.get("backend") and str(current.get("schema", "")).endswith("@" + sha[:12]):
        return current
    return {"backend": backend or LEGACY, "schema": f"{LEGACY}@{sha[:12]}" if sha else LEGACY}


def _show(value: Any) -> str:
    if value is None:
        return "none"
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."


#: parts that, when they differ, are the whole story (the rest follows from them)
LEADING = ("backend", "model", "model_file")


def differences(old: dict, new: dict) -> str:
    """``"backend rules, now openai; model none, now big-model"``: the parts that differ
    (only the backend and model when those do)."""
    keys = list(old) + [k for k in new if k not in old]
    differ = [k for k in keys if old.get(k) != new.get(k)]
    differ = [k for k in differ if k in LEADING] or differ
    return "; ".join(f"{k} {_show(old.get(k))}, now {_show(new.get(k))}" for k in differ) \
        or "the same parts, another digest"


@dataclass(frozen=True)
class Held:
    """A record an output holds for an id: where it came from, from which text, made how,
    and its line in the output."""

    origin: str | None
    text: str          # text digest
    config: str        # config digest
    line: int

    def as_list(self) -> list:
        return [self.origin, self.text, self.config, self.line]

    @classmethod
    def of(cls, data: list) -> "Held":
        return cls(data[0], data[1], data[2], int(data[3]))


def _same_origin(a: str | None, b: str | None) -> bool:
    return a is None or b is None or a == b     # unknown on either side: assume the same


def resume_state(held: Iterable[Held], origin: str | None, text: str, config: str) -> str:
    """What a run does with an input (id, ``origin``, ``text`` digest) under ``config``,
    given the records ``held`` for its id:

    * ``"done"``: a record of this text made with this configuration is held (from this
      input, or the same paper listed in another one): skip it;
    * ``"redo"``: its record was made with another configuration: extract it again and
      replace it (a run gets here only with ``--redo``);
    * ``"changed"``: this input's record is of another text: extract it again, replace it;
    * ``"new"``: nothing of it is held (a record of the same id from another input, of
      another text, is another paper: both are kept)."""
    held = list(held)
    if any(h.text == text and h.config == config for h in held):
        return "done"
    if any(h.text == text for h in held):
        return "redo"
    if any(_same_origin(h.origin, origin) for h in held):
        return "changed" if all(h.config == config for h in held
                                if _same_origin(h.origin, origin)) else "redo"
    return "new"


def supersedes(old: Held, new: Held) -> bool:
    """Whether ``new`` (a record just written) replaces ``old`` (held for the same id): the
    same input's record, or the same text made with another configuration."""
    return _same_origin(old.origin, new.origin) or (old.text == new.text and old.config != new.config)
