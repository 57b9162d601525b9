"""extract: validated, source-grounded, cached structured records from research abstracts.

The public API is what ``__all__`` lists; everything else is internal.
"""

from ._version import __version__
from .backends.base import Answer, Backend, Job, load_backend
from .config import RunConfig
from .errors import (BackendError, BudgetExhausted, ExtractError, FatalBackendError, InputError,
                     OutputLockedError, RecordError, RequestRejected, SchemaFailure,
                     TransientBackendError, UsageError)
from .grounding import Aligner, Span, align
from .inputs import Item, Problem, expand, read_inputs
from .output import RecordSink
from .pipeline import Extractor, Summary

__all__ = [
    "__version__",
    # running
    "RunConfig", "Extractor", "Summary", "RecordSink", "Item", "Problem", "expand", "read_inputs",
    # backends
    "Backend", "Job", "Answer", "load_backend",
    # grounding
    "Aligner", "Span", "align",
    # errors
    "ExtractError", "UsageError", "InputError", "OutputLockedError", "BackendError",
    "TransientBackendError", "FatalBackendError", "RecordError", "SchemaFailure",
    "RequestRejected", "BudgetExhausted",
]
