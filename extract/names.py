"""Merge dataset and method names across papers when they are the same thing written differently.

Two names are merged when

* their :func:`name_key` is equal: NFKC, markdown/LaTeX wrappers and commands removed
  (``**X**``, ```X```, ``\\texttt{X}``), case folded, every run of punctuation, hyphens,
  underscores and spaces dropped, a leading "the" and a trailing generic word ("dataset",
  "benchmark", "corpus", "suite") removed: ``**MIMIC-IV**``, ``mimic iv`` and
  ``the MIMIC-IV dataset`` share the key ``mimiciv``;
* or one is the acronym of the other *as given in one abstract*: "Hyper-Spherical
  Quantization (HSQ)" in the text (found with the Schwartz-Hearst algorithm), or both forms
  extracted from the same paper with the acronym's letters matching the long form.  The pair
  is merged across all papers when that acronym has a single long form in the whole
  collection; an acronym defined differently by two papers (SAM = "Segment Anything Model" /
  "Sharpness-Aware Minimization") is merged only inside each defining paper.

The display name of a group is its most frequent surface form (ties: the shorter, then
alphabetical), with wrappers removed.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from typing import Iterable

from .grounding import unwrap
from .text import acronym_definitions, long_form

_LATEX_CMD = re.compile(r"\\[A-Za-z]+\*?")
_WORD = re.compile(r"[^\W_]+")
_GENERIC_TAIL = {"dataset", "datasets", "benchmark", "benchmarks", "corpus", "corpora", "suite"}


def _words(name: str) -> list[str]:
    s = unicodedata.normalize("NFKC", name)
    s = _LATEX_CMD.sub(" ", unwrap(s))
    return _WORD.findall(s.casefold())


def name_key(name: str) -> str:
    """Canonical key of a name: equal keys mean "the same name written differently"."""
    words = _words(name)
    if len(words) > 1 and words[0] == "the":
        words = words[1:]
    if len(words) > 1 and words[-1] in _GENERIC_TAIL:
        words = words[:-1]
    key = "".join(words)
    return key or " ".join(unwrap(unicodedata.normalize("NFKC", name)).casefold().split())


def clean(name: str) -> str:
    """A surface form for display: wrappers removed, spaces collapsed."""
    return " ".join(unwrap(name).split())


# ----------------------------------------------------------------- acronyms



def _short_letters(short: str) -> str:
    s = unwrap(short)
    if len(s) > 2 and s.endswith("s") and s[-2].isupper():  # KANs -> KAN
        s = s[:-1]
    return s


def looks_like_acronym(s: str) -> bool:
    s = _short_letters(s)
    if not (2 <= len(s) <= 15) or " " in s or not s[0].isalnum():
        return False
    upper = sum(ch.isupper() for ch in s)
    return upper >= 2 and sum(ch.isalpha() for ch in s) >= 2


def find_abbreviations(text: str) -> list[tuple[str, str]]:
    """(long form, acronym) pairs defined in ``text`` as "Long Form (LF)" (found by the text
    toolkit's Schwartz–Hearst matcher, :func:`extract.text.acronym_definitions`)."""
    pairs = []
    for d in acronym_definitions(text):
        if d.long is None or not looks_like_acronym(d.short):
            continue
        long, short = clean(d.long), clean(d.short)
        if name_key(long) != name_key(short) and plausible_pair(short, long):
            pairs.append((long, short))
    return pairs


def _alnum(s: str) -> int:
    return sum(ch.isalnum() for ch in s)


def plausible_pair(short: str, long: str) -> bool:
    """An acronym is at most half as long as its long form and not a piece of it
    (so CIFAR-10/CIFAR-100 and ImageNet-1k/ImageNet-21k are not pairs)."""
    ks, kl = name_key(short), name_key(long)
    return 2 * _alnum(_short_letters(short)) <= _alnum(long) and ks not in kl


def is_acronym_of(short: str, long: str) -> bool:
    """``short`` looks like an acronym and its letters are spelled by ``long``'s words."""
    if not looks_like_acronym(short) or len(_words(long)) < 2 and "-" not in long:
        return False
    long = clean(long)
    joined = f"{long} ({short})"
    return long_form(joined, len(long) + 1, short) == (0, len(long)) and plausible_pair(short, long)


# ----------------------------------------------------------------- merging

class NameIndex:
    """Union of name variants across papers; feed it with :meth:`add`, then ask :meth:`group`."""

    def __init__(self) -> None:
        self._parent: dict[str, str] = {}
        self._surface: dict[str, Counter] = defaultdict(Counter)
        self._defs: dict[str, set[str]] = defaultdict(set)  # acronym key -> long-form keys
        self._local: dict[tuple[str, str], str] = {}  # (paper, acronym key) -> long key
        self._done = False

    def add(self, paper_id: str, names: Iterable[str], text: str = "") -> None:
        """Register the names one paper uses, and acronym pairs its text defines."""
        self._done = False
        names = [n for n in names if isinstance(n, str) and n.strip()]
        keys = {}
        for n in names:
            k = name_key(n)
            keys[k] = n
            self._find(k)
        for k, n in keys.items():
            self._surface[k][clean(n)] += 1
        pairs = [(lf, sf) for lf, sf in find_abbreviations(text)
                 if name_key(lf) in keys or name_key(sf) in keys]
        for a in names:
            for b in names:
                if a is not b and is_acronym_of(a, b):
                    pairs.append((b, a))
        for lf, sf in pairs:
            lk, sk = name_key(lf), name_key(sf)
            if lk == sk:
                continue
            self._find(lk)
            self._find(sk)
            self._defs[sk].add(lk)
            self._local[(paper_id, sk)] = lk

    def _find(self, k: str) -> str:
        p = self._parent.setdefault(k, k)
        while p != self._parent[p]:
            self._parent[p] = self._parent[self._parent[p]]
            p = self._parent[p]
        return p

    def _union(self, a: str, b: str) -> None:
        ra, rb = self._find(a), self._find(b)
        if ra != rb:
            self._parent[max(ra, rb)] = min(ra, rb)

    def _finish(self) -> None:
        if self._done:
            return
        for sk, longs in self._defs.items():
            roots = {self._find(lk) for lk in longs}
            if len(roots) == 1:
                self._union(sk, next(iter(longs)))
        self._done = True

    def group(self, name: str, paper_id: str | None = None) -> str:
        """The group id of ``name`` as used in ``paper_id`` (stable within one index)."""
        self._finish()
        k = name_key(name)
        if paper_id is not None and (paper_id, k) in self._local:
            k = self._local[(paper_id, k)]
        return self._find(k)

    def displays(self) -> dict[str, str]:
        """Every group id with its display name (one pass; use for many lookups)."""
        self._finish()
        counts: dict[str, Counter] = defaultdict(Counter)
        for k in self._parent:
            counts[self._find(k)].update(self._surface.get(k, {}))
        return {g: (sorted(c.items(), key=lambda kv: (-kv[1], len(kv[0]), kv[0]))[0][0] if c else g)
                for g, c in counts.items()}

    def groups(self) -> dict[str, set[str]]:
        """Group id -> every surface form seen in it."""
        self._finish()
        out: dict[str, set[str]] = defaultdict(set)
        for k in self._parent:
            out[self._find(k)].update(self._surface.get(k, {}))
        return dict(out)
