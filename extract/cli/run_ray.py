"""``extract run --engine ray``: the same run over Ray Data, shards into ``-o DIR``.

See :mod:`extract.rayengine`.  Reads local paths, directories and globs (``.jsonl``,
``.jsonl.gz``, ``.parquet`` and every format `extract run` reads) and URLs Ray reads;
writes ``records-*``/``errors-*`` shards; prints the closing summary `extract run` prints.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from dataclasses import asdict
from pathlib import Path

import click

from ..config import RunConfig
from ..errors import EXIT_BACKEND, UsageError
from ..inputs import FieldMap
from .common import fail

INSTALL = ("--engine ray needs Ray Data: pip install 'extract-abstracts[ray]' "
           "(in a clone: pip install '.[ray]')")


def _fatal_cause(e: BaseException) -> BaseException | None:
    """The FatalBackendError a Ray task failed with, if that is why the job failed."""
    from ..errors import FatalBackendError

    seen = 0
    while e is not None and seen < 10:
        if isinstance(e, FatalBackendError):
            return e
        cause = getattr(e, "cause", None)
        e = cause if isinstance(cause, BaseException) else (e.__cause__ or e.__context__)
        seen += 1
    return None


def run_ray(config: RunConfig, inputs, output, *, errors_file, address, parquet, fields: FieldMap,
            input_format, quiet: bool, verbose: bool, as_json: bool, cache_given: bool, say) -> None:
    """Run and exit with `extract run`'s exit status."""
    started = time.monotonic()
    if output is None:
        raise UsageError("--engine ray writes shards into a directory: give -o DIR")
    if errors_file:
        raise UsageError("--engine ray writes errors into -o DIR (errors-* shards); drop --errors")
    out = Path(output)
    if out.exists() and not out.is_dir():
        raise UsageError(f"-o {output}: is a file; --engine ray writes shards into a directory")
    if not cache_given:                    # a per-node cache is never taken for a shared one
        config = config.with_(use_cache=False)
    try:
        import ray
        from .. import rayengine
    except ImportError:
        raise UsageError(INSTALL) from None
    from ..summary import Summary

    files = rayengine.input_files(inputs)          # usage errors before Ray starts
    out.mkdir(parents=True, exist_ok=True)
    logging.getLogger("ray").setLevel(logging.ERROR)
    os.environ.setdefault("RAY_DEDUP_LOGS", "0")
    owned = not ray.is_initialized()          # a caller's Ray (a notebook, a test) is kept
    if owned:
        # A Ray started here runs its workers at the driver's priority: Ray's default
        # (worker_niceness 15) starved them behind any other job on a shared machine (300
        # abstracts took 517 s beside one other run, at nice 19). A cluster's raylets
        # (`ray start`) keep their own setting.
        os.environ.setdefault("RAY_worker_niceness", "0")
        ray.init(address=address or os.environ.get("RAY_ADDRESS") or None, include_dashboard=False,
                 log_to_driver=verbose, logging_level=logging.ERROR, configure_logging=True)
    for name in ("ray", "ray.data", "ray.data._internal"):        # stderr: extract's lines only
        logging.getLogger(name).setLevel(logging.ERROR)
    try:
        ctx = ray.data.DataContext.get_current()
        ctx.enable_progress_bars = not quiet and sys.stderr.isatty()
        ctx.print_on_execution_start = False
        run = rayengine.begin_run(out)        # before reading what is done (see begin_run)
        from ..configured import run_identity

        identity = run_identity(config)      # the configuration records are made with (no backend built)
        done = rayengine.done_in(out, identity)
        if done:
            say(f"extract: resuming: {len(done):,} records already in {output}")
        say(f"extract: engine ray ({int(ray.cluster_resources().get('CPU', 0))} CPUs); backend "
            f"{config.backend}; {len(files)} input file{'' if len(files) == 1 else 's'}; cache "
            f"{config.cache_dir if config.use_cache else 'off'}")
        ds = rayengine.read_abstracts(inputs, fields, input_format=input_format)
        rows = rayengine.extract_dataset(ds, config, fields=fields, done=done)
        try:
            stats = rayengine.write_shards(rows, out, run, parquet=parquet)
        except Exception as e:                    # a Ray task failed: why?
            fatal = _fatal_cause(e)
            if fatal is None:
                raise
            fail(f"stopped: {fatal}; the shards written are kept, rerun with the same -o to resume",
                 EXIT_BACKEND)
            return
    finally:
        if owned:
            ray.shutdown()
    summary = Summary(**{k: v for k, v in stats.items() if k not in ("seconds", "stopped", "exit_code")})
    summary.finish(started)
    say(summary.line())
    if summary.failed or summary.problems:
        n = summary.failed + summary.problems
        say(f"extract: {n} failure{'' if n == 1 else 's'} listed in {output}/errors-*")
    if as_json:
        click.echo(json.dumps({**asdict(summary), "backend": config.backend, "model": config.model,
                               "output": str(output), "errors": str(output), "engine": "ray"}))
    sys.exit(summary.exit_code)

