"""Names the claims show to be the paper's own systems, among candidates the name rules doubted.

The name rules score a coinage by how it is introduced ("we propose X").  A coinage that is
never introduced that way but is the subject of a claimed result - "SkinNet achieves 77.3%
accuracy", "Our B2X models outperform GPT-4 by 6.8 points" - is the system the paper reports
on.  :func:`claimed_systems` returns those candidates; the backends add them to the methods
(rules propose, a capable model decides).  A pretrained model's name is never promoted: it is
a baseline or a backbone ("GPT-4o achieves 31%").
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Any, Iterable, Sequence

from .claim_metric import HEADS
from .claims_doc import CLAUSE_BREAK
from ..text import is_model_name
from ..text.literal import starts

_CLAIM_VERB = re.compile(
    r"\s*(?:\([^()]{1,30}\)\s*)?(?:models?\s+|framework\s+|method\s+|system\s+)?(?:,[^,]{1,60},\s*)?"
    r"(?:also\s+|further\s+|consistently\s+|significantly\s+|substantially\s+)?"
    r"(?:achiev\w*|attain\w*|reach\w*|outperform\w*|surpass\w*|improv\w*|yield\w*|boost\w*|obtain\w*|"
    r"deliver\w*|reduc\w*|sets?\s+a\s+new|exceed\w*|beat\w*|gains)\b", re.I)
_OUR = re.compile(r"\b[Oo]ur\s+$")
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")


def claimed_systems(text: str, numbers: Sequence[Any], names: Iterable[Any],
                    exclude: Iterable[str] = ()) -> list[Any]:
    """Candidates of ``names`` (objects with text/start/end/role_hint) that are the subject of a
    sentence stating a result number (``numbers``: objects with start/end and kind or
    kind_hint), in text order; ``exclude`` holds names already decided (any role)."""
    skip = {x.lower() for x in exclude}
    results = [n for n in numbers if (getattr(n, "kind", None) or getattr(n, "kind_hint", None)) == "result"]
    result_starts = sorted(n.start for n in results)
    out, seen = [], set()
    for c in names:
        key = c.text.lower()
        if key in skip or key in seen or is_model_name(c.text) or not re.search(r"[A-Z]", c.text) \
                or c.role_hint == "dataset" or " " in c.text.strip() or HEADS.fullmatch(c.text) \
                or re.fullmatch(r"[A-Z]{2,}s", c.text):       # a metric (AP50), a plural acronym (LLMs)
            continue
        for s in starts(text, c.text):
            e = s + len(c.text)
            if s > 0 and text[s - 1].isalnum() or e < len(text) and text[e].isalnum():
                continue
            verb = _CLAIM_VERB.match(text, e)
            ours = _OUR.search(text, max(0, s - 6), s) and re.match(r"\s+(?:models?|method|framework)\b",
                                                                    text[e:e + 12])
            if not (verb and c.role_hint != "model" or ours):
                continue
            end = m.end() if (m := _SENTENCE_END.search(text, e)) else len(text)
            stop = CLAUSE_BREAK.search(text, e, end)
            end = stop.start() if stop else end
            k = bisect_right(result_starts, e)      # the first result starting after e
            if k < len(result_starts) and result_starts[k] < end:
                seen.add(key)
                out.append(c)
                break
    return out
