"""``extract triage``: which papers' claims a reviewer should read and question first."""

from __future__ import annotations

import click

from .common import format_options
from .readside import load_or_exit, output_option, write_output
from ..triage import flags_help
from ..triage_render import FORMATS, render

_EPILOG = ("\b\nFlags (weight; * = counted per item, up to 3 times; README \"Triage flags\"):\n"
           + flags_help())


@click.command("triage", epilog=_EPILOG)
@click.argument("records", type=click.Path(path_type=str))
@format_options(FORMATS, "text")
@click.option("--top", type=click.IntRange(1), default=None, metavar="N", help="Show only the N highest-scoring papers.")
@click.option("--min-score", type=click.IntRange(0), default=None, metavar="S",
              help="Show only papers scoring at least S.")
@click.option("--disagree", is_flag=True,
              help="Only papers where the rules' reading of a claim and the model's differ (flag rules_disagree).")
@output_option
def triage(records: str, fmt: str, top: int | None, min_score: int | None, disagree: bool,
           output: str | None) -> None:
    """Papers whose claims need a closer look, highest score first.

    Reads RECORDS.jsonl ('-': stdin).  Each flag comes with the evidence (the sentence, the span marked) that raised it; the
    score is the sum of the flags' weights, a flag marked * counting once per item (up to
    3).  Failed extractions are read from RECORDS minus .jsonl plus .errors.jsonl, when
    present.  A file that is not a records file of the default schema exits 2.
    """
    rs = load_or_exit("triage", records, default_schema=True)
    write_output("triage", render(rs, fmt, top, min_score, "rules_disagree" if disagree else None), output)
