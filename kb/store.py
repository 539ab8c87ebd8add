"""The vector-store seam: Chroma on disk (``PersistentClient`` in the workspace) or a
Chroma server by URL (``--store http://host:8000``). Embeddings are always passed in;
Chroma's default embedding function is never used (it downloads a model).

The collection's metadata records what built it (embedder id, dimension, chunking
version) and a revision counter that changes whenever chunks are written or removed;
the lexical index cache is keyed by that revision.
"""

from __future__ import annotations

import logging
import os
import threading
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator, Protocol, Sequence
from urllib.parse import urlparse

from .config import CHUNKING_VERSION, Settings
from .errors import MissingStoreError, StoreError
from .records import Chunk

if TYPE_CHECKING:
    import numpy as np

_GET_PAGE = 2000  # rows per Chroma get() when reading the whole collection


@dataclass(frozen=True)
class SourceState:
    source: str
    source_hash: str
    kind: str
    ids: tuple[str, ...]
    hashes: frozenset[str]
    expected: int

    @property
    def complete(self) -> bool:
        """All chunks present and from one version of the file (a crash mid-write is not)."""
        return len(self.hashes) == 1 and len(self.ids) == self.expected


class Store(Protocol):
    @property
    def info(self) -> dict[str, Any]: ...
    def count(self) -> int: ...
    def revision(self) -> int: ...
    def upsert(self, chunks: Sequence[Chunk], vectors: "np.ndarray", ingested_at: str) -> None: ...
    def delete(self, ids: Sequence[str]) -> None: ...
    def source_state(self, source: str) -> SourceState | None: ...
    def all_metadata(self) -> Iterator[tuple[str, dict[str, Any]]]: ...
    def all_chunks(self) -> Iterator[Chunk]: ...
    def get(self, ids: Sequence[str]) -> list[Chunk]: ...
    def query(self, vector: "np.ndarray", n: int, where: dict | None = None) -> list[tuple[str, float]]: ...
    def bump_revision(self) -> None: ...


class _Serialized:
    """A collection whose calls run one at a time. ingest writes from a thread while the main
    thread reads; a Chroma server (1.5) answers a read that overlaps a write on a new
    collection with "Error creating hnsw segment reader: Nothing found on disk"."""

    def __init__(self, collection: Any) -> None:
        self._target = collection
        self._lock = threading.RLock()

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._target, name)
        if not callable(value):
            return value

        def call(*args: Any, **kwargs: Any) -> Any:
            with self._lock:
                return value(*args, **kwargs)

        return call


