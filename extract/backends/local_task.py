"""Candidate task phrases for the embedded backend: spans of the abstract the model picks from.

A tiny model asked to *write* the research problem pastes the first sentence or produces
junk; asked to *pick* one of a few phrases cut from the abstract, it cannot do either.
The phrases come from general cues (what "we study", what a method is "for", "the problem
of X", the opening noun phrase), each 2-12 words, verbatim.
"""

from __future__ import annotations

import re

MAX_WORDS = 12
MAX_PHRASES = 6

_STOP = r"(?=[,.;:()\[\]]|\s(?:which|that|where|while|by|via|using|through|and\s+(?:show|find|demonstrate|prove|propose|introduce))\b|$)"
_STUDY = re.compile(
    r"\b(?:we|this (?:paper|work|study))\s+(?:study|studies|address|addresses|investigate|investigates|"
    r"consider|considers|tackle|tackles|examine|examines|explore|explores|analy[sz]e|analy[sz]es|"
    r"focus on|focuses on|revisit|revisits|characteri[sz]e|characteri[sz]es)\s+(.+?)" + _STOP, re.I)
_PROBLEM = re.compile(r"\b(?:the\s+)?(?:problem|task|challenge|question)\s+of\s+(.+?)" + _STOP, re.I)
_FOR = re.compile(
    r"\b(?:we|this (?:paper|work))\s+(?:propose|proposes|introduce|introduces|present|presents|develop|develops)"
    r"\b[^.;]*?\b(?:for|to)\s+(.+?)" + _STOP, re.I)
_OPENING = re.compile(
    r"^(?:[A-Z][^,.;:]*?)\s(?=(?:is|are|has|have|remains?|can|often|typically|suffers?|faces?|relies|rely|"
    r"plays?|poses?|enables?|provides?|offers?|struggles?)\b)")
_LEAD = re.compile(r"^(?:a|an|the|how|whether|on|to)\s+", re.I)
_DEICTIC = re.compile(r"^(?:this|these|that|those|such|it|its|our|their|opposite|fundamental|"
                      r"recent|advent|growing)\b", re.I)


def _clean(phrase: str) -> str | None:
    words = phrase.split()
    while words and _LEAD.match(words[0] + " "):
        words = words[1:]
    if not (2 <= len(words) <= MAX_WORDS) or _DEICTIC.match(words[0]):
        return None
    out = " ".join(words).strip(" -–—'\"`*")
    return out if any(c.isalpha() for c in out) and not any(c in out for c in '$\\"') else None


def task_phrases(text: str) -> list[str]:
    """Up to :data:`MAX_PHRASES` distinct phrases of the abstract that may name its task."""
    found: list[str] = []
    for rx in (_STUDY, _FOR, _PROBLEM):
        for m in rx.finditer(text):
            found.append(m.group(1))
    m = _OPENING.match(text.strip())
    if m:
        found.append(m.group(0))
    out, seen = [], set()
    for raw in found:
        phrase = _clean(" ".join(raw.split()))
        if phrase and phrase.lower() not in seen:
            seen.add(phrase.lower())
            out.append(phrase)
    return out[:MAX_PHRASES]
