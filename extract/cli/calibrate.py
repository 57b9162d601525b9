"""``extract calibrate``: rules against the model, field by field, on a labeled sample; a policy file out."""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

import click

from .. import calibrate as cal
from ..config import ENV_BACKEND, MODES, PROPOSALS, RunConfig
from ..errors import ExtractError, UsageError
from ..evaluate import load_jsonl
from ..inputs import Item, expand, read_inputs
from ..output import RecordSink
from ..pipeline import Extractor
from .common import cache_dir_option, fail, not_empty, ranged
from .readside import write_output
from .run import PROPOSAL_HELP, _check_backend, build_config, describe


@click.command()
@click.argument("inputs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--gold", "gold_path", required=True, metavar="GOLD.jsonl",
              help="Gold annotations of INPUTS' abstracts (tests/gold/dev-gold.jsonl format).")
@click.option("-o", "--output", "policy_out", required=True, type=click.Path(dir_okay=False), callback=not_empty,
              help="Write the policy file here (for extract run --policy FILE).")
@click.option("--backend", default=None, metavar="NAME", callback=not_empty,
              help=f"As for extract run (default: ${ENV_BACKEND}, else openai with --base-url).")
@click.option("--model", callback=not_empty, help="Model name (remote) or a .gguf path (--backend local).")
@click.option("--base-url", "base_urls", multiple=True, callback=not_empty, help="OpenAI-compatible endpoint(s).")
@click.option("--mode", type=click.Choice(MODES), default=RunConfig.mode, show_default=True,
              help="How a remote model is held to the schema.")
@click.option("--concurrency", type=ranged("concurrency"), default=RunConfig.concurrency, show_default=True)
@cache_dir_option
@click.option("--reasks", type=ranged("reasks"), default=RunConfig.reasks, show_default=True)
@click.option("--max-tokens-total", type=ranged("max_tokens_total"), metavar="N",
              help="Token budget of the sample's run (a rerun resumes from the cache).")
@click.option("--proposal", type=click.Choice(PROPOSALS), default=RunConfig.proposal, show_default=True,
              help=PROPOSAL_HELP + " Calibrate with the one you run with.")
def calibrate(inputs, gold_path, policy_out, backend, model, base_urls, mode, concurrency, cache_dir,
              reasks, max_tokens_total, proposal=RunConfig.proposal) -> None:
    """Score the rules and the model field by field on a labeled sample; write a policy file.

    Runs INPUTS' abstracts through the hybrid job (rules propose, the model answers) with the
    model you name - tokens are spent on these abstracts only, once: answers are cached, and
    a cached answer is never asked again.  Each raw answer is then mapped with every field
    decided by the rules, by the model and by the default (auto), scored against --gold, and
    each field goes to the source that scored best (a tie keeps auto).  The comparison goes
    to stdout; the policy to -o, for `extract run --policy FILE`.  Never calibrate on the
    set you report figures on.

    Exit codes: 0 written; 1 some abstracts failed (scored as misses); 2 bad usage (no model
    backend, no gold matched); 3 the backend is unusable; 4 token budget spent.
    """
    try:
        config = build_config(backend, model, base_urls, mode, concurrency, cache_dir, False, None,
                              RunConfig.schema, RunConfig.prompt, reasks, RunConfig.retries,
                              RunConfig.timeout, RunConfig.max_tokens, RunConfig.max_chars,
                              max_tokens_total, RunConfig.temperature, proposal=proposal)
        _check_backend(config.backend)
        gold = load_jsonl(gold_path, "gold file")
        ex = Extractor(config)
        if not ex.hybrid:
            raise UsageError("calibrate compares the rules with a model: name one (--base-url and --model, "
                             "or --backend local --model PATH.gguf)")
        click.echo(f"extract: {describe(ex)}", err=True)
        files, _ = expand(list(inputs))
        items = [e for e in read_inputs(files) if isinstance(e, Item)]
        with tempfile.TemporaryDirectory() as tmp:
            with RecordSink(os.path.join(tmp, "sample.jsonl")) as sink:
                summary = asyncio.run(ex.run(items, sink))
        click.echo(summary.line(), err=True)
        if summary.stopped:
            fail(f"stopped: {summary.stopped}", 4 if "budget" in summary.stopped else 3)
            return
        by_source = cal.remapped(lambda s: Extractor(cal.config_for(config, s), backend=ex.backend), items)
        result = cal.calibrate(by_source, gold)
        if result.matched == 0:
            raise UsageError(f"none of the gold records of {gold_path} matched an abstract of the sample")
        policy = result.policy({"model": config.model, "backend": config.backend, "gold": str(gold_path),
                                "proposal": config.proposal})
        write_output("calibrate", cal.dumps(policy), policy_out)
        click.echo(result.table(), nl=False)
        if summary.failed:
            raise SystemExit(1)
    except ExtractError as e:
        fail(str(e), e.exit_code)
