"""Prompt templates: loading, rendering, and the digest that goes into cache keys."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from pydantic import BaseModel

from .errors import UsageError


def sha256(data: str | bytes) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Prompt:
    name: str
    system: str
    user: str

    @property
    def sha(self) -> str:
        return sha256(json.dumps([self.system, self.user]))

    def render(self, abstract: str) -> tuple[dict, ...]:
        return (
            {"role": "system", "content": self.system},
            {"role": "user", "content": self.user.replace("{abstract}", abstract)},
        )


@lru_cache(maxsize=8)
def load_prompt(name: str) -> Prompt:
    """``name`` is a template shipped in ``extract.prompts`` or a path prefix
    (``my/prompt`` -> ``my/prompt.system.txt`` and ``my/prompt.user.txt``)."""
    from pathlib import Path

    parts = {}
    for part in ("system", "user"):
        fname = f"{name}.{part}.txt"
        path = Path(fname)
        if path.is_file():
            parts[part] = path.read_text(encoding="utf-8")
            continue
        try:
            parts[part] = resources.files("extract.prompts").joinpath(fname).read_text(encoding="utf-8")
        except (FileNotFoundError, ModuleNotFoundError):
            raise UsageError(f"prompt {name!r}: no file {fname} (shipped or local)") from None
    if "{abstract}" not in parts["user"]:
        raise UsageError(f"prompt {name!r}: the user template has no {{abstract}} placeholder")
    return Prompt(name, parts["system"], parts["user"])


def schema_json(model: type[BaseModel]) -> str:
    """The schema's JSON Schema, canonical: the text whose digest is ``schema_sha``."""
    return json.dumps(model.model_json_schema(), sort_keys=True, separators=(",", ":"))


def load_schema(ref: str) -> type[BaseModel]:
    """Import ``module:Class`` and check it is a Pydantic model."""
    import importlib

    module_name, _, attr = ref.partition(":")
    if not module_name or not attr:
        raise UsageError(f"--schema must look like module:Class, got {ref!r}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise UsageError(f"--schema {ref}: cannot import {module_name} ({e})") from None
    cls = getattr(module, attr, None)
    if not (isinstance(cls, type) and issubclass(cls, BaseModel)):
        raise UsageError(f"--schema {ref}: {attr} is not a Pydantic model class")
    return cls
