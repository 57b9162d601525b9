"""What the rules propose for one abstract, numbered for the model, and the prompt around it.

The prompt puts the static instructions first (the system message, identical for every
abstract) and the abstract-specific part after it (title, abstract, numbered candidates), so
an OpenAI-compatible server or llama.cpp in-process reuses the shared prefix's KV cache.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..candidates import Candidates, NameCandidate, NumberCandidate, find_candidates

#: Bump when the proposal, the answer model or the mapping change answers (cache keys).
HYBRID_VERSION = "hybrid-1"
#: Name candidates below this rule score are not offered (noise: single capitalised words).
MIN_NAME_SCORE = 0.3
MAX_NAMES = 24
_CONTEXT = 40           # characters of context each side of a number


@dataclass(frozen=True)
class Proposal:
    """The rules' proposal: numbered numbers and names, and the rules' own task phrase."""

    text: str
    title: str | None
    numbers: dict[str, NumberCandidate]     # "N1" -> candidate, in text order
    names: dict[str, NameCandidate]         # "C1" -> candidate, in text order
    candidates: Candidates

    def listing(self) -> str:
        """The numbered candidates as the model reads them."""
        lines = ["Name candidates (id: text [rule hint]):"]
        lines += [f"{k}: {n.text} [{_hint(n)}]" for k, n in self.names.items()] or ["(none)"]
        lines.append("Numbers (id: text [rule hint] | context):")
        lines += [f"{k}: {n.text} [{n.kind_hint or 'unsure'}] | …{_context(self.text, n)}…"
                  for k, n in self.numbers.items()] or ["(none)"]
        return "\n".join(lines)


def _hint(n: NameCandidate) -> str:
    role = {"method": "introduced?" if n.score < 0.8 else "introduced",
            "dataset": "dataset?" if n.score < 0.8 else "dataset",
            "model": "existing model"}.get(n.role_hint or "", "unsure")
    if n.role_hint == "dataset" and "introduced" in n.cues:
        role = "introduced dataset"
    return role


def _context(text: str, n: NumberCandidate) -> str:
    left = text[max(0, n.start - _CONTEXT): n.start]
    right = text[n.end: n.end + _CONTEXT]
    return " ".join(f"{left}[{n.text}]{right}".split())


def propose(text: str, title: str | None = None, candidates: Candidates | None = None) -> Proposal:
    """Number the rules' candidates of ``text`` (deterministic)."""
    cands = candidates or find_candidates(text)
    numbers = {f"N{i}": n for i, n in enumerate(sorted(cands.numbers, key=lambda n: n.start), 1)}
    names, seen = [], set()
    for n in sorted(cands.names, key=lambda n: (-n.score, n.start)):
        if n.score >= MIN_NAME_SCORE and n.text.lower() not in seen and len(names) < MAX_NAMES:
            seen.add(n.text.lower())
            names.append(n)
    names.sort(key=lambda n: n.start)
    return Proposal(text, title or None, numbers, {f"C{i}": n for i, n in enumerate(names, 1)}, cands)


_SLOT = re.compile(r"\{(title|abstract|candidates)\}")


def render_messages(prompt, proposal: Proposal) -> tuple[dict, ...]:
    """The chat messages of a hybrid prompt (``prompts/hybrid.*``): ``{title}``, ``{abstract}``
    and ``{candidates}`` are filled in one pass (so an abstract containing a slot name is
    left alone)."""
    values = {"title": f"Title: {proposal.title}\n" if proposal.title else "",
              "abstract": proposal.text, "candidates": proposal.listing()}
    user = _SLOT.sub(lambda m: values[m.group(1)], prompt.user)
    return ({"role": "system", "content": prompt.system}, {"role": "user", "content": user})
