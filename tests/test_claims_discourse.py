"""Claims follow the discourse and parallel structures (issue 17 item 3), on sentences written
for these tests."""

from __future__ import annotations

from extract.candidates import find_candidates
from extract.candidates.claims import attach_claims
from extract.decision import decide


def claims(text):
    rec = decide(text)
    return {n["text"]: (n["dataset"], n["method"]) for n in rec["numbers"]}


def test_a_result_takes_the_one_dataset_the_abstract_evaluates_on():
    got = claims("We evaluate FooNet on ALFWorld, a household benchmark. Across 134 tasks, FooNet solves 61% "
                 "of them.")
    assert got["61%"][0] == "ALFWorld"
    assert got["134"][0] is None                # a count the text ties to no dataset


def test_no_discourse_dataset_when_the_abstract_names_two():
    got = claims("We evaluate FooNet on ALFWorld and on WebShop. Overall, FooNet solves 61% of the tasks.")
    assert got["61%"][0] is None


def test_an_introduced_dataset_and_the_system_named_with_the_value():
    got = claims("We introduce POISK, a large-scale dataset of protein pairs. Using this dataset, we benchmark "
                 "ten models. The best, Protenix-v2, achieves 87% pairwise accuracy.")
    assert got["87%"] == ("POISK", "Protenix-v2")


def test_each_compared_system_keeps_its_own_value():
    got = claims("SwiftDet achieves 52.1 AP on COCO, outperforming YOLOv8-L (50.3 AP) and RT-DETR (51.0 AP).")
    assert got["52.1"] == ("COCO", "SwiftDet")
    assert got["50.3"][1] == "YOLOv8-L" and got["51.0"][1] == "RT-DETR"


def test_a_metric_before_its_value_is_no_system():
    got = claims("We propose FooNet. On COCO, FooNet reaches an AP50 (84.9) above prior detectors.")
    assert got["84.9"][1] == "FooNet"


def test_parallel_from_to_pairs_each_range_with_its_dataset():
    got = claims("We propose FooNet. FooNet lowers perplexity on WikiText-103 from 18.3 to 16.9 and on PTB "
                 "from 22.1 to 20.4.")
    assert [got[v][0] for v in ("18.3", "16.9")] == ["WikiText-103", "WikiText-103"]
    assert [got[v][0] for v in ("22.1", "20.4")] == ["PTB", "PTB"]


def test_there_and_on_both_name_no_dataset():
    got = claims("We evaluate FooNet on ALFWorld, a household benchmark. FooNet solves 61% of the tasks there.")
    assert got["61%"][0] is None


def test_this_dataset_refers_to_the_last_dataset_named_before():
    got = claims("Prior work reports results on ImageNet. We evaluate FooNet on iNat-2021, a fine-grained "
                 "collection. On this dataset, FooNet reaches 81.3% top-1 accuracy.")
    assert got["81.3%"][0] == "iNat-2021"
    got = claims("We evaluate FooNet on the CUB-200 benchmark. The dataset contains 11,788 images of 200 species.")
    assert got["11,788"][0] == "CUB-200"            # a size of the dataset the sentence refers to


def test_this_benchmark_is_the_one_the_paper_introduces():
    got = claims("We introduce MedRead, a benchmark of 9,000 clinical questions. Unlike PubMedQA, its questions "
                 "need several notes. On this benchmark, the FooNet model reaches 71.4% F1.")
    assert got["71.4%"][0] == "MedRead"             # not the one it is contrasted with


def test_these_datasets_name_no_single_dataset():
    got = claims("We evaluate FooNet on CUB-200 and Cars-196. On these datasets, FooNet gains 2.1% accuracy.")
    assert got["2.1%"][0] is None


def test_counts_after_an_introduced_benchmark_describe_it():
    got = claims("We present TableQA-7, a benchmark for reasoning over tables. Questions are written by experts "
                 "and cover 3,100 tables in 14 domains. We evaluate 12 models; GPT-4o answers 61.2% of them.")
    assert got["3,100"][0] == "TableQA-7" and got["14"][0] == "TableQA-7"
    assert got["12"][0] is None                     # a count of the systems evaluated, not of the data
    assert got["61.2%"] == ("TableQA-7", "GPT-4o")


