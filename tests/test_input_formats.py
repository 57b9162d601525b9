"""Inputs people actually have: stdin, JSON from the scholarly APIs, BibTeX, Zotero and
Scopus CSV, plain text with or without a header, and the faults of real files."""

import json
from pathlib import Path

import pytest

from extract.errors import InputError
from extract.inputs import FieldMap, Item, Problem, expand, read_inputs

FIX = Path(__file__).parent / "fixtures" / "inputs"


def read(*paths, fields=None, notes=None, exclude=()):
    files, _ = expand(paths, exclude=exclude)
    return list(read_inputs(files, fields, note=notes.append if notes is not None else None))


def write(tmp_path, name, content):
    p = tmp_path / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(content if isinstance(content, bytes) else content.encode())
    return p


# -- formats ----------------------------------------------------------------------------

def test_openalex_response_with_inverted_index_is_rebuilt():
    got = read(FIX / "openalex.json")
    first, second = got
    assert first.id == "https://openalex.org/W4390000001" and first.title == "FlowNet for Everything"
    assert first.text == "We propose FlowNet, which improves accuracy by 12.5% on ImageNet."
    assert first.meta["doi"] == "https://doi.org/10.1000/oa1" and first.meta["publication_year"] == 2024
    assert "abstract_inverted_index" not in first.meta
    assert isinstance(second, Problem) and "empty abstract" in second.reason


def test_semantic_scholar_response_uses_paper_id_and_reports_a_null_abstract():
    first, second = read(FIX / "s2.json")
    assert first.id == "649def34f8be52c8b66281af98ae884c09aef38b"
    assert first.meta == {"year": 2018, "venue": "NAACL", "externalIds": {"DOI": "10.18653/v1/N18-3011"}}
    assert isinstance(second, Problem) and second.id.startswith("0000") and "null" in second.reason


def test_json_array_and_single_object(tmp_path):
    arr = write(tmp_path, "arr.json", json.dumps([{"abstract": "One."}, {"text": "Two.", "id": 7}, 3]))
    got = read(arr)
    assert [(e.id, e.text) for e in got[:2]] == [(f"{tmp_path}/arr#1", "One."), ("7", "Two.")]
    assert isinstance(got[2], Problem) and "not a JSON object" in got[2].reason
    one = write(tmp_path, "one.json", '{\n  "abstract": "Pretty printed."\n}\n')
    assert [e.text for e in read(one)] == ["Pretty printed."]
    bad = write(tmp_path, "bad.json", '[{"abstract": "x"},\n')
    (p,) = read(bad)
    assert isinstance(p, Problem) and "not JSON" in p.reason


def test_arxiv_snapshot_and_api_fields():
    first, second = read(FIX / "arxiv.jsonl")
    assert first.id == "0704.0001" and first.text.startswith("A fully differential calculation")
    assert first.title == "Calculation of prompt diphoton production cross sections"
    assert first.meta["doi"] == "10.1103/PhysRevD.76.013009" and first.meta["categories"] == "hep-ph"
    assert second.text == "We study Atom feeds, reaching 3.5% error."      # "summary"


def test_bibtex_entries_missing_abstract_and_broken_block():
    got = read(FIX / "refs.bib")
    assert isinstance(got[0], Item) and got[0].id == "vaswani2017"
    assert got[0].title == "Attention Is All You Need: the Transformer"
    assert got[0].text.startswith("We propose the Transformer")
    assert got[0].meta["year"] == "2017" and got[0].meta["ENTRYTYPE"] == "article"
    assert isinstance(got[1], Problem) and got[1].id == "noabstract2020" and "no 'abstract'" in got[1].reason
    assert isinstance(got[2], Problem) and got[2].source.endswith("refs.bib:14") and "BibTeX" in got[2].reason


def test_zotero_and_scopus_exports():
    z1, z2 = read(FIX / "zotero.csv")
    assert (z1.id, z1.title) == ("ABCD1234", "Zotero Paper") and z1.text.startswith("We propose ZotNet")
    assert z1.meta["DOI"] == "10.1/z" and "DOI" not in z2.meta          # empty cells are not kept
    assert z2.source.endswith("zotero.csv:3") and z2.text.endswith("multi-line notes.")
    (s,) = read(FIX / "scopus.csv")
    assert (s.id, s.title) == ("2-s2.0-85000000001", "Scopus Paper") and s.meta["Source title"] == "Journal X"


