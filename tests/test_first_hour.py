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


# -- entries without an abstract are skipped, not failed ---------------------------------------

def test_entries_without_an_abstract_are_skipped_with_file_and_line(tmp_path):
    zotero = tmp_path / "zotero.csv"
    zotero.write_text('Key,Title,Abstract Note\nK1,FlowNet,"' + ABSTRACT + '"\nK2,An editorial,\n')
    scopus = tmp_path / "scopus.csv"
    scopus.write_text("EID,Title,Abstract\nE1,A letter,[No abstract available]\n")
    openalex = tmp_path / "openalex.jsonl"
    openalex.write_text(json.dumps({"id": "W1", "title": "A work", "abstract_inverted_index": None}) + "\n"
                        + json.dumps({"id": "W2", "title": "Another", "abstract": "N/A"}) + "\n")
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{nokey2024,\n  title = {No Abstract Here},\n  year = {2024}\n}\n")
    out = tmp_path / "out.jsonl"
    r = invoke("run", zotero, scopus, openalex, bib, "-o", out, "--cache-dir", tmp_path / "c")
    assert r.exit_code == 0, r.stderr
    assert "5 skipped (no abstract)" in r.stderr and "--strict" in r.stderr
    assert [x["id"] for x in read_jsonl(out)] == ["K1"]
    errors = read_jsonl(tmp_path / "out.errors.jsonl")
    where = {e["source"]: e for e in errors}
    assert set(where) == {f"{zotero}:3", f"{scopus}:2", f"{openalex}:1", f"{openalex}:2", f"{bib}:1"}
    assert all(e["status"] == "skipped" and e["kind"] == "input" for e in errors)
    assert "placeholder" in where[f"{scopus}:2"]["reason"]
    # `extract run ... && extract table ...` goes on; triage does not call them failed
    assert invoke("table", out).exit_code == 0
    tri = json.loads(invoke("triage", out, "--format", "json").stdout)
    assert [t["id"] for t in tri] == ["K1"] and not tri[0]["failed"]
    # --strict: the same run fails
    again = tmp_path / "strict.jsonl"
    r = invoke("run", zotero, "-o", again, "--strict", "--cache-dir", tmp_path / "c")
    assert r.exit_code == 1, r.stderr
    r = invoke("run", zotero, "-o", tmp_path / "j.jsonl", "--json", "--cache-dir", tmp_path / "c")
    summary = json.loads(r.stdout)
    assert summary["no_abstract"] == 1 and summary["exit_code"] == 0


def test_a_real_problem_still_fails_beside_a_skipped_entry(tmp_path):
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps({"id": "a", "abstract": ABSTRACT}) + "\n{not json\n"
                   + json.dumps({"id": "b", "abstract": ""}) + "\n")
    r = invoke("run", inp, "--cache-dir", tmp_path / "c")
    assert r.exit_code == 1
    assert f"extract: skipped: {inp}:3 (id b): empty abstract" in r.stderr.splitlines()
    assert any(line.startswith(f"extract: failed: {inp}:2") for line in r.stderr.splitlines())


def test_placeholders_are_whole_fields_only():
    from extract.inputs.model import no_abstract

    for text in ("[No abstract available]", "No abstract available.", "NaN", "n/a", " - ", "",
                 "Abstract not available", "None"):
        assert no_abstract(text), text
    for text in ("No abstract available for this reason: we study X.", "NA12878 genome", ABSTRACT):
        assert no_abstract(text) is None, text


# -- a CSV on stdin is read as the same file given by name ----------------------------------------

def test_csv_on_stdin_with_an_unusual_abstract_column_behaves_as_by_name(tmp_path):
    data = "paper_id,abstract_text\np1,\"" + ABSTRACT + "\"\n"
    named = tmp_path / "papers.csv"
    named.write_text(data)
    by_name = invoke("run", named, "--cache-dir", tmp_path / "c")
    piped = invoke("run", "-", "--cache-dir", tmp_path / "c", input=data)
    assert by_name.exit_code == piped.exit_code != 0
    assert piped.stdout == by_name.stdout == ""
    assert "no 'abstract' or 'text' column" in piped.stderr and "--text-field" in piped.stderr
    assert "read as csv" in piped.stderr
    # naming the column reads both the same way
    a = invoke("run", named, "--text-field", "abstract_text", "--cache-dir", tmp_path / "c")
    b = invoke("run", "-", "--text-field", "abstract_text", "--cache-dir", tmp_path / "c", input=data)
    assert a.exit_code == b.exit_code == 0
    assert [json.loads(x)["extraction"] for x in a.stdout.splitlines()] == \
        [json.loads(x)["extraction"] for x in b.stdout.splitlines()]


