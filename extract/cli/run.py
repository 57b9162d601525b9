"""``extract run``: abstracts in, grounded JSONL records out."""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import asdict
from pathlib import Path

import click

from .. import redact
from ..backends.base import has_backend, installed_backends
from ..config import DECIDE, ENV_BACKEND, MODES, PROPOSALS, RunConfig, env_defaults
from ..errors import EXIT_SOME_FAILED, ExtractError, OutputClosed, UsageError
from ..inputs import FORMATS, FieldMap, count_inputs, expand, read_inputs
from ..outpaths import check_paths, output_path
from ..output import RecordSink, errors_path_for
from ..pipeline import Extractor
from . import collector_for_run
from .common import (cache_dir_option, fail, max_chars_option, max_tokens_option,
                     no_cache_option, not_empty, prompt_option, ranged, schema_option,
                     temperature_option, _FiniteFloatRange)
from .progress import Progress
from .signals import quiet_when_stopped, sigterm_as_interrupt
from .streams import stdout_failed

PRICE = _FiniteFloatRange(0, None)     # USD per million tokens
PROPOSAL_HELP = ("The hybrid job: what the model is shown beside the abstract. reading = the numbered "
                 "numbers and name candidates with the rules' reading of each, to copy or correct; "
                 "spans = the same numbers (with context) and candidates without it. Part of the cache key.")


def build_config(backend, model, base_urls, mode, concurrency, cache_dir, no_cache, limit,
                 schema, prompt, reasks, retries, timeout, max_tokens, max_chars,
                 max_tokens_total, temperature, *, backend_options=(), decide=RunConfig.decide,
                 policy=None, environ=None, examples=None, proposal=RunConfig.proposal) -> RunConfig:
    """The run's config from the options, with the environment as defaults.

    The backend is the one named by ``--backend``, else ``EXTRACT_BACKEND``, else
    ``openai`` when ``--base-url`` is given, else ``RunConfig``'s default.  An API key or
    ``OPENAI_BASE_URL`` in the environment never chooses it; there is no default model
    for a remote backend (``--model`` or ``EXTRACT_MODEL``)."""
    env = env_defaults(environ)
    if backend is None:
        backend = env.get("backend") or ("openai" if base_urls else RunConfig.backend)
    return RunConfig(
        backend=backend, model=model if model is not None else env.get("model"),
        base_urls=tuple(base_urls) or env.get("base_urls", ()), api_key=env.get("api_key"),
        mode=mode, concurrency=concurrency,
        cache_dir=Path(cache_dir) if cache_dir else env.get("cache_dir", RunConfig.cache_dir),
        use_cache=not no_cache, limit=limit, schema=schema, prompt=prompt, reasks=reasks,
        retries=retries, timeout=timeout, max_tokens=max_tokens, max_chars=max_chars,
        max_tokens_total=max_tokens_total, temperature=temperature,
        backend_options=dict(backend_options), decide=decide, examples=examples,
        policy=Path(policy) if policy else None, proposal=proposal)


def describe(extractor: Extractor) -> str:
    """One line saying which backend and model answer (and what that costs)."""
    cfg, backend = extractor.config, extractor.backend
    if not getattr(backend, "describes_model", True):
        return f"backend {backend.name}: no model (offline, no cost)"
    model = getattr(backend, "model_name", None) or cfg.model or "(the backend's default)"
    line = f"backend {backend.name}, model {model}"
    urls = getattr(backend, "urls", None) or cfg.base_urls
    if urls:
        line += f" at {', '.join(urls)}"
        if any("api.openai.com" in u for u in urls):
            line += " (paid: OpenAI bills every token)"
    elif backend.name == "local":
        line += " (embedded, offline, no cost)"
    if cfg.backend_options:
        line += " with " + ", ".join(f"{k}={v}" for k, v in cfg.backend_options.items())
    if extractor.hybrid:
        line += "; hybrid: the rules propose, the model decides"
    return redact.mask(line)


