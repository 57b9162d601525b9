"""Helpers shared by the commands."""

from __future__ import annotations

import sys

import click

from ..config import DEFAULT_CACHE_DIR, ENV_CACHE_DIR, RunConfig

# Options that several commands share, defined once.
cache_dir_option = click.option("--cache-dir", type=click.Path(file_okay=False),
                                envvar=ENV_CACHE_DIR, show_envvar=True,
                                default=str(DEFAULT_CACHE_DIR), show_default=True,
                                help="The answer cache.")
no_cache_option = click.option("--no-cache", is_flag=True, help="Neither read nor write the cache.")
schema_option = click.option("--schema", default=RunConfig.schema, show_default=True,
                             help="Pydantic model as module:Class or path/file.py:Class.")
prompt_option = click.option(
    "--prompt", default=RunConfig.prompt, show_default=True,
    help="auto: the hybrid extractor (rules propose numbered candidates, the model decides) "
         "for the default schema on a capable model (any OpenAI-compatible endpoint, "
         "--backend local --model PATH.gguf), else extract. extract: the plain single-shot "
         "request. hybrid: the hybrid extractor on any backend. Or another shipped prompt, "
         "or a path prefix P (P.system.txt, P.user.txt).")
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


# -- the output convention shared by the commands that print a result --------------------
#   --format FMT   (text|json|..., per command; --json is an alias of --format json)
#   -o, --output   write to FILE (atomically) instead of stdout; '-' is stdout
#                  (output_option and write_output in .readside)
# Errors: one line "extract: error: ..." on stderr (fail), exit 2 for bad usage or input.

def format_options(choices, default: str, json_alias: bool = True, help: str = "Output format."):
    """``--format`` with ``choices`` (and ``--json``, the alias of ``--format json``)."""
    def deco(func):
        func = click.option("--format", "fmt", type=click.Choice(list(choices)), default=default,
                            show_default=True, help=help)(func)
        if json_alias and "json" in choices:
            func = click.option("--json", "as_json", is_flag=True,
                                help="Same as --format json.")(func)
        return func
    return deco
