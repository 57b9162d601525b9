"""The hybrid extractor: rules propose, the model decides.

One design for every capable model, remote (any OpenAI-compatible endpoint, through
instructor) or in-process (``--backend local --model PATH.gguf``, a llama.cpp grammar):

1. :mod:`.proposal` - the rule layer's numbered proposal for one abstract: every number
   (``N1``...: text, offsets, normalized value, unit, a context snippet) and the name
   candidates (``C1``...: text and the rules' hint), rendered after the title and abstract;
2. :mod:`.answer` - the per-abstract response model (``pydantic.create_model``): task,
   contribution, methods and datasets (candidate ids or verbatim spans, aligned afterwards)
   and one decision per number id.  The number ids are the only keys the schema admits, so
   an endpoint that enforces schemas (OpenAI structured outputs, vLLM guided decoding,
   llama.cpp grammars) cannot return a number that is not in the abstract;
3. :mod:`.mapping` - the answer mapped back onto the default schema's fields: texts, values
   and units always come from the rules, the model only decides.

The core (:mod:`extract.pipeline`) builds the hybrid job for the default schema; backends
see an ordinary :class:`~extract.backends.base.Job` with a response model.
"""

from __future__ import annotations

from .answer import answer_model
from .mapping import Combine, Mapped, decide_fields, policy, to_fields
from .proposal import HYBRID_VERSION, Proposal, propose, render_messages

__all__ = ["Combine", "Mapped", "decide_fields", "policy", "HYBRID_VERSION", "Proposal", "answer_model", "propose", "render_messages", "to_fields"]

import json
from functools import lru_cache
from pydantic import BaseModel

from ..errors import UsageError
from ..digest import files_digest, package_files, sha256
from ..schema_loader import contributions, is_default_schema

#: The prompt the hybrid job is rendered from (``prompts/hybrid.*``); ``--prompt hybrid`` asks
#: for the hybrid design on any backend.
PROMPT = "hybrid"
#: The hybrid job's template with ``--proposal spans`` (no rules' reading shown).
SPANS_PROMPT = "hybrid-spans"
#: The plain single-shot prompt (one PaperExtraction request): ``--prompt extract``.
DEFAULT_PROMPT = "extract"
#: The default (``RunConfig.prompt``): the hybrid job where it applies, else the plain prompt.
AUTO = "auto"


def applies(schema: type[BaseModel], prompt: str, backend_capable: bool) -> bool:
    """Whether a run asks the hybrid job: the default schema (or a subclass), and either
    ``--prompt hybrid``, or ``--prompt auto`` (the default) on a backend that declares a
    capable model (``Backend.hybrid``: any OpenAI-compatible endpoint, ``--model PATH.gguf``).
    ``--prompt extract`` (or any other template) is the plain single-shot request."""
    if not is_default_schema(schema):
        return False
    return prompt == PROMPT or (prompt == AUTO and bool(backend_capable))


def prompt_name(prompt: str, hybrid_job: bool, proposal: str = "reading") -> str:
    """The template a run renders: ``hybrid`` for the hybrid job (``hybrid-spans`` with
    ``--proposal spans``: the instructions say nothing of a reading to copy), ``extract``
    for ``auto`` otherwise (the generic one with a custom schema, see
    :func:`extract.prompting.prompt_for`)."""
    if prompt == SPANS_PROMPT:
        raise UsageError(f"--prompt {SPANS_PROMPT} is the hybrid job's template of --proposal spans: "
                         "give --proposal spans")
    if hybrid_job:
        return SPANS_PROMPT if proposal == "spans" else PROMPT
    return DEFAULT_PROMPT if prompt == AUTO else prompt


#: the modules that shape what the model is asked; the mapping (mapping.py, checks.py) only
#: shapes the record made of its answer, which the cache re-makes from the raw answer
_REQUEST_SIDE = ("__init__.py", "answer.py", "proposal.py")


@lru_cache(maxsize=1)
def code_digest() -> str:
    """SHA-256 of the rule layer, the rules' decision (the proposal shows it) and the
    request side of this package: changing a rule or the request changes the cache keys of
    hybrid answers by itself."""
    from pathlib import Path

    from .. import candidates, decision, text

    here = Path(__file__).parent
    files = package_files(candidates, text) + [Path(decision.__file__)] + [here / f for f in _REQUEST_SIDE]
    return sha256(HYBRID_VERSION + ":" + files_digest(files))


@lru_cache(maxsize=1)
def mapping_digest() -> str:
    """SHA-256 of the mapping code (mapping.py, checks.py): part of a cached record's tag,
    so a change re-maps the cached raw answers (never re-asks)."""
    from pathlib import Path

    here = Path(__file__).parent
    return sha256(files_digest(sorted(p for p in here.glob("*.py") if p.name not in _REQUEST_SIDE)))


def prompt_digest(prompt_sha: str, combine: "Combine | None" = None) -> str:
    """The ``prompt_sha`` of a hybrid run: the template's digest plus the code's, plus the
    policy the answer is mapped with when it is not the default (provenance: the record is
    the mapped one).  The cache key leaves the policy out (``prompt_digest(sha)``): the raw
    answer is cached, so applying another policy never asks the model again."""
    extra = "" if combine is None or combine == Combine() else ":" + policy_digest(combine)
    return sha256(f"{prompt_sha}:{code_digest()}{extra}")


def policy_digest(combine: "Combine") -> str:
    """A short digest of a policy's fields (provenance, and the cached mapped record's tag)."""
    return sha256(json.dumps(combine.as_dict(), sort_keys=True))[:16]


def record_tag(combine: "Combine") -> str:
    """What a cached mapped record was made with: the policy and the mapping code."""
    return policy_digest(combine) + ":" + mapping_digest()[:16]


__all__ += ["mapping_digest", "policy_digest", "record_tag", "AUTO", "PROMPT", "SPANS_PROMPT", "DEFAULT_PROMPT", "applies", "prompt_name", "code_digest", "contributions", "prompt_digest"]
