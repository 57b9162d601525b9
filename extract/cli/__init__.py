"""The ``extract`` command line: a thin layer over the library.

Each command lives in its own module here and is registered below.  stdout carries data;
stderr carries progress and diagnostics.  Exit statuses are listed in ``extract.errors``.
"""

from __future__ import annotations

import click

from .._version import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
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
