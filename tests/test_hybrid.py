"""The hybrid extractor (rules propose, the model decides) through the real OpenAI client,
instructor and the fake OpenAI-compatible server on 127.0.0.1."""

import json

import pytest

from conftest import read_jsonl

from extract import hybrid
from extract.schemas.paper import PaperExtraction

ABSTRACT = ("We propose FooNet, which improves top-1 accuracy by 3.2% on BarBench over the "
            "MegaBaseline model, using 120 GPUs. The Foo Aligned Network Tokenizer (FANT) is also released.")
TITLE = "FooNet: a title"


def answer(**over):
    base = {"task": "image classification with tokenizers", "contribution": "method",
            "names": {"@C1": "method", "@C2": "other", "@C3": "dataset"},
            "more_methods": [], "more_datasets": [],
            "numbers": {"@N1": {"kind": "result", "metric": "top-1 accuracy", "dataset": "@C3", "method": "@C1"},
                        "@N2": {"kind": "setting", "metric": "GPUs", "dataset": None, "method": None}}}
    base.update(over)
    return base


@pytest.fixture
def one(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps({"id": "p1", "title": TITLE, "abstract": ABSTRACT}) + "\n")
    return path


def run(cli, server, inputs, tmp_path, *extra):
    out = tmp_path / "out.jsonl"
    r = cli("run", str(inputs), "--prompt", "hybrid", *extra, server=server, out=out)
    return r, (read_jsonl(out) if out.exists() else [])


def test_proposal_numbers_ids_in_text_order_and_listing():
    p = hybrid.propose(ABSTRACT, TITLE)
    assert list(p.numbers) == ["@N1", "@N2"] and [n.text for n in p.numbers.values()] == ["3.2%", "120"]
    assert "FooNet" in [n.text for n in p.names.values()]
    assert "FANT" not in [n.text for n in p.names.values()]     # beyond the candidates
    listing = p.listing()       # the rules' whole reading, for the model to copy or correct
    assert "@C1: FooNet -> method" in listing and "@C3: BarBench -> dataset" in listing
    assert '@N1: 3.2% | …propose FooNet, which improves top-1 accuracy by [3.2%] on BarBench' in listing
    assert listing.splitlines()[-2].endswith('-> result; "top-1 accuracy"; @C3; @C1; change vs "MegaBaseline"')
    assert p.rules["contribution"] == "method" and "Rules' contribution: method" in listing


def test_ids_answer_maps_to_rules_values_with_claims_in_one_request(cli, server, one, tmp_path):
    server.push({"payload": answer()})
    r, recs = run(cli, server, one, tmp_path)
    assert r.exit_code == 0, r.stderr
    assert server.chat_count == 1
    ext = recs[0]["extraction"]
    assert [m["text"] for m in ext["method_names"]] == ["FooNet"]
    assert [d["text"] for d in ext["datasets"]] == ["BarBench"]
    n1, n2 = ext["numbers"]
    assert (n1["text"], n1["value"], n1["unit"], n1["kind"]) == ("3.2%", 3.2, "%", "result")
    assert n1["metric"]["text"] == "top-1 accuracy" and n1["dataset"]["text"] == "BarBench"
    assert n1["method"]["text"] == "FooNet" and n2["method"] is None and n2["kind"] == "setting"
    for span in [n1, n2, n1["metric"], *ext["method_names"]]:
        assert ABSTRACT[span["start"]:span["end"]] == span["text"]
    assert recs[0]["provenance"]["decided_by"] == "model"


def test_request_has_static_prefix_then_title_abstract_candidates_and_id_enum(cli, server, one, tmp_path):
    server.push({"payload": answer()})
    run(cli, server, one, tmp_path)
    body = server.requests[-1]["body"]
    system, user = body["messages"][0]["content"], body["messages"][1]["content"]
    assert ABSTRACT not in system and "@N1" in system          # static instructions only
    assert user.index(TITLE) < user.index(ABSTRACT) < user.index("N1: 3.2%")
    params = body["tools"][0]["function"]["parameters"]
    defs = params.get("$defs", {})
    numbers = defs["Numbers"]
    assert list(numbers["properties"]) == ["@N1", "@N2"] and numbers["additionalProperties"] is False
    assert list(defs["Names"]["properties"]) == ["@C1", "@C2", "@C3"]


