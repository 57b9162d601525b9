"""Issue 9, the remote backend (items 8-10, 14, 17-19) and issue 12's retry bound, against
the real fake server: timeouts that bound a whole request, a response cap, fail-fast on
an unreachable endpoint, the token budget, URL checks, servers' own messages, replicas that
refuse us, a bad field that does not sink its record, and one bound per record."""

import socket
import subprocess
import sys

import pytest

from conftest import PLAIN, SECRET, read_jsonl, write_abstracts
from fakeserver import FakeOpenAI

A = "We propose FlowNet, which improves accuracy by 12.5% on ImageNet."
B = "We introduce GraphNet and find 11.25% of variance comes from the generator."
C = "A theory of everything, with a 3% chance of being right."
GOOD = {"task": "image classification", "contribution": "method", "method_names": ["FlowNet"],
        "datasets": ["ImageNet"], "numbers": []}


@pytest.fixture
def one(tmp_path):
    return write_abstracts(tmp_path / "one.jsonl", [A])


def _errors(tmp_path):
    return read_jsonl(tmp_path / "o.errors.jsonl")


# -- item 8: --timeout bounds the whole request; the response size is capped ------------------

def test_a_dripping_body_is_cut_at_the_timeout(cli, server, one, tmp_path):
    server.push({"drip": 0.2})
    r = cli("run", str(one), "--timeout", "1", "--retries", "0", server=server, out=tmp_path / "o.jsonl")
    # the whole dripped body (a byte every 0.2 s: over a minute) would be a valid answer
    # (exit 0); read within a per-read timeout it never times out: cut at the timeout instead
    assert r.exit_code == 1, r.stderr
    err = _errors(tmp_path)[0]
    assert "timed out after 1 s" in err["reason"] and err["attempts"] == 1


def test_a_never_ending_body_is_cut_at_the_size_cap(cli, server, one, tmp_path):
    server.push({"endless": True})
    r = cli("run", str(one), "--timeout", "30", "--retries", "0", server=server, out=tmp_path / "o.jsonl")
    assert r.exit_code == 1, r.stderr          # cut by the size cap (its reason), not the timeout
    assert "bytes" in _errors(tmp_path)[0]["reason"] and not server.endless_finished


# -- item 9: fail fast when nothing can be reached ---------------------------------------------

def _free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_an_unreachable_endpoint_stops_the_run_at_once_with_exit_3(cli, tmp_path):
    inp = write_abstracts(tmp_path / "in.jsonl", [f"{A} Variant {i}." for i in range(100)])
    url = f"http://127.0.0.1:{_free_port()}/v1"
    r = cli("run", str(inp), "--base-url", url, "--model", "m", "--cache-dir", str(tmp_path / "c"),
            "-o", str(tmp_path / "o.jsonl"))
    # exit 3 is the stop: without it each of the 100 records would fail on its own after 7
    # tries (exit 1, minutes of back-off)
    assert r.exit_code == 3, r.stderr
    assert f"cannot connect to {url} (connection refused)" in r.stderr
    assert "APITimeoutError" not in r.stderr and "APIConnectionError" not in r.stderr


def test_unreachable_with_no_retries_still_exits_3(cli, one, tmp_path):
    url = f"http://127.0.0.1:{_free_port()}/v1"
    r = cli("run", str(one), "--retries", "0", "--base-url", url, "--model", "m",
            "--cache-dir", str(tmp_path / "c"))
    assert r.exit_code == 3 and "connection refused" in r.stderr


def test_a_refused_connection_is_called_so_in_a_reason(cli, server, one, tmp_path):
    """After the endpoint has answered once, a refused connection is a transient fault
    named in words."""
    from extract.backends.transport import classify
    import openai

    try:
        socket.create_connection(("127.0.0.1", _free_port()), timeout=1)
    except ConnectionRefusedError as e:
        wrapped = openai.APITimeoutError(request=None)
        wrapped.__cause__ = e
    assert str(classify(wrapped)) == "connection refused"


