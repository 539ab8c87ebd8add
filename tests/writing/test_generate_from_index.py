"""``kb quiz generate`` reads the course's passages from the search index cached under ``.kb/cache/``
when it is current — without importing chromadb (~0.5 s of the LLM path's start, bench/llm_parallel.py)
— and from the store otherwise: no index, one left from before an ingest (a file added or a source
pruned), or a Chroma server. The real CLI in a fresh interpreter (what it imports), a real store."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kb.config import Settings
from kb.errors import StoreError
from kb.search import IndexedStore
from kb.workspace import CachedWorkspace, Workspace, open_reader, open_workspace

from ..conftest import CLI_THEN_CHROMADB, ROOT, run_kb
from ..llm.conftest import stub_env
from ..llm.test_llm import good_questions
from ..openai_stub import OpenAIStub


@pytest.fixture
def course(ingested, tmp_path, monkeypatch):
    """A copy of the sample course as ``kb ingest`` left it (its search index cached), as the working folder."""
    shutil.copytree(ingested, tmp_path / "course")
    monkeypatch.chdir(tmp_path / "course")
    return tmp_path / "course"


def _generate(course: Path, out: str, *args: str, env: dict[str, str] | None = None) -> tuple[dict, bool]:
    """``kb quiz generate`` in a child process: (the quiz it wrote, less what differs from run to run;
    whether it imported chromadb)."""
    full = {k: v for k, v in os.environ.items() if not k.startswith(("KB_", "OPENAI_"))}
    full.update({"PYTHONPATH": str(ROOT), **(env or {})})
    r = subprocess.run([sys.executable, "-c", CLI_THEN_CHROMADB, "quiz", "generate", "-o", out, *args], cwd=course,
                       env=full, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    quiz = json.loads((course / out).read_text(encoding="utf-8"))
    del quiz["created_at"]
    quiz["generator"].pop("usage", None)  # the LLM run's seconds
    return quiz, r.stdout.strip().splitlines()[-1] == "True"


def _indexes(course: Path) -> list[Path]:
    return sorted((course / ".kb" / "cache").glob("index-*.pkl"))


@pytest.mark.parametrize("writer", ["offline", "llm"])
def test_a_current_index_gives_the_stores_quiz_without_importing_chromadb(course, writer):
    # offline: a topic's passages (searched in the index); the LLM: the whole course
    args = ["-n", "4", "--types", "short,cloze"] + (["--offline", "--topic", "all-reduce"] if writer == "offline"
                                                    else ["--no-cache"])
    with OpenAIStub(good_questions) as stub:
        from_index, imported = _generate(course, "quizzes/index.json", *args, env=stub_env(stub.url))
        sent = len(stub.requests)
        assert not imported
        for f in _indexes(course):
            f.unlink()  # no index: the passages come from Chroma
        from_store, imported_now = _generate(course, "quizzes/store.json", *args, env=stub_env(stub.url))
    assert imported_now  # reading the store imports it: the check above can fail
    assert from_index["questions"] and from_index == from_store  # the questions, and the store's revision and size
    assert (sent > 0) == (writer == "llm") and len(stub.requests) == 2 * sent
    # the whole course read from the store builds no index (`kb ingest` and `kb search` do; a --topic searches)
    assert bool(_indexes(course)) == (writer == "offline")


def _restore(course: Path, saved: dict[Path, bytes]) -> None:
    """Leave only the indexes in ``saved`` in the cache (an index of the content before the last ingest)."""
    for f in _indexes(course):
        f.unlink()
    for f, data in saved.items():
        f.write_bytes(data)


def test_an_index_from_before_a_file_was_ingested_is_not_used(course):
    saved = {f: f.read_bytes() for f in _indexes(course)}
    assert saved
    shutil.copy(course / "sources" / "001_96d83118e2ee854a.txt", course / "sources" / "extra.txt")
    r = run_kb(["ingest", "sources"], cwd=course)
    assert r.returncode == 0, r.stderr
    _restore(course, saved)
    settings = Settings(home=course / ".kb")
    assert IndexedStore.cached(settings.home, settings.collection, settings.cache_dir) is None
    assert isinstance(open_reader(settings), Workspace)
    quiz, imported = _generate(course, "quizzes/extra.json", "-n", "2", "--offline", "--source", "sources/extra.txt")
    assert imported and quiz["questions"]
    assert {c["source"] for q in quiz["questions"] for c in q["citations"]} == {"sources/extra.txt"}


def test_an_index_from_before_a_source_was_pruned_is_not_used(course):
    saved = {f: f.read_bytes() for f in _indexes(course)}
    gone = "sources/002_79add5e0e3bc6419.txt"
    (course / gone).unlink()
    r = run_kb(["ingest", "sources"], cwd=course)  # prunes it from the store
    assert r.returncode == 0, r.stderr
    _restore(course, saved)  # the index that still holds it
    r = run_kb(["quiz", "generate", "-n", "2", "--offline", "--source", gone, "-o", "q.json"], cwd=course)
    assert r.returncode == 2 and "not in the knowledge base" in r.stderr


def test_a_chroma_server_is_read_through_the_server_never_the_local_index(course):
    assert _indexes(course)  # current for the store on disk
    settings = Settings(home=course / ".kb", store_url="http://127.0.0.1:9")  # nothing listens there
    with pytest.raises(StoreError, match="cannot reach the Chroma server"):
        open_reader(settings)


def test_the_index_shows_sources_as_the_store_does_from_another_folder(course, monkeypatch):
    """The index was cached by `kb ingest` in another folder (the course was copied since), and this
    command runs from a subfolder: names are shown from here, as the store shows them."""
    settings = Settings(home=(course / ".kb").resolve())
    monkeypatch.chdir(course / "sources")
    reader = open_reader(settings)
    assert isinstance(reader, CachedWorkspace)
    store = open_workspace(settings).store
    chunks = list(store.all_chunks())
    assert chunks[0].source.startswith("0") and not chunks[0].source.startswith("sources/")
    assert list(reader.store.all_chunks()) == chunks
    assert reader.store.info == store.info
    assert reader.store.get([chunks[3].id, "missing", chunks[1].id]) == [chunks[3], chunks[1]]