def _check_backend(name: str) -> None:
    if not has_backend(name):
        found = installed_backends()
        raise UsageError(f"unknown backend {name!r} (installed: {', '.join(found) or 'none'}; "
                         "a plugin adds one under the extract.backends entry-point group)")


# -o suffixes of other formats: `run` writes JSON Lines records, whatever the name says
_NOT_JSONL = {".csv": "csv", ".tsv": "csv", ".md": "markdown", ".markdown": "markdown",
              ".html": "html", ".htm": "html", ".json": "json", ".xlsx": "csv", ".txt": None}


def _check_suffix(output: str | None) -> None:
    """``-o out.csv`` would get JSON Lines under a CSV name: refuse it, pointing at the
    command that writes that format (exit 2)."""
    if not output or output == "-":
        return
    suffix = Path(output).suffix.lower()
    if suffix not in _NOT_JSONL:
        return
    stem = str(Path(output).with_suffix(".jsonl"))
    fmt = _NOT_JSONL[suffix]
    then = (f"; then `extract table {stem} -o {output}` writes the comparison table as {fmt}"
            if fmt else "")
    raise UsageError(f"-o {output}: extract run writes records as JSON Lines; give -o {stem}{then}")


def _dry_run(extractor, entries, out_path, limit, price, as_json) -> None:
    """``--dry-run``: the estimate on stdout (one JSON object with --json); nothing sent."""
    from ..dryrun import describe as describe_estimate, estimate

    try:
        est = estimate(extractor, entries, out_path, limit, price)
    finally:
        extractor.cache.close()
        asyncio.run(extractor.backend.aclose())
    model_run = getattr(extractor.backend, "describes_model", True)
    click.echo(json.dumps(est.as_dict()) if as_json else describe_estimate(est, model_run), nl=as_json)


class _Notes:
    """How inputs were read, on stderr: every note with -v, else the first few."""

    def __init__(self, out, verbose: bool, quiet: bool, first: int = 3):
        self.out, self.verbose, self.quiet, self.first = out, verbose, quiet, first
        self.count = 0

    def __call__(self, message: str) -> None:
        self.count += 1
        if not self.quiet and (self.verbose or self.count <= self.first):
            self.out(f"extract: {message}")

    def close(self) -> None:
        hidden = self.count - self.first
        if not self.quiet and not self.verbose and hidden > 0:
            self.out(f"extract: ... and {hidden} more input notes (-v lists them)")


@click.command()
@click.argument("inputs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(), callback=not_empty,
              help="Write records here (resumable) instead of stdout; failures go to "
                   "OUTPUT minus .jsonl plus .errors.jsonl. With --engine ray: a directory of shards.")
@click.option("--errors", "errors_file", type=click.Path(dir_okay=False),
              callback=not_empty,
              help="Errors file (default: next to --output; stderr lines without -o).")
@click.option("--backend", default=None, metavar="NAME", callback=not_empty,
              help=f"Any installed backend (entry-point group extract.backends). Default: "
                   f"${ENV_BACKEND}, else openai with --base-url, else {RunConfig.backend}.")
@click.option("-O", "--backend-option", "backend_options", type=(str, str), multiple=True,
              metavar="KEY VALUE", callback=not_empty, help="An option the backend declares; repeat for more.")
@click.option("--model", callback=not_empty, help="Model name (remote) or a .gguf path (local). Default: $EXTRACT_MODEL, "
                   "else the packaged model (local); openai needs one.")
@click.option("--base-url", "base_urls", multiple=True, callback=not_empty,
              help="OpenAI-compatible endpoint; repeat for replicas. Wins over OPENAI_BASE_URL.")
@click.option("--mode", type=click.Choice(MODES), default=RunConfig.mode,
              show_default=True, help="How the schema is held to a remote model.")
@click.option("--concurrency", type=ranged("concurrency"), default=RunConfig.concurrency, show_default=True,
              help="Requests in flight at once (remote backends).")
@cache_dir_option
@no_cache_option
@click.option("--limit", type=ranged("limit"), metavar="N",
              help="Process at most N new abstracts (those already in -o do not count).")
