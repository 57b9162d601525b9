"""Issue 20, security (items 1, 2, 4): a planted cache row names no file outside the cache,
the configured key is masked whatever its shape, CSV cells are not formulas, and ids or
titles do not drive the terminal."""

import csv
import io
import json
import sqlite3

import pytest
from click.testing import CliRunner

from conftest import read_jsonl, write_abstracts
from extract.cli import main
from extract.redact import mask, register

A = "We propose FlowNet, which improves accuracy by 12.5% on ImageNet over ResNet-50."


def _rules(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


# -- item 1: the cache deletes (or reads) only its own files ---------------------------------

def _plant(cache, mode, filename):
    c = sqlite3.connect(cache / "cache.db")
    c.execute("update Cache set mode=?, value=NULL, filename=?", (mode, str(filename)))
    c.commit()
    c.close()


def test_a_planted_filename_is_never_deleted_by_a_run_or_cache_clear(tmp_path):
    inp = write_abstracts(tmp_path / "in.jsonl", [A])
    cache = tmp_path / "pc"
    assert _rules("run", str(inp), "--cache-dir", str(cache), "-q").exit_code == 0
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    _plant(cache, 3, victim)                      # the exact planting
    r = _rules("run", str(inp), "--cache-dir", str(cache), "-q")
    assert r.exit_code == 0, r.stderr
    assert victim.read_text() == "precious\n", "a run deleted a file the cache row named"
    assert r.stderr.count("warning") == 1 and "did not write" in r.stderr
    _plant(cache, 3, victim)
    r = _rules("cache", "clear", "--cache-dir", str(cache))
    assert r.exit_code == 0, r.stderr
    assert victim.exists(), "cache clear deleted a file the cache row named"
    for relative in ("../victim.txt", "ab/../../victim.txt"):    # a relative escape, binary mode
        assert _rules("run", str(inp), "--cache-dir", str(cache), "-q").exit_code == 0
        _plant(cache, 2, relative)
        assert _rules("run", str(inp), "--cache-dir", str(cache), "-q").exit_code == 0
        assert _rules("cache", "clear", "--cache-dir", str(cache)).exit_code == 0
        assert victim.exists()


def test_a_planted_filename_is_never_read(tmp_path):
    """A row pointing at a JSON file outside the cache (a well-formed answer) is not a hit."""
    inp = write_abstracts(tmp_path / "in.jsonl", [A])
    cache = tmp_path / "pc"
    assert _rules("run", str(inp), "--cache-dir", str(cache), "-q").exit_code == 0
    value = sqlite3.connect(cache / "cache.db").execute("select value from Cache").fetchone()[0]
    outside = tmp_path / "elsewhere.json"
    outside.write_bytes(bytes(value))
    _plant(cache, 2, outside)                     # MODE_BINARY, an absolute path
    r = _rules("run", str(inp), "--cache-dir", str(cache))
    assert r.exit_code == 0, r.stderr
    rec = json.loads(r.stdout.splitlines()[0])
    assert rec["provenance"]["cached"] is False, "a file outside the cache was read as an answer"
    assert outside.exists()


def test_own_large_values_still_round_trip(tmp_path):
    """A value diskcache keeps in a file of its own (over 32 KiB) is read and replaced."""
    from extract.cache import AnswerCache
    c = AnswerCache(tmp_path / "c", warn=lambda m: pytest.fail(m))
    big = {"answer": {"x": "y" * 50_000}}
    c.set("k", big)
    assert c.get("k") == big
    c.set("k", {"answer": {}})                    # replaces (and deletes) its own file
    assert c.get("k") == {"answer": {}}
    c.close()
    assert not [p for p in (tmp_path / "c").rglob("*.val")]


# -- item 2: the configured key, whatever its shape --------------------------------------------

KEYS = ["gsk_Zq81bLmN0pQrStUvWxYz1234", "3f2a9c0d1e8b47a6b5c4d3e2f1a0b9c8", "sk-test"]


@pytest.mark.parametrize("key", KEYS)
def test_a_key_echoed_by_a_400_or_500_is_masked_in_the_errors_file(cli, server, tmp_path, key, caplog):
    caplog.set_level("DEBUG")
    inp = write_abstracts(tmp_path / "in.jsonl", [A, A + " Second."])
    server.push({"status": 400, "message": f"Invalid request for key {key}"},
                *[{"status": 500, "message": f"upstream rejected {key}"}] * 10)
    out = tmp_path / "o.jsonl"
    r = cli("run", str(inp), "--retries", "1", server=server, out=out,
            extra_env={"OPENAI_API_KEY": key})
    errors = (tmp_path / "o.errors.jsonl").read_text()
    assert "Invalid request for key" in errors and "upstream rejected" in errors
    assert key not in errors and key not in r.stderr
    assert key not in caplog.text, "a log record carries the key (instructor logs each failure)"


@pytest.mark.parametrize("key", KEYS)
def test_a_key_echoed_by_a_401_is_masked_on_stderr(cli, server, tmp_path, key):
    inp = write_abstracts(tmp_path / "in.jsonl", [A])
    server.push(*[{"status": 401, "message": f"Incorrect API key provided: {key}"}] * 3)
    r = cli("run", str(inp), server=server, extra_env={"OPENAI_API_KEY": key})
    assert r.exit_code == 3 and "Incorrect API key provided" in r.stderr
    assert key not in r.stderr


def test_a_secret_in_the_base_urls_query_is_masked_on_the_backend_line(cli, server, tmp_path):
    inp = write_abstracts(tmp_path / "in.jsonl", [A])
    url = server.base_url + "?api-key=AzureQuerySecret123"
    r = CliRunner().invoke(main, ["run", str(inp), "--base-url", url, "--model", "m", "--cache-dir",
                                  str(tmp_path / "c"), "-v"], catch_exceptions=False)
    assert "backend openai" in r.stderr and "api-key=***" in r.stderr
    assert "AzureQuerySecret123" not in r.stderr + r.stdout


def test_mask_covers_url_credentials_query_secrets_and_bearer_tokens():
    register("my-own-key-7788")
    assert "my-own-key-7788" not in mask("Bad key my-own-key-7788 (my-own-key-7788)")
    assert mask("http://bob:hunter22@h/v1") == "http://bob:***@h/v1"
    assert mask("GET https://h/x?a=1&token=abc123&b=2") == "GET https://h/x?a=1&token=***&b=2"
    assert mask("Authorization: Bearer abcdef123456") == "Authorization: Bearer ***"
    assert mask("a risk-averse method with sk-learn") == "a risk-averse method with sk-learn"


# -- item 4: CSV formula injection, terminal escapes ------------------------------------------

EVIL = ["=HYPERLINK(\"http://x\",\"y\")", "+1+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0",
        "@SUM(A1:A9)", "\t=1+1", " =1+1"]


def _records(tmp_path, titles, ids=None):
    rows = [{"id": (ids or [f"p{i}" for i in range(len(titles))])[i], "title": t,
             "abstract": f"We propose FlowNet{i}, which reaches 91.{i}% accuracy on ImageNet."}
            for i, t in enumerate(titles)]
    inp = tmp_path / "in.jsonl"
    inp.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "rec.jsonl"
    assert _rules("run", str(inp), "-o", str(out), "--cache-dir", str(tmp_path / "c"), "-q").exit_code in (0, 1)
    return out


def test_table_and_triage_csv_cells_are_never_formulas(tmp_path):
    out = _records(tmp_path, EVIL, ids=EVIL)
    recs = read_jsonl(out)
    recs[0]["extraction"]["numbers"][0]["value"] = -0.76     # a value, not a formula
    out.write_text("".join(json.dumps(r) + "\n" for r in recs))
    for cmd in ("table", "triage"):
        dest = tmp_path / f"{cmd}.csv"
        r = _rules(cmd, str(out), "-o", str(dest))
        assert r.exit_code == 0, r.stderr
        cells = [c for row in csv.reader(io.StringIO(dest.read_text())) for c in row]
        assert all(not c.lstrip(" ").startswith(("=", "+", "@", "\t", "\r")) for c in cells), cmd
        assert all(not c.startswith("-") or c.lstrip("-").replace(".", "").isdigit() for c in cells), cmd
        for evil in EVIL:               # kept, only prefixed (a title may be shown trimmed)
            assert {"'" + evil, "'" + evil.strip()} & set(cells), (cmd, evil)
    rows = list(csv.DictReader(io.StringIO((tmp_path / "table.csv").read_text())))
    assert "-0.76" in [r["value"] for r in rows], "a negative value stays a number"


ESC = "\x1b]0;pwned\x07\x1b[2J\x1b[31m"


def test_terminal_escapes_in_ids_and_titles_never_reach_stderr_or_triage_raw(tmp_path):
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps({"id": "a" + ESC, "title": "T" + ESC, "abstract": A}) + "\n"
                   + json.dumps({"id": "b" + ESC, "title": "U" + ESC, "abstract": A + " " + "x" * 300}) + "\n")
    r = _rules("run", str(inp), "--max-chars", "200", "--cache-dir", str(tmp_path / "c"))
    assert "failed" in r.stderr and "b\\x1b" in r.stderr        # the failure names the id, escaped
    assert "\x1b" not in r.stderr and "\x07" not in r.stderr
    out = tmp_path / "o.jsonl"
    _rules("run", str(inp), "-o", str(out), "--max-chars", "200", "--cache-dir", str(tmp_path / "c"))
    t = _rules("triage", str(out))
    assert t.exit_code == 0 and "T\\x1b" in t.stdout
    assert "\x1b" not in t.stdout and "\x07" not in t.stdout and "\x1b" not in t.stderr
