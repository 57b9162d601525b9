"""Atom feeds: the arXiv API's answer (``export.arxiv.org/api/query``), read as it is returned.

Each ``<entry>`` is one Item: its ``<summary>`` the abstract, kept as written (the API wraps its
lines; the rules read a wrapped line's break as a space, and every offset is into this text), its
``<title>`` the title, its id the arXiv identifier of its ``<id>``
(``http://arxiv.org/abs/2401.01234v2`` -> ``2401.01234v2``; any other ``<id>`` as written), and
under ``meta`` its authors, dates, categories, DOI, journal reference, comment and links.

Parsed by the standard library's pull parser as the lines arrive (streamed, one entry in memory at
a time): its expat (2.4 or newer) refuses entity-expansion bombs and never fetches an external
entity, and a document type declaration is refused here before the parser sees it, so nothing an
input declares is expanded or fetched (no extra dependency such as defusedxml is needed for that).
An entry the API reports as an error (``<id>http://arxiv.org/api/errors#...``) is a Problem with
its message; XML that breaks mid-feed keeps the entries read before it and is one Problem at its line.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator

from .model import FieldMap, Item, Problem, from_mapping

_ATOM = "{http://www.w3.org/2005/Atom}"
_ARXIV = "{http://arxiv.org/schemas/atom}"
_ARXIV_ID = re.compile(r"arxiv\.org/abs/(\S+?)/?$")
_DECLARATION = re.compile(r"<!(?:DOCTYPE|ENTITY)", re.I)


def _text(el: ET.Element, tag: str) -> str | None:
    found = el.find(tag)
    return found.text if found is not None and found.text and found.text.strip() else None


def _mapping(entry: ET.Element) -> dict:
    """The entry as the fields ``from_mapping`` reads, its metadata flattened."""
    raw_id = _text(entry, _ATOM + "id") or ""
    obj: dict = {"id": (m.group(1) if (m := _ARXIV_ID.search(raw_id.strip())) else raw_id.strip()),
                 "title": _text(entry, _ATOM + "title"), "summary": _text(entry, _ATOM + "summary")}
    authors = [a for a in (_text(x, _ATOM + "name") for x in entry.findall(_ATOM + "author")) if a]
    meta = {"authors": authors,
            "published": _text(entry, _ATOM + "published"), "updated": _text(entry, _ATOM + "updated"),
            "categories": [c.get("term") for c in entry.findall(_ATOM + "category") if c.get("term")],
            "primary_category": (p.get("term") if (p := entry.find(_ARXIV + "primary_category")) is not None
                                 else None),
            "doi": _text(entry, _ARXIV + "doi"), "journal_ref": _text(entry, _ARXIV + "journal_ref"),
            "comment": _text(entry, _ARXIV + "comment")}
    for link in entry.findall(_ATOM + "link"):
        key = "pdf" if link.get("title") == "pdf" else "url" if link.get("rel") == "alternate" else None
        if key and link.get("href"):
            meta[key] = link.get("href")
    obj.update({k: " ".join(v.split()) if isinstance(v, str) else v for k, v in meta.items() if v})
    return obj


def read_atom(lines: Iterable[str], name: str, label: str,
              fields: FieldMap | None = None) -> Iterator[Item | Problem]:
    parser = ET.XMLPullParser(events=("start", "end"))
    root: ET.Element | None = None
    n, at, lineno = 0, 0, 0
    try:
        for lineno, line in enumerate(lines, 1):
            if root is None and _DECLARATION.search(line):
                yield Problem(f"{name}:{lineno}", "a document type declaration (<!DOCTYPE ...>) is not read: "
                                                  "an Atom feed has none")
                return
            parser.feed(line)
            for event, el in parser.read_events():
                if root is None:
                    root = el
                    if el.tag != _ATOM + "feed":
                        yield Problem(f"{name}:{lineno}", f"not an Atom feed (its root is <{el.tag.split('}')[-1]}>)")
                        return
                elif event == "start" and el.tag == _ATOM + "entry":
                    at = lineno
                elif event == "end" and el.tag == _ATOM + "entry":
                    n += 1
                    obj = _mapping(el)
                    if "arxiv.org/api/errors" in (_text(el, _ATOM + "id") or ""):
                        said = " ".join((obj.get("summary") or obj.get("title") or "no message").split())
                        yield Problem(f"{name}:{at}", f"the feed reports an error: {said}")
                    else:
                        yield from_mapping(obj, label, n, f"{name}:{at}", fields)
                    root.clear()                # (the entries read are let go: streamed)
        parser.close()
    except ET.ParseError as e:
        where = e.position[0] if getattr(e, "position", None) else lineno
        yield Problem(f"{name}:{where}", f"not well-formed XML ({str(e).split(':')[0]})")
        return
    if root is None:
        yield Problem(f"{name}:1", "empty file")
