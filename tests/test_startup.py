"""Start-up: `extract --help` and a rules run load no backend client library.

Each check runs in a fresh interpreter and reads ``sys.modules`` at its end: what a command
imports is what it costs at start-up (the figures are in bench/startup.py, not here).
"""

from __future__ import annotations

import gc
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

#: what only a model backend (or the batch command) needs
HEAVY = ("openai", "instructor", "aiohttp", "httpx", "llama_cpp", "tenacity", "ray", "pyarrow")

PROBE = r"""
import json, sys
argv = json.loads(sys.argv[1])
loaded = lambda: sorted(sys.modules)
if argv == ["import"]:
    import extract
    extract.RunConfig            # a public name loads its module only
    print(json.dumps(loaded()), file=sys.stderr)
    sys.exit(0)
from extract.cli import main
try:
    main(argv, prog_name="extract")
except SystemExit as e:
    code = e.code
print(json.dumps(loaded()), file=sys.stderr)
sys.exit(code or 0)
"""


def modules_after(argv: list[str], stdin: str = "", env_extra: dict | None = None, tmp_path=None):
    import os

    env = {**os.environ, "EXTRACT_CACHE_DIR": str(tmp_path / "cache"), **(env_extra or {})}
    proc = subprocess.run([sys.executable, "-c", PROBE, json.dumps(argv)], input=stdin,
                          capture_output=True, text=True, env=env, timeout=120)
    last = proc.stderr.strip().splitlines()[-1]
    mods = set(json.loads(last))
    return proc, mods | {m.split(".")[0] for m in mods}


def test_help_imports_no_backend_no_pipeline(tmp_path):
    proc, mods = modules_after(["--help"], tmp_path=tmp_path)
    assert proc.returncode == 0 and "Commands:" in proc.stdout
    assert not mods & set(HEAVY), mods & set(HEAVY)
    # nor the core: the help lists the commands without loading them
    assert not {"extract.pipeline", "extract.candidates", "extract.cli.run", "pydantic", "tqdm"} & mods


