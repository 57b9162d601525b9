"""JSON Lines and JSON files, including what the scholarly APIs return.

* ``.jsonl`` / ``.ndjson``: one object per line (arXiv's metadata snapshot, OpenAlex and
  Semantic Scholar dataset dumps, your own); default ids ``<label>#<line>``.
* ``.json``: an array of objects, or an API response wrapping one: OpenAlex's
  ``{"results": [...]}``, Semantic Scholar's ``{"data": [...]}``, Crossref's ``{"message":
  {"items": [...]}}`` (its JATS abstracts as text, :mod:`.crossref`), or a single object;
  default ids ``<label>#<n>`` (n counts objects from 1; a Crossref work's DOI).

``NaN``/``Infinity`` constants are read as the strings they are (outputs stay strict JSON).
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterable, Iterator

from .crossref import crossref_works
from .model import TEXT_FIELDS, FieldMap, Item, Problem, bad_text, from_mapping


def _loads(text: str):
    return json.loads(text, parse_constant=str)


def _why(e: Exception) -> str:
    if isinstance(e, json.JSONDecodeError):
        return f"not JSON ({e.msg} at column {e.colno})"
    return "not JSON (nested too deeply)"


def read_jsonl(lines: Iterable[str], name: str, label: str,
               fields: FieldMap | None = None) -> Iterator[Item | Problem]:
    seen_any = False
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        seen_any = True
        src = f"{name}:{lineno}"
        reason = bad_text(line)          # undecodable bytes (JSON escapes are checked later)
        if reason:
            yield Problem(src, reason)
            continue
        try:
            obj = _loads(line)
        except (ValueError, RecursionError) as e:
            yield Problem(src, _why(e))
            continue
        if not isinstance(obj, dict):
            yield Problem(src, "not a JSON object")
            continue
        yield from_mapping(obj, label, lineno, src, fields)
    if not seen_any:
        yield Problem(f"{name}:1", "empty file")


def _objects(doc) -> list | None:
    if isinstance(doc, list):
        return doc
    if isinstance(doc, dict):
        for key in ("results", "data"):          # OpenAlex, Semantic Scholar
            if isinstance(doc.get(key), list):
                return doc[key]
        return crossref_works(doc) or [doc]
    return None


def read_json(lines: Iterable[str], name: str, label: str,
              fields: FieldMap | None = None) -> Iterator[Item | Problem]:
    text = "".join(lines)
    if not text.strip():
        yield Problem(f"{name}:1", "empty file")
        return
    reason = bad_text(text)
    if reason and "UTF-8" in reason:
        line = text.count("\n", 0, text.find(next(c for c in text if "\udc80" <= c <= "\udcff"))) + 1
        yield Problem(f"{name}:{line}", reason.split(" at ")[0] + "; file not read")
        return
    try:
        doc = _loads(text)
    except (ValueError, RecursionError) as e:
        where = getattr(e, "lineno", 1)
        yield Problem(f"{name}:{where}", _why(e) + "; file not read")
        return
    objs = _objects(doc)
    if objs is None:
        yield Problem(f"{name}:1", "not a JSON array or object of abstracts")
        return
    if not objs:
        yield Problem(f"{name}:1", "no records (an empty array)")
        return
    for n, obj in enumerate(objs, start=1):
        src = f"{name}:#{n}"
        if not isinstance(obj, dict):
            yield Problem(src, "not a JSON object")
            continue
        yield from_mapping(obj, label, n, src, fields)


_COLUMN = re.compile(r"[^\W\d][\w .()/-]{0,39}")
_COLUMN_WORDS = re.compile(r"(?i)(?:^|[\W_])(?:abstract|title|text|summary|id|key|doi|year|authors?|venue|url)(?:$|[\W_])")


def _csv_header(line: str, text_field: str | None) -> bool:
    """A CSV header row: two or more cells, one of them an abstract's field name; or, so that
    a header naming the abstract otherwise (``paper_id,abstract_text``) is read as the CSV it
    is (and refused for its column, as the same file given by name is), two or more short
    column names, one with an underscore or a column word (id, title, abstract, doi, ...),
    on a line that does not end like a sentence."""
    try:
        cells = next(csv.reader([line]))
    except (csv.Error, StopIteration):
        return False
    names = {c.strip().lower() for c in cells}
    wanted = set(TEXT_FIELDS) | ({text_field.strip().lower()} if text_field else set())
    if len(cells) < 2:
        return False
    if names & wanted:
        return True
    stripped = [c.strip() for c in cells]
    return (not line.rstrip().endswith((".", "!", "?", ":", ";"))
            and all(_COLUMN.fullmatch(c) and len(c.split()) <= 3 for c in stripped)
            and any("_" in c or _COLUMN_WORDS.search(c) for c in stripped))


def sniff(first: str, text_field: str | None = None) -> str:
    """The format of standard input from its first non-blank line (a CSV is known by a header
    row naming the abstract's column: ``id,title,abstract``, Zotero's ``Abstract Note``)."""
    s = first.lstrip("\ufeff \t\r\n")
    if s.startswith("["):
        return ".json"
    if s.startswith("{"):
        try:
            json.loads(first)
            return ".jsonl"
        except ValueError:
            return ".json"      # a pretty-printed object spans lines
    if s.startswith("@"):
        return ".bib"
    if s.startswith("<"):
        return ".atom"          # (<?xml ...?> or <feed ...>: the arXiv API's answer)
    if _csv_header(s.rstrip("\r\n"), text_field):
        return ".csv"
    return ".txt"
