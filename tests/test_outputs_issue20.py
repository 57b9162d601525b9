"""Issue 20, outputs (items 3, 6, 11 and "Also"): -o on devices, FIFOs and symlinks; a
whole last record without its newline; stdout on a full disk; the lock through a hard
link; what a dropped connection is called; report marks by offset."""

import errno
import json
import os
import socket
import stat
import subprocess
import sys
import threading
from pathlib import Path

import openai
import pytest
from click.testing import CliRunner

from conftest import read_jsonl, write_abstracts
from extract.cli import main
from extract.errors import OutputLockedError
from extract.outpaths import OutputLock

A = "We propose FlowNet, which improves accuracy by 12.5% on ImageNet over ResNet-50."
B = "We introduce GridNet; it reaches 88.1% top-1 accuracy on CIFAR-100."
X = [sys.executable, "-c", "import sys; from extract.cli import main; sys.exit(main())"]
ROOT = Path(__file__).resolve().parents[1]


def _rules(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def records(tmp_path):
    inp = write_abstracts(tmp_path / "in.jsonl", [A, B])
    out = tmp_path / "rec.jsonl"
    assert _rules("run", str(inp), "-o", str(out), "--cache-dir", str(tmp_path / "c"), "-q").exit_code == 0
    return out


def _writers(records, tmp_path):
    """(name, argv without -o) of every command that writes -o."""
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"id": "p1", "method_names": ["FlowNet"], "datasets": ["ImageNet"],
                                "numbers": [{"text": "12.5%", "value": 12.5}]}) + "\n")
    return [("table", ["table", str(records)]), ("triage", ["triage", str(records)]),
            ("report", ["report", str(records)]),
            ("eval", ["eval", str(records), "--gold", str(gold)]), ("schema", ["schema"]),
            ("cache stats", ["cache", "stats", "--cache-dir", str(tmp_path / "c")])]


def _memory_cap():
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


def _can_mknod():
    try:
        return os.geteuid() == 0
    except AttributeError:  # pragma: no cover
        return False


# -- item 3: devices, FIFOs, symlinks -------------------------------------------------------

@pytest.mark.skipif(not _can_mknod(), reason="mknod needs root")
def test_a_char_device_output_is_written_through_never_replaced(records, tmp_path):
    for name, argv in _writers(records, tmp_path):
        dev = tmp_path / f"fakenull-{name.replace(' ', '_')}"
        os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))      # /dev/null's numbers
        r = _rules(*argv, "-o", str(dev))
        assert r.exit_code == 0, (name, r.stderr)
        assert stat.S_ISCHR(os.stat(dev).st_mode), f"{name} -o replaced a device with a file"
        assert not [p for p in tmp_path.iterdir() if p.name.startswith(f".{dev.name}")], "temp left"


def test_a_fifo_output_is_written_through(records, tmp_path):
    for name, argv in _writers(records, tmp_path):
        fifo = tmp_path / f"fifo-{name.replace(' ', '_')}.md"
        os.mkfifo(fifo)
        got = []
        reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()), daemon=True)
        reader.start()
        r = _rules(*argv, "-o", str(fifo))
        reader.join(10)
        assert r.exit_code == 0, (name, r.stderr)
        assert stat.S_ISFIFO(os.stat(fifo).st_mode), f"{name} -o replaced a FIFO"
        assert got and got[0], f"{name} wrote nothing into the FIFO"


def test_a_symlink_output_is_followed_never_replaced(records, tmp_path):
    for name, argv in _writers(records, tmp_path):
        target = tmp_path / f"real-{name.replace(' ', '_')}.txt"
        target.write_text("old\n")
        link = tmp_path / f"link-{name.replace(' ', '_')}.txt"
        link.symlink_to(target.name)
        r = _rules(*argv, "-o", str(link))
        assert r.exit_code == 0, (name, r.stderr)
        assert link.is_symlink(), f"{name} -o replaced the symlink"
        assert target.read_text() != "old\n", f"{name} did not write through the link"


def test_a_symlink_loop_is_one_line(records, tmp_path):
    loop = tmp_path / "loop.md"
    loop.symlink_to("loop.md")
    for name, argv in _writers(records, tmp_path):
        r = _rules(*argv, "-o", str(loop))
        assert r.exit_code == 2, (name, r.stderr)
        errors = [ln for ln in r.stderr.splitlines() if ln.startswith("extract: error:")]
        assert len(errors) == 1 and "symlink loop" in errors[0], (name, r.stderr)
        assert "Traceback" not in r.stderr, (name, r.stderr)
    inp = tmp_path / "in.jsonl"
    run_loop = tmp_path / "loop.jsonl"         # run's -o is JSON Lines (.md is refused for its name)
    run_loop.symlink_to("loop.jsonl")
    r = _rules("run", str(inp), "-o", str(run_loop), "--cache-dir", str(tmp_path / "c"))
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "symlink loop" in r.stderr


