"""The title's head ("EfficientNet: Rethinking ...") names what the paper introduces: the rules
read it on every path that has a title (the rules backend, its worker pool, the hybrid proposal)."""

import asyncio
import json

import pytest

from conftest import read_jsonl

from extract.backends.rules import RulesBackend
from extract.candidates import find_candidates
from extract.candidates.name_title import title_kind
from extract.candidates.task_phrase import title_phrase
from extract.config import RunConfig
from extract.decision import decide
from extract.hybrid import propose
from extract.inputs import expand, read_inputs
from extract.output import RecordSink
from extract.pipeline import Extractor

ABSTRACT = ("Training data may hold outliers. We study how to remove them from any learner with one "
            "extra pass. Sever reaches 84.3% top-1 accuracy on ImageNet with 8.4x fewer passes than "
            "the best existing filter.")
TITLE = "Sever: A Robust Meta-Algorithm for Stochastic Optimization"


def names(text, title=None):
    return {n.text: n for n in find_candidates(text, title).names}


def test_the_title_head_is_the_papers_own_method():
    assert "Sever" not in decide(ABSTRACT)["method_names"]        # nothing in the text says it is new
    fields = decide(ABSTRACT, title=TITLE)
    assert fields["method_names"] == ["Sever"]
    assert "Sever" not in fields["datasets"]
    claim = next(n for n in fields["numbers"] if n["text"] == "84.3%")
    assert claim["method"] == "Sever" and claim["dataset"] == "ImageNet"


def test_a_head_the_text_does_not_write_or_writes_only_in_a_url_adds_nothing():
    assert names(ABSTRACT, "SwiftNet: A Robust Meta-Algorithm").keys() == names(ABSTRACT).keys()
    text = ABSTRACT.replace("Sever reaches", "It reaches") + " Code: https://github.com/x/Sever/ and more."
    assert "Sever" not in names(text, TITLE)
    text = ABSTRACT.replace("Sever", "Severs")                      # a longer word is another word
    assert "Sever" not in names(text, TITLE)
    assert "Sever" not in names(ABSTRACT, "A Robust Meta-Algorithm: Sever")   # not a head


def test_the_title_says_what_its_head_is():
    assert title_kind("TAO: A Large-Scale Benchmark for Tracking Any Object") == "benchmark"
    assert title_kind("NOMAD: A Natural, Occluded, Multi-Scale Aerial Dataset, for Emergency") == "dataset"
    assert title_kind("REVISE: A Tool for Measuring Bias in Visual Datasets") == "system"
    assert title_kind("TapNet: Neural Network Augmented with a Benchmark") is None    # after "with"
    assert title_kind(TITLE) is None and title_kind("Rethinking Model Scaling") is None and title_kind(None) is None
    text = "We present TAO, with 2,907 videos of 833 categories. Trackers fail on TAO."
    c = find_candidates(text, "TAO: A Large-Scale Benchmark for Tracking Any Object")
    assert c.contribution_hint == "benchmark"
    fields = decide(text, title="TAO: A Large-Scale Benchmark for Tracking Any Object")
    assert "TAO" in fields["datasets"] and "TAO" in fields["method_names"]     # introduced: both lists


def test_a_dataset_by_its_context_stays_a_dataset():
    text = "We report results on BSL-1K, with 1,000 hours of signing, and on two other sets."
    assert "BSL-1K" in decide(text)["datasets"]
    titled = decide(text, title="BSL-1K: Scaling up Sign Language Recognition")
    assert "BSL-1K" in titled["datasets"]
    assert "BSL-1K" in titled["method_names"]       # the title's head is the paper's own: both lists


def test_a_title_head_the_text_calls_a_benchmark_is_an_introduced_benchmark():
    text = ("Multimodal models are trained mostly in English. We provide VQX, a new multilingual evaluation "
            "benchmark for visual question answering, and find a performance drop of around 38 accuracy points.")
    fields = decide(text, title="VQX: Cross-Lingual Visual Question Answering")
    assert "VQX" in fields["datasets"] and "VQX" in fields["method_names"]
    assert fields["contribution"] == "benchmark"
    assert next(n for n in fields["numbers"] if n["text"].startswith("38"))["dataset"] == "VQX"
    untitled = decide(text)
    assert "VQX" not in untitled["method_names"] and untitled["contribution"] != "benchmark"


