"""``--examples FILE``: few-shot examples shown to the model, each in the answer format of the
request it goes with.

A file is JSON Lines, one example per line: the abstract (``abstract`` or ``text``), an
optional ``title`` and ``id``, and the expected record, either inline in the gold format of
``tests/gold`` (``task``, ``contribution``, ``method_names``, ``datasets``, ``numbers`` with
``text``, ``value``, ``kind``, ``metric``, ``dataset``, ``method``) or under ``expected`` (the
same fields, or an ``extract run`` record, whose spans are read as their texts).  Every name
and number text of an example must be in its abstract: an example that is not grounded would
teach the model to invent.

Each example becomes a user turn (the request's own template, filled with the example's
abstract) and an assistant turn (the expected record as the request's answer): for the plain
request, the default schema's fields; for the hybrid job, the example's own numbered proposal
and the answer in its ids (``names`` labels per candidate id, ``numbers`` decisions per number
id, names as candidate ids where the rules found them).  The turns go between the system
message and the abstract's own turn, and their digest is part of the prompt digest (so of
every cache key).  Written by hand: no library renders a gold record into these two formats.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path

from .errors import UsageError

TEXT_KEYS = ("abstract", "text")
MAX_EXAMPLES = 20          # a few shots; more is a training set, and every request pays for them


def text_digest(text: str) -> str:
    """What a record's provenance keeps of each example (eval warns when gold is one)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


@dataclass(frozen=True)
class Example:
    id: str
    text: str
    title: str | None
    expected: dict          # gold format: task, contribution, method_names, datasets, numbers


def _name(v) -> str | None:
    if isinstance(v, dict):
        v = v.get("text")
    return v if isinstance(v, str) else None


def _expected(obj: dict) -> dict:
    src = obj.get("expected") if isinstance(obj.get("expected"), dict) else obj
    if isinstance(src.get("extraction"), dict):          # a record of `extract run`
        src = src["extraction"]
    numbers = []
    for n in src.get("numbers") or []:
        if not isinstance(n, dict) or _name(n) is None:
            continue
        method = n.get("method")
        numbers.append({"text": _name(n), "value": n.get("value"), "unit": n.get("unit"),
                        "kind": n.get("kind") or "result", "about": n.get("about") or "",
                        "metric": _name(n.get("metric")) or None, "dataset": _name(n.get("dataset")) or None,
                        "method": "" if method == "" else _name(method)})
    return {"task": src.get("task") or "", "contribution": src.get("contribution") or "method",
            "method_names": [x for x in map(_name, src.get("method_names") or []) if x],
            "datasets": [x for x in map(_name, src.get("datasets") or []) if x],
            "numbers": numbers}


def _check(ex: Example, where: str) -> None:
    e = ex.expected
    names = e["method_names"] + e["datasets"] + [n["text"] for n in e["numbers"]]
    names += [n[k] for n in e["numbers"] for k in ("metric", "dataset", "method") if n[k]]
    missing = [s for s in names if s not in ex.text]
    if missing:
        raise UsageError(f"--examples {where}: {missing[0]!r} is not in the example's abstract "
                         "(every name and number of an example is copied from it)")
    for n in e["numbers"]:
        v = n["value"]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise UsageError(f"--examples {where}: number {n['text']!r} has no numeric value")


def load_examples(path: str | Path) -> tuple[Example, ...]:
    """The examples of ``path``, checked; a one-line :class:`UsageError` for a bad file."""
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"--examples {path}: cannot read ({getattr(e, 'strerror', None) or e})") from None
    out = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}:{n}"
        try:
            obj = json.loads(line)
        except ValueError:
            raise UsageError(f"--examples {where}: not JSON") from None
        if not isinstance(obj, dict):
            raise UsageError(f"--examples {where}: not a JSON object")
        text = next((obj[k] for k in TEXT_KEYS if isinstance(obj.get(k), str) and obj[k].strip()), None)
        if text is None:
            raise UsageError(f"--examples {where}: no abstract (an 'abstract' or 'text' field; a gold "
                             "line holds only first_words: add the abstract)")
        title = obj.get("title") if isinstance(obj.get("title"), str) and obj["title"].strip() else None
        ex = Example(str(obj.get("id") or f"example#{n}"), text.strip(), title, _expected(obj))
        _check(ex, where)
        out.append(ex)
    if not out:
        raise UsageError(f"--examples {path}: no examples")
    if len(out) > MAX_EXAMPLES:
        raise UsageError(f"--examples {path}: {len(out)} examples; at most {MAX_EXAMPLES} "
                         "(each one is sent with every request)")
    return tuple(out)


