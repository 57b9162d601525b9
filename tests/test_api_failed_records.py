"""A failed record of the Python API carries its input's title, meta and text, as a
successful one does: a notebook user can tell which paper failed without the input at hand."""

import pytest

import extract

TEXT = "We propose FlowNet, which improves accuracy by 12.5% on ImageNet."
LONG = "We propose LongNet. " + "It is long. " * 20


@pytest.fixture
def opts(server, tmp_path):
    return dict(backend="openai", base_urls=(server.base_url,), model="test-model",
                cache_dir=tmp_path / "cache", max_chars=100)


def test_failed_records_carry_title_meta_and_text(opts):
    items = [
        {"id": "ok", "title": "FlowNet", "abstract": TEXT, "doi": "10.1/ok"},
        {"id": "long", "title": "LongNet: long", "abstract": LONG, "doi": "10.1/long", "year": 2024},
        {"id": "empty", "title": "Nothing here", "abstract": None, "venue": "WACV"},
        {"id": "dup", "title": "FlowNet again", "abstract": TEXT, "doi": "10.1/dup"},
        {"id": "dup", "title": "A second dup", "abstract": TEXT, "doi": "10.1/dup2"},
        (LONG, "A pair's title"),
        "   ",
    ]
    recs = list(extract.extract_many(items, **opts))
    assert [r.status for r in recs] == ["ok", "error", "skipped", "ok", "error", "error", "skipped"]
    ok, long, empty, _, dup, pair, blank = recs
    assert "over --max-chars" in long.reason and long.kind == "record"
    assert (long.title, long.meta.doi, long.meta.year, long.text) == ("LongNet: long", "10.1/long",
                                                                      2024, LONG.strip())
    assert (empty.title, empty.meta.to_dict(), empty.text) == ("Nothing here", {"venue": "WACV"}, None)
    assert empty.kind == "input" and "empty abstract" in empty.reason
    assert (dup.title, dup.meta.doi, dup.reason) == ("A second dup", "10.1/dup2", "duplicate id 'dup'")
    assert (pair.title, pair.meta.to_dict()) == ("A pair's title", {})
    assert (blank.title, blank.meta.to_dict(), blank.text) == (None, {}, None)
    # the failed record has every input field a successful one has, in the same order
    shared = ["id", "source", "title", "meta", "text", "status"]
    assert list(ok.to_dict())[:6] == shared and list(long.to_dict())[:6] == shared
    assert {"reason", "attempts", "kind"} <= set(long) and long.attempts == 0