# -- item 10: the token budget is not overshot at concurrency ---------------------------------

def test_the_token_budget_is_not_overshot_at_concurrency_8(cli, tmp_path):
    inp = write_abstracts(tmp_path / "in.jsonl", [f"{A} Variant {i}." for i in range(80)])
    with FakeOpenAI(latency=0.02) as server:
        out = tmp_path / "o.jsonl"
        r = cli("run", str(inp), "--concurrency", "8", "--max-tokens-total", "5000",
                "--max-tokens", "256", server=server, out=out)
        assert r.exit_code == 4, r.stderr
        spent = sum(x["provenance"]["usage"]["total_tokens"] for x in read_jsonl(out))
        assert 0 < spent <= 5000, spent
        assert server.chat_count == len(read_jsonl(out))


# -- item 14: base URLs that cannot work are refused in one line ------------------------------

@pytest.mark.parametrize("url,says", [
    ("http://user:hunter2@127.0.0.1:9/v1", "credentials in the URL"),
    ("ftp://127.0.0.1/v1", "ftp:// is not supported"),
    ("127.0.0.1:8000/v1", "not a URL"),
    ("localhost", "not a URL"),
    ("http://[::1/v1", "not a valid URL"),
    ("http://127.0.0.1:99999/v1", "not a valid URL"),
])
def test_bad_base_urls_are_one_line_usage_errors(cli, one, tmp_path, url, says):
    r = cli("run", str(one), "--base-url", url, "--model", "m", "--cache-dir", str(tmp_path / "c"))
    assert r.exit_code == 2, r.stderr
    assert says in r.stderr and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert "hunter2" not in r.stderr


# -- item 17: reasons keep the server's words and count attempts as the field does ------------

@pytest.mark.parametrize("status", [400, 413, 422])
def test_a_rejected_request_keeps_the_servers_message(cli, server, one, tmp_path, status):
    server.push({"status": status, "message": "This model's maximum context length is 4096 tokens"})
    r = cli("run", str(one), server=server, out=tmp_path / "o.jsonl")
    assert r.exit_code == 1
    reason = _errors(tmp_path)[0]["reason"]
    assert f"HTTP {status}" in reason and "maximum context length is 4096" in reason


def test_a_200_with_an_error_body_has_a_clear_reason(cli, server, one, tmp_path):
    server.push(*[{"error_body": "model is overloaded"}] * 3)
    r = cli("run", str(one), "--retries", "2", server=server, out=tmp_path / "o.jsonl")
    assert r.exit_code == 1
    err = _errors(tmp_path)[0]
    assert "HTTP 200" in err["reason"] and "model is overloaded" in err["reason"]
    assert "NoneType" not in err["reason"]
    assert "after 3 attempts" in err["reason"] and err["attempts"] == 3


def test_an_answer_that_stays_invalid_counts_attempts_like_its_field(cli, server, one, tmp_path):
    server.push({"status": 503}, *[{"payload": {"task": "t", "contribution": "not-a-kind"}}] * 3)
    r = cli("run", str(one), "--reasks", "2", server=server, out=tmp_path / "o.jsonl")
    assert r.exit_code == 1
    err = _errors(tmp_path)[0]
    assert err["attempts"] == 4 and "after 4 attempts" in err["reason"], err


# -- item 18: a replica that refuses us is set aside while others are healthy ------------------

def test_a_401_from_one_replica_benches_it_and_the_run_goes_on(cli, tmp_path):
    inp = write_abstracts(tmp_path / "in.jsonl", [f"{A} Variant {i}." for i in range(30)])
    with FakeOpenAI() as good, FakeOpenAI() as bad:
        bad.fault = lambda body, n: {"status": 401, "message": "invalid key"}
        out = tmp_path / "o.jsonl"
        r = cli("run", str(inp), "--base-url", good.base_url, "--base-url", bad.base_url,
                "--model", "m", "--cache-dir", str(tmp_path / "c"), "-o", str(out))
        assert r.exit_code == 0, r.stderr
        assert len(read_jsonl(out)) == 30
        assert bad.chat_count <= 8, "only the requests in flight when it first refused"


