"""Sessions 13 and 14's rules, each on a sentence of the pattern it reads (found among the real
corpus's abstracts, counted there: docs/history.md); the table rules' own examples are
checked by tests/test_candidates_rules.py, these pin the behaviour the fixes of existing rules give."""

from __future__ import annotations

import pytest

from extract.decision import decide


def _numbers(text: str, title: str | None = None) -> dict[str, dict]:
    return {n["text"]: n for n in decide(text, title=title)["numbers"]}


def test_an_introducing_verb_then_a_preposition_introduces_no_phrase():
    d = decide("We train the modules on a synthetic corpus WikiFluent which we build from English Wikipedia.")
    assert not any(m.startswith("from") for m in d["method_names"])
    assert "Wikipedia" in d["datasets"]


@pytest.mark.parametrize("name", ["3DN", "bert2BERT"])
def test_a_word_not_all_lower_case_is_capitalized_after_we_propose(name):
    d = decide(f"Given a source shape, we introduce {name}, an end-to-end network that deforms it. "
               f"Experiments show that {name} works.")
    assert name in d["method_names"]


def test_our_method_in_parentheses_is_the_papers_own():
    d = decide("Prior compression schemes diverge. We prove that our algorithm (EF-SGD) converges at the rate of SGD.")
    assert "EF-SGD" in d["method_names"]


def test_a_dataset_the_sentence_introduces_after_its_noun_goes_in_both_lists():
    d = decide("We collect a large-scale dataset (RELiC) of 78K literary quotations. Models score low on RELiC.")
    assert "RELiC" in d["datasets"] and "RELiC" in d["method_names"]


def test_a_lower_case_phrase_ending_in_a_dataset_noun_names_nothing():
    d = decide("Moreover, we build a new point-supervised dataset (P-DUTS) by relabeling the DUTS dataset.")
    assert "point-supervised dataset" not in d["datasets"] + d["method_names"]
    assert "P-DUTS" in d["datasets"]


@pytest.mark.parametrize("measure", ["mIoU", "IC Recall"])
def test_a_name_ending_in_a_measure_is_no_dataset(measure):
    d = decide(f"Our model gains 2.1 points on {measure} and 3.4 points on Cityscapes.")
    assert measure not in d["datasets"]


def test_an_acronym_whose_introduced_long_form_a_later_sentence_makes_a_subject_is_the_papers():
    d = decide("Cross-Lingual Information Retrieval (CLIR) ranks documents in another language. And we propose a "
               "model named CLIR with HIerarchical Knowledge Enhancement (HIKE) for our task. Particularly, HIKE "
               "first integrates the entities into query representations.")
    assert "HIKE" in d["method_names"]


def test_a_title_that_is_an_acronyms_long_form_names_the_method():
    text = ("RNNs have limited memory. In this paper we propose a novel RNN model that unifies the "
            "state-of-the-art approaches: Rotational Unit of Memory (RUM). The core of RUM is its rotation.")
    assert "RUM" not in decide(text)["method_names"]
    assert {"RUM", "Rotational Unit of Memory"} <= set(decide(text, title="Rotational Unit of Memory")["method_names"])


def test_a_reported_rank_is_a_result_number():
    n = _numbers("Our method ranks 1st on the SemanticKITTI leaderboard. The 3rd layer is pruned.")
    assert n["1st"]["kind"] == "result" and n["1st"]["value"] == 1.0
    assert "3rd" not in n


def test_a_count_with_a_word_multiplier_counts_its_noun():
    assert _numbers("The corpus contains 2 million sentences.")["2 million"]["metric"] == "sentences"


def test_an_acronym_right_after_a_result_is_its_measure_and_is_not_borrowed():
    n = _numbers("Applying it to ByteTrack, we obtain 63.8% HOTA, 80.6% MOTA, and 78.5% IDF1 on MOT17.")
    assert [n[k]["metric"] for k in ("63.8%", "80.6%", "78.5%")] == ["HOTA", "MOTA", "IDF1"]
    n = _numbers("It reaches 2.68 MOS for TTS, and 11.7% PER for ASR on LJSpeech.")
    assert n["2.68"]["metric"] == "MOS" and n["11.7%"]["metric"] != "MOS"
    assert _numbers("Training takes 0.2 GPU days on one card.")["0.2"]["metric"] != "GPU"


