"""Crossref's REST API answer (``api.crossref.org/works?query=...``, or one ``/works/DOI``), as
returned: ``{"message": {"items": [...]}}`` or ``{"message": {...}}``.

A work's abstract is JATS XML (``<jats:p>We propose ...</jats:p>``): its markup is taken out
here, paragraphs kept as blank lines, a leading ``<jats:title>Abstract</jats:title>`` dropped and
its entities decoded (``&lt;`` -> ``<``), so the record's text, which every offset points into, is
the abstract as a reader sees it (Crossref escapes every ``<`` of the text, so what is left between
angle brackets is markup). Its title (a list) is its first string, its DOI its id; the other
fields stay under ``meta`` as read.
"""

from __future__ import annotations

import html
import re

__all__ = ["crossref_works", "jats_text"]

_TITLE = re.compile(r"<(jats:)?title\b[^>]*>.*?</(jats:)?title>", re.S)
_PARAGRAPH_END = re.compile(r"</(?:jats:)?p>\s*(?=<(?:jats:)?(?:p|sec)\b)")
_TAG = re.compile(r"</?[A-Za-z][\w:.\-]*(?:\s[^<>]*)?/?>")
_BLANKS = re.compile(r"[ \t]*\n[ \t\n]*\n[ \t]*")


def jats_text(abstract: str) -> str:
    """The text of a JATS abstract, its markup out and its paragraphs as blank lines.

    >>> jats_text("<jats:title>Abstract</jats:title><jats:p>We propose <jats:italic>X</jats:italic>"
    ...           " (&lt;1 ms).</jats:p><jats:p>It works.</jats:p>")
    'We propose X (<1 ms).\\n\\nIt works.'
    """
    text = _PARAGRAPH_END.sub("\n\n", _TITLE.sub("", abstract, count=1))
    text = html.unescape(_TAG.sub("", text))
    return _BLANKS.sub("\n\n", text).strip()


def crossref_works(doc: dict) -> list | None:
    """The works of a Crossref answer, each with its abstract's text, its title and its DOI as
    the id (when it has none); None when ``doc`` is not one."""
    message = doc.get("message")
    if not isinstance(message, dict):
        return None
    items = message.get("items") if isinstance(message.get("items"), list) else \
        [message] if "DOI" in message else None
    if items is None:
        return None
    works = []
    for item in items:
        if isinstance(item, dict):
            item = dict(item)
            if isinstance(item.get("abstract"), str):
                item["abstract"] = jats_text(item["abstract"])
            if isinstance(item.get("title"), list):
                item["title"] = next((t for t in item["title"] if isinstance(t, str) and t.strip()), None)
            if "id" not in item and isinstance(item.get("DOI"), str):
                item["id"] = item.pop("DOI")
        works.append(item)
    return works
