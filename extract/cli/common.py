"""Helpers shared by the commands."""

from __future__ import annotations

import sys

import click


def fail(message: str, code: int = 2) -> None:
    """One clear line on stderr, then exit with ``code``."""
    click.echo(f"extract: error: {message}", err=True)
    sys.exit(code)
