"""Issue 9, the output side: identity, path checks, strict JSON, errors file, lock, write
failures.  Each test names the item it covers; each failed on the code before the fix."""

import fcntl
import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import PLAIN, SECRET, read_jsonl, write_abstracts
from extract.output import RecordSink
from extract.records import load_records

A = "We propose FlowNet, which improves accuracy by 12.5% on ImageNet."
B = "We introduce GraphNet and find 11.25% of variance comes from the generator."
C = "A theory of everything, with a 3% chance of being right."


def _jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


# -- item 1: identity includes the text ----------------------------------------------------

def test_changed_text_under_a_known_id_is_extracted_again_and_replaces_the_record(cli, server, tmp_path):
    inp, out = tmp_path / "in.jsonl", tmp_path / "o.jsonl"
    write_abstracts(inp, [A, B])
    assert cli("run", str(inp), server=server, out=out).exit_code == 0
    # a line inserted at the top: default-style ids now point at other texts
    write_abstracts(inp, [C, A, B])
    r = cli("run", str(inp), server=server, out=out)
    assert r.exit_code == 0, r.stderr
    assert "text differs" in r.stderr and "re-extracted (text changed)" in r.stderr
    recs = read_jsonl(out)
    assert [(x["id"], x["text"]) for x in recs] == [("p3", B), ("p1", C), ("p2", A)] or \
        sorted((x["id"], x["text"]) for x in recs) == [("p1", C), ("p2", A), ("p3", B)]
    assert len({x["id"] for x in recs}) == 3, "one record per id"
    # a third run has nothing left to do
    r = cli("run", str(inp), server=server, out=out)
    assert r.exit_code == 0 and "3 already done" in r.stderr and "text differs" not in r.stderr


def test_same_id_from_two_folders_is_not_skipped_when_its_text_differs(cli, server, tmp_path):
    for year, text in (("2024", A), ("2025", B)):
        (tmp_path / "d" / year).mkdir(parents=True)
        (tmp_path / "d" / year / "papers.txt").write_text(f"Header\n\n{text}\n")
    out = tmp_path / "o.jsonl"
    assert cli("run", str(tmp_path / "d" / "2024"), server=server, out=out).exit_code == 0
    r = cli("run", str(tmp_path / "d" / "2025"), server=server, out=out)
    assert r.exit_code == 0
    assert "already done" not in r.stderr
    assert B in {x["text"] for x in read_jsonl(out)}, "2025 was extracted, not skipped"


# -- item 2: outputs are checked against the inputs ------------------------------------------

def test_output_equal_to_an_input_is_refused(cli, server, tmp_path):
    inp = write_abstracts(tmp_path / "same.jsonl", [A])
    before = inp.read_bytes()
    r = cli("run", str(inp), server=server, out=inp)
    assert r.exit_code == 2 and "is also an input" in r.stderr
    assert inp.read_bytes() == before and server.chat_count == 0


def test_errors_file_equal_to_output_is_refused(cli, server, tmp_path):
    inp, out = write_abstracts(tmp_path / "in.jsonl", [A]), tmp_path / "o.jsonl"
    assert cli("run", str(inp), server=server, out=out).exit_code == 0
    r = cli("run", str(inp), "--errors", str(out), server=server, out=out)
    assert r.exit_code == 2 and "same file as -o" in r.stderr
    assert len(read_jsonl(out)) == 1


def test_output_inside_an_input_folder_is_never_read_back(cli, server, tmp_path):
    d = tmp_path / "abstracts"
    d.mkdir()
    write_abstracts(d / "a.jsonl", [A])
    for _ in range(2):
        r = cli("run", str(d), server=server, out=d / "records.jsonl")
        assert r.exit_code == 0, r.stderr
    assert [x["id"] for x in read_jsonl(d / "records.jsonl")] == ["p1"]
    assert server.chat_count == 1


def test_is_own_output_tells_records_and_errors_from_inputs(cli, server, tmp_path):
    from extract.output import is_own_output
    inp = write_abstracts(tmp_path / "in.jsonl", [A, ""])
    out = tmp_path / "o.jsonl"
    cli("run", str(inp), server=server, out=out)
    assert is_own_output(out) and is_own_output(tmp_path / "o.errors.jsonl")
    assert not is_own_output(inp)
    assert is_own_output(tmp_path / "x.jsonl.lock")