def test_the_measure_a_verb_improves_may_carry_its_acronym():
    n = _numbers("It improves the signal-to-distortion ratio (SDR) by up to 10 dB and cuts the word error rate by 55%.")
    assert n["10 dB"]["metric"] == "signal-to-distortion ratio"


def test_our_method_twice_makes_a_method_paper():
    text = ("We show that our method handles occlusions, and we study why. Our approach runs in real time "
            "and we find that it generalizes.")
    assert decide(text)["contribution"] == "method"


# -- session 14 -------------------------------------------------------------------------------

@pytest.mark.parametrize("text, name, wrong", [
    ("We call this method URN. It works well.", "URN", "method URN"),
    ("We call this stochastic optimization method KOALA.", "KOALA", "stochastic optimization method KOALA"),
])
def test_a_naming_verbs_object_noun_is_not_part_of_the_name(text, name, wrong):
    d = decide(text)
    assert name in d["method_names"] and wrong not in d["method_names"]


def test_a_bare_name_opening_a_clause_is_introduced_by_a_strong_passive_verb():
    d = decide("A dedicated two-stage deep learning approach, SfP, is proposed: given a polarization image, "
               "stage one infers the surface normal.")
    assert "SfP" in d["method_names"]
    # never a bare name opening the sentence: that is a field ("Unsupervised domain adaptation (UDA)")
    d = decide("Unsupervised domain adaptation (UDA) is proposed to adapt the network to real data.")
    assert "UDA" not in d["method_names"]


def test_a_component_introduced_in_the_passive_before_its_head_noun():
    """"a SAM-based seeding (SAMS) module is designed" (25 corpus abstracts changed, 23 right);
    never a name used before as the head noun's modifier, nor one in a phrase of the subject."""
    d = decide("We study weakly supervised segmentation. A SAM-based seeding (SAMS) module is designed and "
               "applied to each task to produce seed maps.")
    assert {"SAM-based seeding", "SAMS"} <= set(d["method_names"])
    d = decide("This paper focuses on webly supervised learning (WSL), where data are crawled. Thus, a simple "
               "yet effective WSL framework is proposed.")
    assert "WSL" not in d["method_names"]
    d = decide("In addition, a novel object-wise discriminator based on the Fast R-CNN model is proposed.")
    assert "Fast R-CNN" not in d["method_names"]


def test_a_size_variant_of_the_papers_own_name_is_its_own():
    """"AutoBERT-Zero-base" beside the introduced AutoBERT-Zero is the paper's model, not
    another's (4 corpus abstracts: PAIE-base, iTM-VAE-Prod, PAAM-HiA-T5); RoBERTa-base stays a model."""
    d = decide("The searched architecture (named AutoBERT-Zero) outperforms BERT. AutoBERT-Zero-base "
               "outperforms RoBERTa-base by 2.4 points on GLUE.")
    assert {"AutoBERT-Zero", "AutoBERT-Zero-base"} <= set(d["method_names"])
    assert "RoBERTa-base" not in d["method_names"]
    (n,) = d["numbers"]
    assert (n["method"], n["value_type"], n["compared_to"]) == ("AutoBERT-Zero-base", "change", "RoBERTa-base")


THEORY = ("We study bandits with heavy tails. We present an algorithm and show it attains minimax optimal "
          "regret, and we prove matching lower bounds; the bounds are tight up to logarithmic factors.")


def test_plural_proof_words_make_a_theory_paper_unless_it_reports_experiments():
    assert decide(THEORY)["contribution"] == "theory"
    assert decide(THEORY + " Experiments on three datasets confirm the gains.")["contribution"] == "method"
    # "empirical risk" is theory's own term, not an experiment
    assert decide(THEORY + " The analysis covers empirical risk minimization.")["contribution"] == "theory"