def test_stdin_sniffing_keeps_plain_text_plain():
    from extract.inputs.jsonfmt import sniff

    assert sniff("paper_id,abstract_text\n") == ".csv"
    assert sniff("Key,Item Type,Publication Year\n") == ".csv"
    for line in ("NeurIPS 2026 Papers\n", "We propose FlowNet, a solver, and test it.\n",
                 "Deep networks, however, fail under shift\n", "Attention, please\n"):
        assert sniff(line) == ".txt", line


# -- BibTeX LaTeX ------------------------------------------------------------------------------------

BIB = r"""@article{muller2024,
  author = {M{\"u}ller, J{\"o}rg and Garc\'{\i}a, Ana},
  title = {{Caf{\'e}}: {T}ransformers at 95\% on $\alpha$-Net},
  journal = {Journal of AI {\&} Co},
  abstract = {We propose Caf{\'e}, which reaches 95\% accuracy on {ImageNet}.},
  year = {2024}
}
"""


def test_bibtex_latex_is_decoded_in_title_and_meta_and_the_abstract_kept_as_written(tmp_path):
    from extract.inputs import read_inputs

    bib = tmp_path / "refs.bib"
    bib.write_text(BIB)
    item, = read_inputs([bib])
    assert item.title == "Café: Transformers at 95% on $\\alpha$-Net"
    assert item.meta["author"] == "Müller, Jörg and García, Ana"
    assert item.meta["journal"] == "Journal of AI & Co"
    assert item.text == r"We propose Caf{\'e}, which reaches 95\% accuracy on {ImageNet}."
    r = invoke("run", bib, "--cache-dir", tmp_path / "c")
    assert r.exit_code == 0, r.stderr
    rec = json.loads(r.stdout)
    assert rec["meta"]["author"] == "Müller, Jörg and García, Ana" and rec["title"].startswith("Café")
    for span in rec["extraction"]["numbers"] + rec["extraction"]["datasets"]:
        assert rec["text"][span["start"]:span["end"]] == span["text"]


# -- a custom schema on the rules: refused up front; the API takes a class ---------------------------

SCHEMA = '''
from pydantic import BaseModel, Field


class Paper(BaseModel):
    """Pull out only the task of the paper."""
    task: str = Field(description="the research problem, as a short noun phrase")
'''


def test_a_custom_schema_on_the_rules_backend_is_refused_up_front(tmp_path, monkeypatch):
    (tmp_path / "my_schema.py").write_text(SCHEMA)
    monkeypatch.chdir(tmp_path)
    inp = tmp_path / "in.txt"
    inp.write_text(ABSTRACT + "\n")
    r = invoke("run", inp, "--schema", "./my_schema.py:Paper", "-o", tmp_path / "o.jsonl",
               "--cache-dir", tmp_path / "c")
    assert r.exit_code == 2, r.stderr
    line, = r.stderr.strip().splitlines()
    assert "default schema only" in line and "local" in line and "openai" in line
    assert not (tmp_path / "o.jsonl").exists()


def test_the_python_api_takes_a_schema_class(server, tmp_path):
    import extract
    from pydantic import BaseModel, Field

    class Paper(BaseModel):
        """Pull out only the task of the paper."""
        task: str = Field(description="the research problem, as a short noun phrase")

    server.responder = lambda body: {"task": "a task"}
    rec = extract.extract(ABSTRACT, schema=Paper, backend="openai", base_urls=(server.base_url,),
                          model="m", cache_dir=tmp_path / "c")
    assert rec.ok and rec.extraction.task == "a task"
    system = next(m["content"] for m in server.requests[-1]["body"]["messages"] if m["role"] == "system")
    assert "Pull out only the task of the paper" in system
    import pytest
    with pytest.raises(extract.UsageError, match="default schema only"):
        extract.extract(ABSTRACT, schema=Paper, cache_dir=tmp_path / "c")
    with pytest.raises(extract.UsageError, match="schema"):
        extract.extract(ABSTRACT, schema=dict, cache_dir=tmp_path / "c")


# -- the rules' run says nothing of tokens, prompts or re-asks ---------------------------------------

def test_rules_run_reports_no_tokens_and_verbose_no_prompt(tmp_path):
    inp = tmp_path / "in.txt"
    inp.write_text(ABSTRACT + "\n")
    r = invoke("run", inp, "-v", "--cache-dir", tmp_path / "c")
    assert r.exit_code == 0, r.stderr
    assert "tokens" not in r.stderr and "prompt 'extract'" not in r.stderr
    assert "reasks" not in r.stderr and "no prompt (no model)" in r.stderr
    assert f"cache {tmp_path / 'c'}" in r.stderr
