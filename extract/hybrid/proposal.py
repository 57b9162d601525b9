"""What the rules propose for one abstract, numbered for the model, and the prompt around it.

The proposal is the rules' whole reading, not only their candidates: every number (``N1``...:
text, a context snippet, and the rules' kind, metric, dataset and method) and the name
candidates (``C1``...: text and the rules' label), plus the rules' task phrase and
contribution.  The model copies what is right and corrects what is not, so a model that is
unsure of a decision can leave the rules' one standing, and one that knows better can
overrule it (:mod:`.mapping` decides per field whose word counts, by measurement).
``--proposal spans`` shows the same ids, texts and contexts without any of the rules'
reading (a small model copies what it is shown: it then reads the text alone).

The prompt puts the static instructions first (the system message, identical for every
abstract) and the abstract-specific part after it (title, abstract, numbered proposal), so
an OpenAI-compatible server or llama.cpp in-process reuses the shared prefix's KV cache.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from ..candidates import Candidates, NameCandidate, NumberCandidate, find_candidates
from ..decision import decide

#: Bump when the proposal, the answer model or the mapping change answers (cache keys).
HYBRID_VERSION = "hybrid-3"
#: Name candidates below this rule score are not offered (noise: single capitalised words),
#: unless the rules' own decision uses them.
MIN_NAME_SCORE = 0.3
MAX_NAMES = 24
_CONTEXT = 50           # characters of context each side of a number


@dataclass(frozen=True)
class Proposal:
    """The rules' proposal: numbered numbers and names, and the rules' decision (``rules``:
    the default schema's fields as :func:`extract.decision.decide` gives them)."""

    text: str
    title: str | None
    numbers: dict[str, NumberCandidate]     # "@N1" -> candidate, in text order
    names: dict[str, NameCandidate]         # "@C1" -> candidate, in text order
    candidates: Candidates
    rules: dict = field(default_factory=dict)
    #: the rules' own claims call: (its :func:`extract.decision.claims_key`, claims by span);
    #: the mapping reuses them when the final names and kinds are the rules' (no re-read)
    claims_memo: tuple | None = field(default=None, compare=False, repr=False)

    def rules_label(self, key: str) -> str:
        """The rules' label of candidate ``key``: method, dataset, both or other."""
        t = self.names[key].text.lower()
        m = t in {x.lower() for x in self.rules.get("method_names", ())}
        d = t in {x.lower() for x in self.rules.get("datasets", ())}
        return "both" if m and d else "method" if m else "dataset" if d else "other"

    def ref(self, name: str | None) -> str | None:
        """A name of the rules' decision as the model reads it: its candidate id, else the
        quoted name; ``""`` and None as they are."""
        if not name:
            return name
        key = next((k for k, n in self.names.items() if n.text.lower() == name.lower()), None)
        return key or json.dumps(name, ensure_ascii=False)

    def rules_numbers(self) -> dict[str, dict]:
        """The rules' decision per number id."""
        decided = self.rules.get("numbers") or []
        return {k: d for k, d in zip(self.numbers, decided)}

    def listing(self, reading: bool = True) -> str:
        """The numbered proposal as the model reads it: with the rules' reading (``reading``,
        ``--proposal reading``) or the numbers with their context and the candidates alone
        (``--proposal spans``: nothing of the rules' decision is shown)."""
        if not reading:
            lines = ["Name candidates (id: text):"]
            lines += [f"{k}: {n.text}" for k, n in self.names.items()] or ["(none)"]
            lines.append("Numbers (id: text | context):")
            lines += [f"{k}: {n.text} | …{_context(self.text, n)}…" for k, n in self.numbers.items()] or ["(none)"]
            return "\n".join(lines)
        lines = [f"Rules' task: {self.rules.get('task') or '(none)'}",
                 f"Rules' contribution: {self.rules.get('contribution') or '(none)'}",
                 "Name candidates (id: text -> rules' label):"]
        lines += [f"{k}: {n.text} -> {self.rules_label(k)}" for k, n in self.names.items()] or ["(none)"]
        lines.append("Numbers (id: text | context -> rules' kind; metric; dataset; method; absolute or change"
                     " [vs the system a change is measured against]):")
        decided = self.rules_numbers()
        for k, n in self.numbers.items():
            d = decided.get(k, {})
            lines.append(f"{k}: {n.text} | …{_context(self.text, n)}… -> {d.get('kind') or 'result'}; "
                         f"{_show(d.get('metric'))}; {_show(self.ref(d.get('dataset')))}; "
                         f"{_show(self.ref(d.get('method')))}; {_change(self, d)}")
        if not self.numbers:
            lines.append("(none)")
        return "\n".join(lines)


def _change(proposal: "Proposal", d: dict) -> str:
    """The rules' value type of a number, with its compared system: 'change vs C3'."""
    vt = d.get("value_type") or "absolute"
    return f"{vt} vs {_show(proposal.ref(d['compared_to']))}" if vt == "change" and d.get("compared_to") else vt


def _show(v: str | None) -> str:
    if v is None:
        return "null"
    if v == "":
        return '""'
    return v if re.fullmatch(r"@C\d+|\".*\"", v) else json.dumps(v, ensure_ascii=False)


def _context(text: str, n: NumberCandidate) -> str:
    left = text[max(0, n.start - _CONTEXT): n.start]
    right = text[n.end: n.end + _CONTEXT]
    return " ".join(f"{left}[{n.text}]{right}".split())


def propose(text: str, title: str | None = None, candidates: Candidates | None = None) -> Proposal:
    """Number the rules' candidates of ``text`` and attach the rules' decision (deterministic)."""
    cands = candidates or find_candidates(text, title)
    memo: dict = {}
    rules = decide(text, cands, memo)
    numbers = {f"@N{i}": n for i, n in enumerate(sorted(cands.numbers, key=lambda n: n.start), 1)}
    used = {x.lower() for x in rules["method_names"] + rules["datasets"]}
    used |= {x["method"].lower() for x in rules["numbers"] if x.get("method")}
    names, seen = [], set()
    for n in sorted(cands.names, key=lambda n: (n.text.lower() not in used, -n.score, n.start)):
        key = n.text.lower()
        if key in seen or len(names) >= MAX_NAMES:
            continue
        if n.score >= MIN_NAME_SCORE or key in used:
            seen.add(key)
            names.append(n)
    names.sort(key=lambda n: n.start)
    return Proposal(text, title or None, numbers, {f"@C{i}": n for i, n in enumerate(names, 1)}, cands,
                    _in_text_order(rules, cands), memo.get("claims"))


def _in_text_order(rules: dict, cands: Candidates) -> dict:
    """The rules' numbers are in the candidates' order; the proposal numbers them in text
    order: reorder the decisions the same way."""
    order = sorted(range(len(cands.numbers)), key=lambda i: cands.numbers[i].start)
    return {**rules, "numbers": [rules["numbers"][i] for i in order]}


_SLOT = re.compile(r"\{(title|abstract|candidates)\}")


def render_messages(prompt, proposal: Proposal, reading: bool = True) -> tuple[dict, ...]:
    """The chat messages of a hybrid prompt (``prompts/hybrid.*``, ``prompts/hybrid-spans.*``
    without the rules' reading): ``{title}``, ``{abstract}`` and ``{candidates}`` are filled
    in one pass (so an abstract containing a slot name is left alone)."""
    values = {"title": f"Title: {proposal.title}\n" if proposal.title else "",
              "abstract": proposal.text, "candidates": proposal.listing(reading)}
    user = _SLOT.sub(lambda m: values[m.group(1)], prompt.user)
    return ({"role": "system", "content": prompt.system}, {"role": "user", "content": user})
