"""What the read-side commands (``table``, ``triage``, ``report``) share: reading a records file
with one-line errors, and writing the output to stdout or atomically to ``-o FILE``."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import click

from .common import fail, not_empty
from ..errors import ExtractError
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
    """``text`` to stdout, or atomically to ``output`` (a failed write leaves no partial file)."""
    if not output or output == "-":
        click.echo(text, nl=False)
        return
    target = Path(output)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent if str(target.parent) else ".", prefix=f".{target.name}.",
                                   suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give the file ordinary permissions
        os.replace(tmp, target)
    except OSError as e:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        fail(f"cannot write {output}: {e.strerror or e}")
    click.echo(f"extract: wrote {output}", err=True)
