"""``--schema``: a Pydantic model named as ``module:Class`` or ``path/to/file.py:Class``.

A module is imported with the current directory on the import path (so ``my_schema:Paper``
works without PYTHONPATH); a ``.py`` path is loaded from that file.  Loading a schema runs
its module's code: it is the user's own code, named by them on the command line.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from pathlib import Path

from typing import Literal, get_args, get_origin

from pydantic import BaseModel

from .errors import UsageError

DEFAULT_SCHEMA = "extract.schemas.paper:PaperExtraction"


def _split(ref: str) -> tuple[str, str]:
    # "C:\x\y.py:Paper" has two colons: the class is after the last one
    module, sep, attr = ref.rpartition(":")
    if not sep or not module or not attr:
        raise UsageError(f"--schema must look like module:Class or file.py:Class, got {ref!r}")
    return module, attr


def _from_file(ref: str, path: Path):
    if not path.is_file():
        raise UsageError(f"--schema {ref}: no such file {path}")
    name = "extract_user_schema_" + path.stem.replace("-", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:  # pragma: no cover - a .py file always has one
        raise UsageError(f"--schema {ref}: cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module            # pydantic resolves forward references through it
    try:
        spec.loader.exec_module(module)
    except Exception as e:
        sys.modules.pop(name, None)
        raise UsageError(f"--schema {ref}: {path} failed to import "
                         f"({type(e).__name__}: {e})") from None
    return module


def _from_module(ref: str, module_name: str):
    cwd = os.getcwd()
    added = cwd not in sys.path
    if added:
        sys.path.insert(0, cwd)
    try:
        return importlib.import_module(module_name)
    except ImportError as e:
        raise UsageError(f"--schema {ref}: cannot import {module_name} ({e})") from None
    except Exception as e:
        raise UsageError(f"--schema {ref}: {module_name} failed to import "
                         f"({type(e).__name__}: {e})") from None
    finally:
        if added:
            try:
                sys.path.remove(cwd)
            except ValueError:  # pragma: no cover
                pass


def load_schema(ref: "str | type[BaseModel]") -> type[BaseModel]:
    """The Pydantic model class ``ref`` names (or ``ref`` itself, a class given by the
    Python API: ``schema=Paper``), or a one-line :class:`UsageError`."""
    if isinstance(ref, type):
        if issubclass(ref, BaseModel):
            return ref
        raise UsageError(f"schema {ref.__name__} is not a Pydantic model class")
    module_name, attr = _split(ref)
    if module_name.endswith(".py") or os.sep in module_name or "/" in module_name:
        module = _from_file(ref, Path(module_name))
    else:
        module = _from_module(ref, module_name)
    if not hasattr(module, attr):
        found = sorted(n for n, v in vars(module).items()
                       if isinstance(v, type) and issubclass(v, BaseModel) and v is not BaseModel
                       and getattr(v, "__module__", None) == module.__name__)
        hint = f" (models there: {', '.join(found)})" if found else ""
        raise UsageError(f"--schema {ref}: no class {attr} in {module_name}{hint}")
    cls = getattr(module, attr)
    if not (isinstance(cls, type) and issubclass(cls, BaseModel)):
        raise UsageError(f"--schema {ref}: {attr} is not a Pydantic model class")
    return cls


def default_schema() -> type[BaseModel]:
    """The shipped schema, ``PaperExtraction`` (imported on first use)."""
    from .schemas.paper import PaperExtraction
    return PaperExtraction


def is_default_schema(cls: type[BaseModel]) -> bool:
    """The shipped schema or a subclass of it (its fields are what the rules and the
    hybrid job fill)."""
    return isinstance(cls, type) and issubclass(cls, default_schema())


def contributions(schema: type[BaseModel]) -> tuple[str, ...]:
    """The contribution labels, read from the schema's ``Literal`` (written once)."""
    ann = schema.model_fields["contribution"].annotation
    if get_origin(ann) is not Literal:
        raise TypeError(f"{schema.__name__}.contribution is not a Literal")
    return tuple(get_args(ann))
