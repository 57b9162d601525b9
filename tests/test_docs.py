"""Every command, subcommand and option is documented in the README."""

from pathlib import Path

import click
import pytest

from extract.cli import main

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def walk(group: click.Group, prefix: str = "extract"):
    for name, cmd in sorted(group.commands.items()):
        path = f"{prefix} {name}"
        yield path, cmd
        if isinstance(cmd, click.Group):
            yield from walk(cmd, path)


COMMANDS = list(walk(main))


@pytest.mark.parametrize("path,cmd", COMMANDS, ids=[p for p, _ in COMMANDS])
def test_command_is_documented(path, cmd):
    top = path.split(" ")[1]
    assert f"`extract {top}" in README, f"README has no section for {path}"
    for param in cmd.params:
        if isinstance(param, click.Option):
            assert any(opt in README for opt in param.opts), f"{path}: {param.opts} undocumented"


def test_readme_starts_with_the_two_commands():
    head = README.split("```sh", 1)[1].split("```", 1)[0]
    assert "make run" in head and "make test" in head
