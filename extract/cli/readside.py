"""What the read-side commands (``table``, ``triage``, ``report``) share: reading a records file
with one-line errors, and writing the output to stdout or atomically to ``-o FILE``."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import click

from .common import fail, not_empty
from .streams import stdout_failed
from ..errors import EXIT_OUTPUT, ExtractError, UsageError
from ..outpaths import replace_file, target_kind
from ..records import RecordSet, load_records

output_option = click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=str), default=None,
                             callback=not_empty,
                             help="Write to FILE instead of stdout ('-': stdout).")


def load_or_exit(command: str, path: str, *, default_schema: bool = False) -> RecordSet:
    """The records of ``path``; exits 2 with one line when it cannot be read or is not a records
    file (lines but no record of ``extract run``; with ``default_schema``, no record of the
    default schema either).  Skipped lines are reported on stderr only when records were read."""
    notes: list[str] = []
    try:
        rs = load_records(path, warn=notes.append)
    except ExtractError as e:
        fail(str(e), getattr(e, "exit_code", 2))
        raise AssertionError("unreachable")
    except (UnicodeDecodeError, ValueError, RecursionError) as e:  # pragma: no cover - defensive
        fail(f"cannot read records {path}: {e}")
        raise AssertionError("unreachable")
    if not rs.papers and not rs.failures and notes:
        fail(f"{path} is not a records file (no line is a record of `extract run`; first: {notes[0]})")
    if default_schema and rs.papers and not rs.failures and all(not p.schema_ok and not p.numbers for p in rs.papers):
        fail(f"{path} is not a records file of the default schema (no record has its extraction fields)")
    for n in notes:
        click.echo(f"extract: {n}", err=True)
    if not rs.papers and not rs.failures:
        click.echo(f"extract: no records in {path}", err=True)
    return rs


def write_output(command: str, text: str, output: str | None) -> None:
    """``text`` to stdout, or to ``output``: a regular file (or a new one) is replaced
    atomically (a failed write leaves no partial file), through a symlink to it (the link
    is followed, never replaced); a character device or a FIFO (``/dev/null``, ``/dev/tty``,
    a named pipe, ``/dev/stdout``) is written through; anything else is refused.  Every
    failure is one line: exit 7 when the disk is full, else 2."""
    if not output or output == "-":
        try:
            click.echo(text, nl=False)
        except OSError as e:
            stdout_failed(e)
        return
    try:
        kind = target_kind(output)
    except UsageError as e:
        fail(str(e))
    try:
        if kind == "stream":
            with open(output, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
        else:
            replace_file(Path(os.path.realpath(output)), text)
    except OSError as e:        # a full disk is exit 7 (as for run); a bad path is usage
        fail(f"cannot write {output}: {e.strerror or e}",
             EXIT_OUTPUT if e.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO) else 2)
    click.echo(f"extract: wrote {output}", err=True)
