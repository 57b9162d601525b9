"""Dataset names of unusual shapes and the claims that name them, end to end through the rules
backend's decision.  The abstracts here are written for these tests (not copied from any gold set)."""

from __future__ import annotations

import pytest

from extract.backends.rules import decide
from extract.candidates import find_names


def _datasets(text):
    return decide(text)["datasets"]


def _claims(text):
    """{number text: (dataset, method)} as the rules backend records them."""
    return {n["text"]: (n["dataset"], n["method"]) for n in decide(text)["numbers"]}


def test_symbol_led_benchmark_is_a_dataset():
    text = ("We present ToolWeave, an agent for customer-service tools. ToolWeave raises the pass rate "
            "by 9.4% on the τ-bench airline tasks.")
    assert "τ-bench" in _datasets(text)
    assert _claims(text)["9.4%"] == ("τ-bench", "ToolWeave")


def test_infinity_and_latex_symbol_names():
    assert "∞-Bench" in _datasets("On the ∞-Bench suite, our retriever gains 4.1 points over RAG baselines.")
    assert r"$\tau$-bench" in _datasets(r"We evaluate three agents on $\tau$-bench and report a 12% gain.")


def test_symbol_led_word_without_a_name_shape_is_no_candidate():
    names = {c.text for c in find_names("The policy is ε-optimal after 200 steps; α-divergence bounds hold.")}
    assert not any(n.startswith(("ε", "α")) for n in names)


def test_adjective_between_article_and_benchmark_name():
    text = ("We propose DemoSieve, which filters robot demonstrations. Policies trained on the kept data "
            "reach a 71% success rate on the simulated Kitchenette benchmark.")
    assert "Kitchenette" in _datasets(text)
    assert _claims(text)["71%"] == ("Kitchenette", "DemoSieve")
    assert "Pinewood" in _datasets("Scores rise on the widely used Pinewood dataset and on Cora.")


def test_modifier_after_dataset_name_is_no_split():
    names = {c.text for c in find_names("We start from ImageNet pre-trained, and COCO-based weights.")}
    assert "ImageNet pre-trained" not in names
    names = {c.text for c in find_names("Accuracy on ImageNet zero-shot, on CIFAR-10 long-tailed and on "
                                        "ImageNet out-of-distribution.")}
    assert not any(" " in n for n in names)


def test_short_mention_resolves_to_the_one_listed_dataset_it_heads():
    from extract.candidates.claims import attach_claims
    text = "We index MS MARCO Passage. On MS MARCO, recall reaches 91.3%."
    start = text.index("91.3%")
    (claim,) = attach_claims(text, [{"start": start, "end": start + 5, "kind": "result"}], [], ["MS MARCO Passage"])
    assert claim.dataset.text == "MS MARCO Passage" and text[claim.dataset.start:claim.dataset.end] == "MS MARCO Passage"
    # a listed head is its own dataset; an ordinary capitalized word is no head
    (claim,) = attach_claims(text, [{"start": start, "end": start + 5, "kind": "result"}], [],
                             ["MS MARCO Passage", "MS MARCO"])
    assert claim.dataset.text == "MS MARCO"
    text2 = "We build Open Web Tables. On Open Web, recall reaches 91.3%."
    s2 = text2.index("91.3%")
    (claim,) = attach_claims(text2, [{"start": s2, "end": s2 + 5, "kind": "result"}], [], ["Open Web Tables"])
    assert claim.dataset is None


@pytest.mark.parametrize("text,kept,dropped", [
    # a size or a suffix in a dataset's name ("3.6M" images, "-Chat"): the dataset noun decides
    ("We evaluate on the Human3.6M dataset and report errors.", ["Human3.6M"], []),
    ("Ablation studies on the Persona-Chat dataset show gains.", ["Persona-Chat"], []),
    # a model family's name stays a model beside a dataset noun
    ("We fine-tune ResNet-101 and ViT-L-16 on the ImageNet dataset.", ["ImageNet"], ["ResNet-101", "ViT-L-16"]),
    # a model's shape without a dataset noun is a model ("on LLaMA3": a model it runs on)
    ("Q-LLM improved by 7.17% on LLaMA3 and on Mistral-7B.", [], ["LLaMA3", "Mistral-7B"]),
])
def test_model_shaped_dataset_names(text, kept, dropped):
    got = _datasets(text)
    assert all(k in got for k in kept) and not any(d in got for d in dropped)


def test_year_and_version_belong_to_the_dataset_name():
    text = ("Our model reaches 85.3% mIoU on the PASCAL VOC 2012 dataset and 71.2 AP on COCO 2017, beating "
            "DeepLab by 2.1 points on NYU Depth v2. The NeurIPS 2018 challenge is not a dataset.")
    got = _datasets(text)
    assert {"PASCAL VOC 2012", "COCO 2017", "NYU Depth v2"} <= set(got)
    assert not {"PASCAL VOC", "NYU Depth", "v2", "NeurIPS 2018"} & set(got)
    assert _claims(text)["85.3%"][0] == "PASCAL VOC 2012" and _claims(text)["2.1"][0] == "NYU Depth v2"


