"""Ingest against a real Chroma store on disk: incremental, pruning, crash-safety, bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.config import CHUNKING_VERSION, Settings
from kb.errors import StoreError
from kb.ingest import ingest
from kb.readers import read_document
from kb.store import open_store
from kb.workspace import open_workspace

from ..conftest import seed_embedding_cache
from ..pdfgen import make_pdf


def _ws(path: Path, **kw):
    return open_workspace(Settings(home=path / ".kb"), create=True, **kw)


def _statuses(report):
    return {Path(f.source).name: f.status for f in report.files}


def test_incremental_reingest_changes_only_what_changed(workspace):
    ws = _ws(workspace)
    first = ingest([Path("sources")], ws.store, ws.embedder)
    assert set(_statuses(first).values()) == {"added"} and len(first.files) == 5
    total = ws.store.count()
    rev = ws.store.revision()

    again = ingest([Path("sources")], ws.store, ws.embedder)
    assert set(_statuses(again).values()) == {"unchanged"}
    assert again.embedded == 0 and ws.store.revision() == rev  # nothing written

    f = workspace / "sources" / "002_79add5e0e3bc6419.txt"
    f.write_text(f.read_text(encoding="utf-8").replace("MapReduce é um paradigma popular",
                                                       "MapReduce é um paradigma muito popular"), encoding="utf-8")
    old_ids = set(ws.store.source_state("sources/002_79add5e0e3bc6419.txt").ids)
    third = ingest([Path("sources")], ws.store, ws.embedder)
    st = _statuses(third)
    assert st.pop("002_79add5e0e3bc6419.txt") == "updated" and set(st.values()) == {"unchanged"}
    assert third.embedded == 1  # only the edited chunk went through the model
    new = ws.store.source_state("sources/002_79add5e0e3bc6419.txt")
    assert new.complete and len(old_ids - set(new.ids)) == 1  # the stale chunk is gone
    assert ws.store.count() == total


def test_deleted_file_is_pruned_unless_kept(ingested_workspace):
    workspace = ingested_workspace  # the sample course, ingested
    ws = _ws(workspace)
    (workspace / "sources" / "003_54b53da49ba13546.txt").unlink()
    kept = ingest([Path("sources")], ws.store, ws.embedder, prune=False)
    assert "removed" not in _statuses(kept).values()
    assert ws.store.source_state("sources/003_54b53da49ba13546.txt") is not None
    pruned = ingest([Path("sources")], ws.store, ws.embedder)
    assert _statuses(pruned)["003_54b53da49ba13546.txt"] == "removed"
    assert ws.store.source_state("sources/003_54b53da49ba13546.txt") is None
    assert {r["source"] for r in ws.store.sources()} == {f"sources/{p.name}" for p in (workspace / "sources").iterdir()}


def test_bad_files_do_not_stop_the_others_nor_touch_the_store(ingested_workspace):
    workspace = ingested_workspace  # the sample course, ingested
    ws = _ws(workspace)
    before = ws.store.count()
    bad = workspace / "bad"
    bad.mkdir()
    (bad / "corrupto.pdf").write_bytes(b"%PDF-1.4\n" + b"\x00garbage" * 100)
    (bad / "vazio.md").write_text("")
    make_pdf(bad / "bom.pdf", [["Servidor de parametros", "Os workers pedem os parametros ao servidor central."]])
    report = ingest([bad, Path("nao-existe.txt")], ws.store, ws.embedder)
    st = _statuses(report)
    assert st == {"corrupto.pdf": "failed", "vazio.md": "failed", "bom.pdf": "added", "nao-existe.txt": "failed"}
    msgs = {Path(f.source).name: f.message for f in report.failed}
    assert (msgs["corrupto.pdf"].startswith("bad/corrupto.pdf: damaged PDF")
            or "corrupto.pdf: damaged PDF" in msgs["corrupto.pdf"])
    assert msgs["nao-existe.txt"] == "nao-existe.txt: no such file or folder"
    assert ws.store.count() == before + 1
    assert all(r["complete"] for r in ws.store.sources())


def test_interrupted_ingest_leaves_store_consistent_and_rerun_finishes(workspace, course_template):
    seed_embedding_cache(workspace / ".kb", course_template / ".kb")  # the vectors are not the point here
    ws = _ws(workspace)
    calls = []

    def interrupting_reader(path, max_mb):
        calls.append(path)
        if len(calls) == 3:
            raise KeyboardInterrupt  # Ctrl-C while reading the third file
        return read_document(path, max_mb)

    report = ingest([Path("sources")], ws.store, ws.embedder, reader=interrupting_reader)
    assert report.interrupted and len([f for f in report.files if f.status == "added"]) == 2
    assert all(r["complete"] for r in ws.store.sources())
    rerun = ingest([Path("sources")], ws.store, ws.embedder)
    assert sorted(_statuses(rerun).values()) == ["added"] * 3 + ["unchanged"] * 2


def test_half_written_source_is_detected_and_redone(ingested_workspace):
    workspace = ingested_workspace  # the sample course, ingested
    ws = _ws(workspace)
    state = ws.store.source_state("sources/001_96d83118e2ee854a.txt")
    ws.store.delete(state.ids[: len(state.ids) // 2])  # as if a crash hit between writes
    assert not ws.store.source_state("sources/001_96d83118e2ee854a.txt").complete
    report = ingest([Path("sources")], ws.store, ws.embedder)
    assert _statuses(report)["001_96d83118e2ee854a.txt"] == "updated"
    assert ws.store.source_state("sources/001_96d83118e2ee854a.txt").complete


def test_store_remembers_its_embedder(workspace):
    ws = _ws(workspace)
    ingest([Path("sources/001_96d83118e2ee854a.txt")], ws.store, ws.embedder)
    info = ws.store.info
    assert (info["embedder"], info["dim"], info["chunking"]) == ("use-m3", 512, CHUNKING_VERSION)
    with pytest.raises(StoreError) as e:
        open_store(Settings(home=workspace / ".kb"), "st:all-MiniLM-L6-v2", 384)
    assert "was built with embedder 'use-m3', not 'st:all-MiniLM-L6-v2'" in e.value.message
    assert "kb ingest --rebuild" in e.value.hint


def test_missing_store_names_the_fix(tmp_path):
    with pytest.raises(StoreError) as e:
        open_workspace(Settings(home=tmp_path / "nada"))
    assert "no knowledge base at" in e.value.message and "kb ingest sources/" in e.value.hint


def test_embedding_cache_survives_a_rebuild(workspace):
    ws = _ws(workspace)
    ingest([Path("sources/002_79add5e0e3bc6419.txt")], ws.store, ws.embedder)
    ws2 = _ws(workspace, rebuild=True)
    assert ws2.store.count() == 0
    report = ingest([Path("sources/002_79add5e0e3bc6419.txt")], ws2.store, ws2.embedder)
    assert report.embedded == 0 and report.cached > 0


def test_search_finds_cited_passages_across_languages(ingested, monkeypatch):
    monkeypatch.chdir(ingested)
    ws = open_workspace(Settings(home=ingested / ".kb"))
    for mode in ("hybrid", "dense", "bm25"):
        hits = ws.retriever.search("como limitar a memória da GPU?", k=5, mode=mode)
        assert len(hits) == 5 and [h.rank for h in hits] == [1, 2, 3, 4, 5]
        assert any("memory" in h.chunk.text or "memória" in h.chunk.text or "memoria" in h.chunk.text for h in hits[:3])
    es = ws.retriever.search("How does the ring all-reduce algorithm work?", k=5, mode="dense")
    assert any("all-reduce ring" in h.chunk.text for h in es)  # English question, Spanish slides
