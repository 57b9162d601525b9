"""The rules that give the embedded backend's ``task`` phrase (no model needed)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from extract.decision import Policy, build_plan, map_answer
from extract.candidates.task import (MAX_WORDS, MIN_WORDS, cut, final_task, plain, polish,
                                         task_candidates, task_phrases)
from extract.candidates import find_candidates
from extract.candidates.task import task_hint

ROOT = Path(__file__).resolve().parent.parent
MARKUP = re.compile(r"[\\$*`{}]|(?<!\w)_|_(?!\w)")


def rules_task(text: str) -> str:
    """What the pipeline exports as the task without a model: the rules' phrase, or the first
    of the phrases a model would be offered when the rules have no cue."""
    plan = build_plan(find_candidates(text), Policy(), text)
    offered = plan.schema["properties"].get("task", {}).get("enum", [])
    return map_answer(plan, {"task": offered[0]} if offered else {})["task"]


# -- cleaning -------------------------------------------------------------------------------

def test_plain_removes_markup_wrappers_and_parentheticals():
    assert plain(r"We evaluate on \textbf{25} popular benchmarks") == "We evaluate on 25 popular benchmarks"
    assert plain("the **grounded contrastive decoding** (GCD) method") == "the grounded contrastive decoding method"
    assert plain(r"a $\textbf{Robust Token Optimization}$ approach") == "a Robust Token Optimization approach"
    assert plain("the _factual_ gaps and \\emph{deceptive} scores") == "the factual gaps and deceptive scores"


def test_cut_stops_at_clause_boundaries_and_trailing_function_words():
    assert cut("robust retrieval under noise, which we solve by X") == "robust retrieval under noise"
    assert cut("token routing for sparse models that scales to") == "token routing for sparse models"
    assert cut("graph rewiring via curvature") == "graph rewiring"
    assert cut("learning halfspaces with $\\eta < 1/2$") == "learning halfspaces"
    assert cut("12.5, which is") is None


def test_cut_of_a_long_phrase_drops_an_unfinished_prepositional_phrase():
    out = cut("memory footprint of the key-value cache in long-context inference in large language models today")
    assert out == "memory footprint of the key-value cache in long-context inference"
    # the participle that opens the dropped phrase goes with it ("based on ...")
    out = cut("estimating human comfort levels in autonomous vehicles based on vehicular behaviors and signals")
    assert out == "estimating human comfort levels in autonomous vehicles"


def test_polish_drops_determiners_and_lowercases_only_common_first_words():
    text = "Offline reinforcement learning is hard. We use Adam. Results on Kolmogorov–Arnold Networks."
    assert polish("the convergence of Adam", text) == "convergence of Adam"
    assert polish("Offline reinforcement learning", text) == "offline reinforcement learning"
    assert polish("KANs under noise", text) == "KANs under noise"
    assert polish("Large Language Models", text) == "Large Language Models"


# -- cues -------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,task", [
    ("Retrieval is hard. We propose FooNet, a framework for aligning speech models across accents.",
     "aligning speech models across accents"),
    ("We present BarLib, an open-source library for distributed training of graph networks on clusters.",
     "distributed training of graph networks on clusters"),
    ("In this work we introduce a token-pruning scheme for vision transformers, which is fast.",
     "token-pruning for vision transformers"),
    ("Estimating rare-event probabilities from few samples is a central problem in reliability "
     "engineering. We propose X.", "estimating rare-event probabilities from few samples"),
    ("Offline imitation learning suffers from compounding errors on unseen states. We propose X.",
     "compounding errors on unseen states in offline imitation learning"),
    ("Speech recognizers struggle with code-switched utterances. We introduce Y.",
     "code-switched utterances in speech recognizers"),
    ("Molecule generators are rarely evaluated on synthesizable compounds. We release Z.",
     "evaluating molecule generators on synthesizable compounds"),
    ("We study the sample complexity of testing monotonicity under product distributions.",
     "sample complexity of testing monotonicity under product distributions"),
    ("We investigate whether sparse probes of protein language models are stable across seeds.",
     "sparse probes of protein language models"),
    ("Graph matching is classical, but its robustness to adversarial edge noise remains poorly understood.",
     "robustness to adversarial edge noise of graph matching"),
])
def test_general_cues_give_the_task(text, task):
    assert rules_task(text) == task


def test_candidates_are_ranked_and_distinct():
    text = ("Video captioners struggle with long videos. We propose Q, a memory module for "
            "summarizing long videos. We study memory capacity.")
    cands = task_candidates(text)
    assert [c.score for c in cands] == sorted((c.score for c in cands), reverse=True)
    keys = [c.raw.lower() for c in cands]
    assert len(keys) == len(set(keys))
    assert cands[0].cue.startswith(("purpose", "complaint", "study"))


def test_task_hint_keeps_its_signature_and_verbatim_cut():
    assert task_hint(None) is None                       # type: ignore[arg-type]
    assert task_hint("") is None
    hint = task_hint("We study the sample complexity of learning halfspaces, and prove a bound.")
    assert hint == "the sample complexity of learning halfspaces"


def test_phrases_offered_to_the_model_are_verbatim_and_bounded():
    text = ("Federated learners struggle with label skew. We propose FedX, a federated algorithm "
            "for personalized aggregation under label skew.")
    phrases = task_phrases(text)
    assert phrases and all(p in text and MIN_WORDS <= len(p.split()) <= MAX_WORDS for p in phrases)
    plan = build_plan(find_candidates(text), Policy(task_from_hint=False), text)
    assert plan.schema["properties"]["task"] == {"enum": phrases}
    picked = map_answer(plan, {"task": phrases[-1]})["task"]
    assert picked == polish(phrases[-1], text)


def test_no_verbatim_phrase_falls_back_to_the_rules_not_free_writing():
    text = "Despite the popularity of sparse probes (SPs) for steering, it is unclear whether they last."
    plan = build_plan(find_candidates(text), Policy(task_from_hint=False), text)
    assert "task" not in plan.schema["properties"]
    assert plan.task == "sparse probes for steering"


# -- form guarantees ---------------------------------------------------------------------------

_WORDS = st.sampled_from(["we", "propose", "study", "the", "a", "problem", "of", "learning", "for",
                          "robust", "models", "Graph", "networks", "suffer", "from", "noise", "is",
                          "central", "\\textbf{25}", "**bold**", "$x$", "(ABC)", "that", "which",
                          "FooNet,", "benchmark", "in", "remains", "challenging", "-", "—", "42%"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_WORDS, min_size=1, max_size=25), min_size=1, max_size=5))
@example([["we"], ["in", "the", "propose", "FooNet,"] + ["we"] * 20])   # a fallback that polished to 2 words
def test_final_task_is_always_a_clean_bounded_phrase(sentences):
    text = " ".join(" ".join(s).capitalize() + "." for s in sentences)
    task = final_task(task_hint(text), text)
    assert isinstance(task, str) and task
    assert "\n" not in task and not MARKUP.search(task)
    assert len(task.split()) <= MAX_WORDS
    usable = [w for w in plain(text).split() if "$" not in w and "\\" not in w]
    if len(usable) >= 25:                      # enough words: never a fragment under 3 words
        assert len(task.split()) >= MIN_WORDS or task == "unspecified"


def test_gold_tasks_are_well_formed_and_reasonably_close():
    """Regression floor on the gold sets (token F1 of content words, bench/task_phrase.py): the
    rules scored 0.25 before this module and 0.57 when it was written (the seven sets without
    dev2, which the task rules were not written on: 0.30 there).  Since a task is never a clause
    (issue 17) the opening sentence is no longer copied when no cue applies: 0.54 and 0.29."""
    sys.path.insert(0, str(ROOT / "bench"))
    from task_phrase import gold_sets, paired, problems, token_f1

    scores, bad = {}, []
    for name, abstracts, gold in gold_sets():
        for item, g in paired(abstracts, gold):
            task = rules_task(item.text)
            scores.setdefault(name == "dev2", []).append(token_f1(task, g["task"]))
            if MARKUP.search(task) or problems(task):
                bad.append(task)
    assert len(scores[False]) >= 60 and len(scores[True]) == 50
    assert sum(scores[False]) / len(scores[False]) >= 0.5
    assert sum(scores[True]) / len(scores[True]) >= 0.25
    assert not bad, bad


def test_a_clause_with_a_finite_verb_is_never_the_task():
    # issue 17 item 4: a task is a noun phrase, never "SwiftDet achieves 52.1 AP on COCO test-dev"
    from extract.candidates.task import final_task
    from extract.candidates.task_phrase import ok
    text = "SwiftDet achieves 52.1 AP on COCO test-dev at 120 FPS."
    assert not ok("SwiftDet achieves 52.1 AP on COCO test-dev")
    assert "achieves" not in final_task(None, text)
    assert ok("real-time object detection on edge devices")
    # no cue: the first noun phrase of the sentences, not the opening clause
    text = "Compositional generalization is an important form of out-of-distribution generalization."
    assert final_task(None, text) == "important form of out-of-distribution generalization"
