"""``extract table``: comparison tables over a records file (see :mod:`extract.table`)."""

from __future__ import annotations

import click

from .common import format_options
from .readside import load_or_exit, output_option, write_output
from ..table import VIEWS, build_rows, only_kind, without_claims
from ..table_render import FORMATS, render_rows


@click.command("table")
@click.argument("records", type=click.Path(dir_okay=True, path_type=str))
@click.option("--by", "by", type=click.Choice(VIEWS), default="dataset", show_default=True,
              help="Group the rows (one per claimed number) by dataset, method, metric or the paper's task; "
                   "task also lists papers without numbers.")
@format_options(FORMATS, "markdown", help="markdown pastes into a draft; csv/json keep nulls null and values numeric.")
@click.option("--kind", type=click.Choice(["all", "result", "setting"]), default="all", show_default=True,
              help="Only numbers of this kind.")
@output_option
def table(records: str, by: str, fmt: str, kind: str, output: str | None) -> None:
    """Comparison table of the claims in RECORDS.jsonl ('-': stdin, as in
    `extract run x | extract table -`).

    One row per claimed number, as its record's claim states it: dataset, method, metric,
    value, unit, kind and paper (its title when the input had one, else its id), grouped by
    --by; csv and json add the paper's id, the method's role, the number's text and offsets,
    the task and the contribution.  Names are merged across papers when they are the same
    name written differently (case, punctuation, wrappers, long form vs acronym).
    """
    rs = load_or_exit("table", records, default_schema=True)
    papers = rs.papers if kind == "all" else [only_kind(p, kind) for p in rs.papers]
    old = without_claims(papers)
    if old:
        click.echo(f"extract: {old} number(s) come from records without claim fields (made before claims); "
                   "their dataset, method and metric are empty: re-run extract to fill them", err=True)
    if by != "task":
        bare = sum(1 for p in papers if not p.numbers)
        if bare:
            what = "numbers" if kind == "all" else f"{kind} numbers"
            click.echo(f"extract: {bare} paper{' has' if bare == 1 else 's have'} no {what}; "
                       "--by task lists them too", err=True)
    rows = build_rows(papers, by, None if kind == "all" else kind)
    write_output("table", render_rows(rows, by, fmt), output)
