"""What a new user hits in the first hour (issue 19, "Surprises"): pipes, -o suffixes,
entries without an abstract, stdin CSVs, BibTeX LaTeX, custom schemas on the rules."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from conftest import SEEDS, read_jsonl
from extract.cli import main

FIXTURE = Path(__file__).parent / "fixtures" / "records-sample.jsonl"
ABSTRACT = "We propose FlowNet, a solver that improves accuracy by 12.5% on ImageNet."


def invoke(*argv, input=None, env=None):
    return CliRunner().invoke(main, [str(a) for a in argv], input=input, env=env,
                              catch_exceptions=False)


# -- extract run x | extract table - ---------------------------------------------------------

def test_table_and_triage_read_records_from_stdin(tmp_path):
    run = invoke("run", SEEDS / "000_810fdc4303f22573.txt", "--cache-dir", tmp_path / "c", "-q")
    assert run.exit_code == 0, run.stderr
    piped = invoke("table", "-", input=run.stdout)
    assert piped.exit_code == 0, piped.stderr
    out = tmp_path / "out.jsonl"
    out.write_text(run.stdout)
    assert piped.stdout == invoke("table", out).stdout and "|" in piped.stdout
    tri = invoke("triage", "-", "--format", "json", input=run.stdout)
    assert tri.exit_code == 0, tri.stderr
    assert json.loads(tri.stdout) == json.loads(invoke("triage", out, "--format", "json").stdout)


def test_table_of_stdin_that_is_not_records_is_refused_in_one_line():
    r = invoke("table", "-", input=json.dumps({"id": "a", "abstract": ABSTRACT}) + "\n")
    assert r.exit_code == 2 and "is not a records file" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_load_records_reads_stdin(monkeypatch):
    import io
    import sys

    from extract.records import load_records

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(FIXTURE.read_bytes()), encoding="utf-8"))
    rs = load_records("-", warn=lambda m: None)
    assert rs.papers and rs.errors_path is None and str(rs.path) == "<stdin>"


# -- extract run x -o out.csv ------------------------------------------------------------------

def test_run_refuses_an_output_named_like_another_format(tmp_path):
    inp = tmp_path / "in.txt"
    inp.write_text(ABSTRACT + "\n")
    for name in ("out.csv", "out.md", "out.html", "out.json"):
        r = invoke("run", inp, "-o", tmp_path / name, "--cache-dir", tmp_path / "c")
        assert r.exit_code == 2, (name, r.stderr)
        assert not (tmp_path / name).exists()
        line, = r.stderr.strip().splitlines()
        assert "JSON Lines" in line and str(tmp_path / "out.jsonl") in line
    r = invoke("run", inp, "-o", tmp_path / "out.csv", "--cache-dir", tmp_path / "c")
    assert f"extract table {tmp_path / 'out.jsonl'} -o {tmp_path / 'out.csv'}" in r.stderr
    r = invoke("run", inp, "-o", tmp_path / "out.jsonl", "--cache-dir", tmp_path / "c")
    assert r.exit_code == 0 and read_jsonl(tmp_path / "out.jsonl")
