"""Retrieval: dense (the embedder, through the store), lexical (BM25 via ``bm25s``) and
their reciprocal-rank fusion, which measured best on the sample course (see README).

The BM25 index is built from the store's chunks on first use and cached on disk under
the workspace, keyed by the store's revision, so it is rebuilt only after ingest changes.
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Sequence

from .chunking import index_text
from .embeddings import Embedder
from .errors import UsageError
from .records import Hit
from .store import ChromaStore
from .text import search_tokens

MODES = ("hybrid", "dense", "bm25")
RRF_K = 60  # the constant of Cormack et al. (2009); robust across collections


_TOKENS_VERSION = 2  # bump when kb.text.search_tokens changes: cached indexes are rebuilt


class LexicalIndex:
    """BM25 over folded, stop-word-free tokens of each chunk's index text."""

    def __init__(self, ids: list[str], token_lists: list[list[str]]) -> None:
        import bm25s

        self.ids = ids
        self._bm25 = bm25s.BM25()
        if ids:
            self._bm25.index([t or ["_"] for t in token_lists], show_progress=False)

    def search(self, query: str, n: int) -> list[tuple[str, float]]:
        tokens = search_tokens(query)
        if not tokens or not self.ids:
            return []
        n = min(n, len(self.ids))
        docs, scores = self._bm25.retrieve([tokens], k=n, show_progress=False)
        return [(self.ids[int(d)], float(s)) for d, s in zip(docs[0], scores[0]) if s > 0]

    @classmethod
    def for_store(cls, store: ChromaStore, cache_dir: Path) -> "LexicalIndex":
        info = store.info
        path = cache_dir / f"bm25-{info['collection']}-r{info['revision']}-n{info['chunks']}-t{_TOKENS_VERSION}.pkl"
        if path.exists():
            try:
                with path.open("rb") as f:
                    return pickle.load(f)
            except Exception:
                pass  # stale or partial cache: rebuild
        ids, tokens = [], []
        for chunk in store.all_chunks():
            ids.append(chunk.id)
            tokens.append(search_tokens(index_text(chunk)))
        index = cls(ids, tokens)
        cache_dir.mkdir(parents=True, exist_ok=True)
        for old in cache_dir.glob(f"bm25-{info['collection']}-*.pkl"):
            old.unlink(missing_ok=True)
        tmp = path.with_suffix(".tmp")
        with tmp.open("wb") as f:
            pickle.dump(index, f, protocol=pickle.HIGHEST_PROTOCOL)
        tmp.replace(path)
        return index


def rrf(rankings: Sequence[Sequence[str]], weights: Sequence[float] | None = None, k: int = RRF_K) -> list[tuple[str, float]]:
    """Reciprocal-rank fusion of ranked id lists: score = Σ w / (k + rank)."""
    weights = weights or [1.0] * len(rankings)
    scores: dict[str, float] = {}
    for ranking, w in zip(rankings, weights):
        for rank, id_ in enumerate(ranking, start=1):
            scores[id_] = scores.get(id_, 0.0) + w / (k + rank)
    return sorted(scores.items(), key=lambda kv: -kv[1])


class Retriever:
    """Search a store. ``mode``: ``hybrid`` (default), ``dense`` or ``bm25``."""

    def __init__(self, store: ChromaStore, embedder: Embedder, cache_dir: Path, candidates: int = 50) -> None:
        self.store = store
        self.embedder = embedder
        self.cache_dir = cache_dir
        self.candidates = candidates
        self._lexical: LexicalIndex | None = None

    @property
    def lexical(self) -> LexicalIndex:
        if self._lexical is None:
            self._lexical = LexicalIndex.for_store(self.store, self.cache_dir)
        return self._lexical

    def search(self, query: str, k: int = 5, mode: str = "hybrid") -> list[Hit]:
        return self.search_many([query], k=k, mode=mode)[0]

    def search_many(self, queries: Sequence[str], k: int = 5, mode: str = "hybrid") -> list[list[Hit]]:
        """Search several queries; their embeddings are computed in one batch."""
        if mode not in MODES:
            raise UsageError(f"--mode {mode}: unknown retrieval mode", f"use one of {', '.join(MODES)}")
        if k < 1:
            raise UsageError(f"-k {k}: must be at least 1", "ask for 1 or more results")
        n = max(k, self.candidates)
        vectors = self.embedder.embed_queries(list(queries)) if mode != "bm25" else None
        ranked: list[list[tuple[str, float]]] = []
        for i, q in enumerate(queries):
            dense = self.store.query(vectors[i], n) if vectors is not None else []
            lexical = self.lexical.search(q, n) if mode != "dense" else []
            if mode == "dense":
                ranked.append(dense[:k])
            elif mode == "bm25":
                ranked.append(lexical[:k])
            else:
                ranked.append(rrf([[i for i, _ in dense], [i for i, _ in lexical]])[:k])
        chunks = {c.id: c for c in self.store.get(list({i for r in ranked for i, _ in r}))}
        return [
            [Hit(chunks[i], s, rank) for rank, (i, s) in enumerate((x for x in r if x[0] in chunks), start=1)]
            for r in ranked
        ]