def test_field_flags_name_other_columns(tmp_path):
    p = write(tmp_path, "x.jsonl", json.dumps({"pid": "A1", "name": "T", "body": "The text.",
                                               "abstract": "not this"}) + "\n")
    (e,) = read(p, fields=FieldMap(id="pid", title="NAME", text="body"))
    assert (e.id, e.title, e.text) == ("A1", "T", "The text.") and e.meta == {"abstract": "not this"}
    (q,) = read(p, fields=FieldMap(text="summary"))
    assert isinstance(q, Problem) and "no 'summary' field" in q.reason


# -- plain text: never lose an abstract silently ------------------------------------------

FIVE = [f"Abstract number {i} proposes a method and reports {i}0% gains on a benchmark."
        for i in range(1, 6)]


def test_txt_without_header_keeps_its_first_abstract(tmp_path):
    notes = []
    got = read(write(tmp_path, "plain.txt", "\n\n".join(FIVE) + "\n"), notes=notes)
    assert [e.text for e in got] == FIVE
    assert notes == [f"{tmp_path}/plain.txt: no header line; abstracts separated by blank lines"]


def test_txt_one_abstract_per_line(tmp_path):
    notes = []
    got = read(write(tmp_path, "lines.txt", "My papers\n" + "\n".join(FIVE) + "\n"), notes=notes)
    assert [e.text for e in got] == FIVE and got[0].source.endswith("lines.txt:2")
    assert "'My papers' read as a header; one abstract per line" in notes[0]


def test_txt_wrapped_abstract_stays_one(tmp_path):
    wrapped = "We propose a method that\nimproves accuracy by 3% on\nImageNet over strong baselines."
    (e,) = read(write(tmp_path, "w.txt", "Header\n\n" + wrapped + "\n"))
    assert e.text == wrapped


# -- faults of real files -----------------------------------------------------------------

def test_bom_jsonl_keeps_its_first_record(tmp_path):
    p = write(tmp_path, "bom.jsonl", b"\xef\xbb\xbf" + b'{"id": "a", "abstract": "First."}\n{"id": "b", "abstract": "Second."}\n')
    assert [e.id for e in read(p)] == ["a", "b"]


def test_bom_csv_id_column_and_abstract_first(tmp_path):
    p = write(tmp_path, "bom.csv", b"\xef\xbb\xbfid,abstract\nk1,First.\n")
    assert [e.id for e in read(p)] == ["k1"]
    q = write(tmp_path, "first.csv", b"\xef\xbb\xbfabstract,id\nOnly text.,k2\n")
    assert [(e.id, e.text) for e in read(q)] == [("k2", "Only text.")]


def test_unterminated_csv_quote_is_reported_and_later_rows_survive(tmp_path):
    p = write(tmp_path, "q.csv", 'id,abstract\nr1,Good one.\nr2,"Never closed, we\nr3,Third is fine.\nr4,Fourth too.\n')
    got = read(p)
    assert [e.id for e in got if isinstance(e, Item)] == ["r1", "r3", "r4"]
    (bad,) = [e for e in got if isinstance(e, Problem)]
    assert bad.source.endswith("q.csv:3") and "unclosed quote" in bad.reason


def test_multiline_csv_row_reports_its_first_line(tmp_path):
    p = write(tmp_path, "m.csv", 'id,abstract\nr1,"Line one\nline two\nline three"\nr2,Next.\n')
    got = read(p)
    assert [(e.id, e.source.rsplit(":", 1)[1]) for e in got] == [("r1", "2"), ("r2", "5")]


def test_ids_123_and_string_123_are_one_id_reported_as_duplicate(tmp_path):
    p = write(tmp_path, "n.jsonl", '{"id": 123, "abstract": "A."}\n{"id": "123", "abstract": "B."}\n')
    first, second = read(p)
    assert first.id == "123" and isinstance(second, Problem)
    assert "duplicate id '123'" in second.reason and "compared as text" in second.reason