def test_401_from_every_replica_still_stops_the_run(cli, tmp_path, one):
    with FakeOpenAI() as a, FakeOpenAI() as b:
        for s in (a, b):
            s.fault = lambda body, n: {"status": 401, "message": "invalid key"}
        r = cli("run", str(one), "--base-url", a.base_url, "--base-url", b.base_url,
                "--model", "m", "--cache-dir", str(tmp_path / "c"), "-o", str(tmp_path / "o.jsonl"))
    assert r.exit_code == 3 and "every endpoint refused" in r.stderr and SECRET not in r.stderr


# -- item 19: one invalid field does not sink the record ---------------------------------------

def test_a_task_that_stays_too_long_is_dropped_and_the_record_kept(cli, server, one, tmp_path):
    long_task = dict(GOOD, task=" ".join(["word"] * 40))
    server.push(*[{"payload": long_task}] * 3)
    out = tmp_path / "o.jsonl"
    r = cli("run", str(one), *PLAIN, "--reasks", "2", server=server, out=out)
    assert r.exit_code == 0, r.stderr
    rec = read_jsonl(out)[0]
    assert rec["extraction"]["task"] == "" and rec["provenance"]["attempts"] == 3
    assert [m["text"] for m in rec["extraction"]["method_names"]] == ["FlowNet"]
    assert any(n.startswith("task: dropped") for n in rec["notes"])
    assert "1 invalid fields dropped" in r.stderr
    # the cached answer rebuilds the same record, notes included
    r = cli("run", str(one), *PLAIN, server=server, out=tmp_path / "again.jsonl")
    assert read_jsonl(tmp_path / "again.jsonl")[0]["notes"] == rec["notes"]


def test_an_invalid_list_element_is_dropped_alone(cli, server, one, tmp_path):
    bad = dict(GOOD, numbers=[{"text": "12.5%", "value": 12.5, "kind": "result"},
                              {"text": "12.5%", "value": "lots", "kind": "nonsense"}])
    server.push(*[{"payload": bad}] * 3)
    out = tmp_path / "o.jsonl"
    assert cli("run", str(one), *PLAIN, server=server, out=out).exit_code == 0
    rec = read_jsonl(out)[0]
    assert [n["text"] for n in rec["extraction"]["numbers"]] == ["12.5%"]
    assert any(n.startswith("numbers[1]") for n in rec["notes"])


# -- issue 12, retries: one bound per record; a re-ask survives a transient fault -------------

def test_transient_retries_do_not_multiply_the_reasks(cli, server, one, tmp_path):
    """Invalid, invalid, 500, invalid, invalid, 500...: once tenacity wrapped instructor, each
    500 restarted the record, (retries + 1) x (reasks + 1) = 12 calls; now the bound is
    reasks + retries + 1 = 6 requests, whatever the mix."""
    calls = iter(range(1000))
    server.fault = lambda body, n: ({"status": 500} if next(calls) % 3 == 2
                                    else {"payload": {"task": "t", "contribution": "not-a-kind"}})
    r = cli("run", str(one), "--reasks", "2", "--retries", "3", server=server,
            out=tmp_path / "o.jsonl")
    assert r.exit_code == 1
    assert server.chat_count <= 2 + 3 + 1, server.chat_count
    assert _errors(tmp_path)[0]["attempts"] == server.chat_count


def test_only_transient_faults_spend_the_retries(cli, server, one, tmp_path):
    server.fault = lambda body, n: {"status": 500}
    r = cli("run", str(one), "--reasks", "2", "--retries", "3", server=server,
            out=tmp_path / "o.jsonl")
    assert r.exit_code == 1 and server.chat_count == 4
    assert _errors(tmp_path)[0]["attempts"] == 4