def test_a_generic_acronym_heading_a_title_stays_generic():
    text = "LLMs answer questions. We study how LLMs fail on long inputs and fix it."
    assert decide(text, title="LLMs: A Study of Failure")["method_names"] == []


def test_every_path_with_a_title_reads_it(tmp_path):
    rows = [{"id": f"p{i}", "title": TITLE, "abstract": ABSTRACT.replace("8.4x", f"{i + 2}.4x")} for i in range(4)]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    for workers in (1, 2):          # in this process, and in the rules' worker pool
        config = RunConfig(backend="rules", cache_dir=tmp_path / f"c{workers}", use_cache=False)
        out = tmp_path / f"out{workers}.jsonl"
        files, _ = expand([src])
        with RecordSink(out) as sink:
            asyncio.run(Extractor(config, backend=RulesBackend(config, workers=workers)).run(read_inputs(files), sink))
        recs = read_jsonl(out)
        assert len(recs) == 4
        assert all([m["text"] for m in r["extraction"]["method_names"]] == ["Sever"] for r in recs)
    p = propose(ABSTRACT, TITLE)
    assert p.rules["method_names"] == ["Sever"] and "Sever" in [c.text for c in p.names.values()]


def test_the_title_states_the_task():
    from extract.candidates.task_phrase import title_phrase

    assert title_phrase("SEGA: Variance Reduction via Gradient Sketching") == "variance reduction via gradient sketching"
    # a word the abstract writes as a name keeps its capitals; a footnote mark goes
    assert title_phrase("Robust Pose Estimation on the KITTI Benchmark*", "Results on KITTI improve.") == \
        "robust pose estimation on the KITTI benchmark"
    assert title_phrase("Trimming the Regularizer: Statistical Analysis, Optimization, and Applications") == \
        "statistical analysis, optimization, and applications"
    for clause in ("Are Labels Necessary for Neural Architecture Search?", "Less Is More", "Deep Learning: A Survey"):
        assert title_phrase(clause) is None, clause
    assert title_phrase("Knowledge Compilation Meets Logical Separability") == \
        "knowledge compilation and logical separability"
    # a title's task may open with a word a phrase of the abstract may not ("Question Answering ...")
    assert title_phrase("QAConv: Question Answering on Informative Conversations") == \
        "question answering on informative conversations"
    assert title_phrase("Finding Gray Pixels in Color Images") == "finding gray pixels in color images"
    # a hyphenated first word is whole: "end-to-end", "two-stage" are no deictic "end", "two"
    assert title_phrase("End-to-End Object Detection with Transformers") == "end-to-end object detection with transformers"
    assert title_phrase("Two-Stage Kernel Bayesian Optimization in High Dimensions") == \
        "two-stage kernel bayesian optimization in high dimensions"
    # a run of capitals keeps them where the abstract writes that run as a whole; a language always
    abstract = ("We propose a light framework - Conditional Sequential Retouching Network (CSRNet) - for global "
                "image retouching, with sparse Gaussian processes and a Recurrent Neural Network for Chinese.")
    assert title_phrase("Conditional Sequential Modulation for Efficient Global Image Retouching", abstract) == \
        "conditional sequential modulation for efficient global image retouching"
    assert title_phrase("Gaussian Processes, Recurrent Neural Network and Retouching for Chinese", abstract) == \
        "Gaussian processes, Recurrent Neural Network and retouching for Chinese"
    # a head set off by a dash or an exclamation goes as a colon's does; a tail that only says how the
    # head is studied leaves the task to the head
    assert title_phrase("ApproxASP – a Scalable Approximate Answer Set Counter") == "scalable approximate answer set counter"
    assert title_phrase("Pay Attention! - Robustifying a Deep Visuomotor Policy") == "robustifying a deep visuomotor policy"
    assert title_phrase("Explaining Deep Learning Models -- A Bayesian Non-parametric Approach") == \
        "explaining deep learning models"
    assert title_phrase("Topicalization in Language Models: A Case Study on Japanese") == "topicalization in language models"
    assert title_phrase("Structural Causal Bandits: Where to Intervene?") == "structural causal bandits"
    # a head past 60 characters is no name: the task itself, its tail left out
    assert title_phrase("Long-Endurance Optical Seafloor Imaging Using Underwater Gliders: Concept, Development "
                        "and Initial Trials") == "long-endurance optical seafloor imaging using underwater gliders"
    text = "We sketch gradients. The variance drops."
    assert decide(text, title="SEGA: Variance Reduction via Gradient Sketching")["task"] == \
        "variance reduction via gradient sketching"
    assert decide(text)["task"] != "variance reduction via gradient sketching"


