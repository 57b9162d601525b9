"""Option values are checked before anything loads or is written: on the CLI by click types built
from ``config.RANGES``, in the Python API by ``RunConfig`` itself; one line, exit 2, naming
the option and what it accepts."""

import math

import click
import pytest
from click.testing import CliRunner

import extract
from conftest import write_abstracts
from extract.cli import main
from extract.cli.batch import submit
from extract.cli.common import _FiniteFloatRange
from extract.cli.run import run
from extract.config import RANGES, RunConfig
from extract.errors import EXIT_USAGE, UsageError

TEXT = "We propose FlowNet, which improves accuracy by 12.5% on ImageNet."

# (CLI arguments, the option named in the error) -- each a value outside the accepted range
BAD_CLI = [
    (["--concurrency", "0"], "--concurrency"), (["--concurrency", "1025"], "--concurrency"),
    (["--retries", "-1"], "--retries"), (["--retries", "51"], "--retries"),
    (["--reasks", "-1"], "--reasks"), (["--reasks", "11"], "--reasks"),
    (["--timeout", "0"], "--timeout"), (["--timeout", "-5"], "--timeout"),
    (["--timeout", "inf"], "--timeout"), (["--timeout", "nan"], "--timeout"),
    (["--temperature", "-0.5"], "--temperature"), (["--temperature", "nan"], "--temperature"),
    (["--temperature", "2.5"], "--temperature"),
    (["--max-chars", "0"], "--max-chars"), (["--max-tokens", "-1"], "--max-tokens"),
    (["--max-tokens-total", "0"], "--max-tokens-total"), (["--limit", "-1"], "--limit"),
    (["--model", ""], "--model"), (["--model", "  "], "--model"), (["--backend", ""], "--backend"),
    (["--base-url", ""], "--base-url"), (["--cache-dir", ""], "--cache-dir"),
    (["-O", "", "x"], "--backend-option"), (["--mode", "yaml"], "--mode"),
    (["-o", ""], "--output"), (["--errors", ""], "--errors"), (["--id-field", ""], "--id-field"),
    (["--text-field", " "], "--text-field"),
]


@pytest.mark.parametrize("args,option", BAD_CLI, ids=[" ".join(a) or "''" for a, _ in BAD_CLI])
def test_a_bad_option_value_is_one_line_exit_2_and_writes_nothing(tmp_path, args, option):
    inp = write_abstracts(tmp_path / "a.jsonl", [TEXT])
    out = tmp_path / "out.jsonl"
    # a model path that does not exist: the option error comes first, before any model loads
    r = CliRunner().invoke(main, ["run", str(inp), "-o", str(out), "--backend", "local",
                                  "--model", str(tmp_path / "missing.gguf"), *args])
    assert r.exit_code == EXIT_USAGE, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("extract: error: Invalid value for"), r.stderr
    assert option in lines[0] and "missing.gguf" not in lines[0]
    assert not out.exists() and not (tmp_path / "out.errors.jsonl").exists()


@pytest.mark.parametrize("command", ["table", "triage", "report"])
def test_an_empty_output_is_refused_not_taken_for_stdout(command):
    from pathlib import Path
    records = Path(__file__).parent / "fixtures" / "records-sample.jsonl"
    r = CliRunner().invoke(main, [command, str(records), "-o", ""])
    assert r.exit_code == EXIT_USAGE and r.stdout == "" and "'--output': must not be empty" in r.stderr


def test_the_range_is_named_in_the_message(tmp_path):
    inp = write_abstracts(tmp_path / "a.jsonl", [TEXT])
    r = CliRunner().invoke(main, ["run", str(inp), "--concurrency", "0"])
    assert "1<=x<=1024" in r.stderr and r.exit_code == 2
    r = CliRunner().invoke(main, ["run", str(inp), "--timeout", "inf"])
    assert "not a finite number" in r.stderr and r.exit_code == 2


def test_cli_ranges_are_the_config_ranges():
    """One place defines each range: every ranged CLI option uses config.RANGES."""
    seen = set()
    for command in (run, submit):
        for p in command.params:
            if p.name in RANGES:
                r = RANGES[p.name]
                assert (p.type.min, p.type.max) == (r.lo, r.hi), p.name
                assert isinstance(p.type, click.IntRange if r.kind is int else _FiniteFloatRange)
                seen.add(p.name)
    assert seen == set(RANGES) - {"retry_max_wait"}      # the only field without a CLI option
    for name, r in RANGES.items():                        # and the defaults are in range
        assert r.problem(getattr(RunConfig, name)) is None or getattr(RunConfig, name) is None


BAD_CONFIG = [
    ("concurrency", 0), ("concurrency", 2000), ("concurrency", True), ("concurrency", 2.5),
    ("retries", -1), ("reasks", -1), ("reasks", 11), ("timeout", -1.0), ("timeout", 0),
    ("timeout", math.inf), ("timeout", math.nan), ("timeout", "60"), ("retry_max_wait", -1),
    ("temperature", -0.1), ("temperature", 3), ("max_tokens", 0), ("max_chars", 0),
    ("max_tokens_total", 0), ("max_tokens_total", -5), ("limit", -1), ("seed", 1.5),
    ("model", ""), ("model", " "), ("backend", ""), ("schema", ""), ("mode", "yaml"),
    ("base_urls", ("",)), ("base_urls", ""), ("cache_dir", ""), ("backend_options", {"": "x"}),
]


@pytest.mark.parametrize("name,value", BAD_CONFIG, ids=[f"{n}={v!r}" for n, v in BAD_CONFIG])
def test_runconfig_refuses_the_same_values(name, value):
    with pytest.raises(UsageError) as e:
        RunConfig(**{name: value})
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("option ") and e.value.exit_code == EXIT_USAGE
    assert (name in msg) or (name == "backend_options" and "-O" in msg)
    if name in RANGES:
        r = RANGES[name]
        assert f"{r.lo:g}" in msg and (r.hi is None or f"{r.hi:g}" in msg)
    with pytest.raises(UsageError):                 # with_ (dataclasses.replace) checks too
        RunConfig().with_(**{name: value})


def test_runconfig_accepts_the_edges_and_none():
    for name, r in RANGES.items():
        RunConfig(**{name: r.kind(r.lo)})
        if r.hi is not None:
            RunConfig(**{name: r.kind(r.hi)})
    RunConfig(limit=None, max_tokens_total=None, seed=None, model=None, timeout=1)
    assert RunConfig(timeout=5).timeout == 5       # an int is a fine number of seconds


@pytest.mark.parametrize("name,value", [("concurrency", 0), ("retries", -1), ("timeout", -1),
                                        ("max_chars", 0), ("model", ""), ("max_tokens_total", 0)])
def test_the_api_checks_before_any_backend_loads(server, tmp_path, name, value):
    opts = dict(backend="openai", base_urls=(server.base_url,), model="m", cache_dir=tmp_path / "c")
    opts[name] = value
    with pytest.raises(UsageError, match=name):
        extract.extract(TEXT, **opts)
    with pytest.raises(UsageError, match=name):
        list(extract.extract_many([TEXT], **opts))
    with pytest.raises(UsageError, match=name):         # config= plus an override
        extract.extract(TEXT, config=RunConfig(backend="openai", model="m",
                                               base_urls=(server.base_url,)), **{name: value})
    assert server.chat_count == 0 and not (tmp_path / "c").exists()


def test_the_api_names_the_local_model_error_only_after_the_options(tmp_path):
    with pytest.raises(UsageError, match="concurrency"):
        extract.extract(TEXT, backend="local", model=str(tmp_path / "missing.gguf"), concurrency=0)
