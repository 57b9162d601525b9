"""Token shapes that make a word look like a coined name (CamelCase, ACRONYM, alnum, Hyphen-
Ated), and the wrappers authors put around names (bold, code, quotes, math)."""

from __future__ import annotations

import re
from functools import lru_cache

from ..text.acronyms import upper_count
from ..text.sentences import GLUED_SENTENCE

__all__ = ["COINAGE_SUFFIX_WORDISH", "ENGLISH_COMPOUND", "SENT_START_LOOKBACK", "SPLIT_AFTER_NAME", "SYMBOL_NAME", "TOKEN", "WRAPPED",
           "is_namey"]

# A word that may be a name: not a plain lower-case one ("[a-z]+" that no "+" follows: no shape,
# no known dataset; most words).  (The look-arounds after the first letter, in WRAPPED after
# the "$": re scans for them fast.)  A period before a capitalized word ends the sentence, not the
# name ("the decoding process of EA.Extensive experiments show").
TOKEN = re.compile(r"[A-Za-z](?<![\w\\@][A-Za-z])(?!(?<=[a-z])[a-z]*(?![A-Za-z0-9+]|(?:--|[-‐–/&.])[A-Za-z0-9]))"
                   r"[A-Za-z0-9]*(?:(?:--|[-‐–/+&]|\.(?!" + GLUED_SENTENCE + r"))[A-Za-z0-9]+)*")
# A name led by a symbol or a Greek letter, Unicode or LaTeX: "∞-bench", "τ-bench", "τ²-Bench",
# "$\tau$-bench", "β-VAE"; ``rest`` is the word part that says whether it is a name.
SYMBOL_NAME = re.compile(r"(?<![\w\\$])(?:[∞α-ωΑ-Ω]|\$\\(?:infty|[a-zA-Z]{2,10})\$)[²³0-9]*"
                         r"(?:[-‐–]?)(?P<rest>[A-Za-z][A-Za-z0-9]*(?:[-‐–][A-Za-z0-9]+)*)")
# A lowercase subset/split/variant token right after a dataset name, ending a list item:
# "LibriSpeech test-clean,", "COCO val2017 and", "WMT14 en-de." (not a modifier: "ImageNet
# pre-trained", "COCO-based").
# An English compound, never a name: "zero-shot", "multi-class", "large-scale", "fine-grained".
_COMPOUND = (r"[a-z]+[-‐–](?:based|like|style|only|free|level|scale|specific|aware|shot|wise)\b|"
             r"(?:zero|few|one|multi|cross|in|out|end|state|real|large|small|long|short|high|low|fine|coarse|self|"
             r"semi|non|pre|post|well|open|closed)[-‐–]|[\w\-]*ed\b")
ENGLISH_COMPOUND = re.compile(_COMPOUND)
NAMEY = re.compile(r"[^a-z\s\-_'’\"“”]")         # a capital, a digit, a sign: "Cora", "text8", "∞-bench"
SPLIT_AFTER_NAME = re.compile(r" (?!" + _COMPOUND + r")(?:[a-z]+(?:[-_][a-z0-9]+)+|[a-z]+\d+[a-z0-9]*)"
                              r"(?=\s*(?:[,;:)]|\.(?!\d)|and\b|or\b|$))")     # (not a decimal point: "v1.3")
WRAPPED = re.compile(
    r"\*\*(?P<bold>[^*\n]{2,80}?)\*\*|__(?P<ubold>[^_\n]{2,80}?)__|`(?P<code>[^`\n]{2,60}?)`"
    r"|\\(?:texttt|textsc|textsf|mathtt)\{(?P<tt>[^{}\n]{2,60})\}"
    r"|\\(?:textbf|mathbf|emph|textit)\{(?P<bf>[^{}\n]{2,80})\}"
    r"|[\"“](?P<q>[^\"”\n]{2,50})[\"”]"
    r"|\$(?<![\\$]\$)(?!\\(?:texttt|textsc|textsf|mathtt|textbf|mathbf|emph|textit)\{[^{}$]*\}\$)(?P<math>[^$\n]{1,40})\$")
SENT_START_LOOKBACK = re.compile(r"(?:^|[.!?:;]\s+|\n\s*|\(\s*|[\"“]\s*|\*\*)$")
COINAGE_SUFFIX_WORDISH = re.compile(r"(?:tion|sion|ing|ness|ity|ment|ism|ance|ence|ure|al|ive)$")


@lru_cache(maxsize=1 << 16)     # hot: called on every token of every abstract
def is_namey(tok: str) -> tuple[bool, str]:
    """Whether a token looks like a coined name, and its shape cue."""
    letters = [ch for ch in tok if ch.isalpha()]
    parts = re.split(r"--|[-‐–/+&.]", tok)
    if any(ch.isdigit() for ch in tok) and tok[0].isalpha():
        return True, "alnum"
    if len(letters) >= 2 and all(ch.isupper() for ch in letters):
        return True, "acronym"
    if upper_count(tok[1:]) >= 1 and any(ch.islower() for ch in tok):
        if len(parts) > 1 and all(p[:1].isupper() and p[1:].islower() for p in parts if p):
            return True, "hyphenated"                     # Reed--Solomon, Navier–Stokes
        return True, "camelcase"
    return False, ""
