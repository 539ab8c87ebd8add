"""How many of the objective questions (mcq, tf) fresh raters rated in rounds 8–10 do the registry's checks flag?

    python eval/flag_objective_ratings.py                    # rounds 8, 9, 10: distinct questions per verdict
    python eval/flag_objective_ratings.py --rounds 10 --list # each question, its ratings and what flags it
    python eval/flag_objective_ratings.py --rounds 14 15 16 --types mcq tf cloze --newest --any
        # ratings of each round's newest version (eval/rating_round.py NEWEST), cloze too, any defect

Each distinct rated question (deck + stem) of ``eval/real_heldout_rN/ratings.csv`` is rebuilt as a
:class:`kb.quiz.Question` and checked as ``kb eval quiz`` checks it, with ``eval/flag_ratings.py``'s
:func:`~eval.flag_ratings.flag` (its deck rendered from ``eval/heldout_decks/``, its cited page as the passage,
the deck's text and outline; no embedder: the support test is lexical). A question counts under each verdict
it received (a question one rater kept and another dropped is both a KEEP and a DROP question). ``CHECKS``
(default: the two checks of :mod:`kb.writing.check_label_answer`) are the defects counted; ``--any`` counts
any defect.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CHECKS = ("label-answer", "answer-in-description")


def main() -> int:
    from eval.flag_ratings import flag

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", nargs="+", default=["8", "9", "10"])
    ap.add_argument("--any", action="store_true", help="count any defect, not only the label checks")
    ap.add_argument("--list", action="store_true", help="print each question with its ratings and defects")
    ap.add_argument("--types", nargs="+", default=["mcq", "tf"], help="question types counted (default: mcq tf)")
    ap.add_argument("--newest", action="store_true",
                    help="only ratings of the round's newest version (eval/rating_round.py NEWEST)")
    args = ap.parse_args()
    from eval.rating_round import NEWEST

    for rnd in args.rounds:
        path = ROOT / "eval" / f"real_heldout_r{rnd}" / "ratings.csv"
        rows = [dict(r, deck=r["deck"] + ".pdf", writer="", source_file=f"r{rnd}", quizzes="")
                for r in csv.DictReader(open(path, encoding="utf-8")) if r["type"] in args.types
                and (not args.newest or NEWEST[int(rnd)] in r.get("versions", "").split())]
        verdicts: dict[tuple[str, str], set[str]] = defaultdict(set)
        found: dict[tuple[str, str], list[str]] = {}
        for r, defects in flag(rows):
            key = (r["deck"], r["prompt"])
            verdicts[key].add(r["verdict"])
            found[key] = [d for d in defects if args.any or d in CHECKS]
        counts = []
        for v in ("DROP", "FIX", "KEEP"):
            mine = [k for k in verdicts if v in verdicts[k]]
            counts.append(f"{v} {sum(1 for k in mine if found[k])}/{len(mine)}")
        print(f"round {rnd} ({len(verdicts)} distinct {'/'.join(args.types)} questions, {len(rows)} ratings): flagged "
              + ", ".join(counts))
        if args.list:
            for k in sorted(verdicts, key=lambda k: (sorted(verdicts[k]), k)):
                print(f"  {'/'.join(sorted(verdicts[k])):<14} {k[0]:<18} {found[k] or '-'} | {k[1][-110:]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
