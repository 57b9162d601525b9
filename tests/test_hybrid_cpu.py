"""The hybrid job's client CPU (issue 16 item 6): the rules' proposals are computed in the
worker pool, off the event loop, and the per-abstract response model is built once per
shape (its number and candidate ids), not once per abstract."""

import json

from conftest import SEEDS, read_jsonl

from extract import hybrid
from extract.hybrid.answer import answer_model
from extract.inputs import Item, expand, read_inputs
from extract.pipeline import Extractor
from extract.schema_loader import contributions, default_schema


def seed_texts(n):
    files, _ = expand([SEEDS])
    return [e.text for e in read_inputs(files) if isinstance(e, Item)][:n]


def test_proposals_are_computed_in_the_worker_pool_not_on_the_event_loop(cli, server, tmp_path, monkeypatch):
    texts = seed_texts(12)
    inputs = tmp_path / "in.jsonl"
    inputs.write_text("".join(json.dumps({"id": f"p{i}", "abstract": t}) + "\n" for i, t in enumerate(texts)))
    here = []
    real = hybrid.propose
    monkeypatch.setattr(hybrid, "propose", lambda *a, **k: here.append(1) or real(*a, **k))
    # the event loop computes proposals while the worker starts (Extractor._lend; its rule is
    # tests/test_rules_pool.py's): off here, so that every proposal but the first is the pool's
    monkeypatch.setattr(Extractor, "_lend_soon", lambda self: None)
    monkeypatch.setenv("EXTRACT_WORKERS", "2")
    r = cli("run", str(inputs), "--no-cache", server=server, out=tmp_path / "pool.jsonl")
    assert r.exit_code == 0, r.stderr
    pooled = read_jsonl(tmp_path / "pool.jsonl")
    assert len(pooled) == 12 and all(x["provenance"]["decided_by"] == "model" for x in pooled)
    assert len(here) <= 1          # the first abstract, before the run knew there were more

    here.clear()
    monkeypatch.setenv("EXTRACT_WORKERS", "1")          # in this process: the same records
    r = cli("run", str(inputs), "--no-cache", server=server, out=tmp_path / "one.jsonl")
    assert r.exit_code == 0, r.stderr
    assert len(here) == 12
    strip = lambda recs: [{k: v for k, v in x.items() if k not in ("provenance", "source")} for x in recs]
    assert strip(read_jsonl(tmp_path / "one.jsonl")) == strip(pooled)

    monkeypatch.undo()                  # lending on, two workers: the same records, whichever
    monkeypatch.setenv("EXTRACT_WORKERS", "2")          # of the two computes a proposal
    r = cli("run", str(inputs), "--no-cache", server=server, out=tmp_path / "lent.jsonl")
    assert r.exit_code == 0, r.stderr
    assert strip(read_jsonl(tmp_path / "lent.jsonl")) == strip(pooled)


def test_the_response_model_is_built_once_per_shape():
    kinds = contributions(default_schema())
    texts = seed_texts(40)
    props = [hybrid.propose(t) for t in texts]
    by_shape = {}
    for p in props:
        shape = (tuple(p.numbers), tuple(p.names))
        model = answer_model(p, kinds)
        assert by_shape.setdefault(shape, model) is model
        assert list(model.model_fields["numbers"].annotation.model_fields) == list(p.numbers)
        assert list(model.model_fields["names"].annotation.model_fields) == list(p.names)
    assert len(by_shape) < len(props)       # some abstracts share a shape (and so one class)


def test_shapes_with_the_same_candidates_share_their_sub_models_and_schemas_stay_the_same():
    """NumberDecision, MoreNumber and Names depend on the candidate ids alone: two shapes with
    the same candidates share them (built once), and each shape's JSON schema is the one a
    class built from scratch has."""
    from extract.hybrid import answer as A

    kinds = tuple(contributions(default_schema()))
    names = ("@C1", "@C2")
    one, two = A._answer_model(("@N1",), names, kinds), A._answer_model(("@N1", "@N2", "@N3"), names, kinds)
    sub = lambda m, f: m.model_fields[f].annotation
    assert sub(one, "names") is sub(two, "names")
    assert sub(one, "more_numbers").__args__[0] is sub(two, "more_numbers").__args__[0]   # list[MoreNumber]
    decision = lambda m: sub(sub(m, "numbers"), "@N1")
    assert decision(one) is decision(two) and sub(one, "numbers") is not sub(two, "numbers")
    for model, numbers in ((one, ("@N1",)), (two, ("@N1", "@N2", "@N3"))):
        A._name_models.cache_clear()
        A._numbers_model.cache_clear()
        fresh = A._answer_model.__wrapped__(numbers, names, kinds)
        assert fresh is not model
        assert json.dumps(fresh.model_json_schema()) == json.dumps(model.model_json_schema())



def test_a_shapes_tool_schema_is_instructors_own_made_from_its_candidate_lists(monkeypatch):
    """instructor's tool schema of an answer shape is made from its candidate list's
    one-number shape's (extract.backends.shape_schemas): byte for byte instructor's own, with
    and without instructor's base, for the seeds' shapes and a grid of counts; a derived
    schema that differs from instructor's (another pydantic) turns the derivation off."""
    from instructor.v2.providers.openai.schema import generate_openai_schema

    from extract.backends import shape_schemas as S
    from extract.backends.instructor_fixes import ANSWER_BASE
    from extract.hybrid import answer as A

    own = lambda m: json.dumps(generate_openai_schema.__wrapped__(m))
    kinds = tuple(contributions(default_schema()))
    shapes = {(tuple(p.numbers), tuple(p.names)) for p in map(hybrid.propose, seed_texts(60))}
    shapes |= {(tuple(f"@N{i}" for i in range(1, k + 1)), tuple(f"@C{i}" for i in range(1, c + 1)))
               for k in (0, 1, 2, 9) for c in (0, 1, 3, 24)}
    monkeypatch.setattr(S, "STATE", {"ok": True, "checked": False})
    made = S.deriving(generate_openai_schema.__wrapped__)
    for base in (None, ANSWER_BASE):
        for numbers, names in sorted(shapes):
            model = A._answer_model(numbers, names, kinds, base)
            assert S.shape_of(model) == (numbers, names, kinds, base)
            assert json.dumps(made(model)) == own(model), (numbers, names)
    assert S.STATE == {"ok": True, "checked": True}
    assert S.shape_of(default_schema()) is None and made(default_schema()) == generate_openai_schema(default_schema())

    def odd(m):         # another instructor: the one-number shape's schema written otherwise
        real = generate_openai_schema.__wrapped__(m)
        return {**real, "name": "Other"} if S.shape_of(m)[0] == ("@N1",) else real

    monkeypatch.setattr(S, "STATE", {"ok": True, "checked": False})
    made = S.deriving(odd)
    model = A._answer_model(("@N1", "@N2"), ("@C1",), kinds, None)
    assert made(model) == odd(model) and S.STATE["ok"] is False


def test_the_openai_backend_installs_the_derived_tool_schemas():
    """The OpenAI backend's instructor handlers use the derived schemas (installed with
    the backend: instructor_fixes.install)."""
    import instructor.v2.providers.openai.handlers as handlers

    from extract.backends import instructor_fixes

    instructor_fixes.install()
    assert getattr(handlers.generate_openai_schema, "__wrapped__", None) is not None
