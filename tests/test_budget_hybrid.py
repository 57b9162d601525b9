"""The token budget's reservation counts the request as it is sent: for the hybrid job, the
rules' numbered proposal after the abstract is part of the prompt."""

from mockbackend import MockBackend

from extract.config import RunConfig
from extract.inputs import Item
from extract.pipeline import Extractor

TEXT = ("We propose FooNet, which improves top-1 accuracy by 3.2% on BarBench and by 4.1% on "
        "BazBench over the MegaBaseline model, using 120 GPUs and 2.5M images.")


def test_hybrid_reservation_includes_the_proposal_listing(tmp_path):
    config = RunConfig(backend="mock", max_tokens=100, cache_dir=tmp_path / "c")
    backend = MockBackend(config)
    backend.hybrid = True
    ex = Extractor(config, backend=backend)
    assert ex.hybrid
    item = Item("p1", "t.jsonl:1", TEXT, title="FooNet")
    request = ex.request(item)
    listing = request.proposal.listing()
    assert listing in request.job.messages[-1]["content"]
    sent = sum(len(m["content"]) for m in request.job.messages)
    assert ex.reservation(request) == sent // 3 + 1 + 100
    template_only = (len(ex.prompt.system) + len(ex.prompt.user) + len(TEXT)) // 3 + 1 + 100
    assert ex.reservation(request) > template_only + len(listing) // 4     # the old estimate missed it
