"""Backends: the seam between the core and whatever runs the model."""

from .base import Answer, Backend, Job, load_backend

__all__ = ["Answer", "Backend", "Job", "load_backend"]
