"""Readers that answer from the gold annotation (tests/gold: dev and dev2), for the fake server.

:class:`PerfectReader` answers every request as a perfect reader would: the gold annotation
itself, in whatever schema the request asks (the hybrid job's candidate and number ids, or
the plain PaperExtraction request).  It maps gold onto the request's ids with its own code,
reading the listing as a model does (``@C1: text -> ...``, ``@N1: text | ...``), never with
``extract.hybrid``'s: the ceiling test (tests/test_ceiling.py) measures how much of a right
answer survives extract's request, validation, mapping and export.

:class:`WrongReader` is plausible but wrong: the same shapes and real names of the abstract,
with datasets and methods swapped, kinds turned around, claims tied to the wrong names.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fakescript import abstract_of, listing_of  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GOLD = ROOT / "tests" / "gold"
#: (abstracts file, gold file) of the labeled sets the readers know
SETS = {"dev": (ROOT / "seeds" / "000_810fdc4303f22573.txt", GOLD / "dev-gold.jsonl"),
        "dev2": (GOLD / "dev2" / "abstracts.jsonl", GOLD / "dev2" / "gold.jsonl"),
        "dev4": (GOLD / "dev4" / "abstracts.jsonl", GOLD / "dev4" / "gold.jsonl"),
        "dev5": (GOLD / "dev5" / "abstracts.jsonl", GOLD / "dev5" / "gold.jsonl"),
        "dev6": (GOLD / "dev6" / "abstracts.jsonl", GOLD / "dev6" / "gold.jsonl")}

_CAND = re.compile(r"^(@C\d+): (.*?)(?: -> \w+)?$", re.M)   # with the rules' label or (--proposal spans) without
_NUM = re.compile(r"^(@N\d+): (.*?) \| …", re.M)


def load_gold(name: str) -> list[dict]:
    return [json.loads(line) for line in SETS[name][1].read_text().splitlines() if line.strip()]


def _key(s: str) -> str:
    return " ".join(s.split()).lower()


def _num_key(s: str) -> str:
    return re.sub(r"[\s\\$]", "", s)


def _unit_words_after(listed: str, gold: str) -> bool:
    """``gold`` is the listed number followed by words ("12.0" and "12.0 F1 points")."""
    return gold.startswith(listed) and len(gold) > len(listed) and gold[len(listed)].isalpha()


class PerfectReader:
    """A responder (``FakeOpenAI(responder=...)``) answering from ``gold`` (list of gold objects)."""

    def __init__(self, gold: list[dict]):
        self.gold = gold
        self.unknown: list[str] = []       # abstracts it had no gold for (a test fails on any)

    def find(self, abstract: str) -> dict | None:
        head = " ".join(abstract.split())
        for g in self.gold:
            if head.startswith(" ".join(g["first_words"].split())):
                return g
        self.unknown.append(abstract[:60])
        return None

    def __call__(self, body: dict) -> dict:
        abstract = abstract_of(body)
        g = self.find(abstract)
        if g is None:
            return {"task": "unknown", "contribution": "method", "method_names": [], "datasets": [], "numbers": []}
        listing = listing_of(body)
        if listing is None:
            return self.plain(g)
        return self.hybrid(self.reading(g), listing)

    def reading(self, g: dict) -> dict:
        """What this reader says about the abstract (the gold itself)."""
        return g

    @staticmethod
    def plain(g: dict) -> dict:
        return {"task": g["task"], "contribution": g["contribution"], "method_names": list(g["method_names"]),
                "datasets": list(g["datasets"]),
                "numbers": [{k: n.get(k) for k in ("text", "value", "kind", "about", "metric", "dataset", "method",
                                                   "value_type", "compared_to") if k in n}
                            for n in g["numbers"]]}

    @staticmethod
    def hybrid(g: dict, listing: str) -> dict:
        cands = {cid: text for cid, text in _CAND.findall(listing)}
        by_text = {_key(t): cid for cid, t in cands.items()}
        methods = {_key(m) for m in g["method_names"]}
        datasets = {_key(d) for d in g["datasets"]}

        def label(text: str) -> str:
            k = _key(text)
            return ("both" if k in methods and k in datasets else "method" if k in methods
                    else "dataset" if k in datasets else "other")

        def ref(name):
            if name is None or name == "":
                return name
            return by_text.get(_key(name), name)

        nums = _NUM.findall(listing)
        free = list(range(len(nums)))
        decisions, more = {}, []
        for n in g["numbers"]:
            decision = {"kind": n["kind"], "metric": n.get("metric"), "dataset": ref(n.get("dataset")),
                        "method": ref(n.get("method"))}
            if "value_type" in n:       # the sets annotated for it (tests/gold/GUIDELINE.md)
                decision.update(value_type=n["value_type"], compared_to=ref(n.get("compared_to")))
            hit = next((i for i in free if _num_key(nums[i][1]) == _num_key(n["text"])), None)
            if hit is None:
                hit = next((i for i in free if _num_key(n["text"]) in _num_key(nums[i][1])), None)
            if hit is None:     # the listing's number without the unit words gold keeps ("12.0" of "12.0 F1 points")
                hit = next((i for i in free if _unit_words_after(_num_key(nums[i][1]), _num_key(n["text"]))), None)
            if hit is None:
                more.append({"text": n["text"], **decision})
                continue
            free.remove(hit)
            decisions[nums[hit][0]] = decision
        for i in free:
            decisions[nums[i][0]] = {"kind": "drop", "metric": None, "dataset": None, "method": None}
        listed = set(by_text)
        return {"task": g["task"], "contribution": g["contribution"],
                "names": {cid: label(t) for cid, t in cands.items()},
                "more_methods": [m for m in g["method_names"] if _key(m) not in listed],
                "more_datasets": [d for d in g["datasets"] if _key(d) not in listed],
                "numbers": decisions, "more_numbers": more}


class WrongReader(PerfectReader):
    """Right shapes, wrong reading: the abstract's methods called datasets and its datasets
    methods, every kind turned around, each claim tied to the other role's names."""

    def reading(self, g: dict) -> dict:
        flip = {"result": "setting", "setting": "result"}
        methods, datasets = list(g["method_names"]), list(g["datasets"])
        numbers = []
        for i, n in enumerate(g["numbers"]):
            numbers.append({**n, "kind": flip.get(n["kind"], n["kind"]),
                            "dataset": methods[i % len(methods)] if methods else None,
                            "method": datasets[i % len(datasets)] if datasets else None})
        return {**g, "method_names": datasets, "datasets": methods, "numbers": numbers}
