"""The cached search index a search falls back on when the store cannot be read (SearchIndex.newest)."""

from __future__ import annotations

import os

import numpy as np

from kb.search import SearchIndex


def _index(key: str) -> SearchIndex:
    return SearchIndex(key, "use-m3", [], np.zeros((0, 4), dtype=np.float32))


def test_newest_skips_a_file_it_cannot_read_and_takes_the_next(tmp_path):
    older = _index("old")
    older.save(tmp_path, "course")
    broken = SearchIndex.path(tmp_path, "course", "new")
    broken.write_bytes(b"half a pickle")  # another kb died writing it, or is replacing it
    os.utime(broken, (2e9, 2e9))  # the newest file
    found = SearchIndex.newest(tmp_path, "course")
    assert found is not None and found.key == "old"


def test_newest_is_none_without_a_readable_file(tmp_path):
    SearchIndex.path(tmp_path, "course", "x").parent.mkdir(parents=True, exist_ok=True)
    SearchIndex.path(tmp_path, "course", "x").write_bytes(b"")
    assert SearchIndex.newest(tmp_path, "course") is None
