"""Acronyms defined in a text, "Long Form (LF)", and their long forms (offset-exact), by the
Schwartz–Hearst rule (PSB 2003): the shortest word sequence before the parenthesis whose letters
spell the acronym in order, the first letter starting a word.  (Libraries for it return no
character offsets or pull in spaCy; every span here is a slice of the source.)

>>> [(d.short, d.long) for d in acronym_definitions("We use Low-Rank Adaptation (LoRA) here.")]
[('LoRA', 'Low-Rank Adaptation')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .lexicon import FUNCTION_WORDS

__all__ = ["ACRO_BEFORE_PAREN", "ACRO_PAREN", "Definition", "acronym_definitions", "long_form", "upper_count"]

# "(ACR)", "(\textbf{ACR})", "(ACR; see ...)", "(3D-NAS)": the acronym in group ``acr``.
ACRO_PAREN = re.compile(
    r"\(\s*(?:\\text\w*\{|\*\*|\\mathrm\{)?(?P<acr>(?:[A-Za-z]|\d(?=[A-Za-z]))[A-Za-z0-9]*(?:[-‐–/+&][A-Za-z0-9]+)*)"
    r"(?:\}|\*\*)?\s*(?:[;,][^()]{0,40})?\)")
# "ACR (Long Form)": the other order Schwartz & Hearst read, an acronym followed by its long
# form in parentheses ("we propose RPKD (Random Prototype Knowledge Distillation)").
# (the look-behind after the first capital: re scans for a capital fast)
ACRO_BEFORE_PAREN = re.compile(
    r"(?P<acr>[A-Z](?<![\w\-][A-Z])[A-Za-z0-9]*(?:[-‐–][A-Za-z0-9]+)*)\s*\((?P<long>[A-Za-z][^()\n;]{2,120}?)\s*\)")

_SIBLING = re.compile(r",|\b(?:and|or)\b")      # "graph pooling (gPool) and unpooling (gUnpool)": a sibling's acronym


def upper_count(s: str) -> int:
    """How many capital letters ``s`` holds."""
    return sum(ch.isupper() for ch in s)


def long_form(text: str, paren: int, acr: str, _depth: int = 0) -> tuple[int, int] | None:
    """Span of the long form of ``acr`` written right before ``text[paren] == "("``, or None.

    >>> t = "Low-Rank Adaptation (LoRA)"; s, e = long_form(t, t.index("("), "LoRA"); t[s:e]
    'Low-Rank Adaptation'
    """
    letters = [ch.lower() for ch in acr if ch.isalnum()]
    if acr.endswith("s") and upper_count(acr) >= 2:
        letters = letters[:-1] if letters[-1] == "s" else letters
    if len(letters) < 2:
        return None
    # Schwartz–Hearst's window, min(|A| + 5, 2|A|) words; the capitals' reading looks up to 3|A|
    lo, nwords, sh = paren, 0, None
    max_words = min(len(letters) + 5, len(letters) * 2)
    while lo > 0 and nwords <= 3 * len(letters):
        lo -= 1
        ch = text[lo]
        if ch in ".;:!?(\n":
            lo += 1
            break
        if ch == "," and nwords > 0 and sh is None:
            sh = lo + 1                 # (a comma ends Schwartz–Hearst's window, not the capitals')
        if ch == " " and text[lo - 1:lo] != " ":
            nwords += 1
            if nwords > max_words and sh is None:
                sh = lo
    wide, lo = lo, lo if sh is None else sh
    window = text[lo:paren]
    found = _initials(window, acr)
    if found is None and text.find(",", wide, lo) >= 0:     # "Look, Listen, and Parse (LLP)"
        found = _initials(text[wide:paren], acr)
        lo = lo if found is None else wide
    if found is None:
        found = _spelled(window, letters)
        if found is None:
            return None
    capitals = _capitals(text[wide:paren], acr)          # (never later than the spelling's start)
    if capitals is not None and wide + capitals < lo + found:
        lo, found = wide, capitals
    start = lo + found
    # a hyphenated word is one word: "Test-time adaptation (TTA)", never "time adaptation"
    while start - 1 > lo and text[start - 1] in "-‐–" and text[start - 2].isalnum():
        start -= 1
        while start > lo and text[start - 1].isalnum():
            start -= 1
    end = paren
    while end > start and text[end - 1] in " \t\"'”’}*`":       # ("“Elastic-Link” (EL)", "\\emph{OFE words} (OFE)")
        end -= 1
    if text.count(")", start, end) > text.count("(", start, end):
        # cut inside an acronym of its own: "Gaussian Process (GP) Prior Variational Autoencoder
        # (GPPVAE)" starts where the inner acronym's long form does, never at "GP) Prior"
        inner = text.rfind("(", 0, start)
        close = text.find(")", inner)
        found = long_form(text, inner, text[inner + 1:close].strip(), _depth + 1) \
            if inner > 0 and close < end and _depth < 2 and not _SIBLING.search(text, close, end) else None
        if found is None:
            return None
        start = found[0]
    span = text[start:end]
    if not span or " " not in span.strip() and "-" not in span and "–" not in span:
        return None
    if span.startswith(acr):                # "CIFAR-10 (CIFAR)", never "Keyphrase extraction (KE)"
        return None
    return start, end


def _capitals(window: str, acr: str) -> int | None:
    """Where the long form starts when the capitalized words ending the window, lower-case
    words between them, spell the capitals of ``acr`` by their initials: "Multilevel Medical
    Embedding (MiME)", "Dialogue structure and Disease knowledge aware Network (DDN)", which the
    shortest spelling reads from "Medical" and "Disease"; else None."""
    core = "".join(ch for ch in acr if ch.isupper())
    if len(core) < 2 or not acr[0].isupper():
        return None
    k, after = len(core) - 1, len(window)
    for w in reversed(list(_WORD.finditer(window))):
        if "," in window[w.end():after]:
            return None             # (no further than a comma)
        after, first = w.start(), w.group(0)[0]
        if first.isupper():
            if first != core[k]:
                return None
            k -= 1
            if k < 0:
                return w.start()
    return None


def _spelled(window: str, letters: list[str]) -> int | None:
    """Where the shortest word sequence ending the window that spells ``letters`` in order
    starts (its first letter starts a word), else None: Schwartz–Hearst."""
    j = len(window) - 1
    for k in range(len(letters) - 1, -1, -1):
        c = letters[k]
        while j >= 0 and (window[j].lower() != c or (k == 0 and j > 0 and window[j - 1].isalnum())):
            j -= 1
        if j < 0:
            return None
        j -= 1
    return j + 1


_WORD = re.compile(r"[A-Za-z0-9]+")
_REPEATS = re.compile(r"(?:[A-Za-z][2-9]?)+")
_REPEATS_PART = re.compile(r"([A-Za-z])([2-9]?)")
_DIGIT_WORDS = {"2": "to", "4": "for"}
# the function words a long form holds without a letter of them ("Motivation with Procedure
# Babbling"); never an article nor "as", which end a long form ("modeled as a multimodal ...")
_SKIPPED = FUNCTION_WORDS - {"the", "a", "an", "as"}


def _initials(window: str, acr: str) -> int | None:
    """Where the long form starts when ``acr`` spells its words' initials, read backwards from
    the parenthesis (hyphenated parts count as words; a digit after a letter repeats it, "AM3" =
    "Asymmetric Mixed-Modal Moderation", or a 2 or a 4 is the word "to" or "for", "L2L" =
    "learning-to-learn"), else None: Schwartz–Hearst's shortest spelling would read
    "Constrained Hierarchical Federated Learning (CRCHFL)" inside "Hierarchical"."""
    core = (acr[:-1] if acr.endswith("s") and upper_count(acr) >= 2 else acr).replace("-", "")
    if not _REPEATS.fullmatch(core) or upper_count(core) < 2 and not core[-1].isdigit():
        return None
    parts = _REPEATS_PART.findall(core)
    words = list(_WORD.finditer(window))
    readings = [[ch.lower() for ch, n in parts for _ in range(int(n or 1))]]
    if any(n in _DIGIT_WORDS for _, n in parts):
        readings.append([x for ch, n in parts for x in (ch.lower(), _DIGIT_WORDS.get(n)) if x])
    for spelled in readings:
        found = _spelled_by_words(window, words, spelled)
        if found is not None:
            return found
    return None


def _spelled_by_words(window: str, words: list, spelled: list[str]) -> int | None:
    """Where the words ending the window start to spell ``spelled``, read backwards; a
    function word that could spell a letter may be skipped instead ("Memory, Attention, and
    Control (MAC)"), tried after taking it ("Learning to Rank (LTR)")."""
    failed: set[tuple[int, int]] = set()        # (each state tried once: linear, however many "a"s)

    def read(i: int, k: int) -> int | None:
        while i > 0 and (i, k) not in failed:
            failed.add((i, k))
            i -= 1
            w = words[i]
            word = w.group(0).lower()
            # a word it skips, never one inside a hyphenated word: "learning-to-learn" is not
            # "leverage a learning-to-learn (L2L)"
            skips = word in _SKIPPED and window[w.start() - 1:w.end() + 1] != f"-{w.group(0)}-"
            if word == spelled[k] or len(spelled[k]) == 1 and word[0] == spelled[k]:
                if k == 0:
                    return w.start()
                if not skips:
                    k -= 1
                    continue
                if (taken := read(i, k - 1)) is not None:
                    return taken
            elif not skips:
                return None
        return None

    return read(len(words), len(spelled) - 1)


@dataclass(frozen=True)
class Definition:
    """An acronym defined in parentheses: its span, and its long form's span when found."""
    short: str
    start: int
    end: int
    long: str | None
    long_start: int | None
    long_end: int | None


def _reverse_definitions(text: str) -> list[Definition]:
    out = []
    for m in ACRO_BEFORE_PAREN.finditer(text):
        acr, long = m.group("acr"), m.group("long")
        if upper_count(acr) < 2 or len(long.split()) < 2:
            continue
        span = long_form(long + " (", len(long) + 1, acr)
        if span != (0, len(long)):
            continue                        # the words must spell the acronym from the first one
        ls = m.start("long")
        out.append(Definition(acr, m.start("acr"), m.end("acr"), long, ls, ls + len(long)))
    return out


def acronym_definitions(text: str) -> list[Definition]:
    """Every "(ACR)" that looks like an acronym (two capitals, or a lower-case start and a
    capital: "(LoRA)", "(mAP)"), in order, with its long form when the letters spell it; and
    every "ACR (Long Form)" whose long form spells the acronym.

    >>> [(d.short, d.long) for d in acronym_definitions("We propose TIDE (Tidal Image Denoising).")]
    [('TIDE', 'Tidal Image Denoising')]
    """
    out = []
    for m in ACRO_PAREN.finditer(text):
        acr = m.group("acr")
        if upper_count(acr) < 2 and not (upper_count(acr) >= 1 and acr[0].islower()) \
                or acr[0].isdigit() and text[m.start() - 1:m.start()].isalnum():
            continue                        # (a digit-led one glued to a word is an argument: "WB(3CNF, k)")
        s = m.start("acr")
        ls, le = long_form(text, m.start(), acr) or (None, None)
        out.append(Definition(acr, s, s + len(acr), None if ls is None else text[ls:le], ls, le))
    out += _reverse_definitions(text)
    return sorted(out, key=lambda d: d.start)
