"""``extract batch submit|status|collect``: the OpenAI Batch API (or vLLM's offline runner)."""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import click
import openai
from tqdm import tqdm

from ..config import RunConfig, remote_from_env
from ..errors import ExtractError, UsageError
from ..output import RecordSink
from .common import (cache_dir_option, fail, max_chars_option, max_tokens_option,
                     no_cache_option, not_empty, prompt_option, schema_option, temperature_option)
from .common import ranged
from ..config import PROPOSALS
from .run import PROPOSAL_HELP, build_config


def request_options(func):
    """Options that shape a request: submit and collect must be given the same ones."""
    options = [
        click.option("--model", required=True, help="Model name at the endpoint."),
        click.option("--base-url", "base_url", default=None,
                     help="OpenAI-compatible endpoint (default: OPENAI_BASE_URL, else OpenAI). "
                          "Part of the cache key: use the one later live runs will use."),
        schema_option, prompt_option, temperature_option, max_tokens_option, max_chars_option,
        click.option("--reasks", type=ranged("reasks"), default=RunConfig.reasks,
                     show_default=True,
                     help="Only part of the cache key here (a batch cannot re-ask): keep it "
                          "equal to later live runs' so they hit the cache."),
        click.option("--examples", "examples", type=click.Path(dir_okay=False, exists=True), default=None,
                     callback=not_empty,
                     help="Few-shot examples for the model, as `extract run --examples`: JSON Lines of "
                          "an abstract and its expected record; part of every request (and so of its "
                          "custom_id) and of the cache key: give collect the same file."),
        click.option("--proposal", type=click.Choice(PROPOSALS), default=RunConfig.proposal,
                     show_default=True, help=PROPOSAL_HELP + " Give collect the same one."),
        cache_dir_option, no_cache_option,
    ]
    for option in reversed(options):
        func = option(func)
    return func


def make_config(model, base_url, schema, prompt, temperature, max_tokens, max_chars, reasks,
                examples, cache_dir, no_cache, proposal=RunConfig.proposal) -> RunConfig:
    return build_config("openai", model, (base_url,) if base_url else (), "json_schema", 1,
                        cache_dir, no_cache, None, schema, prompt, reasks, 0, 60.0, max_tokens,
                        max_chars, None, temperature, examples=examples, proposal=proposal)


