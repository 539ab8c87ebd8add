"""The vector-store seam: Chroma on disk (``PersistentClient`` in the workspace) or a
Chroma server by URL (``--store http://host:8000``). Embeddings are always passed in;
Chroma's default embedding function is never used (it downloads a model).

The collection's metadata records what built it (embedder id, dimension, chunking
version) and a revision counter that changes whenever chunks are written or removed;
the lexical index cache is keyed by that revision.

A source is its resolved absolute path, whatever the working directory. A workspace on disk
names the files inside the folder that holds it (``course/.kb`` → ``course/``) relative to
that folder, so moving or copying the whole course keeps its names; everything else (and
every source of a Chroma server) is named by its absolute path. Names are shown relative to
the working directory (:func:`kb.records.display_source`). Every call to Chroma goes
through one guard that turns a dead, frozen or full backend into a :class:`StoreError`
(exit 4) naming the store and the fix; the HTTP client has a timeout (``KB_STORE_TIMEOUT``).
"""

from __future__ import annotations

import errno
import logging
import os
import threading
import time
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator, Protocol, Sequence
from urllib.parse import urlparse

from .config import CHUNKING_VERSION, Settings
from .errors import MissingStoreError, StoreError, UsageError, read_only
from .records import Chunk, display_source

if TYPE_CHECKING:
    import numpy as np

_GET_PAGE = 2000  # rows per Chroma get() when reading the whole collection; set by hand, not measured
_WRITE_BATCH = 500  # rows per Chroma upsert()/delete(); set by hand, not measured
# Ids named in one Chroma get()/delete(). chromadb puts every id of a call (and every row a get()
# matches) in one SQL statement: 32,766 of them fail with "too many SQL variables" (SQLite 3.32+;
# 999 in older builds, as a Chroma server may have), so a 40,000-chunk file could not be ingested.
# 500 is under both limits and under chromadb's max batch size (5,461 here); not a tuning.
_ID_BATCH = 500
_DEFAULT_TIMEOUT_S = "60"  # KB_STORE_TIMEOUT's default, in seconds; set by hand, not measured
_CONNECT_TIMEOUT_S = 10.0  # at most this long to connect to a Chroma server; set by hand, not measured
# A reader that finds no collection while a rebuild swaps one in polls this often, this many times
# (2 s at most: the swap is two renames); set by hand, not measured
_SWAP_POLL_S = 0.1
_SWAP_POLLS = 20
ASIDE = "__rebuild"  # suffix of the collection a rebuild fills before it replaces the old one
OLD = "__old"  # suffix of the old collection while the swap is in progress


def backend_failure(e: BaseException, location: str) -> StoreError | None:
    """The StoreError a Chroma failure stands for: server gone, frozen, disk full, corrupt.
    None for errors that are not the backend's (they are bugs and keep their traceback)."""
    text = f"{type(e).__name__}: {e}"
    mod = type(e).__module__ or ""
    full = (isinstance(e, OSError) and e.errno == errno.ENOSPC) or "disk is full" in str(e) \
        or "No space left" in str(e)
    if full:
        return StoreError("the disk holding the knowledge base at {location} is full ({text})",
                          "free some space, then run the same kb command again: what was written is kept",
                          location=location, text=text)
    refused = read_only(e, location)
    if refused is not None:  # a read-only mount or files the user may not write: not damaged
        return refused
    if "Timeout" in type(e).__name__:
        return StoreError("the Chroma server at {location} did not answer in time ({text})",
                          "check that the server is running and not stuck, or raise KB_STORE_TIMEOUT (seconds)",
                          location=location, text=text)
    if mod.startswith(("httpx", "httpcore")) or isinstance(e, (ConnectionError, TimeoutError)):
        return StoreError("lost the connection to the Chroma server at {location} ({text})",
                          "restart the server (chroma run --path DIR --port PORT) and run the same command again: "
                          "what was written is kept and ingest resumes where it stopped",
                          location=location, text=text)
    if "Error finding id" in str(e):  # chromadb: a row in SQLite whose vector is not in the index
        return VectorIndexError("the knowledge base at {location} lists chunks its vector index does not hold "
                                "(chromadb: {error}): either a kb ingest is writing right now, or the index files "
                                "were deleted or damaged",
                                "if no kb ingest is running, rebuild the index from the course files: kb ingest "
                                "--rebuild <course folder> (vectors already computed are reused from the cache)",
                                location=location, error=e)
    if "Nothing found on disk" in str(e):  # chromadb: a collection whose index is not flushed yet
        return StoreError("the knowledge base at {location} is being written for the first time (by a kb ingest "
                          "still running?) and cannot be searched yet",
                          "wait for the ingest to finish, then run the command again",
                          location=location)
    if mod.startswith("chromadb") or type(e).__name__ in ("OperationalError", "DatabaseError", "InternalError"):
        return StoreError("the knowledge base at {location} failed: {text}",
                          "run the command again; if it keeps failing, move the store aside and run kb ingest again",
                          location=location, text=text)
    return None


