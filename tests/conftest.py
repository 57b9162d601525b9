import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parent))

from fakeserver import FakeOpenAI  # noqa: E402

from extract.cli import main  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "seeds"
SECRET = "sk-test-SECRET-4f9a2c"
#: ``--prompt extract``: the plain single-shot PaperExtraction request.  Tests that script
#: PaperExtraction answers pass it; without it a remote model gets the hybrid job (the
#: default, ``--prompt auto``; tests/test_hybrid_remote.py).
PLAIN = ("--prompt", "extract")


@pytest.fixture(autouse=True)
def _hermetic_env(monkeypatch):
    """Tests talk only to servers they start on 127.0.0.1: no endpoint, key or proxy from
    the environment leaks in."""
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
                "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")


@pytest.fixture
def server():
    with FakeOpenAI() as s:
        yield s


@pytest.fixture
def cli(tmp_path, monkeypatch):
    """Run ``extract`` in-process against a fake endpoint; returns (result, records)."""
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)

    def invoke(*args, server=None, cache_dir=None, out=None, extra_env=None):
        argv = list(args)
        if server is not None:
            argv += ["--base-url", server.base_url, "--model", "test-model"]
        if args and args[0] == "run":
            argv += ["--cache-dir", str(cache_dir or tmp_path / "cache")]
            if out is not None:
                argv += ["-o", str(out)]
        result = CliRunner().invoke(main, argv, env=extra_env, catch_exceptions=False)
        return result

    return invoke


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def write_abstracts(path: Path, abstracts: list[str]) -> Path:
    """A JSONL input with ids p1, p2, ... for the given abstracts."""
    path.write_text("".join(json.dumps({"id": f"p{i}", "abstract": a}) + "\n"
                            for i, a in enumerate(abstracts, 1)))
    return path
