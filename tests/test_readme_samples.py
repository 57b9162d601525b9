"""The README's sample outputs of `extract table` and `extract triage` are what the commands
print today: each sample is run from the command written above it and compared."""

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from extract.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def sample_after(intro: str) -> str:
    """The fenced block that follows ``intro`` in the README."""
    assert intro in README, f"README lost the sample introduced by {intro!r}"
    return README.split(intro, 1)[1].split("```\n", 1)[1].split("```", 1)[0]


def run(argv: list[str], monkeypatch) -> str:
    monkeypatch.chdir(ROOT)       # the samples use paths relative to the repository
    r = CliRunner().invoke(main, argv, catch_exceptions=False)
    assert r.exit_code == 0, r.output
    return r.stdout


TABLE = "`extract table tests/fixtures/dev2-records.jsonl --kind result` starts:"
TRIAGE = "`extract triage tests/fixtures/dev2-records.jsonl --top 1`:"


def command(intro: str) -> list[str]:
    return shlex.split(re.search(r"`extract ([^`]+)`", intro).group(1))


def test_table_sample_is_the_start_of_the_real_output(monkeypatch):
    sample = sample_after(TABLE)
    real = run(command(TABLE), monkeypatch)
    assert real.startswith(sample), "README table sample is stale:\n" + real[:len(sample) + 200]


def test_table_csv_sample_is_the_start_of_the_real_output(monkeypatch):
    sample = sample_after("and as CSV (`--format csv`):")
    real = run(["table", "tests/fixtures/dev2-records.jsonl", "--format", "csv"], monkeypatch)
    assert real.replace("\r\n", "\n").startswith(sample)


def test_triage_sample_is_the_real_output(monkeypatch):
    sample = sample_after(TRIAGE)
    real = run(command(TRIAGE), monkeypatch)
    assert real.rstrip("\n") == sample.rstrip("\n")