def test_a_count_across_domains_describes_its_dataset_and_a_pronoun_is_no_metric():
    got = claims("We introduce FinDial, a corpus of 12,400 dialogues across 9 domains. FooNet answers 61.2% of them.")
    assert got["12,400"][0] == "FinDial" and got["9"][0] == "FinDial"     # not stated jointly over datasets
    rec = decide("We introduce FinDial, a corpus of 12,400 dialogues. FooNet answers 61.2% of them.")
    assert [n["metric"] for n in rec["numbers"] if n["text"] == "61.2%"] != ["them"]


def test_a_count_before_the_datasets_it_spans_is_stated_jointly():
    got = claims("We evaluate FooNet across 6 languages, on XNLI and PAWS-X, and gain 2.1% accuracy.")
    assert got["6"][0] is None


def test_an_item_of_measures_ends_with_its_dataset():
    """Each "x M1, y M2 on D" item of a list takes its own D, not the one that closed the item
    before it; a number inside the parentheses after a dataset keeps that dataset."""
    text = ("Our method achieves 51.2% MRR, 46.8% Hits@1 on the WN18RR dataset, 37.8% MRR, 28.6% Hits@1 "
            "on FB15k-237, and 59.1% MRR, 51.8% Hits@1 on YAGO3-10. It reaches a Dice of 83.47% and an HD95 "
            "of 3.83 on FUMPE, as well as a Dice of 83.42% and an HD95 of 5.10 on CAD-PE.")
    nums = find_candidates(text).numbers
    got = {n.text: c.dataset.text for n, c in
           zip(nums, attach_claims(text, nums, [], ["WN18RR", "FB15k-237", "YAGO3-10", "FUMPE", "CAD-PE"]))}
    assert got == {"51.2%": "WN18RR", "46.8%": "WN18RR", "37.8%": "FB15k-237", "28.6%": "FB15k-237",
                   "59.1%": "YAGO3-10", "51.8%": "YAGO3-10", "83.47%": "FUMPE", "3.83": "FUMPE",
                   "83.42%": "CAD-PE", "5.10": "CAD-PE"}
    text = "We push ROUGE by 5.44% on CNN-DailyMail (47.16 ROUGE-1), 1.31% on XSum (48.12 ROUGE-1)."
    nums = find_candidates(text).numbers
    got = {n.text: c.dataset and c.dataset.text for n, c in
           zip(nums, attach_claims(text, nums, [], ["CNN-DailyMail", "XSum"]))}
    assert got["1.31%"] == "XSum" and got["48.12"] == "XSum" and got["47.16"] != "XSum"


def test_a_number_before_the_paper_speaks_is_no_result_of_its_method():
    text = ("Backpropagation consumes around 70% of the training time. We propose FooNet, which trains "
            "sparse models and reaches 91.2% accuracy.")
    nums = find_candidates(text).numbers
    got = {n.text: c.method for n, c in zip(nums, attach_claims(text, nums, ["FooNet"], []))}
    assert got["70%"] is None and got["91.2%"] is not None and got["91.2%"].text == "FooNet"
    # an abstract that never says "we" keeps its own results
    text = "Sparse training is proposed as FooNet. It reaches 91.2% accuracy."
    nums = find_candidates(text).numbers
    assert attach_claims(text, nums, ["FooNet"], [])[0].method.text == "FooNet"


def test_a_respectively_list_pairs_with_the_datasets_the_sentence_before_lists():
    """"on three datasets: A, B, and C. ... gains of 12.1, 6.5, and 2.9 points, respectively":
    the guideline's coordinated list, read across the sentence boundary when the numbers'
    own sentence names no dataset; one that names its own keeps it."""
    text = ("We compare PODNet with three models on three datasets: CIFAR100, ImageNet100, and ImageNet1000. "
            "Our results show an advantage of PODNet, with accuracy gains of 12.10, 6.51, and 2.85 points, "
            "respectively.")
    got = {n["text"]: n["dataset"] for n in decide(text)["numbers"]}
    assert got == {"12.10": "CIFAR100", "6.51": "ImageNet100", "2.85": "ImageNet1000"}
    text = ("We evaluate on CIFAR-10 and SVHN. On ImageNet, our method improves top-1 accuracy by 0.33% and "
            "0.18% for ResNet-101 and ResNet-152, respectively.")
    assert {n["dataset"] for n in decide(text)["numbers"]} == {"ImageNet"}
