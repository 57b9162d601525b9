"""llama.cpp grammars from JSON Schemas, for the in-process backend (the embedded tiny model and
``--model PATH.gguf``): what the converter ignores or mis-escapes is reported before a run."""

from __future__ import annotations

import json
import re
from typing import Any


# --- grammar conversion -------------------------------------------------------------------

# Keywords llama.cpp's converter ignores silently; a schema relying on them is only checked
# by the Pydantic validation afterwards, which is acceptable, so they are reported, not fatal.
_IGNORED_KEYWORDS = {"uniqueItems", "not", "if", "then", "else", "patternProperties",
                     "dependentRequired", "dependentSchemas", "contains", "multipleOf"}


class GrammarError(ValueError):
    """A JSON schema llama.cpp's converter cannot turn into a grammar."""


def ignored_keywords(schema: Any) -> set[str]:
    """Constraint keywords in ``schema`` the grammar will not enforce."""
    found: set[str] = set()

    def visit(node: dict) -> None:
        found.update(k for k in node if k in _IGNORED_KEYWORDS)

    _walk_schema(schema, visit, skip=("enum", "const", "default", "examples", "description", "title"))
    return found


def _walk_schema(node: Any, visit, skip: tuple[str, ...]) -> None:
    """Call ``visit`` on every object node of a JSON Schema, not descending into ``skip`` keys."""
    if isinstance(node, dict):
        visit(node)
        for k, v in node.items():
            if k not in skip:
                _walk_schema(v, visit, skip)
    elif isinstance(node, list):
        for v in node:
            _walk_schema(v, visit, skip)


def _misescaped_literals(schema: Any) -> list[str]:
    found: list[str] = []

    def strings(values: Any) -> list[str]:
        return [v for v in (values if isinstance(values, list) else [values]) if isinstance(v, str)]

    def visit(node: dict) -> None:
        lits = strings(node.get("enum", [])) + strings(node.get("const"))
        props = node.get("properties")
        if isinstance(props, dict):
            lits += list(props)
        found.extend(v for v in lits if "\\" in v or '"' in v)

    _walk_schema(schema, visit, skip=("enum", "const", "default", "examples"))
    return found


def grammar_from_schema(schema: dict) -> str:
    """GBNF text for ``schema``, or :class:`GrammarError` — never the silent fallback to
    free JSON that ``response_format`` does when conversion fails."""
    from llama_cpp.llama_grammar import json_schema_to_gbnf

    bad = _misescaped_literals(schema)
    if bad:
        raise GrammarError(f"the JSON schema has enum/const values or property names with a backslash or "
                           f"quote, which llama.cpp's converter turns into invalid JSON: {bad[:3]}")
    try:
        gbnf = json_schema_to_gbnf(json.dumps(schema))
    except Exception as e:  # the converter raises ValueError, AssertionError, KeyError...
        raise GrammarError(f"cannot build a grammar from the JSON schema: {type(e).__name__}: {e}") from None
    if "root ::=" not in gbnf:
        raise GrammarError("cannot build a grammar from the JSON schema: no root rule")
    if re.search(r"^root ::= object\s*$", gbnf, re.M) and schema.get("properties"):
        raise GrammarError("the JSON schema's properties were not converted (grammar is free JSON)")
    return gbnf
