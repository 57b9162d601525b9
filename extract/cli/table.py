"""``extract table``: comparison tables over a records file (see :mod:`extract.table`)."""

from __future__ import annotations

import click

from . import common
from ..errors import ExtractError, InputError
from ..records import RecordSet, load_records
from ..table import FORMATS, VIEWS, render


def fail(command: str, err: ExtractError | str, code: int = 2) -> None:
    """One line on stderr, then exit (status from the error, else ``code``)."""
    common.fail(str(err), getattr(err, "exit_code", code))


def load_or_exit(command: str, path: str) -> RecordSet:
    try:
        rs = load_records(path, warn=lambda m: click.echo(m, err=True))
        if not rs.papers and not rs.failures:
            if common.has_content(path):
                fail(command, InputError(f"{path} holds no extract records (is it an input "
                                         "file? give the -o file of `extract run`)"))
            click.echo(f"extract {command}: no records in {path}", err=True)
        return rs
    except ExtractError as e:
        fail(command, e)
    except UnicodeDecodeError as e:  # pragma: no cover - errors="replace" makes this rare
        fail(command, InputError(f"cannot read records {path}: {e}"))
    raise AssertionError("unreachable")


def write_output(command: str, text: str, output: str | None) -> None:
    common.write_output(text, output)


@click.command("table")
@click.argument("records", type=click.Path(dir_okay=True, path_type=str))
@click.option("--by", "by", type=click.Choice(VIEWS), default="dataset", show_default=True,
              help="dataset/method: one row per (dataset, method, number), grouped; task: one row per paper.")
@common.format_options(FORMATS, "markdown")
@click.option("--kind", type=click.Choice(["all", "result", "setting"]), default="all", show_default=True,
              help="Only numbers of this kind, and no rows without a number (dataset/method views).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=str), default=None,
              help="Write to FILE instead of stdout.")
def table(records: str, by: str, fmt: str, as_json: bool, kind: str, output: str | None) -> None:
    """Comparison table of the numbers claimed in RECORDS.jsonl, by dataset, method or task.

    Dataset and method names are merged across papers when they are the same name written
    differently (case, punctuation, wrappers, long form vs acronym).
    """
    fmt = "json" if as_json else fmt
    rs = load_or_exit("table", records)
    papers = rs.papers
    if kind != "all":
        papers = [_only(p, kind) for p in papers]
    if by != "task":
        bare = sum(1 for p in rs.papers if not p.datasets and not p.numbers)
        if bare:
            click.echo(f"{bare} paper(s) name no dataset and no number; they are listed with --by task",
                       err=True)
    write_output("table", render(papers, by, fmt, with_empty=kind == "all"), output)


def _only(paper, kind: str):
    from dataclasses import replace
    return replace(paper, numbers=[n for n in paper.numbers if n.kind == kind])
