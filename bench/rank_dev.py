"""Ranking variants on the dev splits only, in one knowledge base built once (bench/ask.py's).

    python bench/rank_dev.py --home /tmp/kb-ask          # reuses bench/ask.py --home's knowledge base

Two dev measures, never a test query: eval/queries_heldout.jsonl's dev split (a hit holds an evidence
phrase, as bench/retrieval.py judges) and eval/ask_set.jsonl's dev split (the rank of the first
distinct page that is the question's page). Each variant is a scoring function of the query; the
hybrid fusion of kb.search is the baseline.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from ask import build  # noqa: E402
from retrieval import judge  # noqa: E402

from kb.evaluate import load_ask_set, load_queries  # noqa: E402
from kb.records import Hit  # noqa: E402
from kb.search import _top, drop_duplicates  # noqa: E402


def ranked_hits(index, scores, k=10):
    found = [(index.chunks[int(j)], float(scores[j])) for j in _top(scores, 3 * k + 5)]
    return [Hit(c, s, r) for r, (c, s) in enumerate(drop_duplicates(found, k), start=1)]


def page_rank(index, scores, item, k=10):
    seen = []
    for j in _top(scores, 60):
        c = index.chunks[int(j)]
        key = (Path(c.source).name, c.locator.page)
        if key not in seen:
            seen.append(key)
            if key[0] == item.source and key[1] in item.pages:
                return len(seen) if len(seen) <= k else None
    return None


def summary(ranks):
    n = len(ranks)
    return (sum(r == 1 for r in ranks) / n, sum(r is not None and r <= 5 for r in ranks) / n,
            sum(1 / r for r in ranks if r) / n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--home", type=Path, required=True)
    ap.add_argument("--embedder", default=None)
    ap.add_argument("--only", default=None)
    args = ap.parse_args()
    ws = build(args.home, args.embedder)
    index = ws.retriever.index
    held = [q for q in load_queries(ROOT / "eval" / "queries_heldout.jsonl") if q.split == "dev"]
    tuned = load_queries(ROOT / "eval" / "queries.jsonl")
    asks = [i for i in load_ask_set(ROOT / "eval" / "ask_set.jsonl") if i.split == "dev"]
    qtexts = [q.query for q in held] + [q.query for q in tuned] + [i.question for i in asks]
    qvs = ws.retriever.query_vectors(qtexts)
    import variants

    variants.EMBEDDER = ws.embedder

    names = [n for n in variants.VARIANTS if not args.only or any(o in n for o in args.only.split(","))]
    print(f"ranking: {index.ranking_id} over a store of {index.embedder_id}")
    print(f"{'variant':40} {'held dev h1/h5/mrr':>20} {'ask dev page h1/h5/mrr':>24} {'tuned h1/h5/mrr':>20}")
    for name in names:
        fn = variants.VARIANTS[name]
        scores = [fn(index, t, qvs[i]) for i, t in enumerate(qtexts)]
        a = summary([judge(ranked_hits(index, s), q.evidence) for s, q in zip(scores[:len(held)], held, strict=True)])
        t = summary([judge(ranked_hits(index, s), q.evidence)
                     for s, q in zip(scores[len(held):len(held) + len(tuned)], tuned, strict=True)])
        b = summary([page_rank(index, s, it) for s, it in zip(scores[len(held) + len(tuned):], asks, strict=True)])
        print(f"{name:40} {a[0]:.3f} {a[1]:.3f} {a[2]:.3f}    {b[0]:.3f} {b[1]:.3f} {b[2]:.3f}   "
              f"{t[0]:.3f} {t[1]:.3f} {t[2]:.3f}", flush=True)



if __name__ == "__main__":
    main()
