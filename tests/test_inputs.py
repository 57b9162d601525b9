import json

import pytest

from extract.errors import InputError
from extract.inputs import Item, Problem, expand, read_inputs


def entries(tmp_path, name, content):
    p = tmp_path / name
    p.write_bytes(content if isinstance(content, bytes) else content.encode())
    files, _ = expand([p])
    return list(read_inputs(files))


def test_seed_format_ids_and_sources(tmp_path):
    got = entries(tmp_path, "001_x.txt", "Header\n\nFirst abstract.\n\n\nSecond one\ncontinues.\n")
    assert [(e.id, e.source, e.text) for e in got] == [
        (f"{tmp_path}/001_x#1", f"{tmp_path}/001_x.txt:3", "First abstract."),   # the path as given
        (f"{tmp_path}/001_x#2", f"{tmp_path}/001_x.txt:6", "Second one\ncontinues."),
    ]


def test_jsonl_given_ids_default_ids_and_bad_lines(tmp_path):
    lines = [json.dumps({"id": "a", "abstract": "Alpha."}), "{not json", json.dumps([1]),
             json.dumps({"text": "Beta.", "title": "T"}), json.dumps({"id": "a", "text": "dup"}),
             json.dumps({"abstract": "   "}), json.dumps({"title": "no text"})]
    got = entries(tmp_path, "in.jsonl", "\n".join(lines) + "\n")
    assert isinstance(got[0], Item) and got[0].id == "a"
    assert isinstance(got[1], Problem) and got[1].source.endswith("in.jsonl:2") and "not JSON" in got[1].reason
    assert isinstance(got[2], Problem) and "not a JSON object" in got[2].reason
    assert got[3] == Item(f"{tmp_path}/in#4", f"{tmp_path}/in.jsonl:4", "Beta.", "T")
    assert isinstance(got[4], Problem) and "duplicate id 'a'" in got[4].reason and "in.jsonl:1" in got[4].reason
    assert isinstance(got[5], Problem) and got[5].reason == "empty abstract"
    assert isinstance(got[6], Problem) and "no 'abstract'" in got[6].reason


def test_csv_with_text_column_and_missing_column(tmp_path):
    got = entries(tmp_path, "a.csv", 'id,Text\np1,"Gamma, with comma."\n,Delta\n')
    assert [(e.id, e.text) for e in got] == [("p1", "Gamma, with comma."), (f"{tmp_path}/a#2", "Delta")]
    bad = entries(tmp_path, "b.csv", "id,body\n1,x\n")
    assert len(bad) == 1 and "no 'abstract' or 'text' column" in bad[0].reason


def test_undecodable_bytes_are_reported_and_others_go_through(tmp_path):
    got = entries(tmp_path, "c.txt", b"Header\n\nGood one.\n\nBad \xff\xfe bytes.\n\nAnother good.\n")
    assert [type(e).__name__ for e in got] == ["Item", "Problem", "Item"]
    assert got[1].source.endswith("c.txt:5") and "UTF-8" in got[1].reason


@pytest.mark.parametrize("content,reason", [("", "empty file"), ("Header only\n", "no abstracts"),
                                            ("Header\n\n\n", "no abstracts")])
def test_empty_and_header_only(tmp_path, content, reason):
    got = entries(tmp_path, "e.txt", content)
    assert len(got) == 1 and reason in got[0].reason


def test_directory_skips_unrelated_files_with_a_note(tmp_path):
    (tmp_path / "a.txt").write_text("H\n\nOne.\n")
    (tmp_path / "notes.md").write_text("# not input")
    files, notes = expand([tmp_path])
    assert [f.name for f in files] == ["a.txt"]
    assert notes and "notes.md: skipped" in notes[0]


def test_missing_path_and_wrong_type_are_input_errors(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        expand([tmp_path / "nope.txt"])
    (tmp_path / "x.pdf").write_text("x")
    with pytest.raises(InputError, match="unsupported input type"):
        expand([tmp_path / "x.pdf"])


def test_seeds_read_as_90_unique_abstracts(tmp_path):
    from conftest import SEEDS
    files, _ = expand([SEEDS])
    got = list(read_inputs(files))
    assert len(got) == 90 and all(isinstance(e, Item) for e in got)
    assert len({e.id for e in got}) == 90
