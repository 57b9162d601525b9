"""Helpers shared by the commands."""

from __future__ import annotations

import sys

import click

from ..config import DEFAULT_CACHE_DIR, RunConfig

# Options that several commands share, defined once.
cache_dir_option = click.option("--cache-dir", type=click.Path(file_okay=False),
                                default=str(DEFAULT_CACHE_DIR), show_default=True)
no_cache_option = click.option("--no-cache", is_flag=True, help="Neither read nor write the cache.")
schema_option = click.option("--schema", default=RunConfig.schema, show_default=True,
                             help="Pydantic model as module:Class.")
prompt_option = click.option("--prompt", default=RunConfig.prompt, show_default=True,
                             help="Shipped prompt name or a path prefix (P.system.txt, P.user.txt).")
temperature_option = click.option("--temperature", type=click.FloatRange(0),
                                  default=RunConfig.temperature, show_default=True)
max_tokens_option = click.option("--max-tokens", type=click.IntRange(16), default=RunConfig.max_tokens,
                                 show_default=True, help="Completion tokens per request.")
max_chars_option = click.option("--max-chars", type=click.IntRange(100), default=RunConfig.max_chars,
                                show_default=True,
                                help="Longer abstracts are rejected, never sent whole.")


def fail(message: str, code: int = 2) -> None:
    """One clear line on stderr, then exit with ``code``."""
    click.echo(f"extract: error: {message}", err=True)
    sys.exit(code)
