"""Deck routing for the hybrid ranking: which source a question is about, and which passages only survey a deck.

With many decks on neighbouring topics (profiling vs benchmarking, DDP vs FSDP vs DeepSpeed) a passage of the
wrong deck often matches a question as well as the right one; and inside the right deck its agenda, title page
and closing summary name every subject of the deck and outrank the slide that explains one. Two corrections,
both chosen on the dev (WRITE) half of a 2,064-passage, 59-file knowledge base (bench/rank_many.py, measured in
docs/measurements/retrieval.md "Round 4"):

- **routing**: each source is one BM25 document of its file name and every heading it has (its sections and slide
  titles, once each); a question is scored against those, and every passage loses ``ROUTE_WEIGHT`` times how far
  its source is below the best source (a question that names "LightningDataModule" or "rendezvous" leans to the
  deck whose titles carry it);
- **overview pages**: a passage under an agenda / index / divider title or a closing summary
  (:func:`kb.lang.divider_title`, :func:`kb.lang.summary_title`), or on the first page of a PDF when that page says
  little (a title slide; not a paper's or a handout's first page of prose), loses ``OVERVIEW_PENALTY``.

The best source's passages keep their score, so a hybrid score still reads as before for the answer's passages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

# chosen on bench/rank_many.py's WRITE half (0.02–0.5 tried: 0.1–0.2 within a question there) and kept at or below
# 0.15, where the 388-passage store of bench/retrieval.py keeps eval/queries.jsonl (0.2 lost three of its 36 queries)
ROUTE_WEIGHT = 0.15
OVERVIEW_PENALTY = 0.15  # chosen on the same half (0.02–0.3 tried; 0.15–0.3 equal there, the smallest kept)
# (routing, overview) weights of a ranking embedder whose scores spread otherwise: e5-small's hybrid scores sit in
# ~0.8–0.95 and the USE-m3 weights cost it MRR@10 0.825 → 0.770 on the same half; its own were chosen there too
# (routing 0–0.2, overview 0.005–0.05 tried)
WEIGHTS = {"e5-small": (0.02, 0.04)}
# a PDF's first page is a title page when all its text is at most this long: set by hand, not measured — the title
# slides of the 164 eval decks hold 223–552 characters and the shared real decks' under 100, while a page of prose
# (a paper's abstract, a handout) holds several times this
TITLE_PAGE_CHARS = 1000


class Routing:
    """Per index: each passage's source number, the sources' BM25 over their titles, the overview flags."""

    def __init__(self, chunks: Any) -> None:
        import numpy as np

        from .lang import divider_title, summary_title
        from .lexical import LexicalIndex, lexical_tokens

        cols = chunks.cols
        n = len(chunks)
        number: dict[str, int] = {}
        is_overview: dict[str, bool] = {}
        titles: list[dict[str, None]] = []
        first_page: dict[int, list[int]] = {}  # source -> its PDF's first-page passages
        source = np.zeros(n, dtype=np.int64)
        overview = np.zeros(n, dtype=np.float32)
        pages = chunks.page
        for i in range(n):
            name = cols["source"][i] or ""
            s = number.get(name)
            if s is None:
                s = number[name] = len(titles)
                stem = name.replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
                titles.append({stem.replace("_", " ").replace("-", " "): None})
            source[i] = s
            heading = cols["heading"][i] or ""
            if heading:
                parts = heading.split(" > ")
                for p in parts:
                    titles[s][p] = None
                last = parts[-1]
                flag = is_overview.get(last)
                if flag is None:  # the passages of a slide share its title: each title is read once
                    flag = is_overview[last] = divider_title(last) or summary_title(last)
                if flag:
                    overview[i] = 1.0
            if int(pages[i]) == 1 and cols["kind"][i] == "pdf":
                first_page.setdefault(s, []).append(i)
        for rows in first_page.values():
            if sum(len(cols["text"][i] or "") for i in rows) <= TITLE_PAGE_CHARS:
                overview[rows] = 1.0
        self.source = source
        self.overview = overview
        self.sources = LexicalIndex([str(k) for k in range(len(titles))],
                                    [lexical_tokens("\n".join(t)) for t in titles])

    def adjust(self, scores: np.ndarray, query: str, ranking_id: str | None = None) -> np.ndarray:
        """``scores`` (0–1, ranked by ``ranking_id``'s vectors) routed to the question's source and with overview
        passages lowered, clipped at 0."""
        import numpy as np

        route, penalty = WEIGHTS.get(ranking_id or "", (ROUTE_WEIGHT, OVERVIEW_PENALTY))
        if not route and not penalty:
            return scores
        out = scores - penalty * self.overview
        if route:
            by_source = self.sources.scores(query)
            best = float(by_source.max()) if len(by_source) else 0.0
            if best > 0 and len(by_source) > 1:
                out = out - route * (1.0 - by_source[self.source] / best)
        return np.maximum(out, 0.0)


def routing(index: Any) -> Routing:
    """The index's :class:`Routing`: built with the index and saved in its cache file; for an index cached by an
    older kb, built on first use."""
    r = getattr(index, "routing", None)
    if r is None:
        r = index.routing = Routing(index.chunks)
    return r
