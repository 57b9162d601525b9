"""``extract calibrate`` and ``--policy FILE`` (issue 16 item 2): rules against the model,
field by field, on a labeled sample; the policy applied by re-mapping cached raw answers."""

import json

from conftest import read_jsonl
from fakeserver import FakeOpenAI
from perfectreader import SETS, PerfectReader, WrongReader, load_gold


def _calibrate(cli, server, tmp_path, setname="dev"):
    policy = tmp_path / "policy.json"
    r = cli("calibrate", str(SETS[setname][0]), "--gold", str(SETS[setname][1]), "-o", str(policy),
            "--base-url", server.base_url, "--model", "test-model", "--cache-dir", str(tmp_path / "cache"))
    assert r.exit_code == 0, r.stderr
    return r, json.loads(policy.read_text())


def test_calibrate_a_perfect_reader_gives_the_model_every_field_it_scores_better_on(cli, tmp_path):
    gold = load_gold("dev2")
    with FakeOpenAI(responder=PerfectReader(gold)) as server:
        r, policy = _calibrate(cli, server, tmp_path, "dev2")
        asked = server.chat_count
        assert asked == len(gold)
        r, again = _calibrate(cli, server, tmp_path, "dev2")
        assert server.chat_count == asked              # a second calibration asks nothing
    assert policy["fields"] == again["fields"]
    scores = policy["scores"]
    assert scores["model"]["datasets"] > scores["rules"]["datasets"]
    assert policy["fields"]["names"] in ("auto", "model") and policy["fields"]["contribution"] in ("auto", "model")
    assert "rules" in r.stdout and "chosen:" in r.stdout
    assert policy["measured"]["abstracts"] == len(gold)


def test_calibrate_a_wrong_reader_and_apply_its_policy_without_a_request(cli, tmp_path):
    gold = load_gold("dev")
    with FakeOpenAI(responder=WrongReader(gold)) as server:
        _, policy = _calibrate(cli, server, tmp_path, "dev")
        assert policy["fields"]["names"] in ("auto", "rules")   # never the model's swapped names
        asked = server.chat_count
        out = tmp_path / "o.jsonl"
        r = cli("run", str(SETS["dev"][0]), "--policy", str(tmp_path / "policy.json"), server=server,
                out=out, cache_dir=tmp_path / "cache")
        assert r.exit_code == 0, r.stderr
        assert server.chat_count == asked              # the calibration's answers, re-mapped
    recs = read_jsonl(out)
    assert all(x["provenance"]["cached"] for x in recs)
    assert {x["provenance"]["policy"]["file"] for x in recs} == {str(tmp_path / "policy.json")}
    model = [x for x in recs if not x["provenance"].get("checks")]
    assert all(x["provenance"]["decided"]["names"] == policy["fields"]["names"].replace("auto", "model")
               for x in model)


def test_calibrate_needs_a_model_and_a_bad_policy_file_is_one_line(cli, tmp_path):
    r = cli("calibrate", str(SETS["dev"][0]), "--gold", str(SETS["dev"][1]), "-o", str(tmp_path / "p.json"),
            "--backend", "rules")
    assert r.exit_code == 2 and "name one" in r.stderr
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"fields": {"names": "the model, please"}}))
    with FakeOpenAI() as server:
        r = cli("run", str(SETS["dev"][0]), "--policy", str(bad), server=server, out=tmp_path / "o.jsonl")
        assert server.chat_count == 0
    assert r.exit_code == 2 and r.stderr.strip().splitlines()[-1].startswith("extract: error: policy field 'names'")
