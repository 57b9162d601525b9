"""``extract triage``: which papers' claims a reviewer should read and question first."""

from __future__ import annotations

import click

from ..triage import FORMATS, render
from .table import load_or_exit, write_output


@click.command("triage")
@click.argument("records", type=click.Path(path_type=str))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=str), default=None,
              help="Write to FILE instead of stdout.")
def triage(records: str, fmt: str, output: str | None) -> None:
    """Flag papers of RECORDS.jsonl whose claims need a closer look, highest score first.

    Reads RECORDS minus .jsonl plus .errors.jsonl too, when present (failed extractions).
    Flags and weights: see `extract.triage` (README "Triage flags").
    """
    rs = load_or_exit("triage", records)
    write_output("triage", render(rs, fmt), output)