def test_system_prompt_is_the_same_for_every_abstract(cli, server, tmp_path):
    path = tmp_path / "two.jsonl"
    path.write_text("\n".join(json.dumps({"id": f"p{i}", "abstract": a}) for i, a in
                              enumerate([ABSTRACT, "We study X and reach 91.5% accuracy on CIFAR-10."])) + "\n")
    server.push({"payload": answer()}, {"payload": {"task": "a study of x", "contribution": "analysis",
                                                    "names": {}, "more_methods": [], "more_datasets": [],
                                                    "numbers": {}}})
    r, recs = run(cli, server, path, tmp_path, "--concurrency", "1")
    assert r.exit_code == 0, r.stderr
    systems = {req["body"]["messages"][0]["content"] for req in server.requests}
    assert len(systems) == 1
    assert recs[1]["extraction"]["numbers"][0]["text"] == "91.5%"   # no decision: the rules' number stands


def test_an_invented_key_is_dropped_alone_without_a_reask(cli, server, one, tmp_path):
    """Issue 20 item 14: one invented id (@N99/@C99) cost two re-asks and then the whole
    names and numbers maps; now the bad entry goes and every valid label stays."""
    bad = answer(names={"@C1": "method", "@C2": "other", "@C3": "dataset", "@C99": "dataset"},
                 numbers={"@N1": {"kind": "setting", "metric": "top-1 accuracy", "dataset": None, "method": None},
                          "@N2": {"kind": "setting", "metric": "GPUs", "dataset": None, "method": None},
                          "@N99": {"kind": "result", "metric": None, "dataset": None, "method": None}})
    server.push({"payload": bad})
    r, recs = run(cli, server, one, tmp_path, "--decide", "model")
    assert r.exit_code == 0, r.stderr
    assert server.chat_count == 1 and recs[0]["provenance"]["attempts"] == 1
    ext = recs[0]["extraction"]
    assert [(n["value"], n["kind"]) for n in ext["numbers"]] == [(3.2, "setting"), (120.0, "setting")]
    assert [m["text"] for m in ext["method_names"]] == ["FooNet"]
    assert [d["text"] for d in ext["datasets"]] == ["BarBench"]


def test_unknown_candidate_id_is_reasked(cli, server, one, tmp_path):
    server.push({"payload": answer(more_datasets=["@C7"])}, {"payload": answer()})
    r, recs = run(cli, server, one, tmp_path)
    assert r.exit_code == 0 and server.chat_count == 2
    assert [d["text"] for d in recs[0]["extraction"]["datasets"]] == ["BarBench"]


def test_names_beyond_candidates_are_aligned_or_dropped_without_a_reask(cli, server, one, tmp_path):
    server.push({"payload": answer(more_methods=["**FANT**", "foo aligned network tokenizer", "GhostNet"])})
    r, recs = run(cli, server, one, tmp_path, "--decide", "model")     # the model's names count
    assert r.exit_code == 0 and server.chat_count == 1
    methods = recs[0]["extraction"]["method_names"]
    assert [m["text"] for m in methods] == ["FooNet", "FANT", "Foo Aligned Network Tokenizer"]
    assert all(ABSTRACT[m["start"]:m["end"]] == m["text"] for m in methods)
    assert "GhostNet" not in json.dumps(recs[0]["extraction"])


def test_a_drop_decision_removes_the_number_and_values_never_come_from_the_model(cli, server, one, tmp_path):
    server.push({"payload": answer(numbers={"@N1": {"kind": "result", "metric": None, "dataset": None, "method": ""},
                                            "@N2": {"kind": "drop", "metric": None, "dataset": None, "method": None}})})
    r, recs = run(cli, server, one, tmp_path, "--decide", "model")     # the model's drops count
    nums = recs[0]["extraction"]["numbers"]
    assert [(n["text"], n["value"]) for n in nums] == [("3.2%", 3.2)]
    (tmp_path / "m").mkdir()
    r, ruled = run(cli, server, one, tmp_path / "m", "--no-cache", "--decide", "rules")
    assert len(ruled[0]["extraction"]["numbers"]) == 2      # the rules drop none


