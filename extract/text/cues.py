"""The verbs authors introduce their contribution with (regular-expression pieces) for the
contribution guess, the name rules and the task rules (present-tense forms only: "we proposed"
in related work is not the paper's purpose).  Stems match every inflection (``propos``).

>>> import re; bool(re.search(WE + stems(INTRO_STEMS) + r"\\w*", "Here, we also propose X", re.I))
True
"""

from __future__ import annotations

__all__ = ["CONTRIBUTION_STEMS", "INTRO_STEMS", "NAMING_STEMS", "TASK_INTRO_FORMS", "WE", "WE_STARTS", "stems", "we"]

INTRO_STEMS = ("propos", "introduc", "present", "develop", "design", "devis", "build", "construct",
               "creat", "curat", "releas")
# ... a contribution of any kind is also "collected", "formulated", "offered"; a name "called X".
CONTRIBUTION_STEMS = INTRO_STEMS + ("contribut", "offer", "formulat", "collect", "open-sourc", "provid",
                                    "describ", "give")
NAMING_STEMS = INTRO_STEMS + ("nam", "call", "term", "dub", "coin", "put forward", "open-sourc", "describ",
                              "instantiat", "implement", "realiz")
TASK_INTRO_FORMS = (r"(?:propose|introduce|present|develop|describe|give|provide|obtain|release|design|offer)s?",
                    "build", "contribute", r"(?:is|are)\s+(?:proposed|introduced|presented)")


#: the words the subject of :func:`we` starts with (a scan for it can start only at one of them)
WE_STARTS = ("we", "this", "here")


def we(*adverbs: str) -> str:
    """The subject of an introducing sentence ("we", "this paper", "this work", "here we"), with an
    optional adverb ("we further propose", "we then introduce") or one of ``adverbs``."""
    return (r"\b(?:we|this\s+(?:paper|work)|here\s+we)\s+(?:"
            + "|".join(a + r"\s+" for a in (r"\w+ly", "also", "further", "then") + adverbs) + ")?")


WE = we("first")


def stems(words: tuple[str, ...]) -> str:
    """A non-capturing alternation of ``words`` (regular-expression pieces, in order)."""
    return "(?:" + "|".join(words) + ")"
