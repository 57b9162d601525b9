"""extract: validated, source-grounded, cached structured records from research abstracts.

The public API is what ``__all__`` lists; everything else is internal.  The one-call API
(``extract.extract``, ``extract.extract_many``) and the read side (``load_records``,
``build_table``, ``triage_records``, ``write_report``) live in :mod:`extract.api`.

Each name is imported on first use (PEP 562), so ``import extract.cli`` or
``import extract.config`` does not load the pipeline, the rule layer or any backend:
``extract --help`` starts without them.
"""

from __future__ import annotations

import importlib

from ._version import __version__

#: public name -> the module (relative to this package) that defines it
_WHERE = {
    **dict.fromkeys(("Fields", "Record", "build_table", "extract", "extract_many", "load_records",
                     "triage_records", "write_report"), ".api"),
    **dict.fromkeys(("Answer", "Backend", "Job", "load_backend"), ".backends.base"),
    "RunConfig": ".config",
    **dict.fromkeys(("BackendError", "BudgetExhausted", "ExtractError", "FatalBackendError",
                     "InputError", "OutputLockedError", "RecordError", "RequestRejected",
                     "SchemaFailure", "TransientBackendError", "UsageError"), ".errors"),
    **dict.fromkeys(("Aligner", "Span", "align"), ".grounding"),
    **dict.fromkeys(("FieldMap", "Item", "Problem", "expand", "read_inputs"), ".inputs"),
    "RecordSink": ".output",
    **dict.fromkeys(("Extractor", "Summary"), ".pipeline"),
}

__all__ = [
    "__version__",
    # one call
    "extract", "extract_many", "Record", "Fields",
    # reading records
    "load_records", "build_table", "triage_records", "write_report",
    # running
    "RunConfig", "Extractor", "Summary", "RecordSink", "Item", "Problem", "FieldMap", "expand",
    "read_inputs",
    # backends
    "Backend", "Job", "Answer", "load_backend",
    # grounding
    "Aligner", "Span", "align",
    # errors
    "ExtractError", "UsageError", "InputError", "OutputLockedError", "BackendError",
    "TransientBackendError", "FatalBackendError", "RecordError", "SchemaFailure",
    "RequestRejected", "BudgetExhausted",
]


def __getattr__(name: str):
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'extract' has no attribute {name!r}")
    value = getattr(importlib.import_module(where, __name__), name)
    globals()[name] = value          # once: later lookups do not come here
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
