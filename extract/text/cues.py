"""The verbs authors introduce their contribution with, as regular-expression pieces.

One vocabulary for the three rule families that use it: the contribution guess (what "we
propose/curate/offer ..." introduces), the name rules (what is "proposed/named/called X") and
the task rules (what "a method is proposed for X").  Stems match every inflection
(``propos`` -> propose, proposed, proposing); the task rules use the present-tense forms
only, so "we proposed" in a related-work sentence is not read as the paper's own purpose.

>>> import re; bool(re.search(WE + stems(INTRO_STEMS) + r"\\w*", "Here, we also propose X", re.I))
True
"""

from __future__ import annotations

__all__ = ["CONTRIBUTION_STEMS", "INTRO_STEMS", "NAMING_STEMS", "TASK_INTRO_FORMS", "WE", "WE_ADVERBS", "stems", "we"]

# Verbs that introduce something new in every family.
INTRO_STEMS = ("propos", "introduc", "present", "develop", "design", "devis", "build", "construct",
               "creat", "curat", "releas")
# ... and the ones that introduce a contribution of any kind (a dataset is "collected", a
# theory "formulated"), a name ("we call it X", "we implement it as X"), or a task.
CONTRIBUTION_STEMS = INTRO_STEMS + ("contribut", "offer", "formulat", "collect", "open-sourc", "provid",
                                    "describ", "give")
NAMING_STEMS = INTRO_STEMS + ("nam", "call", "term", "dub", "coin", "put forward", "open-sourc", "describ",
                              "instantiat", "implement", "realiz")
TASK_INTRO_FORMS = ("propose", "proposes", "introduce", "introduces", "present", "presents", "develop",
                    "develops", "describe", "give", "gives", "provide", "provides", "obtain", "obtains",
                    "describes", "release", "releases", "design", "designs", "build", "offer", "offers",
                    "contribute", r"is\s+proposed", r"are\s+proposed", r"is\s+introduced", r"is\s+presented")

# The subject of an introducing sentence and the adverbs it may carry: "we", "this paper",
# "this work", "here we" + "we further propose", "we then introduce".
WE_ADVERBS = (r"\w+ly", "also", "further", "then")


def we(*adverbs: str) -> str:
    """The subject of an introducing sentence, with an optional adverb of :data:`WE_ADVERBS`
    or of ``adverbs``: ``we("first")`` also reads "we first introduce"."""
    return (r"\b(?:we|this\s+(?:paper|work)|here\s+we)\s+(?:"
            + "|".join(a + r"\s+" for a in WE_ADVERBS + adverbs) + ")?")


WE = we("first")


def stems(words: tuple[str, ...]) -> str:
    """A non-capturing alternation of ``words`` (regular-expression pieces, in order)."""
    return "(?:" + "|".join(words) + ")"
