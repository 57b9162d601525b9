"""``extract run ... --dry-run``: what a run would send and what it would cost, sending nothing.

The input and the cache are read as a run reads them (entries already in ``-o``, cached
answers and abstracts over ``--max-chars`` send nothing); every other abstract is one
request, built exactly as the run builds it (the hybrid proposal, the few-shot examples),
and nothing is written.  Tokens are estimated, not counted (no tokenizer is shipped for every
model): prompt tokens as the characters of the messages and of the answer schema sent with
them, at 4 characters a token; completion tokens as the mean of the cached answers read
(their recorded usage), else as the rules' own answer written in the request's answer format
(a model that agrees with the rules writes about that much), each at most ``--max-tokens``.
Re-asks are not counted: an estimate of a first pass.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .errors import RecordError
from .inputs import Item, Problem
from .resume import OutputIndex

CHARS_PER_TOKEN = 4


@dataclass
class Estimate:
    requests: int = 0
    cached: int = 0
    done: int = 0                 # already in -o: a rerun resumes past them
    rejected: int = 0             # over --max-chars: never sent
    problems: int = 0             # input problems (and entries without an abstract)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    completion_max: int = 0       # requests x --max-tokens
    completion_basis: str = ""
    price: dict | None = field(default=None)

    def as_dict(self) -> dict:
        return asdict(self)


def _done(out: Path | None, config: dict | None):
    """The records ``out`` holds (:class:`~extract.resume.OutputIndex`, the same identity
    rules as a run), read only: no repair, nothing is written."""
    index = OutputIndex(config)
    return index.scan(out) if out is not None and out.is_file() else index


def _tokens(chars: int) -> int:
    return math.ceil(chars / CHARS_PER_TOKEN)


def _rules_answer(extractor, request) -> str:
    """The rules' reading of the abstract as the request's answer (the completion estimate)."""
    from .examples import hybrid_answer, plain_answer
    if request.proposal is not None:
        p = request.proposal
        expected = {**p.rules, "numbers": [{**n, "text": c.text, "value": c.value}
                                           for n, c in zip(p.rules.get("numbers") or [], p.numbers.values())]}
        return json.dumps(hybrid_answer(p, expected), ensure_ascii=False)
    from .decision import decide
    fields = decide(request.job.text, title=request.job.title)
    return json.dumps(plain_answer({**fields, "numbers": [{"unit": None, "about": "", "metric": None,
                                                          "dataset": None, "method": None, **n}
                                                         for n in fields.get("numbers") or []]}),
                      ensure_ascii=False)


def estimate(extractor, entries, out: Path | None, limit: int | None = None,
             price: tuple[float, float] | None = None) -> Estimate:
    """The requests a run of ``entries`` would send, with estimated tokens (module docstring)."""
    cfg, est = extractor.config, Estimate()
    done = _done(out, getattr(extractor, "identity", None))
    cached_completion: list[int] = []
    rules_completion = 0
    schema_chars: dict[int, int] = {}
    for entry in entries:
        if isinstance(entry, Problem):
            est.problems += 1
            continue
        if not isinstance(entry, Item):
            continue
        if done.state(entry.id, entry.text, entry.source) == "done":
            est.done += 1
            continue
        if limit is not None and est.requests + est.cached + est.rejected >= limit:
            break
        try:
            hit = extractor.from_cache(entry)
        except RecordError:        # over --max-chars: never sent
            est.rejected += 1
            continue
        if hit is not None:
            est.cached += 1
            used = (hit[0].get("provenance") or {}).get("usage") or {}
            if used.get("completion_tokens"):
                cached_completion.append(int(used["completion_tokens"]))
            continue
        request = extractor.request(entry)
        model = request.job.response_model
        if id(model) not in schema_chars or request.proposal is not None:
            schema_chars[id(model)] = len(json.dumps(model.model_json_schema(), ensure_ascii=False))
        chars = sum(len(str(m.get("content", ""))) for m in request.job.messages) + schema_chars[id(model)]
        est.requests += 1
        est.prompt_tokens += _tokens(chars)
        rules_completion += min(cfg.max_tokens, _tokens(len(_rules_answer(extractor, request))))
    est.completion_max = est.requests * cfg.max_tokens
    if cached_completion:
        mean = sum(cached_completion) / len(cached_completion)
        est.completion_tokens = round(min(cfg.max_tokens, mean) * est.requests)
        est.completion_basis = f"the mean of {len(cached_completion)} cached answers"
    else:
        est.completion_tokens = rules_completion
        est.completion_basis = "the rules' answer in the request's format"
    if price is not None:
        pin, pout = price
        est.price = {"usd_per_million": {"prompt": pin, "completion": pout},
                     "estimate": round((est.prompt_tokens * pin + est.completion_tokens * pout) / 1e6, 4),
                     "at_most": round((est.prompt_tokens * pin + est.completion_max * pout) / 1e6, 4)}
    return est


def describe(est: Estimate, model_run: bool) -> str:
    """The estimate in a few lines (stdout of ``--dry-run``)."""
    if not model_run:
        return ("dry run: the rules backend sends no request (no model, no cost); "
                f"{est.requests + est.cached:,} abstracts would be extracted, {est.done:,} already done\n")
    lines = [f"dry run: {est.requests:,} requests would be sent ({est.cached:,} answers cached, "
             f"{est.done:,} already in the output, {est.rejected:,} over --max-chars, "
             f"{est.problems:,} input problems); nothing was sent",
             f"prompt tokens, estimated: {est.prompt_tokens:,} (4 characters a token, the answer schema included)",
             f"completion tokens, estimated: {est.completion_tokens:,} (from {est.completion_basis}); "
             f"at most {est.completion_max:,} (--max-tokens each)"]
    if est.price is not None:
        lines.append(f"price, estimated: ${est.price['estimate']:,.4f} (at most ${est.price['at_most']:,.4f}) "
                     f"at ${est.price['usd_per_million']['prompt']:g} / ${est.price['usd_per_million']['completion']:g} "
                     "per million prompt / completion tokens; re-asks not counted")
    return "\n".join(lines) + "\n"