def test_lone_surrogate_is_one_clear_problem(tmp_path):
    p = write(tmp_path, "s.jsonl", '{"id": "x", "abstract": "Bad \\ud800 here."}\n'
                                   '{"id": "y", "abstract": "Pair \\ud83d\\ude00 fine."}\n')
    bad, good = read(p)
    assert isinstance(bad, Problem) and "lone surrogate" in bad.reason and "\\ud800" in bad.reason
    assert isinstance(good, Item) and good.text == "Pair \U0001F600 fine."


def test_import_extract_leaves_the_csv_field_limit_alone():
    import subprocess
    import sys
    code = "import csv; a = csv.field_size_limit(); import extract, extract.cli; print(a == csv.field_size_limit())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "True", out.stderr


def test_long_csv_field_is_read(tmp_path):
    long = "x" * (200 * 1024)
    (e,) = read(write(tmp_path, "long.csv", f"abstract\n{long}\n"))
    assert len(e.text) == len(long)


# -- folders -------------------------------------------------------------------------------

def test_folder_without_input_files_is_an_error(tmp_path):
    d = tmp_path / "d"
    write(d, "notes.md", "x")
    write(d, ".hidden.txt", "H\n\nA.\n")
    write(d, ".git/x.txt", "H\n\nA.\n")
    with pytest.raises(InputError, match="no input file in this directory"):
        expand([d])


def test_hidden_folders_are_not_scanned(tmp_path):
    write(tmp_path, "a.jsonl", '{"abstract": "A."}\n')
    write(tmp_path, ".venv/lib/b.jsonl", '{"abstract": "B."}\n')
    write(tmp_path, ".git/c.txt", "H\n\nC.\n")
    files, _ = expand([tmp_path])
    assert [f.name for f in files] == ["a.jsonl"]


def test_same_file_twice_is_read_once(tmp_path, monkeypatch):
    p = write(tmp_path, "x.jsonl", '{"id": "a", "abstract": "A."}\n')
    monkeypatch.chdir(tmp_path)
    files, notes = expand(["./x.jsonl", str(p), tmp_path])
    assert len(files) == 1 and any("read once" in n for n in notes)
    assert [type(e).__name__ for e in read_inputs(files)] == ["Item"]


def test_default_ids_do_not_collide_across_folders(tmp_path, monkeypatch):
    write(tmp_path, "d/2024/papers.txt", "H\n\nAn abstract of 2024.\n")
    write(tmp_path, "d/2025/papers.txt", "H\n\nAn abstract of 2025.\n")
    monkeypatch.chdir(tmp_path)
    got = read("d")                 # the path as given: the folder argument is part of the label
    assert [e.id for e in got] == ["d/2024/papers#1", "d/2025/papers#1"]
    assert [e.id for e in read("./d/2024/")] == ["d/2024/papers#1"]
    a = write(tmp_path, "x/papers.jsonl", '{"abstract": "X."}\n')
    b = write(tmp_path, "y/papers.jsonl", '{"abstract": "Y."}\n')
    assert len({e.id for e in read(a, b)}) == 2


def test_own_outputs_are_skipped_when_scanning(tmp_path):
    write(tmp_path, "in.jsonl", '{"id": "a", "abstract": "A."}\n')
    write(tmp_path, "old.jsonl", json.dumps({"id": "a", "status": "ok", "extraction": {},
                                             "provenance": {}}) + "\n")
    write(tmp_path, "old.errors.jsonl", json.dumps({"id": "b", "status": "error"}) + "\n")
    out = write(tmp_path, "new.jsonl", "")
    files, notes = expand([tmp_path], exclude=[out])
    assert [f.name for f in files] == ["in.jsonl"]
    assert sum("output of extract" in n for n in notes) == 3


# -- end to end -----------------------------------------------------------------------------