def test_a_question_title_is_an_analysis_papers():
    text = "This paper presents an empirical examination of whether few-shot prompt-based models exploit cues."
    assert decide(text)["contribution"] == "method"
    assert decide(text, title="Are Prompt-based Models Clueless?")["contribution"] == "analysis"



def test_a_period_with_no_space_after_it_ends_the_sentence_and_the_name():
    d = decide("We propose DATTI to enhance the decoding process of EA.Extensive experiments on public "
               "datasets show that DATTI helps. We release the code at www.Example.com today.")
    assert "EA.Extensive" not in d["datasets"] and "DATTI" in d["method_names"]
    from extract.text.sentences import sentences
    assert len(sentences("It helps.Extensive tests agree. See www.Example.com now.")) == 3


@pytest.mark.parametrize("text, value, metric", [
    ("Our method has achieved a best-case detection rate of 90.6% in the field.", "90.6%", "detection rate"),
    ("The true positive rate of MSL is over 98% in all tests.", "98%", "true positive rate"),
    ("We achieve a 16.5x model footprint compression ratio with little loss.", "16.5x", "compression ratio"),
])
def test_a_rate_or_a_ratio_is_measured_with_its_noun(text, value, metric):
    assert _numbers(text)[value]["metric"] == metric


# -- session 15 -------------------------------------------------------------------------------

@pytest.mark.parametrize("text, names", [
    ("Here, we introduce Noise2Void (N2V), a training scheme that needs no clean targets.", ["Noise2Void", "N2V"]),
    ("In this paper, we propose PatchRefineNet (PRN), a small network that refines patches.",
     ["PatchRefineNet", "PRN"]),
    # its letters need not spell the name: "Disjoint Diffusion Deepfake Detection (D4)"
    ("In this work, we propose Disjoint Diffusion Deepfake Detection (D4), a deepfake detector.",
     ["Disjoint Diffusion Deepfake Detection", "D4"]),
])
def test_a_parenthesized_short_form_after_an_introduced_name_is_its_other_form(text, names):
    assert decide(text)["method_names"] == names


@pytest.mark.parametrize("text, absent", [
    # a short form of a longer phrase than the name before it (its first letter is not the name's)
    ("We model rotations in Quaternion Vector Space (RotateQVS) and propose a new embedding.", "Quaternion Vector Space"),
    # a longer form in parentheses, a generic acronym, a citation placeholder
    ("Q-LLM using LLaMA3 (QuickLLaMA) reads a book in 30s.", "LLaMA3"),
    ("We propose CascadedTransformerNet (CITATION) for parsing.", "CITATION"),
])
def test_a_parenthesis_that_is_not_the_names_short_form_pairs_nothing(text, absent):
    d = decide(text)
    assert absent not in d["method_names"] + d["datasets"]


def test_a_plural_long_form_of_the_titles_name_is_the_papers_name_too():
    text = ("We propose the first SNN for link prediction. Our new Block Simplicial Complex Neural Networks "
            "(BScNets) model generalizes well.")
    title = "BScNets: Block Simplicial Complex Neural Networks"
    assert decide(text, title=title)["method_names"][:2] == ["Block Simplicial Complex Neural Networks", "BScNets"]
    # a plural long form the paper does not make its own names a class of things
    assert "Large language models" not in decide("Large language models (LLMs) are everywhere. We study them.")[
        "method_names"]


@pytest.mark.parametrize("text, kept", [
    # a capitalized long form of a singular acronym names one thing, whatever its last word
    ("We propose Second Order Difference Adjustments (SODA). SODA beats the rest.",
     ["Second Order Difference Adjustments", "SODA"]),
    ("Our Active Manifolds (AM) method reduces the dimension of the input. AM is fast.", ["Active Manifolds", "AM"]),
    # a lower-case one, or one of a plural acronym, names a class of things unless the paper introduces it
    ("We use graph attention networks (GAT), a known model, as the encoder.", ["GAT"]),
    ("With Part Orientation Fields (POFs), our method parses people. POFs are fast.", ["POFs"]),
])
def test_a_long_form_ending_in_s_of_a_singular_acronym_is_one_name(text, kept):
    assert [m for m in decide(text)["method_names"] if m in text] == kept


