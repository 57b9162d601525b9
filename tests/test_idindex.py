from hypothesis import given, settings, strategies as st

from extract.idindex import IdIndex


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.text(max_size=12), st.text(max_size=6)), max_size=60),
       st.integers(0, 20))
def test_behaves_like_a_dict_before_and_after_spilling(pairs, spill_at):
    idx, ref = IdIndex(spill_at=spill_at), {}
    try:
        for key, note in pairs:
            if key not in ref:
                ref[key] = note
            if key not in idx:
                idx.add(key, note)
        assert len(idx) == len(ref) and bool(idx) == bool(ref)
        for key, note in ref.items():
            assert key in idx and idx.get(key) == note
        assert "never-added-\u2603" not in idx or "never-added-\u2603" in ref
    finally:
        idx.close()


def test_spill_removes_its_file_on_close():
    idx = IdIndex(spill_at=2)
    for i in range(5):
        idx.add(f"id{i}", f"src:{i}")
    path = idx._path
    assert path is not None and idx.get("id3") == "src:3" and len(idx) == 5
    idx.close()
    import os
    assert not os.path.exists(path)
