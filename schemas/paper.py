"""The default schema: what a research abstract claims, grounded in its text."""

from __future__ import annotations

import math
import re
from typing import Literal

from pydantic import BaseModel, Field, ValidationInfo, field_validator, model_validator
from pydantic.json_schema import SkipJsonSchema

from extract.text import parse_number_at
from extract.grounding import Aligner, Span, unwrap

Contribution = Literal["method", "benchmark", "dataset", "analysis", "theory", "system"]
MAX_ITEMS = 16


class NumberMention(BaseModel):
    """A number written with digits in the abstract."""

    text: str = Field(description="the exact substring carrying the number with its unit or sign, "
                                  "e.g. '11.25%', '$\\sim650\\times$', '85,229', '80B'")
    value: float = Field(description="the plain number: 85229 for '85,229', 11.25 for '11.25%', "
                                     "80000000000 for '80B' (the export recomputes it from the text)")
    unit: str | None = Field(default=None, description="'%', '×', 'k', 'B', 'ms', ... or null")
    kind: Literal["result", "setting"] = Field(
        description="result = a claimed outcome (accuracy, gain, speedup, error); "
                    "setting = scale or configuration (dataset size, parameters, dimension)")
    about: str = Field(default="", description="what the number quantifies, a few words")
    metric: str | None = Field(
        default=None,
        description="what the number measures, copied from the abstract ('top-1 accuracy', 'AUPR', "
                    "'success rate', 'speedup', 'parameters'); null when the abstract does not say")
    dataset: str | None = Field(
        default=None,
        description="the dataset/benchmark the number is reported on or describes, exactly as one of "
                    "`datasets`; null when tied to no single named dataset ('on A and B', averages "
                    "across benchmarks) and for data a system was only trained on")
    method: str | None = Field(
        default=None,
        description="the system the number belongs to: one of `method_names` or a named baseline "
                    "the abstract compares ('GPT-4o'), verbatim; '' for the paper's own unnamed "
                    "approach; null when it describes no system (dataset sizes, counts, unnamed "
                    "baselines, humans). In 'X improves GPT-4o's success rate from 31.2% to 58.7%', "
                    "31.2% is GPT-4o's and 58.7% is X's; a gain ('by 12 points') is the gainer's")
    value_type: Literal["absolute", "change"] = Field(
        default="absolute",
        description="change = a difference or ratio to a reference value ('improves accuracy by 9.2%', "
                    "'+5.3%', '40% fewer FLOPs', '2.5x faster', 'an accuracy drop of 18%'); absolute = a "
                    "value as measured ('91.2% accuracy', both ends of 'from 31.2% to 58.7%')")
    compared_to: str | None = Field(
        default=None,
        description="for a change, the named system its reference value belongs to, verbatim "
                    "('outperforms PromptRank by 9.43%' -> 'PromptRank', '+8.26% over OFA' -> 'OFA'); "
                    "null when unnamed ('over the baseline') and for absolute values")
    rules_agree: bool | None = Field(
        default=None,
        description="filled by extract, not asked of a model: whether the rule layer's reading of "
                    "this number (kind, dataset, method) and the model's agree; null when only one read it")
    #: filled by extract, never asked of a model (not in the JSON schema): where the rule layer
    #: found this number in the abstract.  The export aligns the number there when its text is
    #: there, so a text that occurs more than once ("0", "2") keeps its own occurrence.
    at: SkipJsonSchema[int | None] = None


