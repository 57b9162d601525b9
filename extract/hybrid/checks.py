"""How the default (``--decide auto``) tells a reading it can trust from one it cannot.

The default lets the model decide, abstract by abstract, unless the model's answer
contradicts what the abstract plainly says; then the rules decide that abstract (every
field), so a weak or careless model can never do worse than the rules alone on it.  The
checks use the text and the rules' reading only, never the model's name:

* **roles** - a candidate the rules read as a method the model calls a dataset (or the
  reverse).  A reader of the text may add or leave out a name the rules were unsure of; it
  does not swap what a name is ("we propose X" against "on the X benchmark");
* **kinds** - the model turns more than half of the rules' result/setting readings around
  (the only one, in an abstract with one number): a reader of the text disagrees on a few;
* **generic datasets** (per name) - a dataset is a named one (the guideline: "no generic
  descriptions"): a lower-case phrase of several words without a digit ("real-world
  datasets") that the model calls a dataset and the rules do not stays out;
* **claims** (per number, not the whole abstract) - the dataset or system a model ties a
  number to must be written in the number's own sentence, or be the rules' reading; else
  the rules' reading of that number stands; where the model names no dataset (or system)
  and the rules read one written in that sentence, the rules' name stands.  A name from another sentence is where a small
  model's claims go wrong (measured: ``bench/hybrid.py score``);
* **no answer** (per number) - a null dataset or system, or a dataset that is a phrase the
  record does not list ("54 existing datasets"), is no answer: where the rules' reading the
  model was shown names a dataset for that number, wherever in the abstract it is written, that
  name stands (a name the claims rules find only after the model's own labels was never shown,
  so a model's null there is its answer); the
  paper's own unnamed approach (``""``) stands only where the model named no system for any
  number (:func:`silent_fields`).  Measured on dev2 with Qwen2.5-Coder-1.5B: it leaves claims
  null where the rules attach the dataset and method named in the sentence before.

* **one reading copied across a sentence** (per number) - where the model gives two numbers
  of one sentence the same dataset and system and the rules' reading tells those numbers
  apart ("2.68% and 16.67% on A and B, respectively"; "91% (against 73% for the baseline)"),
  the rules' reading of those numbers stands: a reader of the text tells apart what the
  sentence does (:func:`copied_readings`).  Measured on dev2 with Qwen2.5-Coder-1.5B: it
  ties every number of such a sentence to one dataset and to the paper's own method.

Each check is a plain function of (proposal, answer), so ``extract calibrate`` and the
README's figures measure exactly what a run does.
"""

from __future__ import annotations

import re

from ..text import sentence_at, sentence_bounds
from .proposal import Proposal

#: the roles the rules and the model give a name; "both" and "other" never count as a swap
_ROLES = {"method": "method", "dataset": "dataset"}


def role_swaps(proposal: Proposal, labels: dict[str, str]) -> list[str]:
    """Candidates the rules read as one role and the model as the other."""
    out = []
    for key in proposal.names:
        rules, model = _ROLES.get(proposal.rules_label(key)), _ROLES.get(labels.get(key, "other"))
        if rules and model and rules != model:
            out.append(proposal.names[key].text)
    return out


def kind_flips(proposal: Proposal, answer) -> tuple[int, int]:
    """(numbers whose kind the model turned around, numbers the model gave a kind)."""
    ruled = proposal.rules_numbers()
    flips = given = 0
    for key in proposal.numbers:
        d = getattr(answer.numbers, key, None)
        if d is None or d.kind not in ("result", "setting"):
            continue
        given += 1
        flips += d.kind != (ruled.get(key, {}).get("kind") or "result")
    return flips, given


def contradictions(proposal: Proposal, answer, labels: dict[str, str]) -> list[str]:
    """Why the model's reading of this abstract is not trusted (empty: it is)."""
    out = []
    swaps = role_swaps(proposal, labels)
    if swaps:
        out.append("roles: " + ", ".join(swaps[:4]))
    flips, given = kind_flips(proposal, answer)
    if flips and flips * 2 > given:
        out.append(f"kinds: {flips} of {given} turned around")
    return out


class Sentences:
    """Is a name written in a number's sentence?"""

    def __init__(self, text: str):
        self.text = text
        self.bounds = sentence_bounds(text) or [(0, len(text))]

    def holds(self, name: str | None, start: int) -> bool:
        if not name:
            return True                 # null and "" say no name: nothing to check
        s, e = sentence_at(self.bounds, start)
        return name.lower() in self.text[s:e].lower()


def generic(name: str) -> bool:
    """A lower-case phrase of several words without a digit: a description, not a name."""
    return " " in name.strip() and not re.search(r"[A-Z0-9]", name)


def silent_fields(proposal: Proposal, answer) -> set[str]:
    """The claim fields ("dataset", "method") the model left empty on every number it kept
    (a dataset "" is none; a method "" is the paper's own approach, a name)."""
    kept = [d for k in proposal.numbers if (d := getattr(answer.numbers, k, None)) is not None and d.kind != "drop"]
    if not kept:
        return set()
    out = set()
    if all(not d.dataset for d in kept):
        out.add("dataset")
    if all(d.method is None for d in kept):
        out.add("method")
    return out


def copied_readings(proposal: Proposal, answer, resolve, sentences: Sentences) -> set[str]:
    """Number ids whose reading the model copied across their sentence: another number of
    the sentence has the model's same (dataset, system), not both empty, while the rules'
    readings of the two differ."""
    ruled = proposal.rules_numbers()

    def key(dataset, method):
        return ((dataset or "").strip().lower(), (method or "").strip().lower())

    groups: dict[tuple, list[str]] = {}
    for k, num in proposal.numbers.items():
        d = getattr(answer.numbers, k, None)
        if d is None or d.kind == "drop" or k not in ruled:
            continue
        mine = key(resolve(d.dataset) if d.dataset else None, resolve(d.method) if d.method else None)
        if mine != ("", ""):
            groups.setdefault((sentence_at(sentences.bounds, num.start), mine), []).append(k)
    out: set[str] = set()
    for ks in groups.values():
        theirs = {key(ruled[k].get("dataset"), ruled[k].get("method")) for k in ks}
        if len(ks) > 1 and len(theirs) > 1:
            out.update(ks)
    return out