def test_a_group_of_partners_reads_the_same_under_any_hash_seed():
    """A long form with two acronym partners ("Facebook-Berkeley-Nets" for FBNets and FBNet, the
    title's head): every name of the group ends with the group's strongest, whatever order a
    set of partners is met in (it was the hash seed's order: the records of one run differed
    from another's)."""
    import os
    import subprocess
    import sys

    code = ("import json, sys; from extract.decision import decide; "
            "print(json.dumps(decide(sys.argv[1], title=sys.argv[2])['method_names']))")
    text = ("We search for ConvNets by gradient. FBNets (Facebook-Berkeley-Nets), a family of models, "
            "surpass manual designs. FBNet-B reaches 74.1% accuracy on ImageNet. The smallest FBNet "
            "runs at 345 frames per second.")
    title = "FBNet: Hardware-Aware Efficient ConvNet Design"
    outs = {subprocess.run([sys.executable, "-c", code, text, title], capture_output=True, text=True, check=True,
                           env=dict(os.environ, PYTHONHASHSEED=str(seed))).stdout for seed in (1, 2, 3, 4)}
    assert len(outs) == 1, outs
    assert "FBNets" in json.loads(outs.pop())


@pytest.mark.parametrize("title,task", [
    ("Volitional EMG Control Enables Stair Climbing with a Robotic Powered Knee Prosthesis",
     "volitional EMG control for stair climbing with a robotic powered knee prosthesis"),
    ("RecycleNet: Latent Feature Recycling Leads to Iterative Decision Refinement",
     "latent feature recycling for iterative decision refinement"),
    ("Breaking the Span Assumption Yields Fast Finite-Sum Minimization",
     "breaking the span assumption for fast finite-sum minimization"),
    ("Deduplicating Training Data Makes Language Models Better", "deduplicating training data"),
    ("Exploiting CLIP for Zero-Shot HOI Detection Requires Knowledge Distillation at Multiple Levels",
     "exploiting CLIP for zero-shot HOI detection"),
    ("Learning What Makes a Difference from Counterfactual Examples and Gradient Supervision",
     "learning what makes a difference from counterfactual examples and gradient supervision"),
    ("Learning to Make Decisions under Uncertainty", "learning to make decisions under uncertainty"),
    ("Learning to Meet Deadlines in Real-Time Scheduling", "learning to meet deadlines in real-time scheduling"),
    ("Curriculum Sampling Improves Sparse Reward Exploration", "curriculum sampling for sparse reward exploration"),
    ("Quantile Dropout Improve Calibration of Ensembles", "quantile dropout for calibration of ensembles"),
    ("Improve Calibration of Ensembles with Quantile Dropout", "improve calibration of ensembles with quantile dropout"),
    ("Can Quantile Dropout Improve Calibration?", None),
])
def test_a_title_that_states_a_finding_gives_a_noun_phrase(title, task):
    """A task is never a clause with a finite verb (issue 17 item 4): "X Enables Y", "X Improves
    Y" -> "X for Y", "X Makes Y Z" -> X; "what makes" and "to make" are no finite verbs of the
    title, nor is the imperative that opens one ("Improve X with Y")."""
    assert title_phrase(title) == task


