"""The third measure of the check registry: how many of the fresh raters' DROP / FIX / KEEP ratings of the
three real held-out decks (``eval/real_heldout_r{3,4,5}/ratings.csv``; rounds 6–7 rated other decks) it flags.

    python eval/flag_real_heldout.py                  # rounds 3, 4 and 5, per verdict
    python eval/flag_real_heldout.py --examples DROP  # the unflagged DROPs

Each rating is checked as :mod:`eval.flag_ratings` checks the older splits (its cited page as the passage,
the whole deck as the source, the deck's outline, the quiz it was in), the decks read from
``../shared/heldout_decks/``. These ratings have been read while checks were written: count them with
the ``write`` half, not as a report. The writers' own checks filtered these quizzes before the raters saw
them, so a flag here is a check added (or widened) since.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from eval import flag_ratings  # noqa: E402


def heldout_deck(deck: str, tmp: Path) -> Path | None:
    """A real held-out deck's PDF (``../shared/heldout_decks/NAME``), or None where it is absent."""
    p = flag_ratings.SHARED / "heldout_decks" / Path(deck).name
    return p if p.is_file() else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--examples", metavar="VERDICT", help="list the unflagged ratings of this verdict (DROP, FIX)")
    ap.add_argument("--flagged", metavar="VERDICT", help="list the flagged ratings of a verdict (KEEP: false alarms)")
    ap.add_argument("--no-embedder", action="store_true", help="lexical support only")
    args = ap.parse_args()
    embedder = None
    if not args.no_embedder:
        from kb.config import DEFAULT_EMBEDDER
        from kb.embeddings import get_embedder

        embedder = get_embedder(DEFAULT_EMBEDDER)
    rows = [r for n in (3, 4, 5) for f in [ROOT / "eval" / f"real_heldout_r{n}" / "ratings.csv"]
            for r in csv.DictReader(open(f, encoding="utf-8")) if r["verdict"] in ("KEEP", "FIX", "DROP")]
    flag_ratings.deck_file = heldout_deck  # (flag_ratings never reads these decks itself)
    done = [(r, [d for d in f if d != "thin-concepts"]) for r, f in flag_ratings.flag(rows, embedder)]
    for verdict, want in ((args.examples, False), (args.flagged, True)):
        if verdict:
            for r, f in done:
                if r["verdict"] == verdict and bool(f) == want:
                    print(f"[{r['split']}] {Path(r['deck']).name} {r['locator'][:30]} | {r['type']} | "
                          f"{r['prompt'][:140]} | A: {r['answer'][:80]} | {f} | {r['reason'][:120]}")
    counts = {v: [f for r, f in done if r["verdict"] == v] for v in ("DROP", "FIX", "KEEP")}
    print(f"real held-out r3–r5 ({len(done)} ratings): " + ", ".join(
        f"{v} {sum(1 for f in got if f)}/{len(got)} ({sum(1 for f in got if f) / max(1, len(got)):.0%})"
        for v, got in counts.items()))
    print("defects on DROPs:", dict(Counter(d for f in counts["DROP"] for d in set(f)).most_common()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