def test_answer_model_rejects_extra_keys_and_labels():
    p = hybrid.propose(ABSTRACT, TITLE)
    model = hybrid.answer_model(p, hybrid.contributions(PaperExtraction))
    ctx = {"source": ABSTRACT}
    model.model_validate(answer(), context=ctx)
    for bad in (answer(names={"@C1": "introduced"}), answer(contribution="software")):
        with pytest.raises(Exception):
            model.model_validate(bad, context=ctx)
    invented = model.model_validate(answer(numbers={"@N3": {"kind": "result", "metric": None, "dataset": None,
                                                            "method": None}}), context=ctx)
    assert "@N3" not in invented.numbers.model_dump()      # dropped alone
    schema = model.model_json_schema()
    assert schema["$defs"]["Numbers"]["additionalProperties"] is False   # still closed to the endpoint


def test_contributions_are_read_from_the_schema_literal():
    assert hybrid.contributions(PaperExtraction) == ("method", "benchmark", "dataset", "analysis",
                                                     "theory", "system")


def test_title_is_part_of_the_cache_key(cli, server, tmp_path):
    for i, title in enumerate(["First title", "Second title"]):
        path = tmp_path / f"in{i}.jsonl"
        path.write_text(json.dumps({"id": "p1", "title": title, "abstract": ABSTRACT}) + "\n")
        server.push({"payload": answer()})
        out = tmp_path / f"out{i}.jsonl"
        r = cli("run", str(path), "--prompt", "hybrid", server=server, out=out,
                cache_dir=tmp_path / "shared-cache")
        assert r.exit_code == 0, r.stderr
    assert server.chat_count == 2      # a different title is a different request


def _answer_obj(p, **over):
    model = hybrid.answer_model(p, hybrid.contributions(PaperExtraction))
    return model.model_validate(answer(**over), context={"source": p.text})


def test_combine_policy_sends_each_field_to_its_source():
    p = hybrid.propose(ABSTRACT, TITLE)
    ans = _answer_obj(p, contribution="system", names={"@C1": "other", "@C2": "other", "@C3": "other"},
                      numbers={"@N1": {"kind": "setting", "metric": None, "dataset": None, "method": None}})
    by_model = hybrid.to_fields(p, ans, hybrid.Combine.everything("model"))
    assert by_model["contribution"] == "system" and by_model["method_names"] == []
    assert by_model["numbers"][0]["kind"] == "setting" and by_model["numbers"][0]["metric"] is None
    mixed = hybrid.to_fields(p, ans, hybrid.Combine(contribution="rules", kinds="rules", names="union"))
    assert mixed["contribution"] == p.candidates.contribution_hint == "method"
    assert mixed["numbers"][0]["kind"] == "result"          # the rules' hint for 3.2%
    assert mixed["method_names"] == ["FooNet"]              # the rules' name kept


def test_claims_policy_rules_model_or_fill():
    p = hybrid.propose(ABSTRACT, TITLE)
    ans = _answer_obj(p, numbers={"@N1": {"kind": "result", "metric": "accuracy", "dataset": None, "method": "MegaBaseline"},
                                  "@N2": {"kind": "setting", "metric": "GPUs", "dataset": None, "method": "@C1"}})
    n1 = lambda c: hybrid.to_fields(p, ans, hybrid.Combine(claims=c))["numbers"][0]  # noqa: E731
    assert (n1("rules")["metric"], n1("rules")["dataset"], n1("rules")["method"]) == ("top-1 accuracy", "BarBench", "FooNet")
    assert (n1("model")["metric"], n1("model")["dataset"], n1("model")["method"]) == ("accuracy", None, "MegaBaseline")
    assert n1("fill")["metric"] == "top-1 accuracy" and n1("fill")["method"] == "FooNet"   # rules first
    n2 = hybrid.to_fields(p, ans, hybrid.Combine(claims="fill"))["numbers"][1]
    assert n2["method"] == "FooNet"                        # the rules had none: the model's


