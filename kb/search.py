"""Retrieval: dense (the embedder, through the store), lexical (BM25 via ``bm25s`` over
stemmed words) and their fusion, which measured best on both query sets (see README).

- **dense**: cosine similarity between the question and each passage (under its heading path).
- **bm25**: BM25 over accent-free prefix stems, so inflections and the pt/es/en forms of
  one word meet (``transformações``/``transformaciones``/``transforms`` → ``trans``...;
  identifiers such as ``state_dict`` or ``tf.device`` are kept whole).
- **hybrid** (default): ``(cosine + 0.15 · bm25/best bm25) / 1.15`` over the union of both
  candidate lists. It beat reciprocal-rank fusion, which lets a weak lexical list push
  paraphrased and cross-lingual matches down.

Scores are 0–1 relevances a person can read (the cosine itself in dense mode). A passage
that repeats one already shown (the same slides as PDF and as text) is shown once.

The BM25 index is built from the store's chunks on first use and cached on disk, keyed by a
hash of the store's chunk ids and the chunking and tokenizer versions: it is rebuilt exactly
when the content changes, whatever happened in between (a crash mid-ingest included).
"""

from __future__ import annotations

import hashlib
import pickle
import re
from pathlib import Path
from typing import Sequence

from .chunking import index_text
from .config import CHUNKING_VERSION
from .embeddings import Embedder
from .errors import UsageError
from .records import Chunk, Hit
from .store import ChromaStore
from .text import fold_word, search_tokens

MODES = ("hybrid", "dense", "bm25")
RRF_K = 60  # the constant of Cormack et al. (2009), for rrf() below
LEXICAL_WEIGHT = 0.15  # weight of the normalised BM25 score against the cosine (hybrid)
STEM_CHARS = 5  # prefix stem: pt/es/en inflections of a word share their first 5 letters
DUPLICATE_CONTAINMENT = 0.8  # share of the smaller passage's words found in a better one

_TOKENS_VERSION = 3  # bump when lexical_tokens changes: cached indexes are rebuilt
_IDENT = re.compile(r"[\d._]")


def lexical_tokens(text: str) -> list[str]:
    """Search tokens (:func:`kb.text.search_tokens`) cut to their prefix stem; words with
    digits, dots or underscores are identifiers and stay whole."""
    return [t if _IDENT.search(t) else t[:STEM_CHARS] for t in search_tokens(text)]


def content_key(store: ChromaStore) -> str:
    """A hash of the store's chunk ids (content hashes) with the chunking and tokenizer
    versions: equal keys mean equal indexed content."""
    h = hashlib.sha256(f"chunking={CHUNKING_VERSION};tokens={_TOKENS_VERSION};".encode())
    for i in sorted(_all_ids(store)):
        h.update(i.encode())
        h.update(b"\n")
    return h.hexdigest()[:16]


def _all_ids(store: ChromaStore) -> list[str]:
    ids = getattr(store, "ids", None)
    if callable(ids):
        return list(ids())
    pages = getattr(store, "_pages", None)
    if callable(pages):  # ids only: no documents or metadata to decode
        return [i for got in pages([]) for i in got["ids"]]
    return [i for i, _ in store.all_metadata()]


class LexicalIndex:
    """BM25 over the lexical tokens of each chunk's index text."""

    def __init__(self, ids: list[str], token_lists: list[list[str]]) -> None:
        import bm25s

        self.ids = ids
        self._bm25 = bm25s.BM25()
        if ids:
            self._bm25.index([t or ["_"] for t in token_lists], show_progress=False)

    def search(self, query: str, n: int) -> list[tuple[str, float]]:
        tokens = lexical_tokens(query)
        if not tokens or not self.ids:
            return []
        n = min(n, len(self.ids))
        docs, scores = self._bm25.retrieve([tokens], k=n, show_progress=False)
        return [(self.ids[int(d)], float(s)) for d, s in zip(docs[0], scores[0]) if s > 0]

    @classmethod
    def for_store(cls, store: ChromaStore, cache_dir: Path) -> "LexicalIndex":
        collection = store.info["collection"]
        path = cache_dir / f"bm25-{collection}-{content_key(store)}.pkl"
        if path.exists():
            try:
                with path.open("rb") as f:
                    return pickle.load(f)
            except Exception:
                pass  # partial or foreign cache: rebuild
        ids, tokens = [], []
        for chunk in store.all_chunks():
            ids.append(chunk.id)
            tokens.append(lexical_tokens(index_text(chunk)))
        index = cls(ids, tokens)
        cache_dir.mkdir(parents=True, exist_ok=True)
        for old in cache_dir.glob(f"bm25-{collection}-*.pkl"):
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


def fuse(dense: dict[str, float], lexical: dict[str, float], weight: float = LEXICAL_WEIGHT) -> list[tuple[str, float]]:
    """Hybrid relevance in 0–1: ``(cosine + weight · bm25 / best bm25) / (1 + weight)``.
    ``dense`` must hold the cosine of every candidate (of both lists)."""
    best = max(lexical.values(), default=0.0) or 1.0
    scores = {i: (max(0.0, c) + weight * lexical.get(i, 0.0) / best) / (1 + weight) for i, c in dense.items()}
    return sorted(scores.items(), key=lambda kv: -kv[1])


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
        if len(ws) >= 5 and any(
            len(ws & other) / max(1, min(len(ws), len(other))) >= threshold for _, _, other in kept if len(other) >= 5
        ):
            continue
        kept.append((chunk, score, ws))
        if len(kept) == k:
            break
    return [(c, s) for c, s, _ in kept]


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
            dense = dict(self.store.query(vectors[i], n)) if vectors is not None else {}
            lexical = dict(self.lexical.search(q, n)) if mode != "dense" else {}
            if mode == "dense":
                ranked.append(sorted(dense.items(), key=lambda kv: -kv[1]))
            elif mode == "bm25":
                best = max(lexical.values(), default=1.0) or 1.0
                ranked.append([(i_, s / best) for i_, s in sorted(lexical.items(), key=lambda kv: -kv[1])])
            else:
                missing = [i_ for i_ in lexical if i_ not in dense]
                if missing and vectors is not None:
                    for i_, v in self.store.get_vectors(missing).items():
                        dense[i_] = float(v @ vectors[i])
                ranked.append(fuse(dense, lexical))
        # enough candidates to fill k after dropping repeated passages
        depth = min(n, 3 * k + 5)
        chunks = {c.id: c for c in self.store.get(list({i for r in ranked for i, _ in r[:depth]}))}
        out = []
        for r in ranked:
            found = [(chunks[i], s) for i, s in r[:depth] if i in chunks]
            out.append([Hit(c, s, rank) for rank, (c, s) in enumerate(drop_duplicates(found, k), start=1)])
        return out