class VectorIndexError(StoreError):
    """Chroma's SQLite lists chunks whose vectors its index (the HNSW segment files) does not hold:
    a write in progress, or segment files deleted or damaged. ``kb ingest --rebuild`` repairs it."""


@dataclass(frozen=True)
class SourceState:
    """What the store holds of one source: its stored name, file hash, kind, chunk ids, the distinct
    source hashes among them and the chunk count the reader announced."""
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
    """The vector-store seam ingest, search and the other services need; :class:`ChromaStore` is the one
    implementation, on disk or on a Chroma server."""

    @property
    def info(self) -> dict[str, Any]:
        """Location, collection, embedder id, dimension, chunker version, revision and chunk count."""

    def count(self) -> int:
        """How many chunks the collection holds."""

    def revision(self) -> int:
        """A counter that changes whenever chunks are written or removed (0 for a new collection)."""

    def upsert(self, chunks: Sequence[Chunk], vectors: np.ndarray, ingested_at: str) -> None:
        """Write ``chunks`` with their ``vectors`` (one row each), stamped ``ingested_at``; same id replaces."""

    def delete(self, ids: Sequence[str]) -> None:
        """Remove the chunks with these ids (unknown ids are ignored)."""

    def source_state(self, source: str) -> SourceState | None:
        """What the store holds of ``source``, or None when it holds nothing of it."""

    def all_metadata(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """(id, metadata) of every chunk, read page by page."""

    def all_chunks(self) -> Iterator[Chunk]:
        """Every chunk, its source shown relative to the working directory."""

    def get(self, ids: Sequence[str]) -> list[Chunk]:
        """The chunks with these ids, in the order asked; ids not stored are left out."""

    def query(self, vector: np.ndarray, n: int, where: dict | None = None) -> list[tuple[str, float]]:
        """The ``n`` nearest chunks to ``vector`` as (id, cosine similarity), best first; ``where`` filters metadata."""

    def bump_revision(self) -> None:
        """Advance the revision so caches keyed by it (the lexical index) are rebuilt."""


class _Serialized:
    """A collection whose calls run one at a time. ingest writes from a thread while the main
    thread reads; a Chroma server (1.5) answers a read that overlaps a write on a new
    collection with "Error creating hnsw segment reader: Nothing found on disk"."""

    def __init__(self, collection: Any, location: str = "") -> None:
        self._target = collection
        self._lock = threading.RLock()
        self._location = location

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._target, name)
        if not callable(value):
            return value

        def call(*args: Any, **kwargs: Any) -> Any:
            """Call the collection's method under the lock; a backend failure becomes a StoreError."""
            with self._lock:
                try:
                    return value(*args, **kwargs)
                except StoreError:
                    raise
                except Exception as e:
                    err = backend_failure(e, self._location)
                    if err is None:
                        raise
                    raise err from e

        return call