@pytest.mark.parametrize("text,kept,dropped", [
    ("We test on 3D detection datasets such as KITTI, Waymo, and nuScenes, and on nothing else.",
     {"KITTI", "Waymo", "nuScenes"}, {"Scenes"}),
    ("Experiments on large-scale datasets including ImageNet and iNaturalist 2018 show it.",
     {"ImageNet", "iNaturalist 2018"}, {"Naturalist 2018"}),
    ("We report results on datasets such as Human 3.6M and Matterport 3D for completeness.",
     {"Human 3.6M", "Matterport 3D"}, {"Human 3.6", "Matterport 3"}),
])
def test_a_dataset_name_is_whole_words(text, kept, dropped):
    """A name never starts or ends inside a word: "nuScenes", never its "Scenes"; a version
    with a unit letter is whole ("Human 3.6M")."""
    got = set(_datasets(text))
    assert kept <= got and not dropped & got, got


def test_no_name_comes_from_a_web_address():
    """A web address, with or without its scheme, holds no name: "github.com/acme/FooBench-2022.git"
    is no dataset, "DiBiMT at https" no method; the name written outside it stays."""
    text = ("We introduce DiBiMT, a benchmark for lexical translation. DiBiMT is available at "
            "https://nlp.example.org/dibimt. Data and code: github.com/acme/FooBench-2022.git and "
            "acme.github.io/Bat-Dataset.")
    rec = decide(text)
    names = rec["datasets"] + rec["method_names"]
    assert "DiBiMT" in names
    assert not [n for n in names if "/" in n or "http" in n or "github" in n.lower()], names


@pytest.mark.parametrize("text,model", [
    ("Prior work fine-tunes language models such as BERT and HateBERT. Our method improves F1 by "
     "9.1% on BERT and 8.7% on HateBERT.", "HateBERT"),
    ("Deep architectures, e.g., ResNet, PolyNet and RevNet, can be seen as solvers. We test on CIFAR10.",
     "PolyNet"),
    ("SING is 32 times faster than a state-of-the-art autoencoder based on WaveNet at inference.", "WaveNet"),
])
def test_a_listed_model_is_no_dataset(text, model):
    """A name given as an example of a model noun ("models such as X"), or a system a result is
    "based on", is no dataset, whatever "on X" says elsewhere."""
    rec = decide(text)
    assert model not in rec["datasets"], rec["datasets"]
    assert all(n["dataset"] != model for n in rec["numbers"])


def test_a_digit_led_dataset_name_is_a_name():
    """"3DPW", "3DMatch", "2WikiMultiHopQA" are names; "3D", "6DoF", "4K" are not."""
    got = set(_datasets("Errors drop by 9.2 mm on the 3DPW dataset, recall reaches 94.9% on the 3DMatch benchmark, "
                        "and F1 rises on HotpotQA and 2WikiMultiHopQA datasets, with a 3D CNN on 4K video and 6DoF poses."))
    assert {"3DPW", "3DMatch", "2WikiMultiHopQA", "HotpotQA"} <= got and not {"3D", "4K", "6DoF"} & got, got


def test_a_dataset_has_a_proper_name():
    """No capital, digit or sign and no known dataset: an adjective or a common noun in a dataset's
    context is not one ("on-par", "material"); a lowercase item among named ones is ("ogbn-arxiv")."""
    from extract.candidates import find_candidates, select_names
    for text in ("Our models on public datasets deliver on-par or superior performances.",
                 "We release our training material, annotation toolkit and dataset online.",
                 "Pixel labels make the collection of datasets labor-intensive and time-consuming."):
        assert select_names(find_candidates(text).names)[1] == [], text
    text = "We test on 11 datasets, including Cora, PubMed, and ogbn-arxiv, and on the text8 dataset."
    assert set(select_names(find_candidates(text).names)[1]) == {"Cora", "PubMed", "ogbn-arxiv", "text8"}


def test_a_device_a_speed_is_measured_on_is_no_dataset():
    from extract.candidates import find_candidates, select_names
    text = ("FooNet reaches 41.2 AP on COCO and runs at 35 fps on Jetson Xavier AGX and at 53 frames per "
            "second on the NVIDIA DRIVE Orin SoC; it also achieves 44.2 AP with 19 FPS on the MSCOCO dataset.")
    assert set(select_names(find_candidates(text).names)[1]) == {"COCO", "MSCOCO"}


def test_a_device_named_by_its_noun_is_no_dataset():
    from extract.candidates import find_candidates, select_names
    text = ("Experiments on the CyberDog robot and on ARM processors show gains; on the Ginger XR1 robot the "
            "success rate is 90%, and results on the KITTI benchmark and in the MuJoCo simulator hold.")
    assert set(select_names(find_candidates(text).names)[1]) == {"KITTI", "MuJoCo"}
