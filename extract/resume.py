"""What an output already holds, for resuming it: the records of each id (where from, of
which text, made how, on which line), read once when a run opens the output.

The rules are :mod:`extract.identity`'s; this is their index over a file.  Memory stays
flat however large the output is (:class:`~extract.idindex.IdIndex` spills to disk).  A
record replaced by a later one (a changed text, ``--redo``) is dropped from the index at
once, and :meth:`OutputIndex.keeps` tells the rewrite at the end which lines survive.
"""

from __future__ import annotations

import json
from pathlib import Path

from . import jsonl
from .idindex import IdIndex
from .identity import (Held, config_digest, origin, record_config, resume_state, supersedes,
                       text_digest)


def identity_of(value) -> tuple[str, str | None, str] | None:
    """(id, origin, text digest) of an ok record line, else None (errors, junk lines)."""
    if isinstance(value, dict) and value.get("status") == "ok" and "id" in value:
        text = value.get("text")
        return (str(value["id"]), origin(value.get("source")),
                text_digest(text if isinstance(text, str) else ""))
    return None


_FIELD, _ENTRY, _NONE = "\x1f", "\x1e", "\x00"


def _encode(held: list[Held]) -> str:
    """The records of an id as one short string (JSON only for an origin holding the
    separators: splitting is 4x faster than parsing JSON, and a rerun does it per input)."""
    if any(h.origin and (_FIELD in h.origin or _ENTRY in h.origin) for h in held):
        return json.dumps([h.as_list() for h in held])
    return _ENTRY.join(_FIELD.join((_NONE if h.origin is None else h.origin, h.text, h.config,
                                    str(h.line))) for h in held)


def _decode(note: str) -> list[Held]:
    if note.startswith("["):
        return [Held.of(x) for x in json.loads(note)]
    out = []
    for entry in note.split(_ENTRY):
        o, text, config, line = entry.split(_FIELD)
        out.append(Held(None if o == _NONE else o, text, config, int(line)))
    return out


def _count_lines(path: Path, chunk: int = 1 << 20) -> int:
    n, last = 0, b"\n"
    with path.open("rb") as fh:
        while block := fh.read(chunk):
            n += block.count(b"\n")
            last = block[-1:]
    return n + (last != b"\n")


class OutputIndex:
    """The records of an output, by id.  ``current``: the configuration of the run that
    opens it (:func:`extract.identity.config_identity`); None compares no configurations."""

    def __init__(self, current: dict | None = None):
        self.current = current
        self.config = config_digest(current) if current is not None else ""
        self._ids = IdIndex()
        self.records = 0          # records held now
        self.lines = 0            # lines of the file when it was scanned, then appended
        self.dropped = 0          # lines whose record a later one replaced
        self.replaced = 0         # of those: records of another configuration (--redo)
        self.configs: dict[str, int] = {}      # config digest -> records held
        self.examples: dict[str, dict] = {}    # config digest -> its configuration
        self._last: tuple[dict, str] | None = None

    # -- reading -------------------------------------------------------------------------
    def scan(self, path: Path) -> "OutputIndex":
        """Index ``path`` (its torn last line already cut); a later record of an id
        replaces an earlier one by the same rules as a run."""
        if not path.exists():
            return self
        for line in jsonl.read(path, strict=False):     # only ids, sources and texts are read
            self.lines = line.number
            ident = identity_of(line.value) if line.ok else None
            if ident is not None:
                cfg = self._config_of(line.value)
                self.add(ident[0], Held(ident[1], ident[2], cfg, line.number), scanning=True)
        self.lines = max(self.lines, _count_lines(path))  # blank lines count too
        return self

    def _config_of(self, rec: dict) -> str:
        if self.current is None:
            return ""
        ident = record_config(rec, self.current)
        if self._last is not None and self._last[0] == ident:   # most records: as the last
            return self._last[1]
        digest = config_digest(ident)
        self.examples.setdefault(digest, ident)
        self._last = (ident, digest)
        return digest

    # -- questions -----------------------------------------------------------------------
    def held(self, rid: str) -> list[Held]:
        note = self._ids.get(rid)
        return _decode(note) if note else []

    def state(self, rid: str, text: str, source: str | None = None) -> str:
        """:func:`extract.identity.resume_state` of an input under this run's configuration."""
        note = self._ids.get(rid)
        if not note:
            return "new"
        digest = text_digest(text)
        if _ENTRY not in note and not note.startswith("["):     # one record (the usual case)
            _, held_text, held_config, _ = note.split(_FIELD)
            if held_text == digest and held_config == self.config:
                return "done"
        return resume_state(_decode(note), origin(source), digest, self.config)

    def holds(self, rid: str, source: str | None) -> bool:
        """Whether a record of id ``rid`` from the input of ``source`` is held."""
        o = origin(source)
        return any(h.origin is None or o is None or h.origin == o for h in self.held(rid))

    def others(self) -> dict[str, int]:
        """Records held per configuration other than this run's."""
        return {d: n for d, n in self.configs.items() if n and d != self.config}

    def keeps(self, rid: str, line: int) -> bool:
        """Whether the record of ``rid`` on ``line`` survives (no later record replaced it)."""
        return any(h.line == line for h in self.held(rid))

    # -- writing -------------------------------------------------------------------------
    def add(self, rid: str, new: Held, scanning: bool = False) -> None:
        """Hold ``new``; drop the records of ``rid`` it replaces."""
        kept = []
        for h in self.held(rid):
            if supersedes(h, new):
                self.dropped += 1
                self.records -= 1
                self.configs[h.config] -= 1
                if not scanning and h.config != new.config:
                    self.replaced += 1
            else:
                kept.append(h)
        kept.append(new)
        self._ids.add(rid, _encode(kept))
        self.records += 1
        self.configs[new.config] = self.configs.get(new.config, 0) + 1

    def append(self, rid: str, source: str | None, text: str) -> None:
        """A record this run wrote at the end of the file."""
        self.lines += 1
        self.add(rid, Held(origin(source), text_digest(text), self.config, self.lines))

    def __len__(self) -> int:
        return self.records

    def __bool__(self) -> bool:
        return self.records > 0

    def __contains__(self, rid: object) -> bool:
        return isinstance(rid, str) and rid in self._ids

    def close(self) -> None:
        self._ids.close()
