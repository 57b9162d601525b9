"""``extract cache stats|clear``."""

from __future__ import annotations

import json

import click

from ..cache import AnswerCache
from ..errors import ExtractError
from .common import cache_dir_option, fail, format_options
from .readside import output_option, write_output


@click.group()
def cache() -> None:
    """Inspect or empty the answer cache."""


@cache.command()
@cache_dir_option
@format_options(("text", "json"), "text")
@output_option
def stats(cache_dir: str, fmt: str, output: str | None) -> None:
    """Print the number of entries and the size of the cache."""
    try:
        s = AnswerCache(cache_dir).stats()
    except ExtractError as e:
        fail(str(e), e.exit_code)
    if fmt == "json":
        write_output("cache stats", json.dumps(s) + "\n", output)
    else:
        write_output("cache stats", f"{s['directory']}: {s['entries']:,} entries, {s['bytes']:,} bytes\n", output)


@cache.command()
@cache_dir_option
def clear(cache_dir: str) -> None:
    """Remove every cached answer.

    A cache that can no longer be read is removed too."""
    try:
        n = AnswerCache(cache_dir).clear()
    except ExtractError as e:
        fail(str(e), e.exit_code)
    if n is None:
        click.echo(f"extract: removed an unreadable cache from {cache_dir}", err=True)
    else:
        click.echo(f"extract: removed {n:,} {'entry' if n == 1 else 'entries'} from {cache_dir}", err=True)