def test_all_rules_policy_is_exactly_the_rules_decision_whatever_the_model_says():
    from extract.decision import decide
    from extract.inputs import Item, expand, read_inputs

    files, _ = expand(["seeds/000_810fdc4303f22573.txt"])
    items = [e for e in read_inputs(files) if isinstance(e, Item)]
    assert len(items) >= 10
    for item in items:
        p = hybrid.propose(item.text, item.title)
        model = hybrid.answer_model(p, hybrid.contributions(PaperExtraction))
        contrary = model.model_validate({   # the model disagrees with everything
            "task": "something else entirely", "contribution": "theory",
            "names": {k: "both" for k in p.names}, "more_methods": [], "more_datasets": [],
            "numbers": {k: {"kind": "drop", "metric": None, "dataset": None, "method": None} for k in p.numbers}})
        fields = hybrid.to_fields(p, contrary, hybrid.Combine.everything("rules"))
        rules = decide(item.text)
        key = lambda n: (n["text"], n["value"])  # noqa: E731
        assert all(n.pop("rules_agree") is False for n in fields["numbers"])   # it dropped each
        assert sorted(fields.pop("numbers"), key=key) == sorted(rules.pop("numbers"), key=key), item.id
        assert fields == rules, item.id


def test_free_strings_are_bounded_in_the_schema_not_by_validation():
    p = hybrid.propose(ABSTRACT, TITLE)
    model = hybrid.answer_model(p, hybrid.contributions(PaperExtraction))
    schema = model.model_json_schema()
    assert schema["properties"]["task"]["maxLength"] == 120
    assert schema["properties"]["more_methods"]["items"]["maxLength"] == 80
    metric = schema["$defs"]["NumberDecision"]["properties"]["metric"]["anyOf"]
    assert {"type": "string", "maxLength": 60} in metric     # a grammar cannot loop in it
    long_task = "a task phrase " * 20                        # an unconstrained endpoint's answer
    assert model.model_validate(answer(task=long_task), context={"source": ABSTRACT}).task == long_task


def test_decide_rules_and_model_map_one_cached_answer(cli, server, one, tmp_path):
    """Another policy re-maps the cached raw answer: it never asks the model again."""
    contrary = answer(contribution="system", names={"@C1": "other", "@C2": "other", "@C3": "dataset"})
    server.push({"payload": contrary})
    outs = {}
    for decide in ("rules", "model", "auto"):
        out = tmp_path / f"{decide}.jsonl"
        r = cli("run", str(one), "--prompt", "hybrid", "--decide", decide, server=server, out=out,
                cache_dir=tmp_path / "shared-cache")
        assert r.exit_code == 0, r.stderr
        outs[decide] = read_jsonl(out)[0]
    assert server.chat_count == 1                       # one request, three policies
    assert not outs["rules"]["provenance"]["cached"] and outs["model"]["provenance"]["cached"]
    rules, model = outs["rules"]["extraction"], outs["model"]["extraction"]
    assert rules["contribution"] == "method" and [m["text"] for m in rules["method_names"]] == ["FooNet"]
    assert model["contribution"] == "system" and model["method_names"] == []
    auto = outs["auto"]["extraction"]                     # nothing it says contradicts the text,
    assert [m["text"] for m in auto["method_names"]] == ["FooNet"]      # but "we propose FooNet" stays
    assert {k: v for k, v in auto.items() if k not in ("numbers", "method_names")} == \
        {k: v for k, v in model.items() if k not in ("numbers", "method_names")}
    assert [n["kind"] for n in auto["numbers"]] == [n["kind"] for n in model["numbers"]]
    assert outs["rules"]["provenance"]["decided"]["names"] == "rules"
    assert outs["model"]["provenance"]["decided"]["names"] == "model"
    assert outs["rules"]["provenance"]["policy"]["decide"] == "rules"


def test_decide_is_checked_on_the_config():
    from extract.config import RunConfig
    from extract.errors import UsageError

    with pytest.raises(UsageError, match="decide"):
        RunConfig(decide="rules-please")
