"""``extract cache stats|clear``."""

from __future__ import annotations

import json

import click

from ..cache import AnswerCache
from ..errors import ExtractError
from .common import cache_dir_option, fail


@click.group()
def cache() -> None:
    """Inspect or empty the answer cache."""


@cache.command()
@cache_dir_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object instead of text.")
def stats(cache_dir: str, as_json: bool) -> None:
    """Entries and size of the cache."""
    try:
        s = AnswerCache(cache_dir).stats()
    except ExtractError as e:
        fail(str(e), e.exit_code)
    if as_json:
        click.echo(json.dumps(s))
    else:
        click.echo(f"{s['directory']}: {s['entries']:,} entries, {s['bytes']:,} bytes")


@cache.command()
@cache_dir_option
def clear(cache_dir: str) -> None:
    """Remove every cached answer (also from a cache that can no longer be read)."""
    try:
        n = AnswerCache(cache_dir).clear()
    except ExtractError as e:
        fail(str(e), e.exit_code)
    if n is None:
        click.echo(f"removed an unreadable cache from {cache_dir}", err=True)
    else:
        click.echo(f"removed {n:,} entries from {cache_dir}", err=True)
