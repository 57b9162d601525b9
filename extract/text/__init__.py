"""Text utilities of the project, written once: sentence spans, inline math/URL/citation spans,
the words around a position, acronym definitions and their long forms, the verbs that
introduce a contribution, numerals (value and unit of a span), and the field lexicon with the
model-name test.

A leaf: it imports nothing else from ``extract`` (an import-linter contract in
pyproject.toml checks this), so the schemas, the rule layer and the read side can all use it.
"""

from __future__ import annotations

from .acronyms import Definition, acronym_definitions, long_form
from .lexicon import is_known_dataset, is_model_family, is_model_name
from .numparse import parse_number, parse_number_at
from .sentences import sentence_at, sentence_bounds, sentences, words_after, words_before
from .spans import SpanIndex, excluded_spans, math_spans

__all__ = ["Definition", "SpanIndex", "acronym_definitions", "excluded_spans", "is_known_dataset", "is_model_family",
           "is_model_name", "long_form", "math_spans", "parse_number", "parse_number_at", "sentence_at", "sentence_bounds",
           "sentences", "words_after", "words_before"]
