"""``extract schema``: print the JSON Schema records are held to."""

from __future__ import annotations

import json

import click

from ..config import RunConfig
from ..errors import ExtractError
from ..prompting import load_schema
from .common import fail
from .readside import output_option, write_output


@click.command()
@click.option("--schema", "ref", default=RunConfig.schema, show_default=True,
              help="Pydantic model as module:Class or path/file.py:Class.")
@output_option
def schema(ref: str, output: str | None) -> None:
    """Print the JSON Schema of the extraction model (--schema)."""
    try:
        cls = load_schema(ref)
    except ExtractError as e:
        fail(str(e), e.exit_code)
    write_output("schema", json.dumps(cls.model_json_schema(), indent=2) + "\n", output)