class ChromaStore:
    """A Chroma collection with kb's bookkeeping. Open it with :func:`open_store`."""

    def __init__(self, client: Any, collection: Any, location: str) -> None:
        self._client = client
        self._col = _Serialized(collection, location)
        self.location = location
        self.target_name: str | None = None  # set on a rebuild's aside collection: the name it replaces
        self.root: str | None = None  # the folder relative names are relative to (local workspaces)
        self._max_batch: int | None = None  # the backend's own limit on rows per write, once asked
        self.notes: list[str] = []  # what opening it cleaned up, for the command's report

    def key_for(self, path: os.PathLike[str] | str) -> str:
        """The name a file is stored under: resolved, relative to :attr:`root` when inside it."""
        from pathlib import Path

        full = Path(path).resolve().as_posix()
        if self.root and full.startswith(self.root.rstrip("/") + "/"):
            return full[len(self.root.rstrip("/")) + 1 :]
        return full

    def absolute(self, name: str) -> str:
        """The absolute path a stored name stands for."""
        if name.startswith("/") or not self.root:
            return name
        return os.path.normpath(os.path.join(self.root, name))

    def display(self, name: str, cwd: str | None = None) -> str:
        """A stored name as shown to people: relative to ``cwd`` (default: the working directory) when inside it."""
        return display_source(name, cwd, self.root)

    def current(self) -> ChromaStore | None:
        """For a rebuild's aside collection: the collection it will replace (None if none)."""
        if not self.target_name:
            return None
        col = _get(self._client, self.target_name)
        if col is None:
            return None
        store = ChromaStore(self._client, col, self.location)
        store.root = self.root
        return store

    def replace(self) -> None:
        """Swap this (complete) aside collection in for the current one. Two renames; a crash
        between them is undone by the next writer (:func:`_recover_swap`)."""
        assert self.target_name, "replace() is for a rebuild's aside collection"
        name = self.target_name
        old = self.current()
        meta = dict(self._col.metadata or {})
        if old is not None:  # the lexical cache is keyed by revision: never reuse an old number
            meta["kb_revision"] = max(int(meta.get("kb_revision", 0)), old.revision()) + 1
            meta.pop("hnsw:space", None)
            self._col.modify(metadata=meta)
            old._col.modify(name=name + OLD)
        self._col.modify(name=name)
        if old is not None:
            self._client.delete_collection(name + OLD)
        self.target_name = None

    def drop_unfinished_rebuild(self) -> None:
        """Drop what a stopped ``kb ingest --rebuild`` left beside this collection and say so in
        :attr:`notes`: the collection it was filling (its name + ``__rebuild``, never read), and the one
        it replaced when it stopped just before deleting it (+ ``__old``: the next swap's rename would
        fail on it). A writer's chore: call it under the writer lock, where no rebuild is running."""
        name = self.target_name or self._col.name
        try:
            if _get(self._client, name) is None:
                return  # stopped between the swap's renames: _recover_swap puts the old one back first
            for suffix in (OLD,) if self.target_name else (ASIDE, OLD):
                left = _get(self._client, name + suffix)
                if left is not None:
                    n = left.count()
                    self._client.delete_collection(left.name)
                    self.notes.append(_dropped(left.name, n))
        except StoreError:
            raise
        except Exception as e:
            err = backend_failure(e, self.location)
            if err is None:
                raise
            raise err from e

    def discard(self) -> None:
        """Drop this aside collection; the current one stays as it was."""
        assert self.target_name, "discard() is for a rebuild's aside collection"
        try:
            self._client.delete_collection(self._col.name)
        except Exception:
            pass  # the store is unreachable: the next rebuild drops it

    @property
    def info(self) -> dict[str, Any]:
        """See :attr:`Store.info`; reads the collection metadata and counts the chunks (one call each)."""
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
        """See :meth:`Store.count`. Raises StoreError when the backend fails."""
        return int(self._col.count())

    def check_built_by(self, embedder_id: str | None, dim: int | None = None) -> None:
        """Refuse an embedder or chunker other than the one that built the collection: mixing
        vectors would silently break search. The fix is always ``kb ingest --rebuild``."""
        meta = self._col.metadata or {}
        built_by = meta.get("kb_embedder")
        if embedder_id and built_by and built_by != embedder_id:
            raise StoreError("the knowledge base at {location} was built with embedder '{built_by}', not "
                             "'{embedder_id}'",
                             "use --embedder {built_by}, or re-embed everything with kb ingest --rebuild --embedder "
                             "{embedder_id}",
                             location=self.location, built_by=built_by, embedder_id=embedder_id)
        if dim and meta.get("kb_dim") and int(meta["kb_dim"]) != dim:
            raise StoreError("the knowledge base holds {kb_dim}-d vectors, the embedder makes {dim}-d",
                             "run kb ingest --rebuild",
                             kb_dim=meta['kb_dim'], dim=dim)
        if meta.get("kb_chunking") not in (None, CHUNKING_VERSION):
            raise StoreError("the knowledge base was chunked by chunker v{kb_chunking}, this kb uses "
                             "v{chunking_version}",
                             "run kb ingest --rebuild",
                             kb_chunking=meta.get('kb_chunking'), chunking_version=CHUNKING_VERSION)

    def revision(self) -> int:
        """See :meth:`Store.revision` (``kb_revision`` in the collection metadata)."""
        return int((self._col.metadata or {}).get("kb_revision", 0))

    def bump_revision(self) -> None:
        """See :meth:`Store.bump_revision`: one metadata write."""
        meta = dict(self._col.metadata or {})
        meta["kb_revision"] = int(meta.get("kb_revision", 0)) + 1
        meta.pop("hnsw:space", None)  # not modifiable after creation
        self._col.modify(metadata=meta)

    def _batch(self) -> int:
        """Rows per write: :data:`_WRITE_BATCH`, or less where the backend says its batches must be
        smaller (``get_max_batch_size``, asked once)."""
        if self._max_batch is None:
            try:
                self._max_batch = max(1, min(_WRITE_BATCH, int(self._client.get_max_batch_size())))
            except Exception:  # an older chromadb or a server that does not say: keep ours
                self._max_batch = _WRITE_BATCH
        return self._max_batch

    def upsert(self, chunks: Sequence[Chunk], vectors: np.ndarray, ingested_at: str) -> None:
        """See :meth:`Store.upsert`; written in batches of :data:`_WRITE_BATCH` rows (at most)."""
        step = self._batch()
        for i in range(0, len(chunks), step):
            part = chunks[i : i + step]
            self._col.upsert(
                ids=[c.id for c in part],
                embeddings=vectors[i : i + step],
                documents=[c.text for c in part],
                metadatas=[c.to_metadata(ingested_at) for c in part],
            )

    def delete(self, ids: Sequence[str]) -> None:
        """See :meth:`Store.delete`; removed in batches of :data:`_ID_BATCH` ids."""
        ids = list(ids)
        if not ids:
            return
        step = min(_ID_BATCH, self._batch())
        for i in range(0, len(ids), step):
            self._col.delete(ids=ids[i : i + step])

    def _get_ids(self, ids: Sequence[str], include: list[str]) -> Iterator[dict[str, Any]]:
        """Chroma get() of these ids (duplicates dropped), :data:`_ID_BATCH` ids per call."""
        unique = list(dict.fromkeys(ids))
        for i in range(0, len(unique), _ID_BATCH):
            yield self._col.get(ids=unique[i : i + _ID_BATCH], include=include)

    def source_state(self, source: str, *, raw: bool = False) -> SourceState | None:
        """What the store holds of ``source`` (a path, relative to the cwd or absolute; ``raw``:
        a name exactly as stored)."""
        if not raw:
            source = self.key_for(source)
        ids: list[str] = []
        metas: list[dict[str, Any]] = []
        # page by page: one get() of every row of a 33,000-chunk file fails as one of every id does (_ID_BATCH)
        for got in self._pages(["metadatas"], where={"source": source}):
            ids.extend(got["ids"])
            metas.extend(got["metadatas"])
        if not ids:
            return None
        return SourceState(
            source=source,
            source_hash=metas[0].get("source_hash", ""),
            kind=metas[0].get("kind", ""),
            ids=tuple(ids),
            hashes=frozenset(m.get("source_hash", "") for m in metas),
            expected=int(metas[0].get("n_in_source", -1)),
        )

    def _pages(self, include: list[str], where: dict | None = None) -> Iterator[dict[str, Any]]:
        offset = 0
        while True:
            got = self._col.get(include=include, where=where, limit=_GET_PAGE, offset=offset)
            if not got["ids"]:
                return
            yield got
            offset += len(got["ids"])

    def all_metadata(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """See :meth:`Store.all_metadata` (pages of :data:`_GET_PAGE` rows)."""
        for got in self._pages(["metadatas"]):
            yield from zip(got["ids"], got["metadatas"], strict=True)

    def stored_sources(self) -> dict[str, str]:
        """Every source name as stored → its source hash."""
        return {m["source"]: m.get("source_hash", "") for _, m in self.all_metadata()}

    def all_chunks(self) -> Iterator[Chunk]:
        """See :meth:`Store.all_chunks`: every chunk with its text, names as in :meth:`display`."""
        cwd = os.getcwd()
        for got in self._pages(["metadatas", "documents"]):
            for id_, doc, meta in zip(got["ids"], got["documents"], got["metadatas"], strict=True):
                yield Chunk.from_store(id_, doc, meta, cwd, self.root)

    def all_records(self) -> Iterator[tuple[str, str, dict[str, Any], Any]]:
        """(id, text, metadata as stored, vector) for every chunk: what a rebuild carries over. The
        vector is None where the index cannot give it (:class:`VectorIndexError`: its files deleted or
        damaged), for the rebuild to embed the text again: that is how ``--rebuild`` repairs it."""
        for got in self._pages(["metadatas", "documents"]):
            try:
                vectors = self.get_vectors(got["ids"])
            except VectorIndexError:
                vectors = {}
            for id_, doc, meta in zip(got["ids"], got["documents"], got["metadatas"], strict=True):
                yield id_, doc, meta, vectors.get(id_)

    def add_records(self, records: Sequence[tuple[str, str, dict[str, Any], Any]]) -> None:
        """Write rows exactly as :meth:`all_records` gives them (vectors included): a rebuild's carry-over."""
        step = self._batch()
        for i in range(0, len(records), step):
            part = records[i : i + step]
            self._col.upsert(ids=[r[0] for r in part], documents=[r[1] for r in part],
                             metadatas=[r[2] for r in part], embeddings=[r[3] for r in part])

    def get(self, ids: Sequence[str]) -> list[Chunk]:
        """See :meth:`Store.get`."""
        cwd = os.getcwd()
        by_id = {}
        for got in self._get_ids(ids, ["metadatas", "documents"]):
            for i, d, m in zip(got["ids"], got["documents"], got["metadatas"], strict=True):
                by_id[i] = Chunk.from_store(i, d, m, cwd, self.root)
        return [by_id[i] for i in ids if i in by_id]

    def get_vectors(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        """The stored vector of each of these ids that is present (float32), so ingest can reuse it."""
        import numpy as np

        out: dict[str, np.ndarray] = {}
        for got in self._get_ids(ids, ["embeddings"]):
            out.update((i, np.asarray(v, dtype=np.float32)) for i, v in zip(got["ids"], got["embeddings"], strict=True))
        return out

    def query(self, vector: np.ndarray, n: int, where: dict | None = None) -> list[tuple[str, float]]:
        """See :meth:`Store.query`; Chroma's cosine distance is turned into similarity (1 - distance)."""
        n = min(n, self.count())
        if n <= 0:
            return []
        res = self._col.query(query_embeddings=[vector], n_results=n, where=where, include=["distances"])
        # cosine distance → similarity
        return [(i, 1.0 - float(d)) for i, d in zip(res["ids"][0], res["distances"][0], strict=True)]

    def ids(self) -> list[str]:
        """Every chunk id, in one request (no documents or metadata): on a Chroma server, pages with
        offsets took 5x as long at 30,000 chunks (bench/scale.py), each page scanning those before it."""
        return list(self._col.get(include=[])["ids"])

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
        cwd = os.getcwd()
        for src, r in sorted(rows.items()):
            r["source"] = self.display(src, cwd)
            r["path"] = self.absolute(src)
            r["complete"] = r["complete"] and r["chunks"] == r.pop("expected", r["chunks"])
            mix = sorted(langs[src].items(), key=lambda kv: -kv[1])
            r["lang"] = mix[0][0]
            r["langs"] = dict(mix)
            out.append(r)
        return sorted(out, key=lambda r: r["source"])


def store_timeout() -> float:
    """Seconds a Chroma server may take to answer one call (``KB_STORE_TIMEOUT``, default 60)."""
    raw = os.environ.get("KB_STORE_TIMEOUT", _DEFAULT_TIMEOUT_S)
    try:
        value = float(raw)
        if value <= 0:
            raise ValueError
    except ValueError:
        raise UsageError("KB_STORE_TIMEOUT={raw!r} is not a number of seconds",
                         "set KB_STORE_TIMEOUT to a positive number, e.g. 60",
                         raw=raw) from None
    return value


def _client(settings: Settings, create: bool) -> tuple[Any, str]:
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    logging.getLogger("chromadb").setLevel(logging.ERROR)
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    chroma_settings = ChromaSettings(anonymized_telemetry=False)
    if settings.store_url:
        u = urlparse(settings.store_url)
        if u.scheme not in ("http", "https") or not u.hostname:
            raise StoreError("--store {store_url}: not a Chroma server URL",
                             "use http://host:port",
                             store_url=settings.store_url)
        timeout = store_timeout()
        try:
            _heartbeat(settings.store_url, timeout)  # chromadb's constructor already calls the server, untimed
            client = chromadb.HttpClient(
                host=u.hostname, port=u.port or (443 if u.scheme == "https" else 8000),
                ssl=u.scheme == "https", settings=chroma_settings,
            )
            _set_http_timeout(client, timeout)
            client.heartbeat()
        except Exception as e:
            raise StoreError("cannot reach the Chroma server at {store_url} ({kind})",
                             "start it (chroma run --path DIR --port PORT) or fix --store/KB_STORE_URL",
                             store_url=settings.store_url, kind=type(e).__name__) from e
        return client, settings.store_url
    path = settings.home / "chroma"
    # Chroma builds its tables when a client first opens a new folder; a reader opening it meanwhile
    # would build them too and one of the two fails ("table collections already exists"). The
    # creator marks the folder before making it and unmarks it once the tables exist, so a reader
    # that sees the folder and no mark knows the tables are there.
    creating = settings.home / "chroma.creating"
    if not create and not path.is_dir():  # a read-only command must not leave an empty store behind
        raise MissingStoreError("no knowledge base at {path}",
                                "run kb ingest sources/ first, or point --home/KB_HOME at the workspace that has one",
                                path=path)
    if not create and creating.exists():  # missing for a reader; a creator goes on to make it
        raise MissingStoreError("the knowledge base at {path} is being written for the first time (by a kb ingest "
                                "still running?) and cannot be searched yet",
                                "wait for the ingest to finish, then run the command again (an ingest that was "
                                "stopped: run it again)",
                                path=path)
    try:
        first = not path.is_dir()
        if first:
            settings.home.mkdir(parents=True, exist_ok=True)
            creating.touch()
        path.mkdir(parents=True, exist_ok=True)
        # absolute: chromadb caches clients by this string, and a relative one would reach the
        # store of whatever folder was current when the first client was made
        client = chromadb.PersistentClient(path=str(path.resolve()), settings=chroma_settings)
        creating.unlink(missing_ok=True)  # the tables exist (also after an earlier creator stopped midway)
        return client, str(path)
    except Exception as e:
        err = backend_failure(e, str(path))
        if err and "full" in err.message:
            raise err from e
        refused = read_only(e, str(settings.home))
        if refused is not None:
            raise refused from e
        raise StoreError("cannot open the knowledge base at {path} ({kind}: {error})",
                         "check permissions, or move it aside and run kb ingest again",
                         path=path, kind=type(e).__name__, error=e) from e


def _heartbeat(url: str, seconds: float) -> None:
    """Fail within ``seconds`` when the server is down or frozen."""
    import httpx

    httpx.get(url.rstrip("/") + "/api/v2/heartbeat",
              timeout=httpx.Timeout(seconds, connect=min(seconds, _CONNECT_TIMEOUT_S)))


def _set_http_timeout(client: Any, seconds: float) -> None:
    """chromadb's HTTP client waits forever (httpx timeout=None): a frozen server would hang
    every command. Connect fails fast; each call may take ``seconds``."""
    import httpx

    session = getattr(getattr(client, "_server", None), "_session", None)
    if session is not None:
        session.timeout = httpx.Timeout(seconds, connect=min(seconds, _CONNECT_TIMEOUT_S))


def _get(client: Any, name: str) -> Any:
    try:
        return client.get_collection(name, embedding_function=None)
    except Exception as e:
        if backend_failure(e, "") is not None and "NotFound" not in type(e).__name__ \
                and "does not exist" not in str(e):
            raise
        return None


def _recover_swap(client: Any, name: str, location: str) -> None:
    """A rebuild that died between its two renames left the collection under ``name + OLD``
    (and the new one under ``name + ASIDE``): put the old one back. Called by writers only."""
    if _get(client, name) is None:
        old = _get(client, name + OLD)
        if old is not None:
            old.modify(name=name)


def _open_aside(client, settings: Settings, location: str, embedder_id: str | None,
                dim: int | None) -> ChromaStore:
    """A fresh collection beside the current one, for a rebuild (any unfinished one dropped)."""
    name = settings.collection
    left = _get(client, name + ASIDE)
    if left is not None:  # a rebuild that did not finish
        n = left.count()
        client.delete_collection(name + ASIDE)
    col = client.create_collection(
        name + ASIDE,
        metadata={"kb_embedder": embedder_id, "kb_dim": dim, "kb_chunking": CHUNKING_VERSION, "kb_revision": 0},
        configuration={"hnsw": {"space": "cosine"}},
        embedding_function=None,
    )
    store = ChromaStore(client, col, location)
    store.target_name = name
    store.root = _root(settings)
    if left is not None:
        store.notes.append(_dropped(name + ASIDE, n))
    return store


def _dropped(name: str, n: int) -> str:
    what = "the store it replaced" if name.endswith(OLD) else "what it had filled"
    return (f"removed '{name}' ({n} chunks): {what}, left by a kb ingest --rebuild that was stopped before "
            "it finished; the knowledge base itself was not affected")


def _wait_for_swap(client, name: str):
    """The collection ``name`` once a rebuild swapping its collection in has done so (2 s at
    most), else None."""
    for _ in range(_SWAP_POLLS):
        time.sleep(_SWAP_POLL_S)
        col = _get(client, name)
        if col is not None:
            return col
    return None


def open_store(settings: Settings, embedder_id: str | None = None, dim: int | None = None,
               *, create: bool = False, rebuild: bool = False, check: bool = True) -> ChromaStore:
    """Open (or with ``create`` make, recording ``embedder_id``/``dim``) the collection, and
    refuse one built by another embedder or chunker (see :meth:`ChromaStore.check_built_by`;
    ``check=False`` opens it anyway, to read what built it).

    ``rebuild`` opens a fresh collection *beside* the current one (its name + ``__rebuild``);
    :meth:`ChromaStore.replace` swaps it in once it is complete, and :meth:`ChromaStore.discard`
    drops it, leaving the current one as it was."""
    client, location = _client(settings, create)
    name = settings.collection
    try:
        if create:
            _recover_swap(client, name, location)
        if rebuild:
            return _open_aside(client, settings, location, embedder_id, dim)
        col = _get(client, name)
        if col is None and not create:
            col = _wait_for_swap(client, name)
    except StoreError:
        raise
    except Exception as e:
        err = backend_failure(e, location)
        if err is None:
            raise
        raise err from e
    if col is None:
        if not create:
            raise MissingStoreError("no knowledge base at {location} (collection '{name}')",
                                    "run kb ingest sources/ first, or point --home/KB_HOME at the workspace that has "
                                    "one",
                                    location=location, name=name)
        col = client.create_collection(
            name,
            metadata={"kb_embedder": embedder_id, "kb_dim": dim, "kb_chunking": CHUNKING_VERSION, "kb_revision": 0},
            configuration={"hnsw": {"space": "cosine"}},
            embedding_function=None,
        )
    store = ChromaStore(client, col, location)
    store.root = _root(settings)
    if check:
        store.check_built_by(embedder_id, dim)
    return store


def _root(settings: Settings) -> str | None:
    """The folder holding an on-disk workspace (sources inside it are named relative to it)."""
    if settings.store_url:
        return None
    return settings.home.resolve().parent.as_posix()
