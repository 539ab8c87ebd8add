"""Retrieval quality on both query sets, every mode, in one temporary knowledge base.

    python bench/retrieval.py            # sources/ + ../shared/corpora/*.pdf (held-out set needs them)
    python bench/retrieval.py --per-query

The knowledge base holds the sample course (sources/) and the three slide decks of
../shared/corpora, so every query competes with every passage of both. A hit is relevant
when an evidence phrase occurs in what the user sees: the passage's heading and text
(accents, case and spacing ignored; see kb.evaluate). eval/queries.jsonl was tuned on;
eval/queries_heldout.jsonl was written before measuring kb on it and is the headline.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.config import Settings  # noqa: E402
from kb.evaluate import load_queries  # noqa: E402
from kb.ingest import ingest  # noqa: E402
from kb.text import fold  # noqa: E402
from kb.workspace import open_workspace  # noqa: E402

SHARED = Path(os.environ.get("KB_SHARED_DIR") or ROOT.parent / "shared")


def _norm(s: str) -> str:
    return " ".join(fold(s).split())


def judge(hits, evidence) -> int | None:
    ev = [_norm(e) for e in evidence]
    for h in hits:
        seen = _norm(f"{h.chunk.locator.heading or ''}\n{h.chunk.text}")
        if any(e in seen for e in ev):
            return h.rank
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--per-query", action="store_true", help="print the misses of each set and mode")
    ap.add_argument("--embedder", default=None)
    ap.add_argument("--modes", default="hybrid,dense,bm25")
    args = ap.parse_args()
    corpora = sorted((SHARED / "corpora").glob("*.pdf"))
    if not corpora:
        sys.exit(f"{SHARED / 'corpora'}: no PDFs (set KB_SHARED_DIR to the shared folder)")
    tmp = Path(tempfile.mkdtemp(prefix="kb-bench-retrieval-"))
    try:
        ws = open_workspace(Settings(home=tmp / ".kb", **({"embedder": args.embedder} if args.embedder else {})),
                            create=True)
        t = time.perf_counter()
        report = ingest([ROOT / "sources", *corpora], ws.store, ws.embedder)
        print(f"knowledge base: {ws.store.count()} chunks from {len(report.files)} files, "
              f"built in {time.perf_counter() - t:.1f} s")
        held_path = ROOT / "eval" / "queries_heldout.jsonl"
        held = load_queries(held_path)
        split = {json.loads(x)["query"]: json.loads(x).get("split")
                 for x in held_path.read_text(encoding="utf-8").splitlines()
                 if x.strip() and not x.startswith("#")}
        sets = [("queries.jsonl (tuned on)", load_queries(ROOT / "eval" / "queries.jsonl")),
                ("heldout test (never tuned on)", [q for q in held if split[q.query] == "test"]),
                ("heldout dev", [q for q in held if split[q.query] == "dev"]),
                ("heldout all", held)]
        print(f"{'query set':32} {'mode':7} {'n':>3} {'hit@1':>6} {'hit@5':>6} {'MRR@10':>7}")
        for label, qs in sets:
            for mode in args.modes.split(","):
                results = ws.retriever.search_many([q.query for q in qs], k=10, mode=mode)
                ranks = [judge(hits, q.evidence) for q, hits in zip(qs, results, strict=True)]
                n = len(qs)
                h1 = sum(r == 1 for r in ranks) / n
                h5 = sum(r is not None and r <= 5 for r in ranks) / n
                mrr = sum(1 / r for r in ranks if r) / n
                print(f"{label:32} {mode:7} {n:>3} {h1:6.3f} {h5:6.3f} {mrr:7.3f}")
                if args.per_query and "test" not in label:  # never look at the test split's misses
                    for q, r, hits in zip(qs, ranks, results, strict=True):
                        if r is None or r > 5:
                            print(f"    miss ({r}) [{q.lang}] {q.query}  "
                                  f"-> top: {hits[0].chunk.citation() if hits else '-'}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
