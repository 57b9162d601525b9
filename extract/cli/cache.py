"""``extract cache stats|clear``."""

from __future__ import annotations

import json

import click

from ..cache import AnswerCache
from .common import cache_dir_option


@click.group()
def cache() -> None:
    """Inspect or empty the answer cache."""


@cache.command()
@cache_dir_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object instead of text.")
def stats(cache_dir: str, as_json: bool) -> None:
    """Entries and size of the cache."""
    s = AnswerCache(cache_dir).stats()
    if as_json:
        click.echo(json.dumps(s))
    else:
        click.echo(f"{s['directory']}: {s['entries']:,} entries, {s['bytes']:,} bytes")


@cache.command()
@cache_dir_option
def clear(cache_dir: str) -> None:
    """Remove every cached answer."""
    n = AnswerCache(cache_dir).clear()
    click.echo(f"removed {n:,} entries from {cache_dir}", err=True)
