"""Helpers shared by the commands."""

from __future__ import annotations

import functools
import math
import sys

import click

from .. import redact
from ..config import DEFAULT_CACHE_DIR, ENV_CACHE_DIR, RANGES, RunConfig


class _FiniteFloatRange(click.FloatRange):
    """click's FloatRange lets nan and inf through (no comparison fails on nan)."""

    def convert(self, value, param, ctx):
        rv = super().convert(value, param, ctx)
        if not math.isfinite(rv):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return rv


def ranged(field: str) -> click.ParamType:
    """The click type of a numeric RunConfig field, from its one range in ``config.RANGES``."""
    r = RANGES[field]
    return (click.IntRange if r.kind is int else _FiniteFloatRange)(r.lo, r.hi)


def not_empty(ctx, param, value):
    """Callback: refuse an empty value (``--model ''``) instead of silently using the default;
    for ``-O KEY VALUE`` pairs only the key must be non-empty."""
    values = value if isinstance(value, tuple) else (value,)
    for v in values:
        key = v[0] if isinstance(v, tuple) else v
        if isinstance(key, str) and not key.strip():
            raise click.BadParameter("must not be empty" if not isinstance(v, tuple)
                                     else "KEY must not be empty", ctx, param)
    return value


# Options that several commands share, defined once.
cache_dir_option = click.option("--cache-dir", type=click.Path(file_okay=False),
                                envvar=ENV_CACHE_DIR, show_envvar=True, callback=not_empty,
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
temperature_option = click.option("--temperature", type=ranged("temperature"),
                                  default=RunConfig.temperature, show_default=True,
                                  help="Sampling temperature (0: the most likely answer).")
max_tokens_option = click.option("--max-tokens", type=ranged("max_tokens"), default=RunConfig.max_tokens,
                                 show_default=True, help="Completion tokens per request.")
max_chars_option = click.option("--max-chars", type=ranged("max_chars"), default=RunConfig.max_chars,
                                show_default=True,
                                help="Longer abstracts are rejected, never sent whole.")


def fail(message: str, code: int = 2) -> None:
    """One clear line on stderr, then exit with ``code``."""
    click.echo(f"extract: error: {redact.safe(message)}", err=True)
    sys.exit(code)


# -- the output convention shared by the commands that print a result --------------------
#   --format FMT   (text|json|..., per command; --json is an alias of --format json); when
#                  neither is given, -o FILE's suffix picks the format (SUFFIX_FORMATS), else
#                  the command's default
#   -o, --output   write to FILE (atomically) instead of stdout; '-' is stdout
#                  (output_option and write_output in .readside)
# Errors: one line "extract: error: ..." on stderr (fail), exit 2 for bad usage or input.

SUFFIX_FORMATS = {".csv": "csv", ".json": "json", ".md": "markdown", ".markdown": "markdown",
                  ".html": "html", ".htm": "html"}


def output_format(fmt: str | None, as_json: bool, output: str | None, choices, default: str) -> str:
    """The format to write: ``--json`` or ``--format`` when given (an explicit format wins
    over any suffix), else the one ``-o``'s suffix names if the command offers it, else
    ``default``."""
    if as_json:
        return "json"
    if fmt is not None:
        return fmt
    if output and output != "-":
        name = output.lower()
        for suffix, inferred in SUFFIX_FORMATS.items():
            if name.endswith(suffix) and inferred in choices:
                return inferred
    return default


def format_options(choices, default: str, json_alias: bool = True, help: str = "Output format."):
    """``--format`` with ``choices`` (and ``--json``, the alias of ``--format json``); the
    command gets ``fmt`` resolved by :func:`output_format` (its ``output`` parameter is
    ``-o``) and no ``as_json``."""
    choices = list(choices)
    by_suffix = [s for s, f in SUFFIX_FORMATS.items() if f in choices and f != default]
    note = (f"Default: from -o's suffix ({', '.join(by_suffix)}), else {default}." if by_suffix
            else f"Default: {default}.")

    def deco(func):
        @functools.wraps(func)
        def resolved(*args, **kwargs):
            kwargs["fmt"] = output_format(kwargs.get("fmt"), kwargs.pop("as_json", False),
                                          kwargs.get("output"), choices, default)
            return func(*args, **kwargs)

        cmd = click.option("--format", "fmt", type=click.Choice(choices), default=None,
                           help=f"{help} {note}".strip())(resolved)
        if json_alias and "json" in choices:
            cmd = click.option("--json", "as_json", is_flag=True,
                               help="Same as --format json.")(cmd)
        return cmd
    return deco
