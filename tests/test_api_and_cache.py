import json

import pytest
from hypothesis import given, settings, strategies as st

import extract
from extract.cache import AnswerCache, cache_key
from extract.schemas.paper import NumberMention, PaperExtraction

PINNED = {
    "__version__", "extract", "extract_many", "Record", "Fields", "load_records", "build_table",
    "triage_records", "write_report", "FieldMap", "RunConfig", "Extractor", "Summary", "RecordSink", "Item", "Problem", "expand",
    "read_inputs", "Backend", "Job", "Answer", "load_backend", "Aligner", "Span", "align",
    "ExtractError", "UsageError", "InputError", "OutputLockedError", "BackendError",
    "TransientBackendError", "FatalBackendError", "RecordError", "SchemaFailure",
    "RequestRejected", "BudgetExhausted",
}


def test_public_api_is_pinned():
    assert set(extract.__all__) == PINNED
    for name in extract.__all__:
        assert hasattr(extract, name), name


def test_error_hierarchy_and_exit_codes():
    assert issubclass(extract.SchemaFailure, extract.RecordError)
    assert issubclass(extract.TransientBackendError, extract.BackendError)
    assert extract.UsageError.exit_code == 2 and extract.FatalBackendError.exit_code == 3
    assert extract.BudgetExhausted.exit_code == 4 and extract.OutputLockedError.exit_code == 5


BASE = dict(backend="openai", fingerprint={"model": "m", "temperature": 0.0}, prompt_sha="p",
            schema_sha="s", reasks=2, text="An abstract.")


@pytest.mark.parametrize("change", [
    {"backend": "local"}, {"fingerprint": {"model": "m2", "temperature": 0.0}},
    {"fingerprint": {"model": "m", "temperature": 0.7}}, {"prompt_sha": "p2"},
    {"schema_sha": "s2"}, {"reasks": 3}, {"text": "An abstract!"},
])
def test_cache_key_covers_every_input(change):
    assert cache_key(**BASE) != cache_key(**{**BASE, **change})
    assert cache_key(**BASE) == cache_key(**dict(BASE))


def test_cache_key_refuses_secrets():
    with pytest.raises(ValueError, match="secrets"):
        cache_key(**{**BASE, "fingerprint": {"model": "m", "api_key": "sk-x"}})


def test_openai_fingerprint_has_no_key():
    from extract.backends.openai_compat import OpenAIBackend
    cfg = extract.RunConfig(backend="openai", model="m", base_urls=("http://127.0.0.1:9/v1",),
                            api_key="sk-SECRET")
    fp = OpenAIBackend(cfg).fingerprint()
    assert "sk-SECRET" not in json.dumps(fp) and "sk-SECRET" not in repr(cfg)


def test_answer_cache_roundtrip_and_clear(tmp_path):
    c = AnswerCache(tmp_path / "c")
    c.set("k", {"answer": {"a": 1}})
    assert c.get("k") == {"answer": {"a": 1}} and c.stats()["entries"] == 1
    assert c.clear() == 1 and c.get("k") is None
    assert AnswerCache(tmp_path / "off", enabled=False).get("k") is None


words = st.text(st.characters(whitelist_categories=("Lu", "Ll", "Nd")), min_size=1, max_size=8)


@settings(max_examples=60)
@given(st.lists(words, min_size=3, max_size=40), st.data())
def test_record_roundtrip_keeps_valid_offsets(tokens, data):
    nums = data.draw(st.lists(st.sampled_from(["12.5%", "85,229", "80B", r"$\sim650\times$"]),
                              max_size=3, unique=True))
    source = " ".join(tokens + nums)
    picks = data.draw(st.lists(st.sampled_from(tokens), max_size=4))
    bogus = data.draw(st.lists(st.text(min_size=1, max_size=6), max_size=2))
    obj = PaperExtraction(
        task="a task", contribution="method", method_names=picks + bogus, datasets=picks[:1],
        numbers=[NumberMention(text=n, value=0.0, kind="result") for n in nums])
    extraction, dropped = obj.export(source)
    again = json.loads(json.dumps({"extraction": extraction, "dropped": dropped}))
    assert again["extraction"] == extraction
    assert len(extraction["numbers"]) == len(nums)            # values come from the text
    assert all(n["value"] != 0.0 for n in extraction["numbers"])
    for span in extraction["method_names"] + extraction["datasets"] + extraction["numbers"]:
        assert source[span["start"]:span["end"]] == span["text"]
    # nothing silently vanishes: a name is exported exactly when it aligns, else it is dropped
    from extract.grounding import align
    for name in obj.method_names:
        assert (align(source, name, unwrap_name=True) is None) == (name in dropped)
    assert len(extraction["method_names"]) + sum(n in dropped for n in obj.method_names) \
        <= len(obj.method_names)


def test_a_models_dataset_label_stands_and_the_rules_never_list_a_model_name():
    """Issue 16: the "a model name is never a dataset" step drops what a model labels a
    dataset (ImageNet-1K, ADE20K); it belongs to the rules' own decision only."""
    source = "We fine-tune Llama3-8B and GPT-4o on ImageNet-1K and report 3.2% gains."
    obj = PaperExtraction(task="fine-tuning", contribution="analysis", method_names=[],
                          datasets=["Llama3-8B", "ImageNet-1K"], numbers=[])
    extraction, dropped = obj.export(source)
    assert [d["text"] for d in extraction["datasets"]] == ["Llama3-8B", "ImageNet-1K"] and dropped == []
    from extract.decision import decide
    assert not {"Llama3-8B", "GPT-4o"} & set(decide(source)["datasets"])