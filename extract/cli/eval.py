"""``extract eval``: precision/recall/F1 of a records file against gold annotations."""

from __future__ import annotations

import json

import click

from . import common
from .readside import output_option, write_output
from ..errors import ExtractError
from ..evaluate import evaluate, format_table, load_jsonl, match_gold


def _examples_in_gold(recs: list[dict], gold: list[dict]) -> list[str]:
    """Ids of gold abstracts that were few-shot examples of the run (``provenance.examples``
    holds the digests of the examples' abstracts)."""
    from ..examples import text_digest

    given = {d for r in recs for d in ((r.get("provenance") or {}).get("examples") or [])
             if isinstance(d, str)} if any(isinstance(r.get("provenance"), dict) for r in recs) else set()
    if not given:
        return []
    return [str(g.get("id", "?")) for g, rec in match_gold(recs, gold)
            if rec is not None and isinstance(rec.get("text"), str) and text_digest(rec["text"]) in given]


@click.command("eval")
@click.argument("records", metavar="RECORDS.jsonl", type=str)
@click.option("--gold", "gold_path", required=True, metavar="GOLD.jsonl",
              help="Gold annotations, one JSON object per abstract (tests/gold/dev-gold.jsonl format).")
@common.format_options(("text", "json"), "text")
@output_option
def eval_cmd(records: str, gold_path: str, fmt: str, output: str | None) -> None:
    """Score RECORDS.jsonl against gold annotations.

    Precision, recall and F1 (with tp/fp/fn) of method names, datasets, numbers (matched by
    value), result numbers and result claims (a gold result number is recovered when a
    predicted result number with the same value names the same dataset and the same method;
    "" and null agree); then a macro F1 over names, datasets and numbers, dataset attachment
    accuracy (value-matched gold numbers that name a dataset), metric token F1 (over
    value-matched gold numbers), contribution accuracy and the grounded rate.

    Exit codes: 0 scored; 2 no gold record matched any record (nothing was scored: wrong
    files?), a file is missing or not JSONL, the gold file is empty, or the files are of the
    wrong kind (RECORDS without records of `extract run`, or records given as --gold)."""
    try:
        recs = load_jsonl(records, "records file")
        gold = load_jsonl(gold_path, "gold file")
    except ExtractError as e:
        common.fail(str(e), e.exit_code)
        return
    if not gold:
        common.fail(f"gold file {gold_path} has no annotations")
        return
    # swapped or wrong files would be scored as all misses with exit 0: refuse them
    if any("extraction" in g for g in gold):
        common.fail(f"--gold {gold_path} holds records of `extract run` (lines with an 'extraction'), "
                    "not gold annotations: did you swap RECORDS and --gold?")
        return
    if not any("extraction" in r for r in recs):
        common.fail(f"{records} holds no record of `extract run` (no line has an 'extraction'"
                    + ("; it looks like gold annotations: did you swap RECORDS and --gold?)"
                       if recs and all("first_words" in r or "method_names" in r for r in recs) else ")"))
        return
    res = evaluate(recs, gold)
    if res.matched == 0:
        common.fail(f"none of the {len(gold)} gold record(s) of {gold_path} matched a record of "
                    f"{records} (by id, PPP-n <-> <stem>#n, or first words): wrong files?")
        return
    if res.unmatched_gold:
        click.echo(f"extract: {len(res.unmatched_gold)} gold record(s) not found in {records} "
                   f"(counted as misses): {', '.join(res.unmatched_gold)}", err=True)
    shown = _examples_in_gold(recs, gold)
    if shown:
        click.echo(f"extract: {len(shown)} gold abstract(s) were given to the model as --examples "
                   f"({', '.join(shown[:5])}{', ...' if len(shown) > 5 else ''}): their scores "
                   "measure copying, not extraction", err=True)
    if not res.has_claims:
        click.echo(f"extract: {gold_path} has no claim fields (metric, dataset, method): "
                   "claims figures are not scored", err=True)
    if res.not_understood:
        click.echo(f"extract: {len(res.not_understood)} record(s) without the default schema's "
                   f"fields were scored as empty", err=True)
    if fmt == "json":
        write_output("eval", json.dumps(res.as_dict(), ensure_ascii=False) + "\n", output)
    else:
        write_output("eval", format_table(res), output)
