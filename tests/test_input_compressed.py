"""Compressed inputs (``papers.jsonl.gz``, ``.csv.bz2``, ``.txt.xz``): corpora ship that way
(``../shared/corpus/papers-13-venues.jsonl.gz``), and `--engine ray` already read them; the
local path reads them as the file they hold, with the same ids, and a broken stream is a
reported problem after the records read before it, never a crash."""

from __future__ import annotations

import bz2
import gzip
import json
import lzma

import pytest
from click.testing import CliRunner

from extract.cli import main
from extract.errors import InputError
from extract.inputs import Item, Problem, count_inputs, expand, read_inputs

ROWS = [{"id": f"p{i}", "title": f"Paper {i}", "abstract": f"We propose Net{i}, which reaches {80 + i}.5% accuracy on "
         f"ImageNet."} for i in range(40)]
JSONL = "".join(json.dumps(r) + "\n" for r in ROWS)
CSV = "title,abstract\n" + "".join(f'Paper {i},"We study case {i} closely."\n' for i in range(3))
TXT = "Some Papers\n\nWe study the first case.\n\nWe study the second case.\n"
PACK = {".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress}


def read(*paths):
    files, notes = expand(paths)
    return list(read_inputs(files)), files


@pytest.mark.parametrize("comp", list(PACK))
@pytest.mark.parametrize("name, content", [("papers.jsonl", JSONL), ("papers.csv", CSV), ("papers.txt", TXT)])
def test_a_compressed_file_reads_as_the_file_it_holds(tmp_path, comp, name, content):
    plain = tmp_path / "plain" / name
    packed = tmp_path / "packed" / (name + comp)
    for p, data in ((plain, content.encode()), (packed, PACK[comp](content.encode()))):
        p.parent.mkdir()
        p.write_bytes(data)
    got, files = read(packed)
    want, _ = read(plain)
    assert got and all(isinstance(x, Item) for x in got)
    assert [(x.id.replace("packed/", ""), x.text, x.title) for x in got] == \
        [(x.id.replace("plain/", ""), x.text, x.title) for x in want]
    assert files.label(files[0]) == (tmp_path / "packed" / "papers").as_posix()
    assert count_inputs(files) == len(got)


def test_its_label_leaves_out_the_compression_so_ids_match_the_plain_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "b1").mkdir()
    (tmp_path / "b1" / "papers.csv.gz").write_bytes(gzip.compress(CSV.encode()))
    got, files = read("b1/papers.csv.gz")
    assert files.label(files[0]) == "b1/papers" and got[0].id == "b1/papers#1"
    (tmp_path / "b1" / "papers.txt").write_text(TXT)       # a clash widens both labels with their suffixes
    _, both = read("b1/papers.csv.gz", "b1/papers.txt")
    assert sorted(both.label(f) for f in both) == ["b1/papers.csv.gz", "b1/papers.txt"]


def test_a_folder_scan_takes_compressed_files_and_skips_other_archives(tmp_path):
    (tmp_path / "a.jsonl.gz").write_bytes(gzip.compress(JSONL.encode()))
    (tmp_path / "b.zip").write_bytes(b"PK")
    (tmp_path / "c.jsonl.zst").write_bytes(b"\x28\xb5\x2f\xfd")
    files, notes = expand([tmp_path])
    assert [f.name for f in files] == ["a.jsonl.gz"]
    assert any("b.zip: skipped" in n for n in notes) and any("c.jsonl.zst: skipped" in n for n in notes)


def test_an_unsupported_compression_is_a_clear_error(tmp_path):
    p = tmp_path / "papers.jsonl.zst"
    p.write_bytes(b"\x28\xb5\x2f\xfd")
    with pytest.raises(InputError, match=r"unsupported input type '.zst'.*compressed as .gz, .bz2, .xz"):
        expand([p])


@pytest.mark.parametrize("comp, data, reason", [
    (".gz", gzip.compress(JSONL.encode())[:-40], "ended before the end-of-stream marker"),
    (".gz", b"not gzip at all", "Not a gzipped file"),
    (".bz2", b"not bzip2", "Invalid data stream"),
    (".xz", lzma.compress(JSONL.encode())[:-30], "ended before the end-of-stream marker"),
    (".xz", b"not xz", "Input format not supported"),
])
def test_a_broken_stream_is_one_problem_after_the_records_before_it(tmp_path, comp, data, reason):
    p = tmp_path / f"papers.jsonl{comp}"
    p.write_bytes(data)
    got, _ = read(p)
    problems = [x for x in got if isinstance(x, Problem)]
    assert len(problems) == 1 and reason in problems[0].reason and problems[0].source == f"{p}:0"
    assert all(x.text == r["abstract"] for x, r in zip((x for x in got if isinstance(x, Item)), ROWS))


def test_run_reads_a_compressed_corpus_and_its_plain_copy_resumes_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "papers.jsonl.gz").write_bytes(gzip.compress(JSONL.encode()))
    (tmp_path / "papers.jsonl").write_text(JSONL)
    runner = CliRunner()
    r = runner.invoke(main, ["run", "papers.jsonl.gz", "-o", "out.jsonl", "-q", "--no-cache"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    records = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [x["id"] for x in records] == [r["id"] for r in ROWS] and all(x["status"] == "ok" for x in records)
    assert records[0]["source"] == "papers.jsonl.gz:1"
    r = runner.invoke(main, ["run", "papers.jsonl", "-o", "out.jsonl", "--no-cache"], catch_exceptions=False)
    assert r.exit_code == 0 and "40 already done" in r.stderr
    assert len((tmp_path / "out.jsonl").read_text().splitlines()) == 40
