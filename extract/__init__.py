"""extract: validated, source-grounded, cached structured records from research abstracts.

The public API is what ``__all__`` lists; everything else is internal.  The one-call API
(``extract.extract``, ``extract.extract_many``) and the read side (``load_records``,
``build_table``, ``triage_records``, ``write_report``) live in :mod:`extract.api`.
"""

from ._version import __version__
from .api import (Fields, Record, build_table, extract, extract_many, load_records,
                  triage_records, write_report)
from .backends.base import Answer, Backend, Job, load_backend
from .config import RunConfig
from .errors import (BackendError, BudgetExhausted, ExtractError, FatalBackendError, InputError,
                     OutputLockedError, RecordError, RequestRejected, SchemaFailure,
                     TransientBackendError, UsageError)
from .grounding import Aligner, Span, align
from .inputs import FieldMap, Item, Problem, expand, read_inputs
from .output import RecordSink
from .pipeline import Extractor, Summary

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
