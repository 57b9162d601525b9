"""-o FILE's suffix picks the output format when neither --format nor --json is given; an
explicit format always wins; a suffix the command does not offer keeps its default.  One rule,
in one place (cli.common.format_options), for every command with --format."""

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from extract.cli import main
from extract.cli.common import SUFFIX_FORMATS, output_format

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "tests" / "fixtures" / "records-sample.jsonl"
GOLD = ROOT / "tests" / "gold" / "dev-gold.jsonl"


def invoke(*argv):
    return CliRunner().invoke(main, [str(a) for a in argv])


def kind_of(text: str) -> str:
    """What format a command wrote, by its content."""
    if text.lstrip().lower().startswith("<!doctype html"):
        return "html"
    try:
        json.loads(text)
        return "json"
    except ValueError:
        pass
    first = text.splitlines()[0]
    if first.startswith(("#", "|")):
        return "markdown"
    if "," in first and " " not in first:
        return "csv"
    return "text"


@pytest.mark.parametrize("name,expected", [
    ("t.csv", "csv"), ("t.json", "json"), ("t.md", "markdown"), ("t.markdown", "markdown"),
    ("t.html", "html"), ("T.HTML", "html"), ("t.CSV", "csv"),
    ("t.txt", "markdown"), ("t.tsv", "markdown"), ("table", "markdown"),   # unknown: the default
])
def test_table_infers_the_format_from_the_suffix(tmp_path, name, expected):
    out = tmp_path / name
    r = invoke("table", RECORDS, "-o", out)
    assert r.exit_code == 0, r.stderr
    assert kind_of(out.read_text()) == expected


@pytest.mark.parametrize("name,flags,expected", [
    ("t.csv", ["--format", "markdown"], "markdown"), ("t.md", ["--json"], "json"),
    ("t.html", ["--format", "csv"], "csv"), ("t.json", ["--format", "html"], "html"),
    ("t.txt", ["--format", "csv"], "csv"),
])
def test_an_explicit_format_wins_over_the_suffix(tmp_path, name, flags, expected):
    out = tmp_path / name
    r = invoke("table", RECORDS, "-o", out, *flags)
    assert r.exit_code == 0, r.stderr
    assert kind_of(out.read_text()) == expected


def test_stdout_keeps_the_default():
    assert kind_of(invoke("table", RECORDS).stdout) == "markdown"
    assert kind_of(invoke("table", RECORDS, "-o", "-").stdout) == "markdown"


@pytest.mark.parametrize("name,expected", [
    ("t.json", "json"), ("t.csv", "csv"), ("t.html", "text"), ("t.md", "text"), ("t.txt", "text"),
])
def test_triage_infers_only_the_formats_it_offers(tmp_path, name, expected):
    out = tmp_path / name
    r = invoke("triage", RECORDS, "-o", out)
    assert r.exit_code == 0, r.stderr
    assert kind_of(out.read_text()) == expected


def test_eval_and_cache_stats_infer_json(tmp_path):
    good = tmp_path / "good.jsonl"        # eval refuses the fixture's deliberately torn line
    lines = []
    for line in RECORDS.read_text().splitlines():
        try:
            json.loads(line)
            lines.append(line + "\n")
        except ValueError:
            pass
    good.write_text("".join(lines))
    r = invoke("eval", good, "--gold", GOLD, "-o", tmp_path / "scores.json")
    assert r.exit_code == 0, r.stderr
    assert "claims" in json.dumps(json.loads((tmp_path / "scores.json").read_text()))
    r = invoke("eval", good, "--gold", GOLD, "-o", tmp_path / "scores.txt")
    assert kind_of((tmp_path / "scores.txt").read_text()) == "text"
    from extract.cache import AnswerCache
    made = AnswerCache(tmp_path / "c")
    made.set("k", {"answer": {}})
    made.close()
    r = invoke("cache", "stats", "--cache-dir", tmp_path / "c", "-o", tmp_path / "s.json")
    assert r.exit_code == 0 and "entries" in json.loads((tmp_path / "s.json").read_text())


def test_the_rule():
    choices = ("markdown", "csv", "html", "json")
    assert output_format(None, False, "a/b.CSV", choices, "markdown") == "csv"
    assert output_format("html", False, "b.csv", choices, "markdown") == "html"
    assert output_format("csv", True, "b.csv", choices, "markdown") == "json"
    assert output_format(None, False, "b.yaml", choices, "markdown") == "markdown"
    assert output_format(None, False, "-", choices, "markdown") == "markdown"
    assert output_format(None, False, None, choices, "markdown") == "markdown"
    assert output_format(None, False, "b.html", ("text", "json", "csv"), "text") == "text"
    assert set(SUFFIX_FORMATS.values()) == {"csv", "json", "markdown", "html"}


def _commands(group=main, prefix=()):
    for name, cmd in sorted(group.commands.items()):
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, prefix + (name,))
        else:
            yield prefix + (name,), cmd


def test_every_command_with_format_uses_the_shared_rule():
    with_format = []
    for path, cmd in _commands():
        opts = {o: p for p in cmd.params if isinstance(p, click.Option) for o in p.opts}
        if "--format" in opts:
            with_format.append(path)
            # no default of its own: the default is resolved by output_format, after -o
            assert opts["--format"].default is None, path
            assert "Default:" in opts["--format"].help, path
    assert {("table",), ("triage",), ("eval",), ("cache", "stats")} <= set(with_format)
