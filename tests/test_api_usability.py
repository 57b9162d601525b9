"""The Python API as a new user meets it (issue 19): a Record's repr says what it holds, a
RecordSet has len() and iterates, one unusable item is an error record, not a raise."""

from __future__ import annotations

from pathlib import Path

import extract

FIXTURE = Path(__file__).parent / "fixtures" / "records-sample.jsonl"
TEXT = "We propose FlowNet, a solver that improves accuracy by 12.5% on ImageNet."


def test_record_repr_shows_the_extraction(tmp_path):
    rec = extract.extract(TEXT, cache_dir=tmp_path / "c")
    shown = repr(rec)
    assert shown.startswith("Record(id='item#1', status='ok'")
    assert "task=" in shown and "contribution=" in shown
    assert "'FlowNet'" in shown and "'12.5%'" in shown and "'ImageNet'" in shown


def test_a_failed_records_repr_shows_its_reason(tmp_path):
    bad, = list(extract.extract_many([{"id": "x", "abstract": "x" * 300}], max_chars=100,
                                     cache_dir=tmp_path / "c"))
    assert "status='error'" in repr(bad) and "max-chars" in repr(bad)


def test_record_set_has_len_and_iterates():
    rs = extract.load_records(FIXTURE, warn=lambda m: None)
    assert len(rs) == len(rs.papers) > 0
    assert [p.id for p in rs] == [p.id for p in rs.papers]


def test_one_none_item_is_an_error_record_not_a_raise(tmp_path):
    recs = list(extract.extract_many([TEXT, None, 42, "We introduce BetaNet."], cache_dir=tmp_path / "c"))
    assert [r.status for r in recs] == ["ok", "error", "error", "ok"]
    assert recs[1].id == "item#2" and "got NoneType" in recs[1].reason and recs[1].kind == "input"
    assert "got int" in recs[2].reason


def test_the_api_sends_the_request_the_cli_sends(tmp_path):
    """A backend lent to the API keeps what the core reads of it (hybrid, any_schema): the
    default schema on an OpenAI-compatible endpoint gets the hybrid job, as on the CLI."""
    import sys
    sys.path.insert(0, str(Path(__file__).parent))
    from fakeserver import FakeOpenAI

    with FakeOpenAI() as server:
        rec = extract.extract(TEXT, backend="openai", base_urls=(server.base_url,), model="m",
                              cache_dir=tmp_path / "c")
        users = [m["content"] for m in server.requests[-1]["body"]["messages"] if m["role"] == "user"]
    assert rec.ok and rec.provenance.decided_by == "model"
    assert "Rules' task:" in users[0]