def test_run_refuses_a_fifo_or_device_output_in_one_line_and_leaves_no_lock(tmp_path):
    inp = write_abstracts(tmp_path / "in.jsonl", [A])
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    targets = [fifo]
    if _can_mknod():
        zero = tmp_path / "zero.jsonl"                          # an endless char device
        os.mknod(zero, 0o666 | stat.S_IFCHR, os.makedev(1, 5))
        targets.append(zero)
    for t in targets:
        p = subprocess.run([*X, "run", str(inp), "-o", str(t), "--cache-dir", str(tmp_path / "c")],
                           capture_output=True, text=True, timeout=60, cwd=tmp_path,
                           preexec_fn=_memory_cap)     # reading /dev/zero as records would not end
        assert p.returncode == 2, (t, p.stderr)
        assert p.stderr.count("\n") == 1 and "not a regular file" in p.stderr, p.stderr
        assert not list(tmp_path.glob("*.lock")), "a stale lock"


def test_run_through_a_symlink_keeps_the_link_when_it_rewrites(tmp_path):
    """A changed text rewrites the output (temp + rename): the link stays a link."""
    inp = write_abstracts(tmp_path / "in.jsonl", [A, B])
    real = tmp_path / "real.jsonl"
    link = tmp_path / "link.jsonl"
    link.symlink_to(real.name)
    c = str(tmp_path / "c")
    assert _rules("run", str(inp), "-o", str(link), "--cache-dir", c, "-q").exit_code == 0
    write_abstracts(inp, [A, B + " Edited."])
    assert _rules("run", str(inp), "-o", str(link), "--cache-dir", c, "-q").exit_code == 0
    assert link.is_symlink() and len(read_jsonl(real)) == 2


# -- item 6: a whole last record without its newline -----------------------------------------

def test_a_complete_last_record_without_newline_is_kept(tmp_path):
    out = tmp_path / "o.jsonl"
    c = str(tmp_path / "c")
    first = write_abstracts(tmp_path / "a.jsonl", [A, B])
    assert _rules("run", str(first), "-o", str(out), "--cache-dir", c, "-q").exit_code == 0
    out.write_bytes(out.read_bytes().rstrip(b"\n"))            # the final newline is gone
    other = tmp_path / "b.jsonl"
    other.write_text(json.dumps({"id": "q1", "abstract": "We present TreeNet with 70.2% F1 on SQuAD."}) + "\n")
    r = _rules("run", str(other), "-o", str(out), "--cache-dir", c)
    assert r.exit_code == 0, r.stderr
    assert "torn" not in r.stderr
    assert [x["id"] for x in read_jsonl(out)] == ["p1", "p2", "q1"]


def test_a_torn_last_line_is_still_cut(tmp_path):
    out = tmp_path / "o.jsonl"
    c = str(tmp_path / "c")
    first = write_abstracts(tmp_path / "a.jsonl", [A, B])
    assert _rules("run", str(first), "-o", str(out), "--cache-dir", c, "-q").exit_code == 0
    out.write_bytes(out.read_bytes()[:-40])
    r = _rules("run", str(first), "-o", str(out), "--cache-dir", c)
    assert r.exit_code == 0 and "torn" in r.stderr
    assert [x["id"] for x in read_jsonl(out)] == ["p1", "p2"]


# -- item 11: stdout on a full disk ---------------------------------------------------------