@pytest.mark.parametrize("text, value, metric", [
    # a comparative right after a change says what changes: no measure of the sentence is taken for it
    ("The training speed is about 7x faster than MWA, with half the parameters.", "7x", None),
    ("It achieves 65.7% while being around 2x smaller than networks of similar accuracy levels.", "2x", None),
    # and the measure right after the comparative is the number's
    ("Shaping the noise leads to 19.4% smaller sensitivity than the baseline.", "19.4%", "sensitivity"),
    ("Our approach achieves a 4x faster run-time with ten objects.", "4x", "run-time"),
])
def test_a_comparative_after_a_change_names_its_measure_or_none(text, value, metric):
    assert _numbers(text)[value]["metric"] == metric


@pytest.mark.parametrize("text, kind", [
    # what "we ... by proposing/introducing X" introduces is the paper's contribution
    ("Part assembly is hard. We address these issues by proposing a two-module pipeline that infers poses. "
     "We find that it works on chairs.", "method"),
    ("We support this new task by introducing the first interactive segmentation dataset with many gesture "
     "types. We then analyze numerous methods.", "dataset"),
    ("In this paper, we systematically study failure detection for segmentation and propose a unified "
     "framework of two modules. We find that it helps.", "method"),
    # never what prior work introduced ("This is achieved by introducing ...")
    ("Explanation regularisation (ER) guides classifiers. This is achieved by introducing an auxiliary "
     "explanation loss. In this work, we explore the relationship between reliance and performance. "
     "We find that the connection has been overstated.", "analysis"),
])
def test_what_we_do_by_introducing_or_and_propose_is_the_contribution(text, kind):
    assert decide(text)["contribution"] == kind


@pytest.mark.parametrize("title, text, name, kept", [
    ("Staged Contact Optimization: Combining Contact-Implicit and Multi-Phase Hybrid Trajectory Optimization",
     "This work combines them into one algorithm: Staged Contact Optimization (SCO). SCO tightens constraints.",
     "Staged Contact Optimization", True),
    # a run the text goes on with is part of a longer name
    ("Behind the Curtain: Learning Occluded Shapes for 3D Object Detection",
     "We present a detector, dubbed Behind the Curtain Detector (BtcDet), which learns shapes.", "Behind the Curtain",
     False),
    # a task's or a problem's name is no artifact
    ("Complete the Look: Scene-based Complementary Product Recommendation",
     "In this work, we propose a new task called 'Complete the Look', which recommends products.", "Complete the Look",
     False),
    ("Federated Learning: Strategies for Improving Communication Efficiency",
     "Federated Learning is a machine learning setting where clients train a model.", "Federated Learning", False),
])
def test_a_titles_head_of_several_words_is_the_papers_name(title, text, name, kept):
    assert (name in decide(text, title=title)["method_names"]) is kept


def test_a_study_told_in_the_past_tense_is_an_analysis():
    text = ("In this study, we measured the gait of healthy participants while they walked alone and with a "
            "small quadruped robot. Participants adapted their gait to the robot.")
    assert decide(text)["contribution"] == "analysis"


@pytest.mark.parametrize("title, kind", [
    ("MVTec AD -- A Comprehensive Real-World Dataset for Unsupervised Anomaly Detection", "dataset"),
    ("Thai Nested Named Entity Recognition Corpus", "dataset"),
    ("Text Is No More Enough! A Benchmark for Profile-Based Spoken Language Understanding", "benchmark"),
    ("Timor Python: A Toolbox for Industrial Modular Robotics", "system"),
    # a kind noun that modifies, follows a preposition or is plural names no collection of the paper's
    ("Benchmark Generation Framework With Customizable Distortions", "method"),
    ("Amodal Instance Segmentation With KINS Dataset", "method"),
    ("Generating Synthetic Datasets by Interpolating along Generalized Geodesics", "method"),
    # a title whose phrase is a study is an analysis; the study noun must head the phrase
    ("An Empirical Study of Memorization in NLP", "analysis"),
    ("A Comparison Between Framed-Based and Event-Based Cameras for Flapping-Wing Robot Perception", "analysis"),
    ("Evaluation Metrics of Object Detection for Safety-Critical Autonomous Systems", "method"),
])
def test_a_title_whose_phrase_is_a_collection_or_a_study_gives_the_contribution(title, kind):
    text = "We propose a new approach to the problem and show that it works well on many examples."
    assert decide(text, title=title)["contribution"] == kind


