"""The docs cannot drift: docs/cli.md is generated from --help and must be current, and every
command and option is described in its own command's section of the README."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import click
import pytest
from cogapp import Cog

from extract.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
CLI_MD = ROOT / "docs" / "cli.md"


def walk(group: click.Group, prefix: str = "extract"):
    for name, cmd in sorted(group.commands.items()):
        path = f"{prefix} {name}"
        yield path, cmd
        if isinstance(cmd, click.Group):
            yield from walk(cmd, path)


COMMANDS = list(walk(main))


def readme_sections() -> dict[str, str]:
    """README text of each command's section ("### `extract run INPUT...`" up to the next
    heading of that level or above), heading included, by top-level command name."""
    out = {}
    for m in re.finditer(r"^### `extract (\w+)[^\n]*\n(?:(?!^#{1,3} ).*\n?)*", README, flags=re.M):
        out[m.group(1)] = m.group(0)
    return out


SECTIONS = readme_sections()


def cog_check(path: Path) -> int:
    return Cog().main(["cog", "--check", str(path)])


def test_cli_reference_is_current():
    assert cog_check(CLI_MD) == 0, "docs/cli.md is stale: run `.venv/bin/cog -r docs/cli.md`"


def test_cli_reference_check_fails_when_stale(tmp_path):
    stale = tmp_path / "cli.md"
    shutil.copy(CLI_MD, stale)
    stale.write_text(stale.read_text().replace("Show this message and exit.", "Show help.", 1))
    assert cog_check(stale) != 0


@pytest.mark.parametrize("path,cmd", COMMANDS, ids=[p for p, _ in COMMANDS])
def test_cli_reference_has_every_command_and_option(path, cmd):
    text = CLI_MD.read_text()
    section = text.split(f"## {path}\n", 1)[1].split("\n## ", 1)[0]
    for param in cmd.params:
        if isinstance(param, click.Option):
            assert any(opt in section for opt in param.opts), f"{path}: {param.opts}"


@pytest.mark.parametrize("path,cmd", COMMANDS, ids=[p for p, _ in COMMANDS])
def test_command_is_documented_in_its_own_readme_section(path, cmd):
    top = path.split(" ")[1]
    assert top in SECTIONS, f"README has no section for {path}"
    section = SECTIONS[top]
    for param in cmd.params:
        if isinstance(param, click.Option) and not param.hidden and "--help" not in param.opts:
            assert any(re.search(re.escape(opt) + r"(?![\w-])", section) for opt in param.opts), \
                f"{path}: {param.opts} is not described in the README section of `extract {top}`"


def test_sections_are_found_per_command():
    """The per-section check cannot pass by finding an option in another command's section."""
    assert "--gold" in SECTIONS["eval"] and "--gold" not in SECTIONS["schema"]
    assert len(SECTIONS) >= 8


def test_readme_starts_with_the_two_commands():
    head = README.split("```sh", 1)[1].split("```", 1)[0]
    assert "make run" in head and "make test" in head
