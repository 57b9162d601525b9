"""`extract table` on bad input: one-line errors with exit 2, and records files with garbage
lines, foreign schemas, duplicate ids and error files read without failing (split from
test_table.py, whose helpers it uses)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from extract.cli.table import table
from extract.records import errors_path_for, load_records
from extract.table_render import render
from test_table import FIXTURE, rec, write


def test_not_a_records_file_exits_2_with_one_line(tmp_path):
    inputs = tmp_path / "abstracts.jsonl"
    inputs.write_text(json.dumps({"id": "a", "text": "An abstract.", "title": "T"}) + "\n", encoding="utf-8")
    csvfile = tmp_path / "papers.csv"
    csvfile.write_text("id,abstract\n1,An abstract.\n", encoding="utf-8")
    for bad in (inputs, csvfile):
        r = CliRunner().invoke(table, [str(bad)])
        assert r.exit_code == 2 and r.stdout == "", r.stderr
        assert len(r.stderr.strip().splitlines()) == 1 and "not a records file" in r.stderr


def test_missing_or_unreadable_file_exits_2(tmp_path):
    for bad in (tmp_path / "nope.jsonl", tmp_path):
        r = CliRunner().invoke(table, [str(bad)])
        assert r.exit_code == 2
        assert r.stdout == ""
        assert len(r.stderr.strip().splitlines()) == 1 and r.stderr.startswith("extract: error: ")


def test_bad_choice_is_a_usage_error():
    r = CliRunner().invoke(table, [str(FIXTURE), "--format", "xlsx"])
    assert r.exit_code == 2


def test_unwritable_output_exits_2(tmp_path):
    r = CliRunner().invoke(table, [str(FIXTURE), "-o", str(tmp_path / "no" / "such" / "dir.md")])
    assert r.exit_code == 2 and "cannot write" in r.stderr


# ------------------------------------------------------------------ robust reading

def test_garbage_lines_and_foreign_schema_are_reported_not_fatal(tmp_path):
    good = rec("g1", "ToyNet gets 70% on ToyQA.", ["ToyNet"], ["ToyQA"],
               [("70%", 70, "%", "result", "accuracy")])
    custom = {"id": "c1", "text": "Some abstract.", "extraction": {"sentiment": "positive"}}
    weird = rec("w1", "WeirdNet on WeirdSet.", ["WeirdNet"], ["WeirdSet"])
    weird["extraction"]["numbers"] = "not a list"
    weird["extraction"]["datasets"].append({"start": 1})
    lines = [json.dumps(good), "{not json", "[1, 2]", json.dumps({"no": "id"}), json.dumps(custom),
             json.dumps(weird), ""]
    p = tmp_path / "mixed.jsonl"
    p.write_text("\n".join(lines), encoding="utf-8")
    msgs = []
    rs = load_records(p, warn=msgs.append)
    assert [x.id for x in rs.papers] == ["g1", "c1", "w1"]
    assert not rs.papers[1].schema_ok and not rs.papers[2].schema_ok
    assert rs.papers[2].datasets[0].text == "WeirdSet"
    text = "\n".join(msgs)
    assert "mixed.jsonl:2: not JSON" in text and ":3: not a JSON object" in text and ":4: not a record" in text
    assert "2 record(s) do not follow the default schema" in text
    for by in ("dataset", "method", "metric", "task"):
        for fmt in ("markdown", "csv", "html", "json"):
            assert render(rs.papers, by, fmt)
    r = CliRunner().invoke(table, [str(p), "--by", "task"])
    assert r.exit_code == 0 and "c1" in r.stdout and "not JSON" in r.stderr


def test_errors_path_and_duplicates(tmp_path):
    assert errors_path_for(Path("a/out.jsonl")) == Path("a/out.errors.jsonl")
    assert errors_path_for(Path("out.txt")) == Path("out.txt.errors.jsonl")
    a = rec("d", "A text.")
    b = rec("d", "A newer text.")
    p = write(tmp_path, [a, b])
    (tmp_path / "out.errors.jsonl").write_text(
        json.dumps({"id": "d", "reason": "old failure"}) + "\n" + json.dumps({"id": "f", "reason": "timeout", "attempts": 3})
        + "\n" + json.dumps({"id": None, "source": "in.csv:7", "kind": "input", "reason": "empty text"}) + "\n",
        encoding="utf-8")
    msgs = []
    rs = load_records(p, warn=msgs.append)
    assert [x.text for x in rs.papers] == ["A newer text."] and any("duplicate id" in m for m in msgs)
    assert [f.id for f in rs.failures] == ["f", "in.csv:7"] and rs.failures[0].attempts == 3
