"""BibTeX files, read by ``bibtexparser`` (v2, maintained, pure Python): each entry with an
``abstract`` field is one Item, its citation key the id, its other fields (author, year,
doi, journal, ...) under ``meta``.  An entry without an abstract is skipped and reported,
not dropped silently; a block the parser cannot read is reported with its line.

LaTeX in the title and the other fields is decoded by bibtexparser's
``LatexDecodingMiddleware`` (pylatexenc): ``M{\\"u}ller`` -> ``Müller``, ``Caf{\\'e}`` ->
``Café``, ``{T}ransformers`` -> ``Transformers``, ``\\%`` -> ``%``; math (``$\\alpha$``) is
kept as written.  The abstract is kept exactly as written: every offset of a record is
into the text read, and the grounding step already matches through LaTeX and markdown
wrappers (a span's ``fuzzy`` status)."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator

from .model import FieldMap, Item, Problem, from_mapping

_BRACES = re.compile(r"(?<!\\)[{}]")


def _plain(value: str) -> str:
    """A title without BibTeX's case-protecting braces ({T}ransformers -> Transformers)."""
    return " ".join(_BRACES.sub("", value).split())


def _decoder():
    from bibtexparser.middlewares import LatexDecodingMiddleware

    return LatexDecodingMiddleware(allow_inplace_modification=True)


def _decoded(block, text_key: str | None, decoder, library) -> dict[str, str]:
    """Every field of ``block`` but the abstract (``text_key``), LaTeX-decoded; a field the
    decoder fails on is kept as written."""
    from bibtexparser.model import Entry, Field

    fields = [Field(f.key, f.value if isinstance(f.value, str) else str(f.value))
              for f in block.fields if f.key != text_key]
    out = decoder.transform_entry(Entry(block.entry_type, block.key, fields), library)
    out = getattr(out, "block", out)      # a MiddlewareErrorBlock holds the entry it changed
    return {f.key: f.value if isinstance(f.value, str) else str(f.value) for f in out.fields}


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
    decoder = _decoder() if library.entries else None
    n = 0
    for start, block in blocks:
        src = f"{name}:{start + 1}"
        if not hasattr(block, "fields_dict"):
            yield Problem(src, f"unparsable BibTeX entry ({type(block.error).__name__})")
            continue
        n += 1
        raw = {f.key: f.value if isinstance(f.value, str) else str(f.value) for f in block.fields}
        text_key = (fields or FieldMap()).pick({k.strip().lower(): k for k in raw}, "text")
        obj = {"id": block.key, "ENTRYTYPE": block.entry_type, **_decoded(block, text_key, decoder, library)}
        if text_key is not None:
            obj[text_key] = raw[text_key]         # as written: offsets are into this text
        if isinstance(obj.get("title"), str):
            obj["title"] = _plain(obj["title"])
        yield from_mapping(obj, label, n, src, fields)
    if not blocks:
        yield Problem(f"{name}:1", "no BibTeX entries")