# -- item 4: strict JSON out, and bad lines skipped on the way in ---------------------------

def test_a_number_that_does_not_fit_is_null_with_a_reason(cli, server, tmp_path):
    inp = _jsonl(tmp_path / "in.jsonl", [{"id": "big", "abstract": "FlowNet gains 1e999 points."}])
    server.push({"payload": {"task": "a task", "contribution": "method", "method_names": ["FlowNet"],
                             "datasets": [], "numbers": [{"text": "1e999", "value": 1.0,
                                                          "kind": "result"}]}})
    out = tmp_path / "o.jsonl"
    r = cli("run", str(inp), *PLAIN, server=server, out=out)
    assert r.exit_code == 0, r.stderr
    from extract import jsonl
    line = out.read_text()
    assert "Infinity" not in line and "NaN" not in line
    rec = jsonl.loads(line)                      # strict: would raise on Infinity
    assert rec["extraction"]["numbers"][0]["value"] is None
    assert rec["extraction"]["numbers"][0]["value_note"] == "does not fit a 64-bit float"
    # and the report/table side reads it
    assert load_records(out, warn=lambda m: None).papers[0].numbers[0].value is None


@pytest.mark.parametrize("bad", ['"value": 1' + "0" * 400, '"value": NaN', '"value": Infinity',
                                 '"value": 1e400', '"deep": ' + "[" * 5000 + "]" * 5000])
def test_records_reader_skips_lines_no_strict_reader_accepts(tmp_path, bad):
    good = {"id": "a", "text": A, "extraction": {"task": "t", "contribution": "method",
                                                 "method_names": [], "datasets": [], "numbers": []}}
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(good) + "\n" + '{"id": "b", "text": "x", ' + bad + "}\n")
    notes = []
    rs = load_records(path, warn=notes.append)
    assert [p.id for p in rs.papers] == ["a"]
    assert any(":2:" in n and "skipped" in n for n in notes), notes


def test_table_triage_and_report_survive_a_hostile_line(cli, tmp_path):
    good = {"id": "a", "text": A, "status": "ok",
            "extraction": {"task": "t", "contribution": "method", "method_names": [],
                           "datasets": [], "numbers": []}}
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(good) + "\n" + '{"id": "b", "text": "x", "v": 1' + "0" * 400
                    + "}\n" + '{"id": "c", "text": "y", "v": ' + "[" * 5000 + "]" * 5000 + "}\n")
    for cmd in (["table", str(path)], ["triage", str(path)],
                ["report", str(path), "-o", str(tmp_path / "r.html")]):
        r = cli(*cmd)
        assert r.exit_code in (0, 1), (cmd, r.stderr)
        assert "Traceback" not in r.stderr and "skipped" in r.stderr, (cmd, r.stderr)


# -- item 5: the errors file does not grow on rerun -----------------------------------------

def test_errors_file_does_not_grow_on_rerun(cli, server, tmp_path):
    inp, out = write_abstracts(tmp_path / "in.jsonl", [A, ""]), tmp_path / "o.jsonl"
    for _ in range(3):
        assert cli("run", str(inp), server=server, out=out).exit_code == 0   # skipped: no abstract
        assert len(read_jsonl(tmp_path / "o.errors.jsonl")) == 1


# -- item 6: the lock holds through a symlink, and is removed at the end --------------------