def test_a_kind_noun_inside_a_hyphenated_modifier_is_no_kind():
    text = "We propose MnasNet, an automated mobile neural architecture search approach. MnasNet is fast."
    assert decide(text, title="MnasNet: Platform-Aware Neural Architecture Search for Mobile")["contribution"] == "method"


# -- session 19 -------------------------------------------------------------------------------

@pytest.mark.parametrize("text, value, metric", [
    # any qualifier of the value, as before a value elsewhere ("by approximately", "by more than")
    ("The proposed algorithm reduces the parking time by approximately 38% compared with planners.", "38%",
     "parking time"),
    ("This technique allows us to reduce the model size by roughly 10x.", "10x", "model size"),
    # a preposition opens no measure: "a reduction in accuracy of less than 1%" measures accuracy
    ("We keep a reduction in accuracy of less than 1% compared to the dense layers.", "1%", "accuracy"),
    # nor does a quantifier: "a variety of detection systems" is what improves, not a measure
    ("Our method improves a variety of detection systems by around 2% on COCO.", "2%", None),
])
def test_the_noun_phrase_a_verb_changes_is_the_measure(text, value, metric):
    assert _numbers(text)[value]["metric"] == metric


@pytest.mark.parametrize("text", [
    "We propose 3 language-agnostic methods, one of which achieves promising results.",
    "This work proposes 19 benchmarks selected by subject experts, and expands smaller ones.",
])
def test_a_count_of_things_introduced_is_no_name(text):
    assert decide(text)["method_names"] == []


def test_no_name_opens_with_a_preposition_or_an_article_and_its_acronym_stays():
    d = decide("In this paper, we propose to meta-learn the ensemble of epoch-wise empirical Bayes models (E3BM) "
               "to achieve robust predictions.")
    assert d["method_names"] == ["E3BM"]


@pytest.mark.parametrize("text, datasets", [
    ("We also present quantitative comparisons on the ScanNet dataset.", ["ScanNet"]),
    ("Our model beats HRNet-W48 on the COCO benchmark by 2.1 AP.", ["COCO"]),
])
def test_a_name_before_on_the_x_dataset_is_not_that_dataset(text, datasets):
    assert decide(text)["datasets"] == datasets


@pytest.mark.parametrize("text, datasets", [
    # a one-word lower-case long form names a task, not a dataset ("person re-identification (re-ID)")
    ("We study person re-identification (re-ID). Results on re-ID show gains of 3% over baselines.", []),
    # a name negated is no name ("non-English tasks"), unlike a long form of a method ("non-local network")
    ("It is unclear how well mT5 fares on non-English tasks. We evaluate it on the XNLI benchmark.", ["XNLI"]),
])
def test_a_task_acronym_and_a_negated_name_are_no_datasets(text, datasets):
    assert decide(text)["datasets"] == datasets


@pytest.mark.parametrize("text, datasets", [
    # an item's gloss goes on the list, its words are no item ("(46.5% PQ)"); an alias is one ("(LFW)")
    ("Our method performs well on two datasets: Omniglot (1623 classes) and FooPets (37 breeds).",
     ["Omniglot", "FooPets"]),
    ("It sets new records in the MS-COCO (46.5% PQ) and Cityscapes (59.0% PQ) benchmarks.", ["MS-COCO", "Cityscapes"]),
    ("Results on the MegaFace Challenge and Labeled Faces in the Wild (LFW) datasets improve.",
     ["MegaFace Challenge", "Labeled Faces in the Wild", "LFW"]),
])
def test_a_list_of_datasets_reads_past_each_items_gloss(text, datasets):
    assert decide(text)["datasets"] == datasets
