"""``extract report``: one self-contained HTML page over a records file."""

from __future__ import annotations

import sys

import click

from .common import fail, not_empty
from .readside import load_or_exit, write_output
from ..report import render


@click.command("report")
@click.argument("records", type=click.Path(path_type=str))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=str), default=None,
              callback=not_empty, help="The HTML file to write ('-': stdout; needed when stdout is a terminal).")
@click.option("--title", default=None, help="Page title (default: from the file name).")
def report(records: str, output: str | None, title: str | None) -> None:
    """Write a self-contained HTML report of RECORDS.jsonl.

    Highlighted abstracts, extractions, triage flags and the comparison table of claims with
    charts, in one file with no external resources."""
    if output is None and sys.stdout.isatty():
        fail("give -o FILE.html (or -o - to write the HTML to stdout)")
    rs = load_or_exit("report", records)
    write_output("report", render(rs, title), output)
