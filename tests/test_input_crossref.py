"""Crossref's REST API answer as an input (``curl 'https://api.crossref.org/works?query=...' >
works.json``): one record a work, its DOI the id, its title the first of its list, and its JATS
abstract read as text (markup out, paragraphs as blank lines, entities decoded), so the record's
offsets point into what a reader sees."""

from __future__ import annotations

import doctest
import json

from click.testing import CliRunner

import extract.inputs.crossref as crossref
from conftest import read_jsonl
from extract.cli import main
from extract.inputs import Item, Problem, expand, read_inputs

WORK = {
    "DOI": "10.18653/v1/2022.acl-long.1",
    "type": "proceedings-article",
    "title": ["AdapLeR: Speeding up Inference by Adaptive Length Reduction"],
    "container-title": ["Proceedings of ACL 2022"],
    "author": [{"given": "Ali", "family": "Modarressi"}],
    "abstract": "<jats:title>Abstract</jats:title><jats:p>We propose <jats:italic>AdapLeR</jats:italic>, "
                "a method that reduces inference cost. AdapLeR reaches a 22x speedup on GLUE with &lt;1% "
                "accuracy loss.</jats:p>\n<jats:p>Code is available.</jats:p>",
}
TEXT = ("We propose AdapLeR, a method that reduces inference cost. AdapLeR reaches a 22x speedup on GLUE "
        "with <1% accuracy loss.\n\nCode is available.")


def _read(tmp_path, doc):
    path = tmp_path / "works.json"
    path.write_text(json.dumps(doc))
    files, _ = expand([path])
    return list(read_inputs(files))


def test_a_work_list_is_one_item_a_work_with_its_doi_title_and_abstract_text(tmp_path):
    bare = {k: v for k, v in WORK.items() if k != "abstract"}
    doc = {"status": "ok", "message-type": "work-list",
           "message": {"total-results": 2, "items": [WORK, {**bare, "DOI": "10.1/none"}]}}
    first, second = _read(tmp_path, doc)
    assert isinstance(first, Item) and first.id == "10.18653/v1/2022.acl-long.1"
    assert first.title == "AdapLeR: Speeding up Inference by Adaptive Length Reduction"
    assert first.text == TEXT
    assert first.meta["container-title"] == ["Proceedings of ACL 2022"] and "DOI" not in first.meta
    assert isinstance(second, Problem) and second.skipped and second.id == "10.1/none"


def test_one_work_as_returned_by_its_doi(tmp_path):
    (item,) = _read(tmp_path, {"status": "ok", "message-type": "work", "message": WORK})
    assert (item.id, item.text) == ("10.18653/v1/2022.acl-long.1", TEXT)


def test_a_run_grounds_its_names_in_the_abstract_read(tmp_path):
    path = tmp_path / "works.json"
    path.write_text(json.dumps({"message": {"items": [WORK]}}))
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(main, ["run", str(path), "-o", str(out), "--no-cache", "-q"])
    assert r.exit_code == 0, r.output
    (rec,) = read_jsonl(out)
    assert rec["text"] == TEXT and "jats" not in json.dumps(rec["extraction"])
    assert [m["text"] for m in rec["extraction"]["method_names"]] == ["AdapLeR"]
    for span in rec["extraction"]["method_names"] + rec["extraction"]["datasets"]:
        assert TEXT[span["start"]:span["end"]] == span["text"]


def test_its_doctests():
    assert doctest.testmod(crossref).failed == 0