class ChromaStore:
    """A Chroma collection with kb's bookkeeping. Open it with :func:`open_store`."""

    def __init__(self, client: Any, collection: Any, location: str) -> None:
        self._client = client
        self._col = _Serialized(collection)
        self.location = location

    @property
    def info(self) -> dict[str, Any]:
        meta = dict(self._col.metadata or {})
        return {
            "location": self.location,
            "collection": self._col.name,
            "embedder": meta.get("kb_embedder"),
            "dim": meta.get("kb_dim"),
            "chunking": meta.get("kb_chunking"),
            "revision": meta.get("kb_revision", 0),
            "chunks": self.count(),
        }

    def count(self) -> int:
        return int(self._col.count())

    def check_built_by(self, embedder_id: str | None, dim: int | None = None) -> None:
        """Refuse an embedder or chunker other than the one that built the collection: mixing
        vectors would silently break search. The fix is always ``kb ingest --rebuild``."""
        meta = self._col.metadata or {}
        built_by = meta.get("kb_embedder")
        if embedder_id and built_by and built_by != embedder_id:
            raise StoreError(
                f"the knowledge base at {self.location} was built with embedder '{built_by}', not '{embedder_id}'",
                f"use --embedder {built_by}, or re-embed everything with kb ingest --rebuild --embedder {embedder_id}",
            )
        if dim and meta.get("kb_dim") and int(meta["kb_dim"]) != dim:
            raise StoreError(f"the knowledge base holds {meta['kb_dim']}-d vectors, the embedder makes {dim}-d",
                             "run kb ingest --rebuild")
        if meta.get("kb_chunking") not in (None, CHUNKING_VERSION):
            raise StoreError(
                f"the knowledge base was chunked by chunker v{meta.get('kb_chunking')}, this kb uses v{CHUNKING_VERSION}",
                "run kb ingest --rebuild",
            )

    def revision(self) -> int:
        return int((self._col.metadata or {}).get("kb_revision", 0))

    def bump_revision(self) -> None:
        meta = dict(self._col.metadata or {})
        meta["kb_revision"] = int(meta.get("kb_revision", 0)) + 1
        meta.pop("hnsw:space", None)  # not modifiable after creation
        self._col.modify(metadata=meta)

    def upsert(self, chunks: Sequence[Chunk], vectors: "np.ndarray", ingested_at: str) -> None:
        for i in range(0, len(chunks), 500):
            part = chunks[i : i + 500]
            self._col.upsert(
                ids=[c.id for c in part],
                embeddings=vectors[i : i + 500],
                documents=[c.text for c in part],
                metadatas=[c.to_metadata(ingested_at) for c in part],
            )

    def delete(self, ids: Sequence[str]) -> None:
        ids = list(ids)
        for i in range(0, len(ids), 500):
            self._col.delete(ids=ids[i : i + 500])

    def source_state(self, source: str) -> SourceState | None:
        got = self._col.get(where={"source": source}, include=["metadatas"])
        if not got["ids"]:
            return None
        metas = got["metadatas"]
        return SourceState(
            source=source,
            source_hash=metas[0].get("source_hash", ""),
            kind=metas[0].get("kind", ""),
            ids=tuple(got["ids"]),
            hashes=frozenset(m.get("source_hash", "") for m in metas),
            expected=int(metas[0].get("n_in_source", -1)),
        )

    def _pages(self, include: list[str]) -> Iterator[dict[str, Any]]:
        offset = 0
        while True:
            got = self._col.get(include=include, limit=_GET_PAGE, offset=offset)
            if not got["ids"]:
                return
            yield got
            offset += len(got["ids"])

    def all_metadata(self) -> Iterator[tuple[str, dict[str, Any]]]:
        for got in self._pages(["metadatas"]):
            yield from zip(got["ids"], got["metadatas"])

    def all_chunks(self) -> Iterator[Chunk]:
        for got in self._pages(["metadatas", "documents"]):
            for id_, doc, meta in zip(got["ids"], got["documents"], got["metadatas"]):
                yield Chunk.from_store(id_, doc, meta)

    def get(self, ids: Sequence[str]) -> list[Chunk]:
        if not ids:
            return []
        got = self._col.get(ids=list(dict.fromkeys(ids)), include=["metadatas", "documents"])
        by_id = {i: Chunk.from_store(i, d, m) for i, d, m in zip(got["ids"], got["documents"], got["metadatas"])}
        return [by_id[i] for i in ids if i in by_id]

    def get_vectors(self, ids: Sequence[str]) -> dict[str, "np.ndarray"]:
        import numpy as np

        if not ids:
            return {}
        got = self._col.get(ids=list(dict.fromkeys(ids)), include=["embeddings"])
        return {i: np.asarray(v, dtype=np.float32) for i, v in zip(got["ids"], got["embeddings"])}

    def query(self, vector: "np.ndarray", n: int, where: dict | None = None) -> list[tuple[str, float]]:
        n = min(n, self.count())
        if n <= 0:
            return []
        res = self._col.query(query_embeddings=[vector], n_results=n, where=where, include=["distances"])
        # cosine distance → similarity
        return [(i, 1.0 - float(d)) for i, d in zip(res["ids"][0], res["distances"][0])]

    def sources(self) -> list[dict[str, Any]]:
        """One row per source: kind, chunks, language mix, hash and when it was ingested."""
        rows: dict[str, dict[str, Any]] = {}
        langs: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for _, m in self.all_metadata():
            src = m["source"]
            r = rows.setdefault(
                src,
                {"source": src, "kind": m.get("kind"), "chunks": 0, "source_hash": m.get("source_hash"),
                 "ingested_at": m.get("ingested_at"), "complete": True},
            )
            r["chunks"] += 1
            langs[src][m.get("lang", "?")] += 1
            if m.get("source_hash") != r["source_hash"]:
                r["complete"] = False
            r["ingested_at"] = max(r["ingested_at"] or "", m.get("ingested_at") or "")
            r["expected"] = int(m.get("n_in_source", 0))
        out = []
        for src, r in sorted(rows.items()):
            r["complete"] = r["complete"] and r["chunks"] == r.pop("expected", r["chunks"])
            mix = sorted(langs[src].items(), key=lambda kv: -kv[1])
            r["lang"] = mix[0][0]
            r["langs"] = dict(mix)
            out.append(r)
        return out


