"""``--proposal``: the hybrid job shows the model the rules' reading (``reading``, the
default request, unchanged) or the spans alone (``spans``: ids, texts and contexts, no
labels, kinds, metric, dataset, method, task or contribution of the rules), through the
real OpenAI client and the fake server on 127.0.0.1."""

import json

import pytest

from conftest import read_jsonl
from test_hybrid import ABSTRACT, TITLE, answer, one  # noqa: F401  (the fixture)

from extract import hybrid
from extract.prompting import load_prompt


def _sent(server) -> list[list[dict]]:
    return [q["body"]["messages"] for q in server.requests if q["path"].endswith("/chat/completions")]


def test_the_spans_listing_shows_no_reading_of_the_rules():
    p = hybrid.propose(ABSTRACT, TITLE)
    spans = p.listing(reading=False)
    assert "@C1: FooNet" in spans.splitlines() and "@C3: BarBench" in spans.splitlines()
    assert "@N1: 3.2% | …propose FooNet, which improves top-1 accuracy by [3.2%] on BarBench" in spans
    for reading in ("->", "Rules'", "method", "dataset", "result", "setting", "change", "null"):
        assert reading not in spans.replace("FooNet", "").replace("BarBench", ""), reading
    assert p.listing() == p.listing(reading=True) and "@C1: FooNet -> method" in p.listing()


def test_the_reading_request_is_unchanged_and_the_spans_one_has_its_own_instructions():
    p = hybrid.propose(ABSTRACT, TITLE)
    reading = hybrid.render_messages(load_prompt("hybrid"), p)
    assert hybrid.render_messages(load_prompt("hybrid"), p, True) == reading
    assert reading[1]["content"].rstrip().endswith(p.listing())
    spans = hybrid.render_messages(load_prompt(hybrid.prompt_name("auto", True, "spans")), p, False)
    assert "->" not in spans[0]["content"] and "copy their reading" not in spans[0]["content"]
    assert spans[1]["content"].rstrip().endswith(p.listing(reading=False))
    assert spans[0]["content"].split("Answer with one JSON object:")[1] == \
        reading[0]["content"].split("Answer with one JSON object:")[1]      # the same fields asked


def test_proposal_spans_is_its_own_request_cache_key_and_configuration(cli, server, one, tmp_path):  # noqa: F811
    server.push({"payload": answer()}, {"payload": answer()})
    cache = tmp_path / "cache"
    r = cli("run", str(one), "--proposal", "spans", server=server, out=tmp_path / "s.jsonl", cache_dir=cache)
    assert r.exit_code == 0, r.stderr
    r = cli("run", str(one), server=server, out=tmp_path / "r.jsonl", cache_dir=cache)
    assert r.exit_code == 0, r.stderr
    assert server.chat_count == 2               # the other proposal is another request: not a cache hit
    spans, reading = _sent(server)
    assert "->" not in spans[-1]["content"] and "Rules' task" not in spans[-1]["content"]
    assert "@C1: FooNet -> method" in reading[-1]["content"]
    s, rd = read_jsonl(tmp_path / "s.jsonl")[0], read_jsonl(tmp_path / "r.jsonl")[0]
    assert s["provenance"]["config"]["prompt"].startswith("hybrid-spans@")
    assert rd["provenance"]["config"]["prompt"].startswith("hybrid@")
    assert s["provenance"]["prompt_sha"] != rd["provenance"]["prompt_sha"]
    assert s["extraction"] == rd["extraction"]      # the same answer maps to the same record
    r = cli("run", str(one), server=server, out=tmp_path / "s.jsonl", cache_dir=cache)
    assert r.exit_code == 2 and "--redo" in r.stderr     # another configuration's output
    r = cli("run", str(one), "--proposal", "spans", server=server, out=tmp_path / "s2.jsonl", cache_dir=cache)
    assert r.exit_code == 0 and server.chat_count == 2  # its own cache key: a hit


def test_with_spans_a_field_the_model_leaves_out_is_the_rules(cli, server, one, tmp_path):  # noqa: F811
    server.push({"payload": {"task": "image classification with tokenizers", "contribution": "method"}})
    r = cli("run", str(one), "--proposal", "spans", "--decide", "model", server=server, out=tmp_path / "o.jsonl")
    assert r.exit_code == 0, r.stderr
    rules = hybrid.propose(ABSTRACT, TITLE).rules
    ext = read_jsonl(tmp_path / "o.jsonl")[0]["extraction"]
    assert [(n["text"], n["kind"]) for n in ext["numbers"]] == [(n["text"], n["kind"]) for n in rules["numbers"]]
    assert [(n["metric"] or {}).get("text") for n in ext["numbers"]] == [n["metric"] for n in rules["numbers"]]


def test_proposal_is_checked_and_reaches_the_api(server):
    import extract
    from extract.config import RunConfig
    from extract.errors import UsageError

    with pytest.raises(UsageError, match=r"proposal \(--proposal\) must be one of reading, spans"):
        RunConfig(proposal="none")
    server.push({"payload": answer()})
    rec = extract.extract(ABSTRACT, title=TITLE, backend="openai", base_urls=(server.base_url,),
                          model="test-model", api_key="k", use_cache=False, proposal="spans")
    assert rec.provenance["config"]["prompt"].startswith("hybrid-spans@")
    assert "->" not in _sent(server)[-1][-1]["content"]


def test_the_spans_template_is_not_a_plain_prompt(cli, server, one, tmp_path):  # noqa: F811
    r = cli("run", str(one), "--prompt", "hybrid-spans", server=server, out=tmp_path / "o.jsonl")
    assert r.exit_code == 2 and "--proposal spans" in r.stderr
    assert server.chat_count == 0


def test_calibrate_with_spans_asks_the_spans_request_and_says_so_in_the_policy(cli, tmp_path):
    from fakeserver import FakeOpenAI
    from perfectreader import SETS, PerfectReader, load_gold

    policy = tmp_path / "policy.json"
    with FakeOpenAI(responder=PerfectReader(load_gold("dev"))) as server:
        r = cli("calibrate", str(SETS["dev"][0]), "--gold", str(SETS["dev"][1]), "-o", str(policy),
                "--proposal", "spans", "--base-url", server.base_url, "--model", "test-model",
                "--cache-dir", str(tmp_path / "cache"))
        assert r.exit_code == 0, r.stderr
        sent = _sent(server)
    assert sent and all("->" not in m[-1]["content"] and "Rules' task" not in m[-1]["content"] for m in sent)
    written = json.loads(policy.read_text())
    assert written["measured"]["proposal"] == "spans"
    assert all(written["scores"]["model"][k] >= 0.97 for k in ("methods", "datasets", "claims", "contribution"))
