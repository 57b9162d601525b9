"""What the fake server (tests/fakeserver.py) answers: the stand-in model and fault plans.

:func:`answer_for` is the default responder: a request of the hybrid extractor (rules
propose numbered candidates, the model decides) gets a hybrid answer that follows the rules'
hints (:func:`hybrid_answer`); any other request a PaperExtraction-shaped answer derived
from the abstract (:func:`heuristic_answer`).  :class:`FaultPlan` injects faults
deterministically.  :func:`hybrid_payload` scripts a hybrid answer in a test.
"""

from __future__ import annotations

import hashlib
import re
import threading

#: where the rules' numbered proposal starts (extract/hybrid): with the rules' reading, or
#: (``--proposal spans``) the candidates alone
_LISTINGS = ("\n\nRules' task:", "\n\nName candidates (id: text):")


def _listing_start(content: str) -> str | None:
    return next((x for x in _LISTINGS if x in content), None)


def _own_user_message(body: dict, marker: str):
    """The request's own user message: the last one holding ``marker`` (few-shot examples come
    before it, re-ask messages after it hold no abstract), else the first user message."""
    users = [m for m in body.get("messages", []) if m.get("role") == "user"]
    marked = [m for m in users if marker in str(m.get("content") or "")]
    return marked[-1] if marked else (users[0] if users else None)


def abstract_of(body: dict) -> str:
    """The abstract inside the request's own user message (see :func:`_own_user_message`)."""
    m = _own_user_message(body, "Abstract:")
    if m is None:
        return ""
    content = m.get("content") or ""
    if isinstance(content, list):
        content = " ".join(p.get("text", "") for p in content if isinstance(p, dict))
    content = content.split("Abstract:\n", 1)[-1]
    start = _listing_start(content)
    return content.split(start, 1)[0] if start else content


def listing_of(body: dict) -> str | None:
    """The numbered candidates of a hybrid request (``extract/hybrid``), or None."""
    users = [m for m in body.get("messages", []) if m.get("role") == "user"]
    marked = [m for m in users if _listing_start(str(m.get("content") or ""))]
    if marked:
        content = str(marked[-1]["content"])
        start = _listing_start(content)
        return start + content.split(start, 1)[1]
    return None


_CAMEL = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z0-9]*)+\b")
_PCT = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)%")


def heuristic_answer(abstract: str) -> dict:
    """A deterministic, grounded answer derived from the abstract (a stand-in model)."""
    words = abstract.split()
    names = list(dict.fromkeys(_CAMEL.findall(abstract)))[:2]
    numbers = [{"text": m.group(0), "value": float(m.group(1)), "unit": "%", "kind": "result",
                "about": "reported share"} for m in _PCT.finditer(abstract)][:4]
    return {"task": " ".join(words[:6]) or "unknown task", "contribution": "method",
            "method_names": names, "datasets": [], "numbers": numbers}


class FaultPlan:
    """A deterministic fault mode: use as ``server.fault = FaultPlan(rate=0.3)``.

    A share ``rate`` of abstracts (chosen by a hash of the text) meet one or two faults on
    their first calls, the kind chosen by the hash too; later calls are answered.  Kinds:
    ``429`` (with Retry-After), ``500``, ``timeout`` (the answer held until the client hangs
    up, at most ``delay`` seconds: set the client's timeout below it), ``reset`` (connection
    dropped) and ``nonjson`` (a completion whose content is not JSON: a re-ask, not a
    retry).  ``seen`` counts the faults injected per kind.
    """

    KINDS = ("429", "500", "timeout", "reset", "nonjson")

    def __init__(self, rate: float = 0.3, kinds: tuple[str, ...] = KINDS, delay: float = 1.0,
                 retry_after: str = "1"):
        self.rate, self.kinds, self.delay, self.retry_after = rate, kinds, delay, retry_after
        self.calls: dict[str, int] = {}
        self.seen: dict[str, int] = {k: 0 for k in kinds}
        self._lock = threading.Lock()

    def action(self, kind: str) -> dict:
        return {"429": {"status": 429, "headers": {"Retry-After": self.retry_after}},
                "500": {"status": 500}, "timeout": {"delay": self.delay}, "reset": {"reset": True},
                "nonjson": {"raw": "{this is not json"}}[kind]

    def schedule(self, abstract: str) -> list[str]:
        h = int.from_bytes(hashlib.sha256(abstract.encode("utf-8", "replace")).digest()[:8], "big")
        if (h % 10_000) / 10_000 >= self.rate:
            return []
        first = self.kinds[(h >> 16) % len(self.kinds)]
        if (h >> 32) % 4 == 0:
            return [first, self.kinds[(h >> 40) % len(self.kinds)]]
        return [first]

    def __call__(self, body: dict, n: int) -> dict | None:
        abstract = abstract_of(body)
        with self._lock:
            k = self.calls.get(abstract, 0)
            self.calls[abstract] = k + 1
            plan = self.schedule(abstract)
            if k < len(plan):
                self.seen[plan[k]] += 1
                return self.action(plan[k])
        return None


_NAME = re.compile(r"^(@C\d+): .* -> (method|dataset|both|other)$", re.M)
_NUMBER = re.compile(r"^(@N\d+): .* -> (result|setting);", re.M)
_LABELS = {"method": "method", "dataset": "dataset", "both": "both"}


def hybrid_payload(task: str = "a task of three words", contribution: str = "method",
                   names: dict | None = None, numbers: dict | None = None,
                   more_methods=(), more_datasets=(), more_numbers=()) -> dict:
    """A hybrid answer (``extract.hybrid.answer``): ``numbers`` maps an id to a kind or to a
    full decision (``{"kind", "metric", "dataset", "method"}``)."""
    decisions = {}
    for nid, d in (numbers or {}).items():
        d = {"kind": d} if isinstance(d, str) else d
        decisions[nid] = {"kind": "result", "metric": None, "dataset": None, "method": None, **d}
    return {"task": task, "contribution": contribution, "names": dict(names or {}),
            "more_methods": list(more_methods), "more_datasets": list(more_datasets),
            "numbers": decisions, "more_numbers": list(more_numbers)}


def hybrid_answer(abstract: str, listing: str) -> dict:
    """A stand-in model's hybrid answer: every candidate labelled as the rules read it, every
    number kept with the rules' kind."""
    return hybrid_payload(
        task=" ".join(abstract.split()[:6]) or "unknown task",
        names={cid: _LABELS.get(hint, "other") for cid, hint in _NAME.findall(listing)},
        numbers={nid: hint if hint in ("result", "setting") else "result"
                 for nid, hint in _NUMBER.findall(listing)})


def answer_for(body: dict) -> dict:
    """The default responder: a hybrid answer to a hybrid request, else a plain one."""
    listing = listing_of(body)
    if listing is not None:
        return hybrid_answer(abstract_of(body), listing)
    return heuristic_answer(abstract_of(body))
