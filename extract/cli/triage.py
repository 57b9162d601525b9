"""``extract triage``: which papers' claims a reviewer should read and question first."""

from __future__ import annotations

import click

from ..triage import FORMATS, render
from .common import format_options, output_option
from .table import load_or_exit, write_output


@click.command("triage")
@click.argument("records", type=click.Path(path_type=str))
@format_options(FORMATS, "text")
@output_option
def triage(records: str, fmt: str, as_json: bool, output: str | None) -> None:
    """Flag papers of RECORDS.jsonl whose claims need a closer look, highest score first.

    Reads RECORDS minus .jsonl plus .errors.jsonl too, when present (failed extractions).
    Flags and weights: see `extract.triage` (README "Triage flags").
    """
    rs = load_or_exit("triage", records)
    write_output("triage", render(rs, "json" if as_json else fmt), output)
