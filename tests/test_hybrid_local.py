"""The hybrid job in-process: ``--backend local --model PATH.gguf`` holds the model to a
llama.cpp grammar built from the same per-abstract JSON schema the remote path sends."""

import asyncio
import importlib.util
import json

import pytest

from conftest import read_jsonl

from extract import hybrid
from extract.schemas.paper import PaperExtraction

HAVE_LLAMA = importlib.util.find_spec("llama_cpp") is not None
needs_llama = pytest.mark.skipif(not HAVE_LLAMA, reason="llama-cpp-python not installed (pip install 'extract-abstracts[local]')")
ABSTRACT = ("We propose FooNet, which improves top-1 accuracy by 3.2% on BarBench over the "
            "MegaBaseline model, using 120 GPUs.")


@needs_llama
def test_the_answer_schema_becomes_a_grammar_whose_keys_are_the_ids():
    from extract.backends.grammar import grammar_from_schema

    p = hybrid.propose(ABSTRACT)
    schema = hybrid.answer_model(p, hybrid.contributions(PaperExtraction)).model_json_schema()
    gbnf = grammar_from_schema(schema)
    assert '\\"@N1\\"' in gbnf and '\\"@N2\\"' in gbnf and '\\"@N3\\"' not in gbnf
    assert '\\"@C1\\"' in gbnf and '\\"drop\\"' in gbnf


@pytest.mark.embedded
@pytest.mark.timeout(900)       # the tiny model writes free strings here; slow on a busy machine
def test_packaged_model_through_the_hybrid_grammar_path(tmp_path):
    from extract.backends.local import LocalBackend, packaged_model_path
    from extract.config import RunConfig
    from extract.inputs import expand, read_inputs
    from extract.output import RecordSink
    from extract.pipeline import Extractor

    if not HAVE_LLAMA or packaged_model_path() is None:
        pytest.skip("needs the [local] extra and its packaged GGUF")
    # (1,024: the answer of this abstract's shape, with value types and added numbers, runs past 512)
    config = RunConfig(backend="local", model=str(packaged_model_path()), reasks=0,
                       max_tokens=1024, use_cache=False, cache_dir=tmp_path / "c")
    backend = LocalBackend(config)
    ex = Extractor(config, backend=backend)
    assert ex.hybrid                          # a --model of the user's own gets the hybrid job
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "p1", "title": "FooNet", "abstract": ABSTRACT}) + "\n")
    files, _ = expand([src])
    with RecordSink(tmp_path / "out.jsonl") as sink:
        summary = asyncio.run(ex.run(read_inputs(files), sink))
    assert summary.ok == 1, summary.line()
    rec = read_jsonl(tmp_path / "out.jsonl")[0]
    ext = rec["extraction"]
    rules = {n.text: n.value for n in hybrid.propose(ABSTRACT).numbers.values()}
    listed = {n["text"]: n["value"] for n in ext["numbers"] if n["text"] in rules}   # others: added spans
    assert listed.items() <= rules.items()
    for span in ext["method_names"] + ext["datasets"] + ext["numbers"]:
        assert ABSTRACT[span["start"]:span["end"]] == span["text"]
    assert rec["provenance"]["decided_by"] == "model" and backend.llama_calls >= 1
