"""BibTeX files, read by ``bibtexparser`` (v2, maintained, pure Python): each entry with an
``abstract`` field is one Item, its citation key the id, its other fields (author, year,
doi, journal, ...) under ``meta``.  An entry without an abstract is reported, not dropped
silently; a block the parser cannot read is reported with its line."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator

from .model import FieldMap, Item, Problem, from_mapping

_BRACES = re.compile(r"(?<!\\)[{}]")


def _plain(value: str) -> str:
    """A title without BibTeX's case-protecting braces ({T}ransformers -> Transformers)."""
    return " ".join(_BRACES.sub("", value).split())


def read_bib(lines: Iterable[str], name: str, label: str,
             fields: FieldMap | None = None) -> Iterator[Item | Problem]:
    import bibtexparser

    text = "".join(lines)
    if not text.strip():
        yield Problem(f"{name}:1", "empty file")
        return
    log = logging.getLogger("bibtexparser")
    old, log.disabled = log.disabled, True       # failures are reported below instead
    try:
        library = bibtexparser.parse_string(text)
    finally:
        log.disabled = old
    blocks = sorted([(e.start_line, e) for e in library.entries]
                    + [(b.start_line, b) for b in library.failed_blocks], key=lambda t: t[0])
    n = 0
    for start, block in blocks:
        src = f"{name}:{start + 1}"
        if not hasattr(block, "fields_dict"):
            yield Problem(src, f"unparsable BibTeX entry ({type(block.error).__name__})")
            continue
        n += 1
        obj = {"id": block.key, "ENTRYTYPE": block.entry_type}
        for f in block.fields:
            obj[f.key] = f.value if isinstance(f.value, str) else str(f.value)
        if isinstance(obj.get("title"), str):
            obj["title"] = _plain(obj["title"])
        yield from_mapping(obj, label, n, src, fields)
    if not blocks:
        yield Problem(f"{name}:1", "no BibTeX entries")