def test_a_title_opening_with_a_generic_head_gives_what_follows():
    """"A New Method of X", "A Study of X", "New Results on X": the head's deictic word made no task
    of the title; what follows the head is the task.  A head that made one stays ("A Simple Method
    of X" is a noun phrase already)."""
    assert title_phrase("A New Method of Region Growing for Cell Segmentation") == \
        "region growing for cell segmentation"
    assert title_phrase("Tessera: A Study of Gender Bias in Code Models") == "gender bias in code models"
    assert title_phrase("New Results on Sparse Subset Selection") == "sparse subset selection"
    assert title_phrase("A Simple Method of Closing Loops for Odometry") == "simple method of closing loops for odometry"


def test_a_long_title_whose_first_boundary_comes_too_early_gives_its_first_words():
    """A title past 12 words is cut at its first clause boundary, unless that leaves fewer than
    three words (a list's comma, "via" after a two-word head): then at its last preposition in the
    first 12 words."""
    assert title_phrase("Modeling, Planning, and Control of a Cable-Driven Soft Arm for Underwater "
                        "Sampling Missions") == "modeling, planning, and control of a cable-driven soft arm"
    assert title_phrase("Depth Completion via Sparse Guidance Propagation for Indoor Scenes in "
                        "Low-Light and Foggy Conditions") == "depth completion via sparse guidance propagation for indoor scenes"


def test_an_infinitive_or_a_word_that_opens_like_a_determiner_is_no_finite_verb():
    """"to Improve the X" is an infinitive; "Score Argument", "Scores and" hold no determiner."""
    assert title_phrase("Saliency Maps to Improve the Robustness of Visual Trackers") == \
        "saliency maps to improve the robustness of visual trackers"
    assert title_phrase("Face Matching Based on Similarity Score Attribution") == \
        "face matching based on similarity score attribution"
    assert title_phrase("Relating Leverage Scores and Density in Sketching") == \
        "relating leverage scores and density in sketching"
    from extract.candidates.task_phrase import ok

    assert ok("methods to improve the accuracy of parsers") and not ok("SwiftDet improves the accuracy of parsers")


def test_a_title_opening_with_a_dimension_gives_its_task():
    """"3D", "6D" open a noun phrase; only a number ("3 benchmarks ...") makes no task."""
    from extract.candidates.task_phrase import ok

    assert title_phrase("6D Object Pose Estimation from Approximate 3D Models for Orbital Robotics") == \
        "6D object pose estimation from approximate 3D models for orbital robotics"
    assert title_phrase("3D Human Pose Estimation in the Wild") == "3D human pose estimation in the wild"
    assert not ok("3 benchmarks for pose estimation") and not ok("10% of the data")


def test_a_title_opening_with_an_adverb_before_an_adjective_gives_its_task():
    """"Provably Efficient ...", "Weakly Supervised ...": a title's noun phrase; cut from an
    abstract, "widely used in practice" stays no task."""
    from extract.candidates.task_phrase import ok

    assert title_phrase("Provably Efficient Maximum Entropy Exploration") == \
        "provably efficient maximum entropy exploration"
    text = "Labels are costly. We segment images from image-level tags with boundary exploration."
    assert decide(text, title="Weakly Supervised Semantic Segmentation with Boundary Exploration")["task"] == \
        "weakly supervised semantic segmentation with boundary exploration"
    assert not ok("widely used in practice") and ok("widely used in practice", titled=True)
    # whatever the word after it: "robust", "parallel", "aware" carry no adjective's suffix
    assert title_phrase("Certifiably Robust Policy Distillation") == "certifiably robust policy distillation"
    assert title_phrase("Massively Parallel Graph Sampling on Many GPUs") == "massively parallel graph sampling on many GPUs"
    assert title_phrase("Fortunately, Graphs Are Sparse") is None


def test_a_question_the_title_then_answers_gives_the_answer_as_task():
    assert title_phrase("Can We Detect Failures Without Failure Data? Uncertainty-Aware Runtime Failure "
                        "Detection for Imitation Learning Policies") == \
        "uncertainty-aware runtime failure detection for imitation learning policies"
    assert title_phrase("Is GPT-3 Text Indistinguishable from Human Text? Scarecrow: A Framework for "
                        "Scrutinizing Machine Text") == "framework for scrutinizing machine text"
    assert title_phrase("Are Labels Necessary for Neural Architecture Search?") is None
