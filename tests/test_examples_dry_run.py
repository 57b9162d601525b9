"""issue 19, what a new user reaches for next: ``--examples FILE`` (few-shot examples in the
request's own answer format, part of the cache key) and ``extract run --dry-run`` (requests and
estimated tokens and price, nothing sent), against the loopback OpenAI-compatible server."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conftest import PLAIN, read_jsonl, write_abstracts
from extract.cli import main

EX_TEXT = ("We propose QuillNet, a parser that reaches 91.2% F1 on TreeBank, 3.4 points above "
           "GPT-4o, using 12 layers.")
EXAMPLE = {"id": "ex1", "abstract": EX_TEXT, "task": "syntactic parsing", "contribution": "method",
           "method_names": ["QuillNet"], "datasets": ["TreeBank"],
           "numbers": [{"text": "91.2%", "value": 91.2, "kind": "result", "about": "F1", "metric": "F1",
                        "dataset": "TreeBank", "method": "QuillNet"},
                       {"text": "3.4 points", "value": 3.4, "kind": "result", "about": "gain", "metric": "F1",
                        "dataset": "TreeBank", "method": "QuillNet"},
                       {"text": "12", "value": 12, "kind": "setting", "about": "layers", "metric": "layers",
                        "dataset": None, "method": None}]}
ABSTRACTS = ["We introduce FlowNet, which improves accuracy by 12.5% on ImageNet.",
             "We present BetaNet and reach 80.1% top-1 accuracy on CIFAR-10."]


@pytest.fixture
def examples(tmp_path):
    path = tmp_path / "examples.jsonl"
    path.write_text(json.dumps(EXAMPLE) + "\n")
    return path


def run(cli, server, inp, out, *extra, cache_dir=None):
    return cli("run", str(inp), *extra, server=server, out=out, cache_dir=cache_dir)


def turns(body):
    return [m for m in body["messages"] if m["role"] in ("user", "assistant")]


# -- --examples ----------------------------------------------------------------------------------

def test_the_plain_request_carries_the_examples_in_its_answer_format(cli, server, tmp_path, examples):
    inp = write_abstracts(tmp_path / "in.jsonl", ABSTRACTS[:1])
    r = run(cli, server, inp, tmp_path / "o.jsonl", *PLAIN, "--examples", str(examples))
    assert r.exit_code == 0, r.stderr
    body = server.requests[-1]["body"]
    user, shown, own = turns(body)[:3]
    assert body["messages"][0]["role"] == "system"
    assert EX_TEXT in user["content"] and shown["role"] == "assistant" and ABSTRACTS[0] in own["content"]
    answer = json.loads(shown["content"])
    assert answer["method_names"] == ["QuillNet"] and answer["numbers"][0]["metric"] == "F1"
    assert set(answer) == {"task", "contribution", "method_names", "datasets", "numbers"}


def test_the_hybrid_request_carries_the_examples_in_the_hybrid_ids(cli, server, tmp_path, examples):
    from extract import hybrid

    inp = write_abstracts(tmp_path / "in.jsonl", ABSTRACTS[:1])
    r = run(cli, server, inp, tmp_path / "o.jsonl", "--examples", str(examples))
    assert r.exit_code == 0, r.stderr
    user, shown, own = turns(server.requests[-1]["body"])[:3]
    assert "Rules' task:" in user["content"] and EX_TEXT in user["content"]
    answer = json.loads(shown["content"])
    proposal = hybrid.propose(EX_TEXT)
    ids = {c.text: k for k, c in proposal.names.items()}
    nums = {c.text: k for k, c in proposal.numbers.items()}
    assert answer["names"][ids["QuillNet"]] == "method" and answer["names"][ids["TreeBank"]] == "dataset"
    first = answer["numbers"][nums["91.2%"]]
    assert first == {"kind": "result", "metric": "F1", "dataset": ids["TreeBank"], "method": ids["QuillNet"]}
    assert answer["numbers"][nums["12"]]["kind"] == "setting"
    assert set(answer) == {"task", "contribution", "names", "more_methods", "more_datasets", "numbers"}
    assert ABSTRACTS[0] in own["content"]
    rec = read_jsonl(tmp_path / "o.jsonl")[0]
    assert rec["provenance"]["examples"] and rec["extraction"]["task"]


def test_examples_are_part_of_the_cache_key(cli, server, tmp_path, examples):
    inp = write_abstracts(tmp_path / "in.jsonl", ABSTRACTS[:1])
    cache = tmp_path / "shared-cache"
    assert run(cli, server, inp, tmp_path / "a.jsonl", *PLAIN, cache_dir=cache).exit_code == 0
    assert server.chat_count == 1
    assert run(cli, server, inp, tmp_path / "b.jsonl", *PLAIN, "--examples", str(examples),
               cache_dir=cache).exit_code == 0
    assert server.chat_count == 2                      # not served the answer made without them
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({**EXAMPLE, "task": "constituency parsing"}) + "\n")
    assert run(cli, server, inp, tmp_path / "c.jsonl", *PLAIN, "--examples", str(other),
               cache_dir=cache).exit_code == 0
    assert server.chat_count == 3                      # other examples: another request
    assert run(cli, server, inp, tmp_path / "d.jsonl", *PLAIN, "--examples", str(examples),
               cache_dir=cache).exit_code == 0
    assert server.chat_count == 3                      # the same examples: cached
    a, b = read_jsonl(tmp_path / "a.jsonl")[0], read_jsonl(tmp_path / "b.jsonl")[0]
    assert a["provenance"]["prompt_sha"] != b["provenance"]["prompt_sha"]


def test_examples_with_the_rules_backend_are_a_usage_error(tmp_path, examples):
    inp = write_abstracts(tmp_path / "in.jsonl", ABSTRACTS[:1])
    r = CliRunner().invoke(main, ["run", str(inp), "--examples", str(examples), "--cache-dir",
                                  str(tmp_path / "c")])
    assert r.exit_code == 2 and "runs no model" in r.stderr
    errors = [line for line in r.stderr.splitlines() if line.startswith("extract: error")]
    assert len(errors) == 1 and "--examples" in errors[0]


def test_an_ungrounded_or_abstractless_example_is_refused(cli, server, tmp_path):
    inp = write_abstracts(tmp_path / "in.jsonl", ABSTRACTS[:1])
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({**EXAMPLE, "method_names": ["GhostNet"]}) + "\n")
    r = run(cli, server, inp, tmp_path / "o.jsonl", *PLAIN, "--examples", str(bad))
    assert r.exit_code == 2 and "'GhostNet' is not in the example's abstract" in r.stderr
    gold_only = tmp_path / "gold.jsonl"
    gold_only.write_text(json.dumps({k: v for k, v in EXAMPLE.items() if k != "abstract"}) + "\n")
    r = run(cli, server, inp, tmp_path / "o.jsonl", *PLAIN, "--examples", str(gold_only))
    assert r.exit_code == 2 and "no abstract" in r.stderr
    assert server.chat_count == 0


def test_eval_warns_when_an_example_is_in_the_gold(cli, server, tmp_path, examples):
    inp = write_abstracts(tmp_path / "in.jsonl", [EX_TEXT, ABSTRACTS[0]])
    out = tmp_path / "o.jsonl"
    assert run(cli, server, inp, out, *PLAIN, "--examples", str(examples)).exit_code == 0
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({**{k: v for k, v in EXAMPLE.items() if k != "abstract"}, "id": "p1",
                                "first_words": EX_TEXT[:60]}) + "\n")
    r = CliRunner().invoke(main, ["eval", str(out), "--gold", str(gold)])
    assert r.exit_code == 0, r.output
    assert "1 gold abstract(s) were given to the model as --examples" in r.stderr and "p1" in r.stderr
    plain = tmp_path / "plain.jsonl"
    assert run(cli, server, inp, plain, *PLAIN).exit_code == 0
    r = CliRunner().invoke(main, ["eval", str(plain), "--gold", str(gold)])
    assert "--examples" not in r.stderr


# -- --dry-run -----------------------------------------------------------------------------------

def test_dry_run_sends_nothing_and_estimates_tokens_as_the_run_would_send(cli, server, tmp_path):
    inp = write_abstracts(tmp_path / "in.jsonl", ABSTRACTS)
    out = tmp_path / "o.jsonl"
    r = run(cli, server, inp, out, *PLAIN, "--dry-run", "--json", "--price", "2.5", "10")
    assert r.exit_code == 0, r.stderr
    assert server.requests == [] and not out.exists() and not (tmp_path / "cache").exists()
    est = json.loads(r.stdout)
    assert est["requests"] == 2 and est["cached"] == 0
    # the real run's requests, measured the same way (messages + the answer schema, 4 chars a token)
    assert run(cli, server, inp, out, *PLAIN).exit_code == 0
    sent = 0
    for req in server.requests:
        body = req["body"]
        schema = body["tools"][0]["function"]["parameters"]
        chars = sum(len(m["content"]) for m in body["messages"])
        sent += -(-(chars + len(json.dumps(schema))) // 4)
    assert abs(est["prompt_tokens"] - sent) <= 0.1 * sent
    assert est["price"]["estimate"] == round((est["prompt_tokens"] * 2.5 + est["completion_tokens"] * 10) / 1e6, 4)
    assert est["completion_max"] == 2 * 1024


def test_dry_run_reads_the_cache_and_the_output(cli, server, tmp_path):
    inp = write_abstracts(tmp_path / "in.jsonl", ABSTRACTS[:1])
    assert run(cli, server, inp, tmp_path / "first.jsonl", *PLAIN).exit_code == 0
    n = server.chat_count
    write_abstracts(inp, ABSTRACTS)
    r = run(cli, server, inp, tmp_path / "first.jsonl", *PLAIN, "--dry-run")
    assert r.exit_code == 0, r.stderr
    assert "dry run: 1 requests would be sent" in r.stdout and "1 already in the output" in r.stdout
    r = run(cli, server, inp, tmp_path / "new.jsonl", *PLAIN, "--dry-run", "--json")
    est = json.loads(r.stdout)
    assert est["requests"] == 1 and est["cached"] == 1 and "cached answers" in est["completion_basis"]
    assert server.chat_count == n


def test_dry_run_on_the_rules_and_price_without_dry_run(tmp_path):
    inp = write_abstracts(tmp_path / "in.jsonl", ABSTRACTS)
    r = CliRunner().invoke(main, ["run", str(inp), "--dry-run", "--cache-dir", str(tmp_path / "c")])
    assert r.exit_code == 0 and "no model, no cost" in r.stdout
    r = CliRunner().invoke(main, ["run", str(inp), "--price", "1", "2", "--cache-dir", str(tmp_path / "c")])
    assert r.exit_code == 2 and "--price goes with --dry-run" in r.stderr


def test_examples_with_the_packaged_tiny_model_are_a_usage_error(tmp_path, examples):
    from extract.config import RunConfig
    from extract.errors import UsageError
    from extract.pipeline import Extractor

    pytest.importorskip("llama_cpp")
    with pytest.raises(UsageError, match="need the hybrid job"):
        Extractor(RunConfig(backend="local", examples=str(examples), cache_dir=tmp_path / "c"))
