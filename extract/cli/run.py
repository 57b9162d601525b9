"""``extract run``: abstracts in, grounded JSONL records out."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import click
from tqdm import tqdm

from ..config import RunConfig, remote_from_env
from ..errors import EXIT_INTERRUPTED, ExtractError
from ..inputs import expand, read_inputs
from ..output import RecordSink
from ..pipeline import Extractor
from .common import (cache_dir_option, fail, max_chars_option, max_tokens_option,
                     no_cache_option, prompt_option, schema_option, temperature_option)

DEFAULT_OPENAI_MODEL = "gpt-4o-mini"


def build_config(backend, model, base_urls, mode, concurrency, cache_dir, no_cache, limit,
                 schema, prompt, reasks, retries, timeout, max_tokens, max_chars,
                 max_tokens_total, temperature) -> RunConfig:
    env_urls, api_key = remote_from_env()
    urls = tuple(base_urls) or env_urls
    if backend is None:
        backend = "openai" if (urls or api_key) else "local"
    if backend == "openai" and not model and not urls:
        model = DEFAULT_OPENAI_MODEL
    return RunConfig(
        backend=backend, model=model, base_urls=urls, api_key=api_key, mode=mode,
        concurrency=concurrency, cache_dir=Path(cache_dir), use_cache=not no_cache,
        limit=limit, schema=schema, prompt=prompt, reasks=reasks, retries=retries,
        timeout=timeout, max_tokens=max_tokens, max_chars=max_chars,
        max_tokens_total=max_tokens_total, temperature=temperature)


@click.command()
@click.argument("inputs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write records here (resumable) instead of stdout; failures go to "
                   "OUTPUT minus .jsonl plus .errors.jsonl.")
@click.option("--errors", "errors_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Errors file (default: next to --output; stderr lines without -o).")
@click.option("--backend", type=click.Choice(["local", "openai", "rules"]), default=None,
              help="Default: openai if an endpoint or key is configured, else the embedded model.")
@click.option("--model", help="Model name (remote) or a .gguf path (local).")
@click.option("--base-url", "base_urls", multiple=True,
              help="OpenAI-compatible endpoint; repeat for replicas. Wins over OPENAI_BASE_URL.")
@click.option("--mode", type=click.Choice(["tools", "json_schema", "json"]), default="tools",
              show_default=True, help="How the schema is held to a remote model.")
@click.option("--concurrency", type=click.IntRange(1, 1024), default=8, show_default=True,
              help="Requests in flight (remote backends).")
@cache_dir_option
@no_cache_option
@click.option("--limit", type=click.IntRange(0), help="Process at most N new abstracts.")
@schema_option
@prompt_option
@click.option("--reasks", type=click.IntRange(0, 10), default=RunConfig.reasks, show_default=True,
              help="Re-asks after an invalid or ungrounded answer.")
@click.option("--retries", type=click.IntRange(0, 50), default=RunConfig.retries, show_default=True,
              help="Retries of transient faults (429, 5xx, timeouts).")
@click.option("--timeout", type=click.FloatRange(0.1), default=RunConfig.timeout, show_default=True,
              help="Seconds per HTTP request.")
@temperature_option
@max_tokens_option
@max_chars_option
@click.option("--max-tokens-total", type=click.IntRange(1),
              help="Stop cleanly (resumable, exit 4) once the run has spent this many tokens.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: when stderr is a terminal).")
def run(inputs, output, errors_file, backend, model, base_urls, mode, concurrency, cache_dir,
        no_cache, limit, schema, prompt, reasks, retries, timeout, temperature, max_tokens,
        max_chars, max_tokens_total, progress):
    """Extract records from abstracts in INPUTS (.txt, .jsonl, .csv files or directories).

    Exit status: 0 all ok; 1 some records failed (see the errors file); 2 bad usage or
    input; 3 the backend is unusable (run stopped); 4 token budget spent (rerun resumes);
    5 the output file is locked by another run; 130 interrupted.
    """
    try:
        config = build_config(backend, model, base_urls, mode, concurrency, cache_dir, no_cache,
                              limit, schema, prompt, reasks, retries, timeout, max_tokens,
                              max_chars, max_tokens_total, temperature)
        files, notes = expand(inputs)
        for note in notes:
            click.echo(f"extract: {note}", err=True)
        extractor = Extractor(config)
        with RecordSink(output, errors_file) as sink:
            if sink.repaired_bytes:
                click.echo(f"extract: repaired a torn last line in {output} "
                           f"({sink.repaired_bytes} bytes cut)", err=True)
            if sink.done:
                click.echo(f"extract: resuming: {len(sink.done):,} records already in {output}",
                           err=True)
            bar = tqdm(file=sys.stderr, unit=" abstracts", dynamic_ncols=True, leave=False,
                       disable=None if progress is None else not progress)
            try:
                summary = asyncio.run(extractor.run(read_inputs(files), sink, bar))
            finally:
                bar.close()
    except ExtractError as e:
        fail(str(e), e.exit_code)
    except KeyboardInterrupt:
        click.echo("extract: interrupted; rerun with the same -o to resume", err=True)
        sys.exit(EXIT_INTERRUPTED)
    click.echo(summary.line(), err=True)
    if summary.stopped:
        click.echo(f"extract: stopped: {summary.stopped}", err=True)
    elif summary.failed or summary.problems:
        where = sink.errors_path or "stderr"
        click.echo(f"extract: {summary.failed + summary.problems} failures listed in {where}",
                   err=True)
    sys.exit(summary.exit_code)