def _client(settings: Settings, create: bool) -> tuple[Any, str]:
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    logging.getLogger("chromadb").setLevel(logging.ERROR)
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    chroma_settings = ChromaSettings(anonymized_telemetry=False)
    if settings.store_url:
        u = urlparse(settings.store_url)
        if u.scheme not in ("http", "https") or not u.hostname:
            raise StoreError(f"--store {settings.store_url}: not a Chroma server URL", "use http://host:port")
        try:
            client = chromadb.HttpClient(
                host=u.hostname, port=u.port or (443 if u.scheme == "https" else 8000),
                ssl=u.scheme == "https", settings=chroma_settings,
            )
            client.heartbeat()
        except Exception as e:
            raise StoreError(
                f"cannot reach the Chroma server at {settings.store_url} ({type(e).__name__})",
                "start it (chroma run --path DIR --port PORT) or fix --store/KB_STORE_URL",
            ) from e
        return client, settings.store_url
    path = settings.home / "chroma"
    if not create and not path.is_dir():  # a read-only command must not leave an empty store behind
        raise MissingStoreError(
            f"no knowledge base at {path}",
            "run kb ingest sources/ first, or point --home/KB_HOME at the workspace that has one",
        )
    try:
        path.mkdir(parents=True, exist_ok=True)
        return chromadb.PersistentClient(path=str(path), settings=chroma_settings), str(path)
    except Exception as e:
        raise StoreError(f"cannot open the knowledge base at {path} ({type(e).__name__}: {e})",
                         "check permissions, or move it aside and run kb ingest again") from e


def open_store(settings: Settings, embedder_id: str | None = None, dim: int | None = None,
               *, create: bool = False, rebuild: bool = False) -> ChromaStore:
    """Open (or with ``create`` make, recording ``embedder_id``/``dim``) the collection, and
    refuse one built by another embedder or chunker (see :meth:`ChromaStore.check_built_by`)."""
    client, location = _client(settings, create)
    name = settings.collection
    if rebuild:
        try:
            client.delete_collection(name)
        except Exception:
            pass  # did not exist
    try:
        col = client.get_collection(name, embedding_function=None)
    except Exception:
        col = None
    if col is None:
        if not create:
            raise MissingStoreError(
                f"no knowledge base at {location} (collection '{name}')",
                "run kb ingest sources/ first, or point --home/KB_HOME at the workspace that has one",
            )
        col = client.create_collection(
            name,
            metadata={"kb_embedder": embedder_id, "kb_dim": dim, "kb_chunking": CHUNKING_VERSION, "kb_revision": 0},
            configuration={"hnsw": {"space": "cosine"}},
            embedding_function=None,
        )
    store = ChromaStore(client, col, location)
    store.check_built_by(embedder_id, dim)
    return store