def test_import_extract_is_lazy(tmp_path):
    proc, mods = modules_after(["import"], tmp_path=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "extract.config" in mods
    assert not {"extract.pipeline", "extract.api", "extract.candidates", *HEAVY} & mods


@pytest.mark.parametrize("cache", [[], ["--no-cache"]], ids=["cache", "no-cache"])
def test_rules_run_on_one_abstract_imports_no_client_library(tmp_path, cache):
    text = "We propose FlowNet, which improves accuracy by 12.5% on ImageNet.\n"
    proc, mods = modules_after(["run", "-", "-q", *cache], stdin=text, tmp_path=tmp_path,
                               env_extra={"EXTRACT_WORKERS": "1"})
    assert proc.returncode == 0, proc.stderr
    record = json.loads(proc.stdout)
    assert record["status"] == "ok" and record["extraction"]["numbers"][0]["value"] == 12.5
    assert not mods & set(HEAVY), mods & set(HEAVY)
    assert "tqdm" not in mods                      # no bar on a pipe: tqdm is not needed


def test_the_probe_sees_a_client_library_when_one_is_used(tmp_path):
    """The openai backend does load openai: the checks above would see it."""
    proc, mods = modules_after(["run", "-", "-q", "--base-url", "http://127.0.0.1:9/v1", "--model", "m",
                                "--retries", "0", "--timeout", "1"],
                               stdin="An abstract of no consequence at all.\n", tmp_path=tmp_path)
    assert {"openai", "instructor"} <= mods


def test_listed_help_is_each_commands_own():
    """`extract --help` lists COMMANDS' lines without importing the commands; they must be
    the commands' own (click's shortening included) at any terminal width."""
    from extract.cli import COMMANDS, _Commands, main

    listed = _Commands(COMMANDS)                  # nothing loaded: the lines as listed
    for name in COMMANDS:
        cmd = main.commands[name]
        assert cmd.name == name
        for limit in (20, 45, 60, 94, 200):
            assert listed.short_help(name, limit) == cmd.get_short_help_str(limit), (name, limit)
    assert not listed.loaded


def test_builtin_backends_are_the_registered_entry_points():
    """BUILTIN (found without reading metadata) is what pyproject registers."""
    import tomllib
    from pathlib import Path

    from extract.backends.base import BUILTIN

    pyproject = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    assert pyproject["project"]["entry-points"]["extract.backends"] == BUILTIN


def test_engine_ray_without_ray_installed_says_how_to_install_it(tmp_path):
    """Ray is an extra: without it `--engine ray` is one line naming the extra (exit 2); the
    usage checks come first."""
    probe = ("import sys; sys.modules['ray'] = None\n"
             "from extract.cli import main\n"
             "main(sys.argv[1:], prog_name='extract')")
    seeds = str(Path(__file__).resolve().parents[1] / "seeds")
    env = {**__import__("os").environ, "EXTRACT_CACHE_DIR": str(tmp_path / "cache")}
    r = subprocess.run([sys.executable, "-c", probe, "run", seeds, "-o", str(tmp_path / "out"),
                        "--engine", "ray"], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 2 and "pip install 'extract-abstracts[ray]'" in r.stderr, r.stderr
    assert r.stderr.count("\n") == 1
    r = subprocess.run([sys.executable, "-c", probe, "run", seeds, "--engine", "ray"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 2 and "give -o DIR" in r.stderr
    r = subprocess.run([sys.executable, "-c", probe, "run", seeds, "--parquet"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 2 and "go with --engine ray" in r.stderr


ENTRY_PROBE = r"""
import atexit, gc, json, os, sys
which = sys.argv.pop(1)
from extract import cli
atexit.register(lambda: os.write(2, ("\n" + json.dumps([gc.isenabled(), gc.get_freeze_count(),
                                                       gc.get_threshold()[0]])).encode()))
if which == "entry":
    cli.entry()
else:
    cli.main()
"""


def _entry_or_main(which: str, argv: list[str], stdin: str, tmp_path, env_extra: dict | None = None):
    import os

    env = {**os.environ, "EXTRACT_CACHE_DIR": str(tmp_path / which), "EXTRACT_WORKERS": "1", **(env_extra or {})}
    proc = subprocess.run([sys.executable, "-c", ENTRY_PROBE, which, *argv], input=stdin, capture_output=True,
                          text=True, env=env, timeout=120)
    *err, last = proc.stderr.split("\n")
    enabled, frozen, young = json.loads(last)
    return proc.returncode, proc.stdout, "\n".join(err), enabled, (frozen, young)


def test_the_console_script_is_main_with_start_up_objects_frozen(tmp_path):
    """The `extract` command (cli.entry) freezes what start-up made, leaves the collector on,
    and is main() otherwise: the same records, messages and exit statuses."""
    assert tomllib_scripts()["extract"] == "extract.cli:entry"
    text = "We propose FlowNet, which improves accuracy by 12.5% on ImageNet.\n"
    for argv in (["run", "-", "-q", "--no-cache"], ["run", "-", "-q"], ["run"], ["run", "-", "--limit", "-1"],
                 ["--help"], ["nosuch"], []):
        code, out, err, enabled, (frozen, young) = _entry_or_main("entry", argv, text, tmp_path)
        m_code, m_out, m_err, m_enabled, (m_frozen, m_young) = _entry_or_main("main", argv, text, tmp_path)
        strip = lambda s: re.sub(r'"extracted_at": "[^"]*"', "", s)
        assert (code, strip(out), err) == (m_code, strip(m_out), m_err), argv
        assert enabled and m_enabled
        default = gc.get_threshold()[0]            # this interpreter's (700 on 3.11)
        assert m_frozen == 0 and m_young == default  # main() leaves the collector alone
        assert frozen > (10_000 if argv[:1] == ["run"] else 0), (argv, frozen)
        # a run's own settings once its backend is built (cli.collector_for_run)
        ran = argv[:2] == ["run", "-"] and "-1" not in argv
        assert young == (max(default, 10_000) if ran else default), (argv, young)


def test_the_console_script_leaves_a_failing_import_to_click(tmp_path):
    """A command whose module cannot be imported fails as it does under main()."""
    block = "import sys; sys.modules['extract.cli.table'] = None\n"
    probe = block + ENTRY_PROBE
    import os

    env = {**os.environ, "EXTRACT_CACHE_DIR": str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, "-c", probe, which, "table", "-"], input="", capture_output=True,
                           text=True, env=env, timeout=120) for which in ("entry", "main")]
    assert runs[0].returncode == runs[1].returncode != 0
    assert "ModuleNotFoundError" in runs[0].stderr and "ModuleNotFoundError" in runs[1].stderr


def tomllib_scripts() -> dict:
    import tomllib

    return tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())["project"]["scripts"]


def test_a_rules_worker_freezes_its_start_up_objects_and_answers(tmp_path):
    """A pool worker (python -m extract.pool_worker) imports the rules with the collector
    paused, freezes what it made, and answers a batch with the collector on."""
    import pickle

    probe = ("import atexit, gc, json, os, runpy\n"
             "atexit.register(lambda: os.write(2, ('\\n' + json.dumps([gc.isenabled(), gc.get_freeze_count()]))"
             ".encode()))\n"
             "runpy.run_module('extract.pool_worker', run_name='__main__')\n")
    text = "We propose FlowNet, which improves accuracy by 12.5% on ImageNet."
    batch = pickle.dumps([("decide", (text,))], protocol=pickle.HIGHEST_PROTOCOL)
    proc = subprocess.run([sys.executable, "-c", probe], input=batch, capture_output=True, timeout=120)
    enabled, frozen = json.loads(proc.stderr.decode().split("\n")[-1])
    assert proc.returncode == 0 and enabled and frozen > 10_000, (enabled, frozen)
    import io

    out = io.BytesIO(proc.stdout)
    assert pickle.load(out) == "ready"          # its first message: imports done
    [(ok, answer)] = pickle.load(out)
    from extract.decision import decide

    assert ok and answer == decide(text)
