"""What an input yields: an :class:`Item` (one abstract) or a :class:`Problem` (one bad
record, reported with file and line), and how a mapping (a JSON object, a CSV row, a
BibTeX entry) becomes an Item.

Field names are matched case-insensitively.  Unless ``--text-field`` / ``--id-field`` /
``--title-field`` name them, the first present of these is used:

    text:  abstract, text, summary (arXiv), abstract note (Zotero),
           abstract_inverted_index (OpenAlex; rebuilt into text)
    id:    id, paperid (Semantic Scholar), corpusid, key (Zotero), eid (Scopus)
    title: title, display_name (OpenAlex)

Every other non-empty field is kept, as read, under ``meta`` in the record.

Ids are text: a JSON number id ``123`` becomes ``"123"``, so ``123`` and ``"123"`` are the
same id and the second is reported as a duplicate (never silently merged).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

TEXT_FIELDS = ("abstract", "text", "summary", "abstract note", "abstract_inverted_index")
ID_FIELDS = ("id", "paperid", "corpusid", "key", "eid")
TITLE_FIELDS = ("title", "display_name")
_HINT = " (nor summary, Abstract Note, abstract_inverted_index; name yours with --text-field)"


@dataclass(frozen=True)
class Item:
    id: str
    source: str          # "path:line"
    text: str
    title: str | None = None
    meta: Mapping | None = field(default=None, compare=False, repr=False)  # other input fields


@dataclass(frozen=True)
class Problem:
    source: str
    reason: str
    id: str | None = None
    #: an entry without an abstract (an empty or null field, a placeholder such as Scopus's
    #: "[No abstract available]"): reported and skipped, not a failure (exit 0 unless --strict)
    skipped: bool = False


# What exports write where a paper has no abstract: Scopus "[No abstract available]", PubMed
# "No abstract available.", pandas "NaN", "N/A", a dash.  Only the whole field matches.
_PLACEHOLDER = re.compile(r"(?i)^\W*(?:no\s+abstract(?:\s+(?:is\s+)?(?:available|provided))?"
                          r"|abstract\s+(?:is\s+)?(?:not\s+available|unavailable|missing)"
                          r"|not\s+available|n/?a|nan|none|null)?\W*$")


def no_abstract(text: str | None) -> str | None:
    """Why ``text`` is no abstract (empty, blank, a placeholder), or None when it is one."""
    if text is None:
        return "empty abstract (null)"
    if not text.strip():
        return "empty abstract"
    if len(text) <= 40 and _PLACEHOLDER.match(text):
        return f"no abstract ({text.strip()!r} is a placeholder)"
    return None


def missing_abstract(item: "Item") -> "Problem | None":
    """The skipped entry an item without an abstract is, or None."""
    why = no_abstract(item.text)
    return Problem(item.source, why, item.id, skipped=True) if why else None


@dataclass(frozen=True)
class FieldMap:
    """Which input fields hold the id, the title and the abstract (None: the defaults)."""

    id: str | None = None
    title: str | None = None
    text: str | None = None

    def pick(self, keys: Mapping[str, str], role: str) -> str | None:
        """The original key (of ``keys``: lowercased -> original) that plays ``role``."""
        given = getattr(self, role)
        if given is not None:
            return keys.get(given.strip().lower())
        for name in {"id": ID_FIELDS, "title": TITLE_FIELDS, "text": TEXT_FIELDS}[role]:
            if name in keys:
                return keys[name]
        return None


_UNDECODABLE = re.compile("[\udc80-\udcff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def bad_text(s: str) -> str | None:
    """Why ``s`` is not valid text, or None.  Undecodable bytes are kept by the readers as
    surrogate escapes; a JSON ``\\ud800`` escape without its pair is a lone surrogate.
    (A regex: a per-character loop was 40% of a cached rerun's time.)"""
    m = _SURROGATE.search(s)
    if m is None:
        return None
    if _UNDECODABLE.match(s, m.start()):
        return f"not valid UTF-8 (undecodable bytes at character {m.start() + 1})"
    return (f"a lone surrogate (\\u{ord(m.group()):04x}) at character {m.start() + 1}: "
            "not valid Unicode; fix the input's escape")


def rebuild_inverted_index(index: Mapping) -> str | None:
    """OpenAlex's ``abstract_inverted_index`` ({word: [positions]}) back into text."""
    slots: dict[int, str] = {}
    for word, positions in index.items():
        if not isinstance(positions, list):
            return None
        for pos in positions:
            if isinstance(pos, int) and not isinstance(pos, bool):
                slots[pos] = str(word)
    return " ".join(slots[i] for i in sorted(slots))


def _id_text(value) -> str | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float, str)):
        return str(value).strip() or None
    return None


def _meta_value(value) -> bool:
    return value not in (None, "", [], {})


def from_mapping(obj: Mapping, label: str, n: int, src: str,
                 fields: FieldMap | None = None) -> Item | Problem:
    """One Item from a JSON object / CSV row / BibTeX entry (``n`` numbers the default id)."""
    fields = fields or FieldMap()
    keys = {str(k).strip().lower(): k for k in obj}
    id_key, title_key, text_key = (fields.pick(keys, r) for r in ("id", "title", "text"))
    raw_id = obj.get(id_key) if id_key is not None else None
    if raw_id not in (None, "") and _id_text(raw_id) is None:
        return Problem(src, f"id field {id_key!r} is not a string or a number")
    rid = _id_text(raw_id) or f"{label}#{n}"
    if text_key is None:
        if fields.text:       # the user named the field: the defaults are beside the point
            have = ", ".join(sorted(map(str, obj)))[:200] or "none"
            return Problem(src, f"no {fields.text!r} field (named by --text-field; fields here: {have})", rid)
        if title_key is not None and isinstance(obj.get(title_key), str) and obj[title_key].strip():
            # a paper without an abstract (CSL JSON and BibTeX leave the field out): skipped
            return Problem(src, f"no abstract (no 'abstract' or 'text' field{_HINT})",
                           rid, skipped=True)
        return Problem(src, f"no 'abstract' or 'text' field{_HINT}", rid)
    text = obj[text_key]
    if isinstance(text, Mapping) and str(text_key).lower() == "abstract_inverted_index":
        text = rebuild_inverted_index(text)
    if text is None:
        return Problem(src, f"empty abstract ({text_key!r} is null)", rid, skipped=True)
    if not isinstance(text, str):
        return Problem(src, f"{text_key!r} is not a string", rid)
    title = obj.get(title_key) if title_key is not None else None
    title = " ".join(title.split()) if isinstance(title, str) and title.strip() else None
    meta = {str(k): v for k, v in obj.items()
            if k not in (id_key, title_key, text_key) and _meta_value(v)}
    for what in (rid, text, title or ""):
        reason = bad_text(what)
        if reason:
            return Problem(src, reason, None if what is rid else rid)
    if meta:
        dumped = json.dumps(meta, ensure_ascii=False)
        reason = bad_text(dumped)
        if reason:
            return Problem(src, f"a metadata field holds {reason.split(' at ')[0]}", rid)
    item = Item(rid, src, text.strip(), title, meta or None)
    return missing_abstract(item) or item