# -- the answer formats ---------------------------------------------------------------------

def plain_answer(expected: dict) -> dict:
    """The default schema's answer (the plain request's format)."""
    return {"task": expected["task"], "contribution": expected["contribution"],
            "method_names": list(expected["method_names"]), "datasets": list(expected["datasets"]),
            "numbers": [{k: n[k] for k in ("text", "value", "unit", "kind", "about", "metric", "dataset", "method")}
                        for n in expected["numbers"]]}


def hybrid_answer(proposal, expected: dict) -> dict:
    """``expected`` in the hybrid answer format of ``proposal``: a label per candidate id, a
    decision per number id (``drop`` for a number the record does not keep), names as
    candidate ids where the rules found them."""
    from .hybrid.answer import MAX_MORE

    methods = {m.lower() for m in expected["method_names"]}
    datasets = {d.lower() for d in expected["datasets"]}
    ids = {c.text.lower(): k for k, c in proposal.names.items()}

    def label(text: str) -> str:
        t = text.lower()
        return "both" if t in methods and t in datasets else "method" if t in methods \
            else "dataset" if t in datasets else "other"

    def ref(name):
        return name if not name else ids.get(name.lower(), name)

    left = list(expected["numbers"])
    numbers = {}
    for k, cand in proposal.numbers.items():
        hit = next((e for e in left if e["text"].strip() == cand.text.strip()), None) or next(
            (e for e in left if isinstance(e["value"], (int, float))
             and math.isclose(e["value"], cand.value, rel_tol=1e-6, abs_tol=1e-9)), None)
        if hit is None:
            numbers[k] = {"kind": "drop", "metric": None, "dataset": None, "method": None}
            continue
        left.remove(hit)
        numbers[k] = {"kind": hit.get("kind") or "result", "metric": hit.get("metric") or None,
                      "dataset": ref(hit.get("dataset")), "method": ref(hit.get("method"))}
    return {"task": expected["task"], "contribution": expected["contribution"],
            "names": {k: label(c.text) for k, c in proposal.names.items()},
            "more_methods": [m for m in expected["method_names"] if m.lower() not in ids][:MAX_MORE],
            "more_datasets": [d for d in expected["datasets"] if d.lower() not in ids][:MAX_MORE],
            "numbers": numbers}


def turns(examples, prompt, hybrid_job: bool, reading: bool = True) -> tuple[dict, ...]:
    """The few-shot turns for a request rendered from ``prompt`` (user, assistant, ...);
    ``reading``: the hybrid proposal shows the rules' reading (``--proposal``)."""
    from . import hybrid

    out: list[dict] = []
    for ex in examples:
        if hybrid_job:
            proposal = hybrid.propose(ex.text, ex.title)
            user = hybrid.render_messages(prompt, proposal, reading)[-1]
            answer = hybrid_answer(proposal, ex.expected)
        else:
            user = prompt.render(ex.text, ex.title)[-1]
            answer = plain_answer(ex.expected)
        out += [dict(user), {"role": "assistant", "content": json.dumps(answer, ensure_ascii=False)}]
    return tuple(out)


def with_turns(messages: tuple[dict, ...], shots: tuple[dict, ...]) -> tuple[dict, ...]:
    """``messages`` with the few-shot turns after the system message."""
    if not shots:
        return messages
    head = 1 if messages and messages[0].get("role") == "system" else 0
    return tuple(messages[:head]) + shots + tuple(messages[head:])


def digest(shots: tuple[dict, ...]) -> str:
    return hashlib.sha256(json.dumps(shots, ensure_ascii=False, sort_keys=True).encode("utf-8")).hexdigest()