@schema_option
@prompt_option
@click.option("--decide", type=click.Choice(DECIDE), default=RunConfig.decide, show_default=True,
              help="The hybrid job: who decides the record. auto = the model, abstract by abstract, "
                   "unless its reading contradicts the text (then the rules); model = the model "
                   "(the rules stand in only where its answer is missing or invalid); rules = the rules.")
@click.option("--policy", "policy_file", metavar="FILE",
              help="A policy file of `extract calibrate` (who decides each field, as measured on "
                   "your labeled sample); replaces --decide. Cached answers are re-mapped, never re-asked.")
@click.option("--proposal", type=click.Choice(PROPOSALS), default=RunConfig.proposal, show_default=True,
              help=PROPOSAL_HELP)
@click.option("--examples", "examples", type=click.Path(dir_okay=False, exists=True), default=None,
              callback=not_empty,
              help="Few-shot examples for the model: JSON Lines of an abstract and its expected record "
                   "(the gold format of tests/gold); part of the cache key. Not with --backend rules.")
@click.option("--dry-run", is_flag=True,
              help="Send nothing: read the input and the cache, print the requests a run would send "
                   "and an estimate of their prompt and completion tokens (and price, with --price).")
@click.option("--price", type=(PRICE, PRICE), default=None,
              metavar="IN OUT", help="With --dry-run: USD per million prompt and completion tokens.")
@click.option("--reasks", type=ranged("reasks"), default=RunConfig.reasks, show_default=True,
              help="Re-asks after an invalid or ungrounded answer.")
@click.option("--retries", type=ranged("retries"), default=RunConfig.retries, show_default=True,
              help="Retries of transient faults (429, 5xx, timeouts).")
@click.option("--timeout", type=ranged("timeout"), default=RunConfig.timeout, show_default=True,
              help="Seconds per HTTP request.")
@temperature_option
@max_tokens_option
@max_chars_option
@click.option("--max-tokens-total", type=ranged("max_tokens_total"),
              metavar="N",
              help="Token budget of the run: stop cleanly (exit 4, a rerun resumes) once the "
                   "next request could take it past N.")
@click.option("--id-field", callback=not_empty, help="Input field holding the id (default: id, paperId, Key, EID).")
@click.option("--title-field", callback=not_empty, help="Input field holding the title (default: title, display_name).")
@click.option("--text-field", callback=not_empty, help="Input field holding the abstract (default: abstract, text, "
                                   "summary, Abstract Note, abstract_inverted_index).")
@click.option("--input-format", type=click.Choice(FORMATS), default=None,
              help="Read every input as this format (default: by extension; stdin is sniffed).")
@click.option("--label", callback=not_empty, metavar="NAME",
              help="Stdin's default ids are NAME#n (default: stdin-<digest of its content>).")
@click.option("--redo", is_flag=True,
              help="Extract again, and replace, the records -o holds that another "
                   "configuration (backend, model, prompt, schema, --decide) made.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: when stderr is a terminal).")
@click.option("--strict", is_flag=True,
              help="Exit 1 when an entry has no abstract (by default such entries are skipped, "
                   "listed in the errors file, and the run exits 0).")
@click.option("-q", "--quiet", is_flag=True, help="Only errors on stderr: no bar, notes or summary.")
@click.option("-v", "--verbose", is_flag=True, help="Every input note and the full configuration.")
@click.option("--json", "as_json", is_flag=True,
              help="The run summary as one JSON line: on stdout with -o, else stderr's last line.")
@click.option("--engine", type=click.Choice(("local", "ray")), default="local", show_default=True,
              help="local: this machine; ray: Ray Data (the [ray] extra), -o DIR of shards, "
                   "the cache off unless --cache-dir is given.")
@click.option("--address", metavar="ADDR", callback=not_empty,
              help="With --engine ray: the cluster to join (default: $RAY_ADDRESS, else a local Ray).")
