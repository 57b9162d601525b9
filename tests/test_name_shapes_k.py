"""A K suffix is a data size, not a model's (issue 17 item 4): "ImageNet-1K", "KVC16K" are
datasets by their shape and context, "Qwen-1.5B" stays a model."""

from __future__ import annotations

from extract.decision import decide
from extract.text import is_model_name


def test_k_suffix_is_no_model_size():
    assert not is_model_name("KVC16K") and not is_model_name("Foo-32K")
    assert is_model_name("Qwen-1.5B") and is_model_name("Bar-350M")


def test_k_suffixed_benchmarks_are_datasets():
    rec = decide("We pretrain FooNet on ImageNet-1K and evaluate on KVC16K, where FooNet reaches 71.2% accuracy.")
    assert {"ImageNet-1K", "KVC16K"} <= set(rec["datasets"])
    (n,) = rec["numbers"]
    assert (n["dataset"], n["method"]) == ("KVC16K", "FooNet")
