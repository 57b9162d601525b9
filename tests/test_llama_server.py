"""The README's recipe for llama-cpp-python's OpenAI-compatible server, run for real: the
server started here on 127.0.0.1 with the shipped SmolLM2 GGUF, extract talking to it
through the openai client with the recipe's --mode."""

import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import read_jsonl, write_abstracts
from extract.cli import main

pytestmark = pytest.mark.embedded
README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def recipe() -> tuple[str, str]:
    row = next(line for line in README.splitlines() if line.startswith("| llama-cpp-python server"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    return re.search(r"`(extract run [^`]+)`", cells[1]).group(1), re.match(r"`(\w+)`", cells[2]).group(1)


@pytest.fixture
def llama_server(tmp_path):
    pytest.importorskip("llama_cpp.server.app", reason="needs llama-cpp-python[server] (the test extra)")
    from extract.backends.local import packaged_model_path
    model = packaged_model_path()
    if model is None:
        pytest.skip("needs the [local] extra (the SmolLM2 GGUF)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(model),
                             "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "4096",
                             "--model_alias", "smol"],
                            stdout=subprocess.DEVNULL, stderr=open(tmp_path / "server.log", "w"))
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 600          # a hang guard: a loaded machine loads the model slowly
        while True:
            try:
                urllib.request.urlopen(url + "/models", timeout=5)
                break
            except OSError:
                if proc.poll() is not None:
                    pytest.fail((tmp_path / "server.log").read_text()[-2000:])
                if time.monotonic() > deadline:
                    pytest.fail("the llama.cpp server did not come up")
                time.sleep(0.25)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=20)


@pytest.mark.timeout(900)       # a real model behind a real server: slow on a loaded machine
def test_llama_cpp_python_server_recipe(llama_server, tmp_path):
    cmd, mode = recipe()
    inp = write_abstracts(tmp_path / "in.jsonl",
                          ["We propose FlowNet, a network for image classification, which improves accuracy by 12.5% on ImageNet."])
    out = tmp_path / "out.jsonl"
    argv = [str(inp) if a == "IN" else str(out) if a == "OUT" else a for a in shlex.split(cmd)[1:]]
    argv = [re.sub(r"http://127\.0\.0\.1:\d+/v1", llama_server, a) for a in argv]
    assert argv[argv.index("--mode") + 1] == mode
    # the default (--prompt auto) sends the hybrid job; the server's tools grammar lets the
    # model write raw newlines inside strings, which the backend escapes before parsing
    r = CliRunner().invoke(main, argv + ["--cache-dir", str(tmp_path / "c"), "--reasks", "0",
                                         "--max-tokens", "300", "--timeout", "600"],
                           catch_exceptions=False)
    assert r.exit_code == 0, r.stderr
    (rec,) = read_jsonl(out)
    assert rec["status"] == "ok" and rec["provenance"]["attempts"] >= 1
    assert rec["provenance"]["decided_by"] == "model"
    assert rec["provenance"]["usage"]["completion_tokens"] > 0
    for span in rec["extraction"]["method_names"] + rec["extraction"]["numbers"]:
        assert rec["text"][span["start"]:span["end"]] == span["text"]