@click.option("--parquet", is_flag=True, help="With --engine ray: Parquet shards instead of JSONL.")
@click.pass_context
def run(ctx, inputs, output, errors_file, backend, backend_options, model, base_urls, mode,
        concurrency, cache_dir, no_cache, limit, schema, prompt, decide, policy_file, reasks, retries,
        timeout, temperature, max_tokens, max_chars, max_tokens_total, id_field, title_field,
        text_field, input_format, label, redo, progress, quiet, verbose, as_json, engine, address,
        parquet, strict=False, examples=None, dry_run=False, price=None, proposal=RunConfig.proposal):
    """Extract grounded records from the abstracts in INPUTS.

    INPUTS are .txt, .jsonl, .json, .csv, .bib and .atom/.xml (the arXiv API's feed) files
    (or any of them compressed: .gz, .bz2, .xz), directories (searched for those), or - for stdin.  Records go to stdout, or to -o FILE (a rerun with the same FILE
    resumes; a rerun with another configuration is refused unless --redo).

    Exit status: 0 all ok (entries without an abstract are skipped and listed in the
    errors file); 1 some records or inputs failed (listed in the errors file), or --strict
    and an entry had no abstract; 2 bad usage (an option value out of range, say),
    unreadable input, or an -o made with another configuration (see --redo); 3 the backend is
    unusable (run stopped); 4 token budget spent (rerun resumes); 5 the output file is
    locked by another run; 7 the output cannot be written (disk full); 130 interrupted
    (Ctrl-C), 143 terminated (SIGTERM): both resumable.
    """
    if output == "-":       # -o - is stdout, as everywhere else ("-" is never a file name here)
        output = None

    def say(line: str) -> None:
        if not quiet:
            click.echo(line, err=True)

    stop = sigterm_as_interrupt()      # SIGTERM stops the run as Ctrl-C does
    try:
        config = build_config(backend, model, base_urls, mode, concurrency, cache_dir, no_cache,
                              limit, schema, prompt, reasks, retries, timeout, max_tokens,
                              max_chars, max_tokens_total, temperature,
                              backend_options=backend_options, decide=decide, examples=examples,
                              policy=policy_file, proposal=proposal)
        if price is not None and not dry_run:
            raise UsageError("--price goes with --dry-run (an estimate of what a run would cost)")
        _check_backend(config.backend)
        if engine == "ray":
            if dry_run or redo or strict:
                raise UsageError("--dry-run, --redo and --strict go with the default engine, not --engine ray")
            from .run_ray import run_ray
            run_ray(config, inputs, output, errors_file=errors_file, address=address, parquet=parquet,
                    fields=FieldMap(id=id_field, title=title_field, text=text_field),
                    input_format=input_format, quiet=quiet, verbose=verbose, as_json=as_json,
                    cache_given=ctx.get_parameter_source("cache_dir").name != "DEFAULT", say=say)
        if address or parquet:
            raise UsageError("--address and --parquet go with --engine ray")
        _check_suffix(output)
        out_path = output_path(output)          # checked before anything loads or is read
        errors_path = Path(errors_file) if errors_file else (errors_path_for(out_path) if out_path else None)
        check_paths(out_path, errors_path, inputs)
        if redo and out_path is None:
            raise UsageError("--redo replaces records in -o FILE: give -o")
        files, skipped = expand(inputs, exclude=(output, errors_path), stdin_label=label)
        others = [n for n in skipped if "skipped (not" in n]
        for note in skipped:
            if verbose or note not in others or len(others) <= 10 or note in others[:5]:
                say(f"extract: {note}")
        if not verbose and len(others) > 10:
            say(f"extract: ... and {len(others) - 5} more files of other types skipped (-v lists them)")
        fields = FieldMap(id=id_field, title=title_field, text=text_field)
        if dry_run:       # nothing is sent (no key needed) and nothing written (no new cache)
            config = config.with_(api_key=config.api_key or "unused-by-a-dry-run",
                                  use_cache=config.use_cache and (config.cache_dir / "cache.db").is_file())
        extractor = Extractor(config)
        collector_for_run()       # the backend lives as long as the process
        say(f"extract: {describe(extractor)}")
        model_run = getattr(extractor.backend, "describes_model", True)
        if not model_run:        # the rules: no prompt, no requests, nothing re-asked
            if verbose:
                workers = getattr(extractor.backend, "workers", None)
                say(f"extract: schema {config.schema}, no prompt (no model); cache "
                    f"{config.cache_dir if config.use_cache else 'off'}"
                    + (f"; {workers} worker process{'es' if workers != 1 else ''}" if workers else ""))
        elif verbose or config.prompt != RunConfig.prompt or config.schema != RunConfig.schema:
            say(f"extract: schema {config.schema}, prompt {extractor.prompt.name!r}"
                + ("" if config.schema == RunConfig.schema
                   else " with the schema's docstring and field descriptions as instructions"))
        if verbose and model_run:
            say(f"extract: cache {config.cache_dir if config.use_cache else 'off'}; "
                f"concurrency {config.concurrency}; reasks {config.reasks}; retries {config.retries}")
        if dry_run:
            _dry_run(extractor, read_inputs(files, fields, input_format=input_format),
                     out_path, limit, price, as_json)
            return
        with RecordSink(output, errors_file, inputs=inputs, config=extractor.identity,
                        redo=redo) as sink:
            if sink.repaired_bytes:
                say(f"extract: repaired a torn last line in {output} "
                    f"({sink.repaired_bytes} bytes cut)")
            if sink.done:
                say(f"extract: resuming: {len(sink.done):,} records already in {output}")
            total = None
            if not quiet and progress is not False:
                total = count_inputs(files, fields, input_format)
                if total is not None:
                    total = max(0, total - len(sink.done))
                    if limit is not None:
                        total = min(total, limit)
            bar = Progress(total, False if quiet else progress,
                           stage="loading model" if config.backend == "local" else "starting")
            notes = _Notes(bar.write, verbose, quiet)
            try:
                entries = read_inputs(files, fields, input_format=input_format, note=notes)
                summary = asyncio.run(quiet_when_stopped(extractor.run(entries, sink, bar)))
            finally:
                bar.close()
                notes.close()
    except OutputClosed:
        sys.exit(0)           # the reader of stdout went away (| head): nothing to say
    except ExtractError as e:
        fail(str(e), e.exit_code)
    except KeyboardInterrupt:
        click.echo(stop.line(), err=True)
        sys.exit(stop.exit_code)
    if strict and summary.no_abstract and summary.exit_code == 0:
        summary.exit_code = EXIT_SOME_FAILED
    say(summary.line(tokens=getattr(extractor.backend, "describes_model", True)))
    if sink.other_configs:
        left = sink.other_configs - sink.replaced
        say(f"extract: --redo: replaced {sink.replaced:,} records made with another configuration"
            + (f"; {left:,} remain (not in these inputs, or not reached yet: rerun with --redo)"
               if left else ""))
    if summary.stopped:
        click.echo(f"extract: stopped: {summary.stopped}", err=True)
    elif summary.failed or summary.problems:
        n = summary.failed + summary.problems
        where = f"in {sink.errors_path}" if sink.errors_path else "above"
        say(f"extract: {n} failure{'' if n == 1 else 's'} listed {where}")
    if summary.no_abstract and not summary.stopped:
        where = f"in {sink.errors_path}" if sink.errors_path else "above"
        n = summary.no_abstract
        say(f"extract: {n} entr{'y' if n == 1 else 'ies'} without an abstract skipped, listed {where}"
            + ("" if strict else " (--strict makes them fail the run)"))
        if not (summary.ok or summary.skipped or summary.failed or summary.problems):
            say("extract: no entry had an abstract: if it is in another field, name it with --text-field")
    if as_json:
        line = json.dumps({**asdict(summary), "replaced": sink.replaced, "backend": extractor.backend.name,
                           "model": getattr(extractor.backend, "model_name", None) or config.model,
                           "output": str(output) if output else None,
                           "errors": str(sink.errors_path) if sink.errors_path else None})
        try:
            click.echo(line, err=output is None)
        except OSError as e:
            stdout_failed(e)
    sys.exit(summary.exit_code)
