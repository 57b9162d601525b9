"""The ``extract`` command line: a thin layer over the library.

Each command lives in its own module here and is registered below.  stdout carries data;
stderr carries progress and diagnostics.  Exit statuses are listed in ``extract.errors``.

A command's module is imported only when that command runs (or shows its own help):
``extract --help`` lists the commands from :data:`COMMANDS` without loading the pipeline,
the rule layer or a backend's client library (tests/test_startup.py checks both).

The ``extract`` command is :func:`entry`: :func:`main` in a process of its own.
"""

from __future__ import annotations

import gc
import importlib
import sys
from collections.abc import Iterator, MutableMapping

import click

from .._version import __version__
from .streams import WRITE_FAILURES, guard_stderr, stdout_failed


class _OneLineUsageError(click.UsageError):
    """A usage error shown like every other error: one line, ``extract: error: ...``."""

    def show(self, file=None) -> None:
        hint = f" (see '{self.ctx.command_path} --help')" if self.ctx is not None else ""
        click.echo(f"extract: error: {self.format_message()}{hint}", err=True)


def _one_line(e: click.UsageError) -> click.UsageError:
    if isinstance(e, (_OneLineUsageError, click.exceptions.NoArgsIsHelpError)):
        return e
    out = _OneLineUsageError(e.format_message(), e.ctx)
    out.exit_code = e.exit_code
    return out


class _Main(click.Group):
    """The top group: click's usage errors (a bad option value, a missing argument) become
    one line, as the README promises for every error; click still prints and exits."""

    def make_context(self, *args, **kwargs):
        try:
            return super().make_context(*args, **kwargs)
        except click.UsageError as e:
            raise _one_line(e) from e
        except OSError as e:        # --version or --help into a full stdout
            if e.errno in WRITE_FAILURES:
                stdout_failed(e)
            raise

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.UsageError as e:
            raise _one_line(e) from e
        except OSError as e:        # a write no command caught (stdout on a full disk)
            if e.errno in WRITE_FAILURES:
                stdout_failed(e)
            raise

    def format_commands(self, ctx, formatter) -> None:
        """As click's, with each command's line from :data:`COMMANDS` (no import)."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            text = self.commands.short_help(name, limit)
            if text is None:
                cmd = self.get_command(ctx, name)
                if cmd is None or cmd.hidden:
                    continue
                text = cmd.get_short_help_str(limit)
            rows.append((name, text))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


#: name -> (module in this package, attribute, the first line of its help).  The first
#: line is what ``extract --help`` lists; tests/test_startup.py checks it against the command.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "run": (".run", "run", "Extract grounded records from the abstracts in INPUTS."),
    "schema": (".schema", "schema", "Print the JSON Schema of the extraction model (--schema)."),
    "cache": (".cache", "cache", "Inspect or empty the answer cache."),
    "table": (".table", "table", "Comparison table of the claims in RECORDS.jsonl ('-': stdin, as in "
                                 "`extract run x | extract table -`)."),
    "triage": (".triage", "triage", "Papers whose claims need a closer look, highest score first."),
    "report": (".report", "report", "Write a self-contained HTML report of RECORDS.jsonl."),
    "eval": (".eval", "eval_cmd", "Score RECORDS.jsonl against gold annotations."),
    "batch": (".batch", "batch", "Run a corpus through the OpenAI Batch API (or vLLM's offline batch runner)."),
    "calibrate": (".calibrate", "calibrate", "Score the rules and the model field by field on a labeled sample; write a policy file."),
}


class _Commands(MutableMapping):
    """The group's commands: those of :data:`COMMANDS` are imported on first access;
    ``add_command`` still registers a loaded one."""

    def __init__(self, lazy: dict[str, tuple[str, str, str]]):
        self.lazy, self.loaded = dict(lazy), {}

    def __getitem__(self, name: str) -> click.Command:
        if name not in self.loaded:
            module, attr, _ = self.lazy[name]          # KeyError: no such command
            self.loaded[name] = getattr(importlib.import_module(module, __name__), attr)
        return self.loaded[name]

    def __setitem__(self, name: str, cmd: click.Command) -> None:
        self.loaded[name] = cmd

    def __delitem__(self, name: str) -> None:
        self.loaded.pop(name, None)
        self.lazy.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(set(self.lazy) | set(self.loaded)))

    def __len__(self) -> int:
        return len(set(self.lazy) | set(self.loaded))

    def __contains__(self, name) -> bool:
        return name in self.lazy or name in self.loaded

    def short_help(self, name: str, limit: int) -> str | None:
        """The listed help of a command not loaded yet (None once it is loaded)."""
        if name in self.loaded:
            return None
        # shortened as click shortens a command's own help
        return click.Command(name, help=self.lazy[name][2]).get_short_help_str(limit)


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="extract")
def main() -> None:
    """Validated, source-grounded structured records from research-paper abstracts."""
    guard_stderr()      # secrets masked, control characters escaped, from every layer


main.commands = _Commands(COMMANDS)
# (a command added with main.add_command(cmd) below is loaded with this module)


#: set by :func:`entry`: the command runs in a process of its own
_OWN_PROCESS = False
#: the youngest generation's threshold during a run (Python's default: 700 allocations)
RUN_GC_THRESHOLD = 10_000


def collector_for_run() -> None:
    """In the ``extract`` command's own process, once a run's backend is built: what exists
    now is frozen (:func:`gc.freeze`, as :func:`entry` does after start-up: the backend's
    client libraries and objects, the OpenAI backend's openai, instructor and HTTP stack,
    are made after start-up's freeze and live as long, and every full collection of the run
    walked them), and the youngest generation is collected every 10,000 allocations instead
    of 700: a run makes and drops short-lived objects by the thousand for every record
    (requests, answers, records; reference counting frees them), and every 700 the collector
    walked those alive at that moment (1,000 hybrid records: ~270 collections, 0.15 ms of CPU
    a record, against 9 and 0.04 ms).  :func:`main` called from Python leaves the collector
    alone."""
    if _OWN_PROCESS:
        gc.freeze()
        young, middle, old = gc.get_threshold()
        gc.set_threshold(max(young, RUN_GC_THRESHOLD), middle, old)


def entry() -> None:
    """The ``extract`` console script: :func:`main`, with the cyclic garbage collector spared
    the objects that live as long as the process.

    Start-up makes some 35,000 objects that the collector tracks and that are never garbage
    (modules, classes, functions, compiled patterns, the schema's validators), and it walked
    them over and over: some 80 collections while the command's modules are imported, and
    the full collections of the interpreter's exit, about a sixth of a one-abstract rules
    run's CPU.  So the
    command's module (what click would load next) is imported with the collector paused,
    and what exists then is frozen (:func:`gc.freeze`: never walked again, still freed at
    exit); the collector runs as usual for the run itself, and what is left at the end is
    frozen too.  An import that fails here is left for click to meet again, as without this.

    Only the command's own process: :func:`main` called from Python (a test, a notebook)
    leaves the collector alone."""
    gc.disable()
    try:
        if len(sys.argv) > 1 and sys.argv[1] in COMMANDS:
            try:
                main.commands[sys.argv[1]]
            except Exception:
                pass
    finally:
        gc.freeze()
        gc.enable()
    global _OWN_PROCESS
    _OWN_PROCESS = True
    try:
        main()
    finally:
        gc.freeze()