def test_lock_is_on_the_resolved_path_and_removed_after_the_run(cli, server, tmp_path):
    inp, out = write_abstracts(tmp_path / "in.jsonl", [A]), tmp_path / "o.jsonl"
    link = tmp_path / "link.jsonl"
    link.symlink_to(out)
    with open(f"{out}.lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        r = cli("run", str(inp), server=server, out=link)
    assert r.exit_code == 5 and "another extract process" in r.stderr
    assert cli("run", str(inp), server=server, out=link).exit_code == 0
    assert not list(tmp_path.glob("*.lock")), "no lock file is left behind"


# -- item 15: output paths and write failures -----------------------------------------------

def test_output_under_a_file_and_output_dir_slash_are_one_line_errors(cli, server, tmp_path):
    inp = write_abstracts(tmp_path / "in.jsonl", [A])
    (tmp_path / "afile").write_text("x")
    r = cli("run", str(inp), server=server, out=f"{tmp_path}/afile/o.jsonl")
    assert r.exit_code == 2 and "is a file" in r.stderr and r.stderr.count("\n") == 1
    r = cli("run", str(inp), server=server, out=f"{tmp_path}/newdir/")
    assert r.exit_code == 2 and "is a directory" in r.stderr
    assert not (tmp_path / "newdir").exists()


def _limited(limit: int):
    def pre():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)     # EFBIG instead of a kill
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return pre


def _extract(*args, **kw):
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_BASE_URL"}
    env["OPENAI_API_KEY"] = SECRET
    return subprocess.run([sys.executable, "-c", "import sys; from extract.cli import main; "
                           "sys.exit(main())", *args], env=env, capture_output=True, text=True,
                          timeout=120, **kw)


def test_a_full_output_disk_is_one_line_and_exit_7(server, tmp_path):
    inp = write_abstracts(tmp_path / "in.jsonl", [f"{A} Variant {i}." for i in range(40)])
    out = tmp_path / "o.jsonl"
    p = _extract("run", str(inp), "-o", str(out), "--base-url", server.base_url, "--model", "m",
                 "--no-cache", "--no-progress", preexec_fn=_limited(8_000))
    assert p.returncode == 7, p.stderr
    assert "Traceback" not in p.stderr and "cannot write" in p.stderr
    assert len([ln for ln in p.stderr.splitlines() if "error" in ln]) == 1
    # what was written is whole lines (or a torn last one a rerun cuts off)
    p = _extract("run", str(inp), "-o", str(out), "--base-url", server.base_url, "--model", "m",
                 "--no-cache", "--no-progress")
    assert p.returncode == 0, p.stderr
    assert len(read_jsonl(out)) == 40


def test_stdout_closed_by_head_exits_quietly(server, tmp_path):
    inp = write_abstracts(tmp_path / "in.jsonl", [f"{A} Variant {i}." for i in range(300)])
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_BASE_URL"}
    env["OPENAI_API_KEY"] = SECRET
    cmd = (f"{sys.executable} -c 'import sys; from extract.cli import main; sys.exit(main())' "
           f"run {inp} --base-url {server.base_url} --model m --no-cache --no-progress | head -1")
    p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], env=env, capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert len(p.stdout.splitlines()) == 1
    assert "Traceback" not in p.stderr and "BrokenPipe" not in p.stderr and "error" not in p.stderr


def test_sink_writes_one_record_per_id_after_a_change(tmp_path):
    out = tmp_path / "o.jsonl"
    with RecordSink(out) as s:
        s.record({"id": "x", "text": "old", "status": "ok"})
    with RecordSink(out) as s:
        assert s.state("x", "old") == "done" and s.state("x", "new") == "changed"
        s.record({"id": "x", "text": "new", "status": "ok"})
    assert [r["text"] for r in read_jsonl(out)] == ["new"]


def test_jsonl_round_trip_is_strict_for_any_value():
    from hypothesis import given, settings, strategies as st

    from extract import jsonl

    values = st.recursive(
        st.none() | st.booleans() | st.floats() | st.integers(-10**400, 10**400) | st.text(),
        lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=5), kids, max_size=4),
        max_leaves=20)

    @settings(max_examples=200, deadline=None)
    @given(values)
    def check(v):
        line = jsonl.dumps(v)
        assert "\n" not in line
        back = jsonl.loads(line)                    # strict: never NaN/Infinity/huge
        clean, _ = jsonl.sanitize(v)
        assert json.dumps(back, sort_keys=True) == json.dumps(clean, sort_keys=True)

    check()


def test_a_lone_surrogate_does_not_break_the_output(tmp_path):
    out = tmp_path / "o.jsonl"
    with RecordSink(out) as s:
        s.record({"id": "x", "text": "half a pair: \ud800", "status": "ok"})
    assert json.loads(out.read_text(encoding="utf-8"))["text"] == "half a pair: \ud800"