def test_a_429_during_a_reask_keeps_the_conversation(cli, server, one, tmp_path):
    bad = dict(GOOD, method_names=["GhostNet"])
    server.push({"payload": bad}, {"status": 429, "headers": {"Retry-After": "0"}}, {"payload": GOOD})
    out = tmp_path / "o.jsonl"
    r = cli("run", str(one), *PLAIN, server=server, out=out)
    assert r.exit_code == 0, r.stderr
    assert server.chat_count == 3
    first, reask, after_429 = (q["body"]["messages"] for q in server.requests)
    assert len(reask) > len(first), "the second request is a re-ask"
    assert after_429 == reask, "the retry after the 429 sends the re-ask again, not a fresh ask"
    assert read_jsonl(out)[0]["provenance"]["attempts"] == 3


# -- issue 8: instructor patches are applied scoped, and each one is tested -------------------

def test_importing_extract_patches_nothing_in_instructor():
    code = ("import extract, extract.backends.openai_compat, instructor.v2.core.patch as p, "
            "logging; print(p.handle_templating.__module__, "
            "logging.getLogger('instructor').propagate)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["instructor.v2.core.templating", "True"] or \
        out.stdout.split()[0].startswith("instructor") and out.stdout.split()[1] == "True", out.stdout


def test_templating_patch_leaves_calls_without_the_marker_alone():
    from instructor import Mode
    from extract.backends.instructor_fixes import VERBATIM, install
    import instructor.v2.core.patch as p

    install()
    kwargs = {"messages": [{"role": "user", "content": "Hello {{ name }}"}]}
    templated = p.handle_templating(dict(kwargs), Mode.TOOLS, None, {"name": "Ada"})
    assert templated["messages"][0]["content"] == "Hello Ada"
    verbatim = p.handle_templating(dict(kwargs), Mode.TOOLS, None, {"name": "Ada", VERBATIM: True})
    assert verbatim["messages"][0]["content"] == "Hello {{ name }}"


def test_usage_patch_skips_instructors_total_only_for_calls_that_count_their_own():
    from openai.types import CompletionUsage
    from extract.backends.instructor_fixes import OWN_USAGE, install
    import instructor.v2.core.retry as r

    install()

    class Answer:
        usage = CompletionUsage(prompt_tokens=3, completion_tokens=2, total_tokens=5)

    total = r._initialize_usage(r.Provider.OPENAI)
    assert r.has_compatible_usage(Answer, total)
    r.update_total_usage(response=Answer, total_usage=total)
    assert total.total_tokens == 5                  # as shipped: a running total
    token = OWN_USAGE.set(True)
    try:
        assert r._initialize_usage(r.Provider.OPENAI) is None
        assert not r.has_compatible_usage(Answer, total)
        assert r.update_total_usage(response=Answer, total_usage=total) is Answer
        assert total.total_tokens == 5 and Answer.usage.total_tokens == 5     # untouched
    finally:
        OWN_USAGE.reset(token)


def test_async_validator_check_still_rejects_after_the_memo():
    from pydantic import BaseModel
    from instructor.v2.validation import async_field_validator
    from extract.backends.instructor_fixes import install
    import instructor.v2.validation.async_validators as av

    install()

    class Fine(BaseModel):
        x: int

    class Async(BaseModel):
        x: int

        @async_field_validator("x")
        async def check(self, v):
            return v

    av.reject_async_validators(Fine)
    av.reject_async_validators(Fine)
    for _ in range(2):
        with pytest.raises(ValueError, match="async validators"):
            av.reject_async_validators(Async)


def test_no_instructor_log_reaches_stderr(cli, server, one, tmp_path):
    server.push({"status": 500}, {"status": 500})
    r = cli("run", str(one), server=server, out=tmp_path / "o.jsonl")
    assert r.exit_code == 0
    assert "API call failed" not in r.stderr and "instructor" not in r.stderr
