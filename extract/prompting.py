"""Prompt templates: loading, rendering, and the digest that goes into cache keys.

A prompt is two files, ``<name>.system.txt`` and ``<name>.user.txt``.  The user template has
an ``{abstract}`` placeholder and may have a ``{title}`` one: a line holding ``{title}`` is
left out when the abstract has no title.  With a schema other than the default, the
schema's own instructions (its docstring and field descriptions) are added to the system
message, under the template's ``{schema_instructions}`` placeholder or at its end.

Templates are re-read when their file changes (the cache is keyed on path, mtime and size),
so an edited prompt is never served with its old text or its old digest.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from pydantic import BaseModel

from .digest import sha256
from .errors import UsageError
from .schema_loader import DEFAULT_SCHEMA, is_default_schema, load_schema

__all__ = ["Prompt", "load_prompt", "prompt_for", "schema_instructions", "schema_json",
           "load_schema", "sha256", "DEFAULT_SCHEMA"]

_PLACEHOLDER = re.compile(r"\{(abstract|title)\}")
DEFAULT_PROMPT = "extract"      # the shipped prompt written for the default schema
GENERIC_PROMPT = "generic"      # the shipped prompt for any other schema


@dataclass(frozen=True)
class Prompt:
    name: str
    system: str
    user: str

    @property
    def sha(self) -> str:
        return sha256(json.dumps([self.system, self.user]))

    @property
    def uses_title(self) -> bool:
        return "{title}" in self.user

    def render(self, abstract: str, title: str | None = None) -> tuple[dict, ...]:
        title = " ".join(title.split()) if title else ""
        template = "\n".join(line for line in self.user.split("\n")
                             if title or "{title}" not in line)
        # one pass: a title holding "{abstract}" (or an abstract holding "{title}") stays as written
        values = {"abstract": abstract, "title": title}
        user = _PLACEHOLDER.sub(lambda m: values[m.group(1)], template)
        return ({"role": "system", "content": self.system}, {"role": "user", "content": user})

    def key_text(self, abstract: str, title: str | None = None) -> str:
        """What of the item goes into the cache key: the abstract, plus the title when the
        template sends one (so a changed title is a changed request)."""
        if title and self.uses_title:
            return json.dumps([" ".join(title.split()), abstract], ensure_ascii=False)
        return abstract

    def with_instructions(self, instructions: str) -> "Prompt":
        if not instructions:
            return Prompt(self.name, self.system.replace("{schema_instructions}", ""), self.user)
        if "{schema_instructions}" in self.system:
            system = self.system.replace("{schema_instructions}", instructions)
        else:
            system = self.system.rstrip() + "\n\n" + instructions + "\n"
        return Prompt(self.name, system, self.user)


def _sources(name: str) -> dict[str, Path | None]:
    """Where each part is read from: a local file (path prefix) or the shipped template."""
    out: dict[str, Path | None] = {}
    for part in ("system", "user"):
        path = Path(f"{name}.{part}.txt")
        out[part] = path if path.is_file() else None
    return out


_CACHE: dict[tuple, Prompt] = {}


def _stamp(path: Path) -> tuple:
    st = path.stat()
    return (str(path.resolve()), st.st_mtime_ns, st.st_size)


def load_prompt(name: str) -> Prompt:
    """``name`` is a template shipped in ``extract.prompts`` or a path prefix
    (``my/prompt`` -> ``my/prompt.system.txt`` and ``my/prompt.user.txt``)."""
    sources = _sources(name)
    key = (name,) + tuple(_stamp(p) if p else None for p in sources.values())
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    parts = {}
    for part, path in sources.items():
        fname = f"{name}.{part}.txt"
        if path is not None:
            parts[part] = path.read_text(encoding="utf-8")
            continue
        try:
            parts[part] = resources.files("extract.prompts").joinpath(fname).read_text(encoding="utf-8")
        except (FileNotFoundError, ModuleNotFoundError, IsADirectoryError, NotADirectoryError):
            raise UsageError(f"prompt {name!r}: no file {fname} (shipped or local)") from None
    if "{abstract}" not in parts["user"]:
        raise UsageError(f"prompt {name!r}: the user template has no {{abstract}} placeholder")
    prompt = Prompt(name, parts["system"], parts["user"])
    if len(_CACHE) > 32:
        _CACHE.clear()
    _CACHE[key] = prompt
    return prompt


def schema_instructions(model: type[BaseModel]) -> str:
    """The schema's own instructions: its docstring and each field's description."""
    lines = []
    doc = (model.__doc__ or "").strip()
    if doc and doc != (BaseModel.__doc__ or "").strip():
        lines.append(" ".join(doc.split()))
    fields = [(n, f.description) for n, f in model.model_fields.items() if f.description]
    if fields:
        lines.append("Fields:")
        lines += [f"- {n}: {' '.join(d.split())}" for n, d in fields]
    return "\n".join(lines)


def prompt_for(name: str, schema: type[BaseModel]) -> Prompt:
    """The prompt a run sends with ``schema``.  The default prompt is written for the default
    schema; with another schema and the default prompt name, the generic prompt is used.
    A non-default schema's docstring and field descriptions are added as instructions."""
    if is_default_schema(schema):
        return load_prompt(name)
    if name == DEFAULT_PROMPT:
        name = GENERIC_PROMPT
    return load_prompt(name).with_instructions(schema_instructions(schema))


def schema_json(model: type[BaseModel]) -> str:
    """The schema's JSON Schema, canonical: the text whose digest is ``schema_sha``."""
    return json.dumps(model.model_json_schema(), sort_keys=True, separators=(",", ":"))
