"""The lexical side of the ranking: search tokens cut to a prefix stem, and BM25 over them. Shared by the search
index (:mod:`kb.search`), its deck routing (:mod:`kb.rank_route`) and the answerer's rules, none of which has to import
the others for it."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .text import search_tokens

if TYPE_CHECKING:
    import numpy as np

# Prefix stem: pt/es/en inflections of a word share their first 5 letters. Prefix stems against
# whole words measured in README "Retrieval quality" (BM25 MRR 0.72 -> 0.79 on queries.jsonl,
# 0.52 -> 0.58 on dev; Snowball did worse); other lengths than 5 were not reported.
STEM_CHARS = 5

_IDENT = re.compile(r"[\d._]")


def lexical_tokens(text: str) -> list[str]:
    """Search tokens (:func:`kb.text.search_tokens`) cut to their prefix stem; words with
    digits, dots or underscores are identifiers and stay whole."""
    return [t if _IDENT.search(t) else t[:STEM_CHARS] for t in search_tokens(text)]


class LexicalIndex:
    """BM25 (Lucene's variant, k1 = 1.5, b = 0.75, as bm25s) over the lexical tokens of each
    chunk's index text, as flat numpy postings: no scipy to import on a cold search."""

    K1, B = 1.5, 0.75  # bm25s' and Lucene's defaults, kept; not tuned here

    def __init__(self, ids: list[str], token_lists: list[list[str]]) -> None:
        import numpy as np

        self.ids = ids
        vocab: dict[str, int] = {}
        lengths = np.array([len(tokens) for tokens in token_lists], dtype=np.int64)
        flat = np.fromiter((vocab.setdefault(t, len(vocab)) for tokens in token_lists for t in tokens),
                           dtype=np.int64, count=int(lengths.sum()))
        # (term, doc) pairs counted in numpy, sorted by term then doc: a list of tuples for 100,000
        # passages took gigabytes and minutes (bench/scale.py)
        n_docs = max(1, len(ids))
        pairs, counts = np.unique(flat * n_docs + np.repeat(np.arange(len(ids), dtype=np.int64), lengths),
                                  return_counts=True)
        terms = pairs // n_docs
        self.vocab = vocab
        self.docs = (pairs % n_docs).astype(np.int32)
        tf = counts.astype(np.float32)
        self.indptr = np.searchsorted(terms, np.arange(len(vocab) + 1)).astype(np.int64)
        df = np.diff(self.indptr).astype(np.float32)
        n = max(1, len(ids))
        self.idf = np.log(1.0 + (n - df + 0.5) / (df + 0.5)).astype(np.float32)
        lengths = lengths.astype(np.float32)
        avgdl = float(lengths.mean()) if len(ids) else 1.0
        norm = self.K1 * (1 - self.B + self.B * lengths[self.docs] / max(avgdl, 1e-9)) if len(tf) else tf
        self.weights = (tf * (self.K1 + 1) / (tf + norm)).astype(np.float32)  # idf applied per query

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every indexed passage for the query (idf applied here)."""
        import numpy as np

        out = np.zeros(len(self.ids), dtype=np.float32)
        for t in dict.fromkeys(lexical_tokens(query)):  # a fixed order: the same sums every run
            j = self.vocab.get(t)
            if j is not None:
                a, b = self.indptr[j], self.indptr[j + 1]
                out[self.docs[a:b]] += self.idf[j] * self.weights[a:b]
        return out

    def search(self, query: str, n: int) -> list[tuple[str, float]]:
        """The n best (id, score) pairs with a score above 0."""
        s = self.scores(query)
        top = _top(s, n)
        return [(self.ids[i], float(s[i])) for i in top if s[i] > 0]


def _top(scores: np.ndarray, n: int) -> np.ndarray:
    import numpy as np

    n = min(n, len(scores))
    if n <= 0:
        return np.zeros(0, dtype=np.int64)
    part = np.argpartition(-scores, n - 1)[:n]
    return part[np.argsort(-scores[part], kind="stable")]
