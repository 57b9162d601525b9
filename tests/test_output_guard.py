"""``-o`` naming an existing file that is not a records file (a CSV export, a file of
abstracts) is refused before anything is written: a run appends to ``-o``, and used to
append JSON records to the user's own data (exit 0)."""

import json

import pytest

from conftest import write_abstracts
from extract.errors import UsageError
from extract.outpaths import check_paths


@pytest.mark.parametrize("content", [
    "Key,Title,Abstract Note\nZ1,T,An abstract.\n",                       # a Zotero CSV
    json.dumps({"id": "p1", "abstract": "An abstract, not a record."}) + "\n",  # an input
    "plain text notes\nmore\n",
])
def test_run_refuses_to_append_to_foreign_data(cli, server, tmp_path, content):
    inp = write_abstracts(tmp_path / "in.jsonl", ["We propose FlowNet, 12.5% better on ImageNet."])
    victim = tmp_path / "victim.data"
    victim.write_text(content)
    r = cli("run", str(inp), server=server, out=victim)
    assert r.exit_code == 2, r.stderr
    assert r.stderr.strip().splitlines()[-1].startswith("extract: error: -o ")
    assert "not a records file" in r.stderr
    assert victim.read_text() == content
    assert not server.requests


def test_records_file_empty_file_and_torn_line_are_resumed(cli, server, tmp_path):
    inp = write_abstracts(tmp_path / "in.jsonl", ["We propose FlowNet, 12.5% better on ImageNet.",
                                                   "GraphMixer reaches 91% accuracy on OGB."])
    out = tmp_path / "out.jsonl"
    assert cli("run", str(inp), server=server, out=out).exit_code == 0
    first = out.read_text().splitlines()
    assert cli("run", str(inp), server=server, out=out).exit_code == 0     # a records file: resumed
    assert out.read_text().splitlines() == first
    for start in ("", first[0][:40]):                                      # empty; one torn line
        out.write_text(start)
        r = cli("run", str(inp), server=server, out=out)
        assert r.exit_code == 0, r.stderr
        assert [json.loads(x)["id"] for x in out.read_text().splitlines()] == ["p1", "p2"]


def test_check_paths_names_the_file(tmp_path):
    victim = tmp_path / "export.csv"
    victim.write_text("a,b\n1,2\n")
    with pytest.raises(UsageError, match="export.csv holds data"):
        check_paths(victim, None, [])


def test_errors_file_that_holds_other_data_is_refused(cli, server, tmp_path):
    inp = write_abstracts(tmp_path / "in.jsonl", ["We propose FlowNet, 12.5% better on ImageNet.", ""])
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    r = cli("run", str(inp), "--errors", str(notes), server=server, out=tmp_path / "out.jsonl")
    assert r.exit_code == 2 and "--errors" in r.stderr and notes.read_text() == "my notes\n"
    r = cli("run", str(inp), server=server, out=tmp_path / "out.jsonl")      # its own errors file
    assert r.exit_code == 0                     # (the empty abstract is skipped, listed there)
    r = cli("run", str(inp), server=server, out=tmp_path / "out.jsonl")      # ... is rewritten
    assert r.exit_code == 0, r.stderr