@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_stdout_on_a_full_disk_is_exit_7_and_one_line(records, tmp_path):
    inp = write_abstracts(tmp_path / "in2.jsonl", [A])
    commands = [["run", str(inp), "--cache-dir", str(tmp_path / "c2")]]
    commands += [argv + (["-o", "-"] if name == "report" else []) for name, argv in _writers(records, tmp_path)]
    for argv in commands:
        with open("/dev/full", "w") as full:
            p = subprocess.run([*X, *argv], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
        assert p.returncode == 7, (argv[0], p.returncode, p.stderr)
        assert "Traceback" not in p.stderr and "Exception ignored" not in p.stderr, p.stderr
        assert p.stderr.strip().splitlines()[-1].startswith("extract: error: cannot write"), p.stderr


# -- "Also": the lock through a hard link --------------------------------------------------

def test_the_lock_holds_through_a_hard_link(tmp_path):
    out = tmp_path / "a.jsonl"
    out.write_text("")
    other = tmp_path / "sub"
    other.mkdir()
    os.link(out, other / "b.jsonl")
    with OutputLock(out):
        with pytest.raises(OutputLockedError):
            OutputLock(other / "b.jsonl").__enter__()
    with OutputLock(other / "b.jsonl"):             # released: the other name locks again
        pass
    assert not list(tmp_path.rglob("*.lock"))


def test_a_run_through_a_hard_link_is_exit_5(tmp_path):
    inp = write_abstracts(tmp_path / "in.jsonl", [A])
    out = tmp_path / "a.jsonl"
    out.write_text("")
    os.link(out, tmp_path / "b.jsonl")
    with OutputLock(out):
        r = _rules("run", str(inp), "-o", str(tmp_path / "b.jsonl"), "--cache-dir", str(tmp_path / "c"))
    assert r.exit_code == 5 and "another extract process" in r.stderr


# -- "Also": a server that accepts and closes; out of file descriptors ------------------------

class _Closer:
    """Accepts every connection, reads the request, closes without a byte of answer."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/v1"
        self.accepted = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            try:
                c.recv(65536)
            finally:
                c.close()


def test_a_server_that_accepts_and_closes_is_named_for_what_it_did(tmp_path):
    closer = _Closer()
    inp = write_abstracts(tmp_path / "in.jsonl", [A])
    r = CliRunner().invoke(main, ["run", str(inp), "--base-url", closer.url, "--model", "m",
                                  "--retries", "1", "--no-cache"], catch_exceptions=False)
    closer.sock.close()
    assert closer.accepted >= 1
    assert r.exit_code == 3, r.stderr
    line = r.stderr.strip().splitlines()[-1]
    assert "closed it without answering" in line, line
    assert "timed out" not in line and "cannot connect" not in line, line


def test_out_of_file_descriptors_is_named_and_is_not_a_failure_to_connect():
    from extract.backends import transport
    import httpx2 as httpx
    err = openai.APITimeoutError(request=httpx.Request("POST", "http://127.0.0.1:1/v1/chat/completions"))
    err.__cause__ = OSError(errno.EMFILE, "Too many open files")
    out = transport.classify(err, 5)
    assert "file descriptors" in str(out) and "--concurrency" in str(out)
    assert "timed out" not in str(out)
    assert out.connect is False, "this process's own limit is not an unreachable server"


# -- "Also": report marks ----------------------------------------------------------------

def test_report_evidence_marks_the_span_even_when_the_abstract_holds_guillemets(tmp_path):
    from extract.records import load_records
    from extract.report import build_data
    text = "We propose FlowNet. It improves accuracy by 12.5% on the »hard« split of ImageNet."
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps({"id": "p1", "abstract": text}) + "\n")
    out = tmp_path / "o.jsonl"
    _rules("run", str(inp), "-o", str(out), "--cache-dir", str(tmp_path / "c"), "-q")
    data = build_data(load_records(str(out)))
    marked = []
    for paper in data["papers"]:
        for flag in paper["flags"]:
            for e in flag["evidence"]:
                if e["context"]:
                    assert e["marks"], e
                    marked += [e["context"][a:b] for a, b in e["marks"]]
    assert marked and set(marked) == {"12.5%"}, marked      # the old split on « » bolded "hard"
    ev = next(e for paper in data["papers"] for f in paper["flags"] for e in f["evidence"] if e["context"])
    assert _bolded_by_the_page(ev) == ["12.5%"]


def _bolded_by_the_page(ev) -> list:
    """What report.js's renderContext bolds for an evidence item, run in node."""
    import re
    import shutil
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node to run report.js")
    js = (ROOT / "extract" / "report_assets" / "report.js").read_text()
    fn = re.search(r"function renderContext\(.*?\n  \}\n", js, re.S).group(0)
    prog = ("var bold = [];\nfunction el(tag, cls, text) { if (tag === 'b') bold.push(text); return {tag: tag}; }\n"
            "function add(parent) { return parent; }\n" + fn
            + f"\nvar e = {json.dumps(ev)};\nrenderContext({{}}, e.context, e.marks);\n"
            "console.log(JSON.stringify(bold));\n")
    p = subprocess.run([node, "-e", prog], capture_output=True, text=True, timeout=30)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)
