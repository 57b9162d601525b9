"""The ``extract`` command line: a thin layer over the library.

Each command lives in its own module here and is registered below.  stdout carries data;
stderr carries progress and diagnostics.  Exit statuses are listed in ``extract.errors``.
"""

from __future__ import annotations

import click

from .._version import __version__


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

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.UsageError as e:
            raise _one_line(e) from e


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="extract")
def main() -> None:
    """Validated, source-grounded structured records from research-paper abstracts."""


# Command registration: one line per command module.
from .run import run  # noqa: E402
from .schema import schema  # noqa: E402
from .cache import cache  # noqa: E402

main.add_command(run)
main.add_command(schema)
main.add_command(cache)
# (more commands are registered below this line)
from .table import table  # noqa: E402
from .triage import triage  # noqa: E402
from .report import report  # noqa: E402

main.add_command(table)
main.add_command(triage)
main.add_command(report)
from .eval import eval_cmd; main.add_command(eval_cmd)  # noqa: E402,E702
from .batch import batch; main.add_command(batch)  # noqa: E402,E702
from .calibrate import calibrate; main.add_command(calibrate)  # noqa: E402,E702