class PaperExtraction(BaseModel):
    """Task, contribution, named methods and datasets, and claimed numbers of one abstract.
    Every name and number text must be copied verbatim from the abstract."""

    task: str = Field(description="the research problem the paper addresses, a short noun phrase "
                                  "(3-12 words; more than 20 is rejected)")
    contribution: Contribution = Field(
        description="method = new model/algorithm; benchmark = new evaluation suite; dataset = new "
                    "corpus; analysis = empirical study; theory = proofs/bounds; system = software tool")
    method_names: list[str] = Field(
        default_factory=list,
        description="names of methods, models or artifacts the paper itself introduces, verbatim; "
                    "long form and acronym as separate entries; [] if none")
    datasets: list[str] = Field(
        default_factory=list,
        description="named datasets, benchmarks, corpora or environments mentioned, verbatim; "
                    "no generic descriptions and no model names")
    numbers: list[NumberMention] = Field(
        default_factory=list,
        description="every number written with digits that states a quantity; not digits inside "
                    "names such as GPT-4, Llama3-8B or NeurIPS 2026")

    @field_validator("task")
    @classmethod
    def _short_task(cls, v: str) -> str:
        v = " ".join(v.split())
        if len(v.split()) > 20:
            raise ValueError("task must be a short noun phrase (3-12 words, never more than 20), "
                             "not a copy of the abstract")
        return v

    @field_validator("method_names", "datasets")
    @classmethod
    def _dedupe(cls, v: list[str]) -> list[str]:
        seen, out = set(), []
        for s in v:
            s = unwrap(s)
            if s and s.lower() not in seen:
                seen.add(s.lower())
                out.append(s)
        return out[:MAX_ITEMS]

    @field_validator("numbers")
    @classmethod
    def _dedupe_numbers(cls, v: list[NumberMention]) -> list[NumberMention]:
        seen, out = set(), []
        for n in v:
            key = (n.text.strip(), n.value, n.at)    # two occurrences the rules found are two numbers
            if key not in seen:
                seen.add(key)
                out.append(n)
        return out[: MAX_ITEMS * 2]

    @model_validator(mode="after")
    def _grounded(self, info: ValidationInfo) -> "PaperExtraction":
        """With the source in the validation context, reject strings it does not contain,
        so instructor re-asks; on the last attempt (context['lenient']) let them through
        to be dropped and counted by :meth:`export`."""
        ctx = info.context or {}
        source = ctx.get("source")
        if source is None or ctx.get("lenient") or ctx.get("attempt", 0) >= ctx.get("last_attempt", 10**9):
            return self
        _, missing = self.export(source)
        if missing:
            listed = "; ".join(repr(m) for m in missing[:8])
            raise ValueError(
                f"these strings do not occur in the abstract: {listed}. "
                "Copy names and number texts exactly as written in the abstract, or leave them out.")
        return self

    def export(self, source: str) -> tuple[dict, list[str]]:
        """The record's ``extraction``: every span aligned to ``source``; strings that are
        not in it are left out and returned as the second item.

        Claim fields of each number: ``metric`` is the occurrence of the phrase nearest the
        number; ``dataset`` is the record's own ``datasets`` span of that name, and null when
        the name is not one of the record's datasets (the guideline writes it as one of
        them); ``method`` is the record's ``method_names`` span of that name, else the
        occurrence of the named system nearest the number (a compared baseline), ``""`` for
        the paper's own unnamed approach, null for no system; ``value_type`` as given and
        ``compared_to`` (a change's named reference, aligned like a compared ``method``) null for
        an absolute value or when it names the number's own method.  A value that does not fit a
        64-bit float ("1e999") is exported as null with a ``value_note``."""
        aligner, dropped = Aligner(source), []

        def spans(names: list[str]) -> list[dict]:
            out, taken = [], set()
            for name in names:
                span = aligner.align(name, unwrap_name=True, taken=frozenset(taken))
                if span is None:
                    dropped.append(name)
                elif (span.start, span.end) not in taken:
                    taken.add((span.start, span.end))
                    out.append(span.as_dict())
            return out

        methods = spans(self.method_names)
        # a model's explicit dataset label stands, whatever its shape (ImageNet-1K, ADE20K):
        # "a model name is never a dataset" is a rule of the rules' own decision (extract.decision)
        datasets = spans(self.datasets)

        def listed(name: str | None, pool: list[dict]) -> dict | None:
            """The record's own span for ``name`` (case and wrappers ignored), else None."""
            if not name:
                return None
            key = " ".join(unwrap(name).split()).lower()
            return next((dict(d) for d in pool if " ".join(d["text"].split()).lower() == key), None)

        def near(name: str | None, pos: int) -> dict | None:
            """The occurrence of ``name`` nearest ``pos``; None (and dropped) when absent."""
            if not name or not name.strip():
                return None
            span = aligner.align(name, unwrap_name=True)
            if span is None:
                dropped.append(name)
                return None
            hits = [m.start() for m in re.finditer(re.escape(span.text), source)
                    if not (m.start() > 0 and source[m.start() - 1].isalnum() and span.text[0].isalnum())]
            start = min(hits or [span.start], key=lambda s: abs(s - pos))
            return {"text": span.text, "start": start, "end": start + len(span.text), "status": span.status}

        numbers, taken = [], set()
        for n in self.numbers:
            span = _at(source, n) if n.at is not None and (n.at, n.at + len(n.text.strip())) not in taken else None
            span = span or aligner.align(n.text, taken=frozenset(taken))
            if span is None:
                dropped.append(n.text)
                continue
            if (span.start, span.end) in taken:
                continue
            parsed = parse_number_at(source, span.start, span.end)   # a range's first endpoint: the unit after the second
            if parsed is None:          # no digits: not a number the guideline counts
                dropped.append(n.text)
                continue
            taken.add((span.start, span.end))
            value, unit = parsed        # normalized from the text, not trusted from the model
            if n.method is None or n.method.strip() == "":
                method = n.method if n.method is None else ""
            else:
                method = listed(n.method, methods) or near(n.method, span.start)
            compared = None
            if n.value_type == "change" and n.compared_to and n.compared_to.strip():
                compared = listed(n.compared_to, methods) or near(n.compared_to, span.start)
                if compared and isinstance(method, dict) and compared["text"].lower() == method["text"].lower():
                    compared = None     # a change is never measured against its own system
            entry = {"text": span.text, "value": value, "unit": unit, "kind": n.kind,
                     "about": n.about, "start": span.start, "end": span.end,
                     "status": span.status,
                     "metric": near(n.metric, span.start),
                     "dataset": listed(n.dataset, datasets),
                     "method": method, "value_type": n.value_type, "compared_to": compared}
            if n.rules_agree is not None:
                entry["rules_agree"] = n.rules_agree
            if not math.isfinite(value):    # strict JSON has no Infinity
                entry["value"], entry["value_note"] = None, "does not fit a 64-bit float"
            numbers.append(entry)
        numbers.sort(key=lambda d: d["start"])
        extraction = {
            "task": self.task,
            "contribution": self.contribution,
            "method_names": methods,
            "datasets": datasets,
            "numbers": numbers,
        }
        return extraction, dropped


def _at(source: str, n: NumberMention) -> Span | None:
    """The span of ``n`` at the offset the rules found it, when its text is there."""
    text = n.text.strip()
    return Span(text, n.at, n.at + len(text)) if text and source.startswith(text, n.at) else None
