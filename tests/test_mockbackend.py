"""The plugin contract tested through ``Extractor(config, backend=...)`` with a queued fake
backend: what the core sends a backend, what it does with answers, errors and fatal errors."""

from __future__ import annotations

import asyncio
import io
import json

from extract.config import RunConfig
from extract.errors import EXIT_BACKEND, EXIT_OK, EXIT_SOME_FAILED, FatalBackendError, RecordError
from extract.inputs import Item
from extract.output import RecordSink
from extract.pipeline import Extractor
from extract.schemas.paper import PaperExtraction

from mockbackend import MockBackend

A = "We propose TideNet, which improves forecast accuracy by 3.2% on CoastBench."
B = "Graph networks are slow. We introduce FastGNN, a sampler that is 4x faster."


def answer(names, datasets=(), numbers=()):
    return {"task": "forecasting tides", "contribution": "method", "method_names": list(names),
            "datasets": list(datasets), "numbers": [{"text": n, "value": 0, "kind": "result"} for n in numbers]}


def items(*texts):
    return [Item(f"t#{i}", f"t.txt:{i}", t) for i, t in enumerate(texts, 1)]


def config(tmp_path, **kw):
    return RunConfig(backend="mock", cache_dir=tmp_path / "cache", **kw)


def run(extractor, entries):
    out = io.StringIO()
    with RecordSink(None, stream=out) as sink:
        summary = asyncio.run(extractor.run(entries, sink))
    return summary, [json.loads(line) for line in out.getvalue().splitlines()], sink.errors


def test_the_core_sends_the_rendered_prompt_and_grounds_the_answer(tmp_path):
    # a model instance is passed through as is (validated without the source: an answer that
    # names a string the abstract lacks reaches the core, which drops it from the record)
    obj = PaperExtraction.model_validate(answer(["TideNet", "NotInText"], ["CoastBench"], ["3.2%"]))
    backend = MockBackend().enqueue(obj)
    ex = Extractor(config(tmp_path), backend=backend)
    record, cached, spent = asyncio.run(ex.extract(items(A)[0]))
    job = backend.jobs[0]
    assert job.text == A and job.context == {"source": A} and A in json.dumps(job.messages)
    assert not cached and spent["total_tokens"] == 15
    ext = record["extraction"]
    assert [m["text"] for m in ext["method_names"]] == ["TideNet"] and record["dropped"] == ["NotInText"]
    assert ext["numbers"][0]["value"] == 3.2            # the value comes from the text, not the model
    assert record["provenance"]["backend"] == "mock" and record["provenance"]["model"] == "mock-1"


def test_a_cached_answer_never_reaches_the_backend(tmp_path):
    backend = MockBackend().enqueue(answer(["TideNet"]))
    item = items(A)[0]
    asyncio.run(Extractor(config(tmp_path), backend=backend).extract(item))
    again = MockBackend()                                # nothing queued: a call would fail
    record, cached, _ = asyncio.run(Extractor(config(tmp_path), backend=again).extract(item))
    assert cached and again.jobs == [] and record["provenance"]["cached"] is True


def test_the_fingerprint_is_part_of_the_cache_key(tmp_path):
    item = items(A)[0]
    asyncio.run(Extractor(config(tmp_path), backend=MockBackend().enqueue(answer(["TideNet"]))).extract(item))
    other = MockBackend(model="mock-2").enqueue(answer(["TideNet"]))
    _, cached, _ = asyncio.run(Extractor(config(tmp_path), backend=other).extract(item))
    assert not cached and len(other.jobs) == 1


def test_a_record_error_fails_one_record_not_the_run(tmp_path):
    backend = MockBackend()
    backend.enqueue(RecordError("model kept inventing names", attempts=3), text=A)
    backend.enqueue(answer(["FastGNN"], numbers=["4x"]), text=B)
    summary, records, errors = run(Extractor(config(tmp_path), backend=backend), items(A, B))
    assert (summary.ok, summary.failed, summary.exit_code) == (1, 1, EXIT_SOME_FAILED)
    assert [r["id"] for r in records] == ["t#2"]
    assert errors[0]["id"] == "t#1" and "inventing" in errors[0]["reason"] and errors[0]["attempts"] == 3
    assert backend.closed


def test_a_fatal_error_stops_the_run(tmp_path):
    backend = MockBackend(max_concurrency=1)
    backend.enqueue(FatalBackendError("401: bad key"), answer(["FastGNN"]))
    summary, records, errors = run(Extractor(config(tmp_path), backend=backend), items(A, B))
    assert summary.exit_code == EXIT_BACKEND and "bad key" in summary.stopped
    assert records == [] and errors == [] and len(backend.jobs) == 1


def test_every_abstract_answered_exits_ok(tmp_path):
    backend = MockBackend().enqueue(answer(["TideNet"]), text=A).enqueue(answer(["FastGNN"]), text=B)
    summary, records, _ = run(Extractor(config(tmp_path), backend=backend), items(A, B))
    assert summary.exit_code == EXIT_OK and [r["id"] for r in records] == ["t#1", "t#2"]
    assert summary.tokens["total_tokens"] == 30