def handled(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except ExtractError as e:
            fail(str(e), e.exit_code)
        except openai.APIError as e:         # uploads, batch calls: the key is never in these
            status = getattr(e, "status_code", None)
            fail(f"the endpoint refused: HTTP {status} ({type(e).__name__})" if status
                 else f"cannot reach the endpoint ({type(e).__name__})", 3)
        except KeyboardInterrupt:
            click.echo("extract: interrupted", err=True)
            sys.exit(130)
    return wrapper


def _log(msg: str) -> None:
    click.echo(f"extract: {msg}", err=True)


@click.group()
def batch() -> None:
    """Run a corpus through the OpenAI Batch API (or vLLM's offline batch runner).

    \b
    extract batch submit INPUTS... --model M --keep batch.jsonl   # prints the batch id(s)
    extract batch status ID
    extract batch collect ID INPUTS... --model M -o out.jsonl     # same options as submit
    """


@batch.command()
@click.argument("inputs", nargs=-1, required=True, type=click.Path(path_type=Path))
@request_options
@click.option("--keep", type=click.Path(dir_okay=False, path_type=Path), default=Path("batch.jsonl"),
              show_default=True, help="Where the request file is written (further parts: "
                                      "NAME.2.jsonl ...); feed it to vLLM's run_batch too.")
@click.option("--max-lines", type=click.IntRange(1, 50_000), default=50_000, show_default=True,
              help="Requests per batch; more inputs make several batches.")
@click.option("--dry-run", is_flag=True, help="Write the request file(s) only; upload nothing.")
@handled
def submit(inputs, model, base_url, schema, prompt, temperature, max_tokens, max_chars, reasks,
           examples, proposal, cache_dir, no_cache, keep, max_lines, dry_run):
    """Write the requests for INPUTS, upload them and create the batch (ids on stdout).

    Abstracts already in the cache are left out (collect takes them from the cache).
    """
    from ..batch import submit as do_submit, write_requests

    config = make_config(model, base_url, schema, prompt, temperature, max_tokens, max_chars,
                         reasks, examples, cache_dir, no_cache, proposal)
    if dry_run and not config.api_key:
        # nothing is sent, so no key is needed; the key is in no request line nor cache key
        config = config.with_(api_key="unused-by-a-dry-run")
    if dry_run:
        _, report = write_requests(inputs, config, keep, max_lines=max_lines,
                                   use_cache=not no_cache, log=_log)
    else:
        report = do_submit(inputs, config, keep, max_lines=max_lines, use_cache=not no_cache,
                           log=_log)
    for problem in report.problems:
        _log(problem)
    for batch_id in report.batches:
        click.echo(batch_id)
    files = ", ".join(str(f) for f in report.files) or "no file"
    _log(f"{report.requests:,} requests in {files}; {report.cached:,} already cached; "
         f"{len(report.problems):,} input problems"
         + ("" if dry_run or report.batches else "; nothing to submit"))


@batch.command()
@click.argument("batch_id")
@click.option("--base-url", "base_url", default=None, help="Endpoint (default: OPENAI_BASE_URL, else OpenAI).")
@handled
def status(batch_id, base_url):
    """Print the batch's state as JSON (stdout) and one line (stderr)."""
    from ..batch import status as do_status

    env_urls, api_key = remote_from_env()
    config = RunConfig(backend="openai", base_urls=(base_url,) if base_url else env_urls,
                       api_key=api_key)
    info = do_status(batch_id, config)
    click.echo(json.dumps(info))
    counts = info.get("request_counts") or {}
    _log(f"{info['id']}: {info['status']}, {counts.get('completed', 0)} completed, "
         f"{counts.get('failed', 0)} failed of {counts.get('total', 0)}")


@batch.command()
@click.argument("args", nargs=-1, required=True, metavar="[BATCH_ID] INPUTS...")
@request_options
@click.option("--results", multiple=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Local result file(s) in the batch output format (e.g. vLLM run_batch "
                   "-o) instead of a batch id; then give no BATCH_ID.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write records here (resumable) instead of stdout.")
@click.option("--errors", "errors_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Errors file (default: next to --output).")
@click.option("--verify/--no-verify", default=True, show_default=True,
              help="Read the request digests from the batch's uploaded input file.")
@click.option("--redo", is_flag=True,
              help="Replace the records -o holds that another configuration made.")
@click.option("--progress/--no-progress", default=None)
@handled
def collect(args, model, base_url, schema, prompt, temperature, max_tokens, max_chars,
            reasks, examples, proposal, cache_dir, no_cache, results, output, errors_file, verify, redo, progress):
    """Validate and ground a finished batch's answers into records, fill the cache.

    Give the same INPUTS and options as to submit.  Exit status: 0 all ok; 1 some records
    failed (errors file); 2 bad usage; 3 the batch failed; 5 output locked; 6 the batch
    has not finished yet.
    """
    from ..batch import BatchRequests
    from ..batch_collect import collect as do_collect

    if results:                          # answers from files: every argument is an input
        batch_id, inputs = None, tuple(Path(a) for a in args)
    else:
        batch_id, inputs = args[0], tuple(Path(a) for a in args[1:])
        if not inputs:
            raise UsageError("give the batch id and the INPUTS it was submitted from")
    config = make_config(model, base_url, schema, prompt, temperature, max_tokens, max_chars,
                         reasks, examples, cache_dir, no_cache, proposal)
    reqs = BatchRequests(config)
    with RecordSink(output, errors_file, inputs=inputs, config=reqs.extractor.identity,
                    redo=redo) as sink:
        if sink.done:
            _log(f"resuming: {len(sink.done):,} records already in {output}")
        bar = tqdm(file=sys.stderr, unit=" abstracts", dynamic_ncols=True, leave=False,
                   disable=None if progress is None else not progress)
        try:
            summary = do_collect(inputs, config, sink, batch_id=batch_id, results=tuple(results),
                                 verify=verify, log=_log, progress=bar, reqs=reqs)
        finally:
            bar.close()
    click.echo(summary.line(), err=True)
    if sink.replaced:
        _log(f"--redo: replaced {sink.replaced:,} records made with another configuration")
    if summary.failed or summary.problems:
        _log(f"{summary.failed + summary.problems} failures listed in {sink.errors_path or 'stderr'}")
    sys.exit(summary.exit_code)
