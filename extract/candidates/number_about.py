"""What a number is about: the count noun after it ("12,400 annotated speech clips") or a short
phrase ("accuracy"); and the scanned number (:class:`Raw`)."""

from __future__ import annotations

import re
from itertools import dropwhile, islice, takewhile
from dataclasses import dataclass

from ..text.sentences import words_after, words_before
_COUNT_NOUN_SINGULAR = set("""gpu gpus bit layer dimensional dimension shot way step token parameter node head billion million hour
day epoch iteration round language task model sample example class domain agent user participant
subject patient image video document query question prompt benchmark dataset game environment seed run
trial fold expert k core cpu tpu qubit pair frame second minute year month week point item instance
sentence word character page file repository line hop turn trajectory episode level category label
feature channel pixel resolution block annotator worker client device scale size""".split())
_NOT_NOUNS = set("""is was has does this its as us yes across less plus thus versus bias process access loss class gaussian
analysis basis various previous numerous robustness progress success consensus corpus always whereas status
focus miss unless address stress vs hypothesis diagnosis synthesis his perplexities series species chess
glass""".split())
_FUNCTION = set("""the a an of on in and or for to with by at from than while over up into per as its their our that which
across only nearly about approximately roughly around almost more less respectively e g i when where is are
was were be been has have this these those it we they also both each all same between""".split())
_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9\-]*|[,.;:()]|\S")
_COMPARATIVES = set("""less more fewer higher lower better worse faster slower smaller larger bigger shorter longer relative
absolute average""".split())
_ABOUT_STOP = _FUNCTION | set("""whereas compared relative versus vs but using higher lower better worse faster slower
fewer yet so stays remains""".split())


@dataclass
class Raw:
    start: int            # of the displayed text
    end: int
    core_start: int
    core_end: int
    value: float
    unit: str | None
    mult: float = 1.0
    signed: bool = False
    in_math: bool = False


def count_noun_after(text: str, end: int) -> str | None:
    """The plural (or count) noun right after a number, allowing a few modifiers: '12,400
    short, noisy, annotated speech clips' -> 'annotated speech clips'."""
    seg = text[end:end + 90]
    if m := re.match(r"\s*-\s*([A-Za-z]+)", seg):       # 8-bit, 2-layer, 7B-parameter
        return m.group(1).lower()
    words = [w.group() for w in islice(_TOKEN.finditer(seg), 10)]     # the first 10 tokens are read
    phrase: list[str] = []
    for i, w in enumerate(words[:9]):
        lw = w.lower()
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if lw in ("and", "or") and phrase and nxt[:1].isalpha() and nxt.lower() not in _FUNCTION:
            continue                                    # 40 Rust and Go projects
        if lw == "," and phrase:
            continue
        if not w[0].isalpha():                          # (as does a comma before the first word)
            break
        phrase.append(w)
        if lw in _COUNT_NOUN_SINGULAR or lw in ("data", "people", "criteria", "corpora", "phenomena", "children") \
                or len(lw) > 3 and lw.endswith("s") and not lw.endswith(("ous", "ss")) and lw not in _NOT_NOUNS:
            return " ".join(phrase[-4:])
        if lw in _FUNCTION:
            break
    return None


def _phrase(words: list[str]) -> list[str]:
    """The first three words before a stop word or a one-letter word."""
    return list(takewhile(lambda w: len(w) >= 2 and w not in _ABOUT_STOP, words))[:3]


def guess_about(text: str, r: Raw, noun: str | None) -> str:
    """A few words saying what the number quantifies ("" when no rule finds them)."""
    if noun:
        return noun
    after = words_after(text, r.end, 8)
    nxt = text[r.end:r.end + 40]
    lead = len(list(takewhile(lambda w: w in _COMPARATIVES, after)))     # the comparatives it opens with
    if re.match(r"\s+[A-Za-z]", nxt) and lead < len(after) and (got := _phrase(after[lead:])):
        return " ".join(after[:lead] + got) if lead and after[0] in ("average", "relative") else " ".join(got)
    if after[:1] and after[0] in ("of", "in", "on") and not re.match(r"\s*\w+\s+\$?[\d.]", nxt):
        if got := _phrase(list(dropwhile(lambda w: w in ("the", "a", "an", "all", "its", "their", "our"), after[1:]))):
            return " ".join(got)
    # else the last three words before it, past the function words right before it
    before = reversed(words_before(text, r.start, 8, comma=True))
    return " ".join(reversed(list(takewhile(lambda w: not _filler(w), dropwhile(_filler, before)))[:3]))


def _filler(w: str) -> bool:
    return len(w) < 2 or w in _FUNCTION or w in ("reach", "reaches", "achieves", "achieve")
