"""Page ranking in one LARGE dev knowledge base: many decks on neighbouring topics compete.

    python bench/rank_many.py --home /tmp/kb-many             # build once (reused), report the default ranking
    python bench/rank_many.py --home /tmp/kb-many --variants all   # every variant of bench/rank_variants.py
    python bench/rank_many.py --home /tmp/kb-many --ask [--no-routing]   # kb ask --offline on every question too

The knowledge base holds the sample course (sources/), the decks of ../shared/corpora and
../shared/heldout_decks and every deck that eval/ask_r8 … ask_r12 use (rendered from
eval/heldout_decks/*.txt by eval/deck_pdf.py): ~50 files, ~4,000 passages. Each question of those sets
is ranked against all of it; reported per set, per half and overall: page hit@1, hit@5 and MRR@10 of
the first distinct (file, page) that is the question's. Halves, by deck: WRITE = r8 + r10 + r12 (what
a change may be chosen on), CHECK = r9 + r11 (read only to keep or drop a change, never to tune).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.append(str(ROOT / "eval"))

from deck_pdf import render  # noqa: E402

from kb.config import Settings  # noqa: E402
from kb.evaluate import load_ask_set  # noqa: E402
from kb.ingest import ingest  # noqa: E402
from kb.search import _top, fused_scores  # noqa: E402
from kb.workspace import open_workspace  # noqa: E402

SHARED = Path(os.environ.get("KB_SHARED_DIR") or ROOT.parent / "shared")
WRITE = ("r8", "r10", "r12")
CHECK = ("r9", "r11")


def sets() -> dict[str, list]:
    return {s: load_ask_set(ROOT / "eval" / f"ask_{s}.jsonl") for s in WRITE + CHECK}


def build(home: Path):
    corpora = sorted((SHARED / "corpora").glob("*.pdf"))
    heldout = sorted((SHARED / "heldout_decks").glob("*.pdf"))
    if not corpora or not heldout:
        sys.exit(f"{SHARED}: no corpora/ or heldout_decks/ PDFs (set KB_SHARED_DIR to the shared folder)")
    decks = home / "decks"
    decks.mkdir(parents=True, exist_ok=True)
    for name in sorted({i.source for items in sets().values() for i in items}):
        out = decks / name
        if not out.exists():
            render(ROOT / "eval" / "heldout_decks" / name.replace(".pdf", ".txt"), out)
    ws = open_workspace(Settings(home=home / ".kb"), create=True)
    t = time.perf_counter()
    report = ingest([ROOT / "sources", *corpora, *heldout, *sorted(decks.glob("*.pdf"))], ws.store, ws.embedder)
    print(f"knowledge base: {ws.store.count()} chunks from {len(report.files)} files "
          f"({time.perf_counter() - t:.1f} s)", file=sys.stderr)
    return ws


def page_rank(index, scores, item, k: int = 10) -> int | None:
    """Rank (1-based, ≤ k) of the first distinct (file, page) that is the item's page, else None."""
    seen: list[tuple[str, int | None]] = []
    for j in _top(scores, 80):
        c = index.chunks[int(j)]
        key = (Path(c.source).name, c.locator.page)
        if key not in seen:
            seen.append(key)
            if len(seen) > k:
                return None
            if key[0] == item.source and key[1] in item.pages:
                return len(seen)
    return None


def summary(ranks: list[int | None]) -> str:
    n = max(1, len(ranks))
    h1 = sum(r == 1 for r in ranks) / n
    h5 = sum(r is not None and r <= 5 for r in ranks) / n
    mrr = sum(1 / r for r in ranks if r) / n
    return f"{h1:.3f} / {h5:.3f} / {mrr:.3f}"


def report(name: str, ranks: dict[str, list[int | None]]) -> None:
    w = [r for s in WRITE for r in ranks[s]]
    c = [r for s in CHECK for r in ranks[s]]
    per = "  ".join(f"{s} {summary(ranks[s])}" for s in WRITE + CHECK)
    print(f"{name:34} WRITE {summary(w)}  CHECK {summary(c)}  ALL {summary(w + c)}\n    {per}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--home", type=Path, required=True, help="the knowledge base's folder (built, or reused)")
    ap.add_argument("--variants", default=None, help="comma-separated names of bench/rank_variants.py, or 'all'")
    ap.add_argument("--misses", action="store_true", help="print WRITE-half questions not at rank 1")
    ap.add_argument("--ask", action="store_true", help="also kb ask --offline every question (correct / partly / "
                    "wrong by kb.evaluate's rule, per half)")
    ap.add_argument("--no-routing", action="store_true", help="the ranking before kb.rank_route (no routing, no "
                    "overview penalty), for a before/after in the same run")
    args = ap.parse_args()
    if args.no_routing:
        import kb.rank_route

        kb.rank_route.ROUTE_WEIGHT = kb.rank_route.OVERVIEW_PENALTY = 0.0
        kb.rank_route.WEIGHTS.clear()
    ws = build(args.home)
    index = ws.retriever.index
    print(f"{len(index.chunks)} passages; ranking {index.ranking_id or index.embedder_id}", file=sys.stderr)
    by_set = sets()
    items = [(s, i) for s in WRITE + CHECK for i in by_set[s]]
    qvs = ws.retriever.query_vectors([i.question for _, i in items])
    variants: dict = {"default": lambda index, q, qv: fused_scores(index, q, qv)}
    if args.variants:
        import rank_variants

        rank_variants.EMBEDDER = ws.embedder
        variants.update({n: f for n, f in rank_variants.VARIANTS.items()
                         if args.variants == "all" or n in args.variants.split(",")})
    for name, fn in variants.items():
        ranks: dict[str, list[int | None]] = {s: [] for s in WRITE + CHECK}
        for (s, item), qv in zip(items, qvs, strict=True):
            r = page_rank(index, fn(index, item.question, qv), item)
            ranks[s].append(r)
            if args.misses and s in WRITE and r != 1:
                print(f"  miss {name} {s} rank={r} {item.source} p{item.pages}: {item.question}")
        report(name, ranks)
    if args.ask:
        from kb.ask import ask
        from kb.evaluate import evaluate_ask

        for half, names in (("WRITE", WRITE), ("CHECK", CHECK)):
            r = evaluate_ask(lambda q: ask(ws, q, k=5), [i for s in names for i in by_set[s]])
            print(f"kb ask {half}: n={r['n']} correct {r['correct']:.3f} partly {r['partly']:.3f} wrong "
                  f"{r['wrong']:.3f} not-found {r['not_found']:.3f} page hit@1 {r['page_hit@1']:.3f} "
                  f"hit@5 {r['page_hit@5']:.3f}", flush=True)


if __name__ == "__main__":
    main()