def test_stdin_and_meta_end_to_end(cli, server, tmp_path):
    from click.testing import CliRunner
    from extract.cli import main
    lines = json.dumps({"id": "s1", "abstract": "We propose StdNet, 5% better.", "title": "Std",
                        "doi": "10.1/x", "year": 2024}) + "\n"
    r = CliRunner().invoke(main, ["run", "-", "--base-url", server.base_url, "--model", "m",
                                  "--cache-dir", str(tmp_path / "c")], input=lines)
    assert r.exit_code == 0, r.stderr
    (rec,) = [json.loads(x) for x in r.stdout.splitlines()]
    assert rec["id"] == "s1" and rec["title"] == "Std" and rec["meta"] == {"doi": "10.1/x", "year": 2024}
    assert "<stdin>: read as jsonl" in r.stderr
    txt = "Some header\n\nFirst abstract from a pipe.\n\nSecond one.\n"
    r = CliRunner().invoke(main, ["run", "-", "--base-url", server.base_url, "--model", "m",
                                  "--cache-dir", str(tmp_path / "c")], input=txt)
    ids = [json.loads(x)["id"] for x in r.stdout.splitlines()]
    assert len(ids) == 2 and ids[0].startswith("stdin-") and ids[1] == ids[0][:-1] + "2"


def test_stdin_csv_is_sniffed_by_its_header_row(cli, server, tmp_path):
    """A CSV piped in was read as plain text: its rows became one abstract (exit 0)."""
    from click.testing import CliRunner
    from extract.cli import main
    csv_text = ('Key,Title,Abstract Note,Publication Year\n'
                'Z1,"Zot, paper","We present ZotNet, 75.3% F1 on SQuAD.",2023\n'
                'Z2,Two,"We propose TwoNet, 3% better on MNIST.",2024\n')
    r = CliRunner().invoke(main, ["run", "-", "--base-url", server.base_url, "--model", "m",
                                  "--cache-dir", str(tmp_path / "c")], input=csv_text)
    assert r.exit_code == 0, r.stderr
    recs = [json.loads(x) for x in r.stdout.splitlines()]
    assert [x["id"] for x in recs] == ["Z1", "Z2"] and recs[0]["title"] == "Zot, paper"
    assert "<stdin>: read as csv" in r.stderr


@pytest.mark.parametrize("first,fmt", [
    # a header of column names is a CSV even when no column is the abstract's (issue 19: read
    # as the same file given by name, which is refused for its column)
    ("id,title,abstract", ".csv"), ("\ufeffAbstract Note,Key", ".csv"), ("doi,body", ".csv"),
    ("NeurIPS 2026 Papers", ".txt"), ("We study text, summary and abstract writing.", ".txt"),
    ("Abstract", ".txt"),
])
def test_sniff_csv_only_by_a_header_naming_the_abstract(first, fmt):
    from extract.inputs.jsonfmt import sniff
    assert sniff(first) == fmt
    assert sniff("doi,body", text_field="body") == ".csv"


def test_count_matches_what_is_read(tmp_path):
    from extract.inputs import count_inputs
    write(tmp_path, "a.jsonl", '{"abstract": "A."}\n\n{"abstract": "B."}\nnot json\n')
    write(tmp_path, "b.txt", "Header\n\nOne.\n\nTwo.\n")
    write(tmp_path, "c.csv", 'abstract\n"multi\nline"\nsecond\n')
    write(tmp_path, "e.jsonl", "\n")
    files, _ = expand([tmp_path])
    assert count_inputs(files) == len(list(read_inputs(files))) == 8


def test_a_named_text_field_that_is_missing_says_which_fields_there_are():
    """With --text-field, the reason listed the default names ("nor summary, ...")."""
    from extract.inputs import FieldMap
    from extract.inputs.model import from_mapping
    p = from_mapping({"id": "a", "Body": "x", "doi": "10.1/x"}, "f", 1, "f.jsonl:1", FieldMap(text="abstr"))
    assert p.reason == "no 'abstr' field (named by --text-field; fields here: Body, doi, id)"
    p = from_mapping({"id": "a", "Body": "x"}, "f", 1, "f.jsonl:1")
    assert p.reason.startswith("no 'abstract' or 'text' field (nor summary")
