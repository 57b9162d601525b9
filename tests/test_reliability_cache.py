"""Issue 9, the cache (items 11-13): never unpickle, survive corruption and a full disk,
refuse a directory that holds no cache."""

import json
import os
import pickle
import signal
import resource
import subprocess
import sys

import diskcache

from conftest import SECRET, read_jsonl, write_abstracts
from extract.cache import AnswerCache

A = "We propose FlowNet, which improves accuracy by 12.5% on ImageNet."


class _Planted:
    """Unpickling this creates a file: the proof that code ran."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (open, (self.marker, "w"))


def _key_for(cli, server, tmp_path, inp):
    """The cache key a run uses for the first abstract, read from a real run's cache."""
    cache = tmp_path / "probe"
    assert cli("run", str(inp), server=server, cache_dir=cache).exit_code == 0
    with diskcache.Cache(str(cache)) as c:
        return list(c.iterkeys())[0]


def test_a_planted_pickle_entry_is_never_executed(cli, server, tmp_path):
    inp = write_abstracts(tmp_path / "in.jsonl", [A])
    key = _key_for(cli, server, tmp_path, inp)
    marker = tmp_path / "PWNED"
    cache = tmp_path / "cache"
    with diskcache.Cache(str(cache)) as c:          # diskcache's default disk: pickle
        c.set(key, _Planted(str(marker)))
    sent = server.chat_count
    r = cli("run", str(inp), server=server, cache_dir=cache, out=tmp_path / "o.jsonl")
    assert r.exit_code == 0, r.stderr
    assert not marker.exists(), "a cache entry was unpickled"
    assert server.chat_count == sent + 1, "the planted entry is a miss: the abstract is asked"
    assert "not JSON (pickle)" in r.stderr


def test_answers_are_stored_as_json(tmp_path):
    c = AnswerCache(tmp_path / "c")
    c.set("k", {"answer": {"a": 1.5}})
    c.close()
    with diskcache.Cache(str(tmp_path / "c")) as raw:
        stored = raw._sql("SELECT mode, value FROM Cache").fetchall()
    assert stored and all(mode != 4 for mode, _ in stored), "no pickle mode"
    assert json.loads(bytes(stored[0][1])) == {"answer": {"a": 1.5}}


def test_a_corrupt_cache_is_one_warning_and_the_run_goes_on(cli, server, tmp_path):
    inp = write_abstracts(tmp_path / "in.jsonl", [A, "We propose GraphNet, 3% better."])
    cache = tmp_path / "cache"
    assert cli("run", str(inp), server=server, cache_dir=cache).exit_code == 0
    (cache / "cache.db").write_bytes(b"this is not a database" * 100)
    for name in ("cache.db-wal", "cache.db-shm"):
        (cache / name).unlink(missing_ok=True)
    r = cli("run", str(inp), server=server, cache_dir=cache, out=tmp_path / "o.jsonl")
    assert r.exit_code == 0, r.stderr
    assert len(read_jsonl(tmp_path / "o.jsonl")) == 2
    warnings = [ln for ln in r.stderr.splitlines() if "warning" in ln]
    assert len(warnings) == 1 and "cannot be used" in warnings[0], r.stderr
    # stats says so in one line; clear always works; then the cache is usable again
    r = cli("cache", "stats", "--cache-dir", str(cache))
    assert r.exit_code == 2 and "cannot be read" in r.stderr and "Traceback" not in r.stderr
    r = cli("cache", "clear", "--cache-dir", str(cache))
    assert r.exit_code == 0 and "removed" in r.stderr
    r = cli("cache", "stats", "--cache-dir", str(cache), "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["entries"] == 0


def test_stats_and_clear_refuse_a_directory_without_a_cache(cli, tmp_path):
    for cmd in ("stats", "clear"):
        r = cli("cache", cmd, "--cache-dir", str(tmp_path / "typo"))
        assert r.exit_code == 2 and "no such directory" in r.stderr
        assert not (tmp_path / "typo").exists()
    (tmp_path / "empty").mkdir()
    r = cli("cache", "clear", "--cache-dir", str(tmp_path / "empty"))
    assert r.exit_code == 2 and "no cache there" in r.stderr
    assert list((tmp_path / "empty").iterdir()) == []


def test_a_full_disk_under_the_cache_keeps_every_record_and_warns_once(server, tmp_path):
    """Records go to stdout (a pipe, not limited); the cache's files hit RLIMIT_FSIZE."""
    n = 60
    inp = write_abstracts(tmp_path / "in.jsonl",
                          [f"We propose Net{i}, which gains {i}.5% on task {i}. " + "pad " * 200
                           for i in range(n)])

    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (120_000, 120_000))

    env = {k: v for k, v in os.environ.items() if k != "OPENAI_BASE_URL"}
    env["OPENAI_API_KEY"] = SECRET
    p = subprocess.run([sys.executable, "-c", "import sys; from extract.cli import main; sys.exit(main())",
                        "run", str(inp), "--base-url", server.base_url, "--model", "m",
                        "--cache-dir", str(tmp_path / "cache"), "--no-progress"],
                       env=env, capture_output=True, text=True, timeout=120, preexec_fn=limit)
    assert p.returncode == 0, p.stderr
    assert len(p.stdout.splitlines()) == n, "every answer paid for became a record"
    warnings = [ln for ln in p.stderr.splitlines() if "warning" in ln]
    assert len(warnings) == 1 and "the cache" in warnings[0], p.stderr
    assert "Traceback" not in p.stderr


def test_pickle_module_is_not_what_reads_the_cache(tmp_path, monkeypatch):
    """Belt and braces: a cache read never reaches pickle.load/loads."""
    c = AnswerCache(tmp_path / "c")
    c.set("k", {"answer": {"x": [1, 2]}})

    def boom(*a, **k):
        raise AssertionError("pickle used")
    monkeypatch.setattr(pickle, "load", boom)
    monkeypatch.setattr(pickle, "loads", boom)
    assert c.get("k") == {"answer": {"x": [1, 2]}}
    c.close()


def test_a_cached_answer_that_no_longer_validates_is_a_miss(cli, server, tmp_path):
    inp = write_abstracts(tmp_path / "in.jsonl", [A])
    cache = tmp_path / "cache"
    assert cli("run", str(inp), server=server, cache_dir=cache).exit_code == 0
    c = AnswerCache(cache)
    key = next(iter(c._open().iterkeys()))
    c.set(key, {"answer": {"task": 3}, "attempts": 1, "usage": {}, "extracted_at": "x"})
    c.close()
    sent = server.chat_count
    r = cli("run", str(inp), server=server, cache_dir=cache, out=tmp_path / "o.jsonl")
    assert r.exit_code == 0 and server.chat_count == sent + 1
