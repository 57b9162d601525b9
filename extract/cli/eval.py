"""``extract eval``: precision/recall/F1 of a records file against gold annotations."""

from __future__ import annotations

import json

import click

from . import common
from ..errors import ExtractError
from ..evaluate import evaluate, format_table, load_jsonl


@click.command("eval")
@click.argument("records", metavar="RECORDS.jsonl", type=str)
@click.option("--gold", "gold_path", required=True, metavar="GOLD.jsonl",
              help="gold annotations, one JSON object per abstract (dev-gold.jsonl format)")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object instead of a table")
def eval_cmd(records: str, gold_path: str, as_json: bool) -> None:
    """Score RECORDS.jsonl against --gold: names, datasets, numbers, result numbers,
    contribution accuracy and grounded rate (micro counts plus a macro F1), and the claims:
    result-claims P/R/F1 (a gold result number is recovered when a predicted result number
    with the same value names the same dataset and the same method; "" and null agree),
    dataset attachment accuracy (value-matched gold numbers that name a dataset) and metric
    token F1 (over value-matched gold numbers).

    Exit codes: 0 scored; 1 no gold record matched any record (nothing was scored: wrong
    files?); 2 a file is missing or not JSONL, or the gold file is empty."""
    try:
        recs = load_jsonl(records, "records file")
        gold = load_jsonl(gold_path, "gold file")
    except ExtractError as e:
        common.fail(str(e), e.exit_code)
        return
    if not gold:
        common.fail(f"gold file {gold_path} has no annotations")
        return
    res = evaluate(recs, gold)
    if res.matched == 0:
        common.fail(f"no gold record of {gold_path} matches a record of {records} "
                    "(by id, PPP-n <-> <stem>#n, or first words): nothing to score", 1)
        return
    if res.unmatched_gold:
        click.echo(f"extract eval: {len(res.unmatched_gold)} gold record(s) not found in {records} "
                   f"(counted as misses): {', '.join(res.unmatched_gold)}", err=True)
    if res.not_understood:
        click.echo(f"extract eval: {len(res.not_understood)} record(s) without the default schema's "
                   f"fields were scored as empty", err=True)
    if as_json:
        click.echo(json.dumps(res.as_dict(), ensure_ascii=False))
    else:
        click.echo(format_table(res), nl=False)
