"""One convention across commands: --format (with --json as its alias) plus -o for
results, one error prefix, and non-zero exits for inputs that cannot be what was meant."""

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from extract.cli import main

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "tests" / "fixtures" / "records-sample.jsonl"
GOLD = ROOT / "tests" / "gold" / "dev-gold.jsonl"


def commands(group=main, prefix=()):
    for name, cmd in sorted(group.commands.items()):
        if isinstance(cmd, click.Group):
            yield from commands(cmd, prefix + (name,))
        else:
            yield prefix + (name,), cmd


def invoke(*argv):
    return CliRunner().invoke(main, [str(a) for a in argv])


@pytest.mark.parametrize("path,cmd", list(commands()), ids=lambda x: " ".join(x) if isinstance(x, tuple) else "")
def test_format_and_output_options_follow_one_convention(path, cmd):
    opts = {o: p for p in cmd.params if isinstance(p, click.Option) for o in p.opts}
    if "--format" in opts:
        choices = list(opts["--format"].type.choices)
        assert "json" in choices, f"{path}: --format without json"
        assert "--json" in opts and opts["--json"].is_flag, f"{path}: --json alias missing"
        assert "-o" in opts and "--output" in opts, f"{path}: --format without -o/--output"
    elif "--json" in opts:
        assert path == ("run",), f"{path}: --json without --format"   # run: its summary line


@pytest.mark.parametrize("argv", [
    ("eval", RECORDS, "--gold", GOLD, "--format", "json"),
    ("eval", RECORDS, "--gold", GOLD, "--json"),
    ("table", RECORDS, "--format", "json"), ("table", RECORDS, "--json"),
    ("triage", RECORDS, "--format", "json"), ("triage", RECORDS, "--json"),
])
def test_json_format_prints_json(argv, tmp_path):
    if argv[0] == "eval":      # eval refuses the fixture's deliberately torn line
        good = tmp_path / "good.jsonl"
        lines = RECORDS.read_text().splitlines()
        good.write_text("".join(x + "\n" for x in lines if _is_json(x)))
        argv = (argv[0], good) + argv[2:]
    r = invoke(*argv)
    assert r.exit_code == 0, r.stderr
    json.loads(r.stdout)
    out = tmp_path / "x.json"
    r = invoke(*argv, "-o", out)
    assert r.exit_code == 0 and r.stdout == "" and json.loads(out.read_text()) is not None


def _is_json(line):
    try:
        json.loads(line)
        return True
    except ValueError:
        return False


def test_cache_stats_json_and_output(tmp_path):
    from extract.cache import AnswerCache
    made = AnswerCache(tmp_path / "c")
    made.set("k", {"answer": {}})
    made.close()
    r = invoke("cache", "stats", "--cache-dir", tmp_path / "c", "--json")
    assert json.loads(r.stdout)["entries"] == 1
    r = invoke("cache", "stats", "--cache-dir", tmp_path / "c", "--format", "json", "-o", tmp_path / "s.json")
    assert json.loads((tmp_path / "s.json").read_text())["entries"] == 1


@pytest.mark.parametrize("argv", [
    ("run", "/nonexistent/in.jsonl"), ("eval", "/nonexistent.jsonl", "--gold", GOLD),
    ("table", "/nonexistent.jsonl"), ("triage", "/nonexistent.jsonl"),
    ("report", "/nonexistent.jsonl", "-o", "-"), ("schema", "--schema", "nomod_zz:X"),
    ("run", "x.jsonl", "--backend", "nosuch"),
    # click's own usage errors (they used to be three lines: Usage, Try, Error)
    ("run",), ("run", "x.jsonl", "--concurrency", "0"), ("run", "x.jsonl", "--input-format", "xml"),
    ("table", RECORDS, "--by", "nope"), ("triage", RECORDS, "--nosuch"), ("cache", "stats", "--nosuch"),
    ("batch", "submit", "x.jsonl"), ("nosuchcommand",),
])
def test_errors_have_one_prefix_and_exit_2(argv):
    r = invoke(*argv)
    assert r.exit_code == 2, (argv, r.stderr)
    assert r.stderr.startswith("extract: error: ") and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_eval_with_no_matched_gold_record_fails(tmp_path):
    recs = tmp_path / "r.jsonl"
    recs.write_text(json.dumps({"id": "zzz#1", "text": "Nothing alike at all.", "status": "ok",
                                "extraction": {}}) + "\n")
    r = invoke("eval", recs, "--gold", GOLD)
    assert r.exit_code == 2 and r.stderr.splitlines()[-1].startswith("extract: error: none of the")


@pytest.mark.parametrize("command", ["triage", "table", "report"])
def test_a_non_records_file_fails(tmp_path, command):
    inp = tmp_path / "abstracts.jsonl"
    inp.write_text(json.dumps({"id": "a", "abstract": "An input, not a record."}) + "\n")
    r = invoke(command, inp, "-o", tmp_path / "out")
    assert r.exit_code == 2 and "is not a records file" in r.stderr


def test_diagnostics_without_errors_file_are_prefixed_lines(cli, server, tmp_path):
    """Without -o, each failure is one stderr line under the one prefix (it was
    "error:  <stdin>:1: ..." with a double space, and "1 failures listed in stderr")."""
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps({"id": "a", "abstract": "We propose FlowNet, which improves accuracy by 12.5%."})
                   + "\n" + json.dumps({"id": "a", "abstract": "A second text."}) + "\n")
    r = cli("run", str(inp), server=server)
    assert r.exit_code == 1, r.stderr
    assert json.loads(r.stdout.splitlines()[0])["id"] == "a"
    lines = r.stderr.splitlines()
    assert any(line.startswith(f"extract: failed: {inp}:2 (id a): duplicate id 'a'") for line in lines), lines
    assert "extract: 1 failure listed above" in lines
    assert all(line.startswith("extract: ") for line in lines), lines


def test_read_side_notes_share_the_prefix(tmp_path):
    recs = tmp_path / "r.jsonl"
    recs.write_text(RECORDS.read_text(encoding="utf-8"), encoding="utf-8")
    for argv in (("table", recs, "--kind", "result", "-o", tmp_path / "t.md"),
                 ("triage", recs, "-o", tmp_path / "t.txt"), ("report", recs, "-o", tmp_path / "r.html")):
        r = invoke(*argv)
        assert r.exit_code == 0, r.stderr
        assert r.stderr and all(line.startswith("extract: ") for line in r.stderr.splitlines()), r.stderr
    r = invoke("table", recs, "--kind", "result")
    assert "have no result numbers" in r.stderr or "has no result numbers" in r.stderr


def test_cache_clear_says_what_it_did_under_the_prefix(tmp_path):
    from extract.cache import AnswerCache
    made = AnswerCache(tmp_path / "c")
    made.set("k", {"answer": {}})
    made.close()
    r = invoke("cache", "clear", "--cache-dir", tmp_path / "c")
    assert r.exit_code == 0 and r.stdout == ""
    assert r.stderr.strip() == f"extract: removed 1 entry from {tmp_path / 'c'}"


def test_schema_takes_output_like_every_command_that_prints_a_result(tmp_path):
    r = invoke("schema", "-o", tmp_path / "s.json")
    assert r.exit_code == 0 and r.stdout == ""
    assert "NumberMention" in json.loads((tmp_path / "s.json").read_text())["$defs"]
    assert json.loads(invoke("schema").stdout) == json.loads((tmp_path / "s.json").read_text())
