"""Round 3 on the three real held-out decks (../shared/heldout_decks/): what two fresh raters kept of
the offline quizzes, how many of the decks' key ideas (eval/heldout_key_ideas.json, written before kb
ran on the decks) the quizzes ask, and how many of the questions raters dropped `kb eval quiz` flags.

    python eval/real_heldout_r3/stats.py [FOLDER]   # FOLDER: a later round's (eval/real_heldout_r4, …_r5)

The quizzes were made with `kb ingest decks/ && kb quiz generate -n 12 --offline --source decks/DECK.pdf`
(the commit is in each quiz's file), `kb eval quiz --json` wrote eval-quiz-*.json, and each rater saw
the packet of eval/rater_packet.py (the questions with their cited page as the PDF shows it).
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(here: Path = HERE) -> None:
    ratings = list(csv.DictReader(open(here / "ratings.csv", encoding="utf-8")))
    flagged = {}
    written = {}
    for f in sorted(here.glob("eval-quiz-*.json")):
        e = json.loads(f.read_text(encoding="utf-8"))
        written[f.stem[len("eval-quiz-"):]] = (e["n"], e["asked"])
        for q in e["per_question"]:
            flagged[q["id"]] = bool(q["defects"]) or not q["supported"]
    print("written / asked:", ", ".join(f"{k} {n}/{a}" for k, (n, a) in written.items()),
          f"= {sum(n for n, _ in written.values())}/{sum(a for _, a in written.values())}")
    by_rater: dict[str, dict[str, str]] = {}
    for r in ratings:
        by_rater.setdefault(r["rater"], {})[r["question_id"]] = r["verdict"]
    for rater, v in by_rater.items():
        c = Counter(v.values())
        n = len(v)
        drops = [q for q, x in v.items() if x == "DROP"]
        caught = sum(flagged.get(q, False) for q in drops)
        print(f"{rater}: KEEP {c['KEEP']} ({c['KEEP'] / n:.0%}), FIX {c['FIX']}, DROP {c['DROP']}; "
              f"KEEP or FIX {(c['KEEP'] + c['FIX']) / n:.0%}; kb eval quiz flags {caught} of its {len(drops)} DROPs")
    a, b = by_rater.values()
    both = sum(a[q] == b[q] == "KEEP" for q in a)
    print(f"both KEEP: {both} of {len(a)}; same verdict: {sum(a[q] == b[q] for q in a)}")
    cov = list(csv.DictReader(open(here / "coverage.csv", encoding="utf-8")))
    for rater in by_rater:
        rows = [r for r in cov if r["rater"] == rater]
        print(f"{rater}: key ideas asked {sum(r['covered'].strip().lower() == 'yes' for r in rows)} of {len(rows)}")


if __name__ == "__main__":
    import sys

    main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE)
