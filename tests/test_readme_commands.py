"""Every `extract` command of the README's shell blocks that runs offline runs as written
(issue 19): in order, in a scratch directory holding the repository's seeds/ and tests/, each
exits 0.  Commands that need a network or a model (a --base-url or a remote/local model backend
without --dry-run, an API key) or a file the README only names as a placeholder (papers.jsonl)
are left out; a pipe `a | b` feeds a's stdout to b."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from extract.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def commands() -> list[str]:
    out = []
    for block in re.findall(r"```sh\n(.*?)```", README, re.S):
        for line in block.splitlines():
            line = re.split(r"\s+#\s", line, maxsplit=1)[0].strip()
            if line.startswith("extract "):
                out.append(line)
    return out


def offline(cmd: str) -> bool:
    words = shlex.split(cmd.replace("|", " "))
    if "OPENAI_API_KEY" in cmd or any(w.startswith(("papers.", "~")) for w in words):
        return False
    if "--address" in words or any(w.startswith("/shared/") for w in words):
        return False                    # the Ray cluster recipe (its paths are the cluster's)
    needs_model = "--base-url" in words or {"openai", "local"} & set(
        words[i + 1] for i, w in enumerate(words[:-1]) if w == "--backend")
    return not needs_model or "--dry-run" in words


def test_the_readme_has_offline_commands():
    runnable = [c for c in commands() if offline(c)]
    assert any(c.startswith("extract run seeds/") for c in runnable)
    assert any("| extract table -" in c for c in runnable) and any("--dry-run" in c for c in runnable)
    assert {c.split()[1] for c in runnable} >= {"run", "eval", "table", "triage", "report"}


def test_every_offline_readme_command_runs_as_written(tmp_path, monkeypatch):
    for name in ("seeds", "tests"):
        (tmp_path / name).symlink_to(ROOT / name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EXTRACT_CACHE_DIR", str(tmp_path / "cache"))
    for cmd in (c for c in commands() if offline(c)):
        stdin = None
        for part in cmd.split(" | "):
            argv = shlex.split(part)
            assert argv[0] == "extract", cmd
            r = CliRunner().invoke(main, argv[1:], input=stdin, catch_exceptions=False)
            assert r.exit_code == 0, f"{cmd!r} exited {r.exit_code}: {r.stderr[-500:]}"
            stdin = r.stdout
