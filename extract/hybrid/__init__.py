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
from .mapping import Combine, to_fields
from .proposal import HYBRID_VERSION, Proposal, propose, render_messages

__all__ = ["Combine", "HYBRID_VERSION", "Proposal", "answer_model", "propose", "render_messages", "to_fields"]

from functools import lru_cache
from pydantic import BaseModel

from ..digest import files_digest, package_files, sha256
from ..schema_loader import contributions, is_default_schema

#: The prompt the hybrid job is rendered from (``prompts/hybrid.*``), used when the run keeps
#: the default prompt; ``--prompt hybrid`` asks for the hybrid design on any backend.
PROMPT = "hybrid"
DEFAULT_PROMPT = "extract"


def applies(schema: type[BaseModel], prompt: str, backend_prefers: bool) -> bool:
    """Whether a run asks the hybrid job: the default schema (or a subclass), and either
    ``--prompt hybrid`` or the default prompt on a backend with a capable model."""
    if not is_default_schema(schema):
        return False
    return prompt == PROMPT or (prompt == DEFAULT_PROMPT and bool(backend_prefers))


@lru_cache(maxsize=1)
def code_digest() -> str:
    """SHA-256 of the rule layer and this package: changing a rule or the mapping changes
    the cache keys of hybrid answers by itself."""
    import sys

    from .. import candidates, text

    return sha256(HYBRID_VERSION + ":" + files_digest(package_files(candidates, text, sys.modules[__name__])))


def prompt_digest(prompt_sha: str) -> str:
    """The ``prompt_sha`` of a hybrid run: the template's digest plus the code's."""
    return sha256(f"{prompt_sha}:{code_digest()}")


__all__ += ["PROMPT", "DEFAULT_PROMPT", "applies", "code_digest", "contributions", "prompt_digest"]
