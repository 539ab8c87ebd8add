"""Merge a rating round's raters' files into eval/real_heldout_rN/ratings.csv and coverage.csv.

    python eval/merge_ratings.py RATE_DIR eval/real_heldout_rN

RATE_DIR holds one folder per packet (P, Q, R, S …), each with the packet's `packet.csv` (eval/rater_packet.py --csv)
and each rater's `ratings_RATER.csv` (id,rating,reason) and `coverage_RATER.csv` (deck,idea_number,question_ids,
reason), as the rater prompt in each round's folder (`rater_prompt.md`) asks for. A rating's `versions` are the quiz
files' version letters the question is in (DECK.V.json). Says what is missing or unreadable and exits non-zero.

The round's pipeline (sessions 21-22): teachers write decks and key ideas (`teacher_prompt.md` in the round's folder),
committed before kb runs; `eval/deck_pdf.py` renders each deck; `kb ingest` and `kb quiz generate -n 12 --offline
--source decks/DECK.pdf -o DECK.V.json` per version (a checkout each: `git archive REV | tar -x`, `PYTHONPATH`); one
packet per teacher's decks (`eval/rater_packet.py WS QUIZZES… -o packet.md --csv packet.csv`, the decks' text and key
ideas beside it; since session 23 the CSV, which names the quiz files and so the versions, is written outside the
raters' folder and copied in after they are done); three fresh raters per packet; this script; `eval/rating_round.py`
and `eval/flag_rounds.py`.
"""

from __future__ import annotations

import csv
import sys
from collections import Counter
from pathlib import Path

FIELDS = ["rater", "question_id", "verdict", "reason", "deck", "locator", "type", "prompt", "choices", "answer",
          "concepts", "versions"]


def main(rate: Path, out: Path) -> int:
    ratings, coverage, problems = [], [], []
    packets = sorted(p for p in rate.iterdir() if (p / "packet.csv").is_file())
    if not packets:
        print(f"merge_ratings: no packet folder with packet.csv under {rate}", file=sys.stderr)
        return 2
    for pkt in packets:
        qs = {r["id"]: r for r in csv.DictReader(open(pkt / "packet.csv", encoding="utf-8"))}
        for f in sorted(pkt.glob("ratings_*.csv")):
            rater = f.stem.split("_", 1)[1]
            seen = set()
            for row in csv.DictReader(open(f, encoding="utf-8")):
                qid, verdict = row.get("id", "").strip(), row.get("rating", "").strip().upper()
                if qid not in qs or verdict not in ("KEEP", "FIX", "DROP"):
                    problems.append(f"{f.name}: {qid!r} {verdict!r}")
                    continue
                seen.add(qid)
                q = qs[qid]
                ratings.append({"rater": rater, "question_id": qid, "verdict": verdict,
                                "reason": row.get("reason", "").strip(), "deck": Path(q["source"]).stem,
                                "locator": q["locator"], "type": q["type"], "prompt": q["prompt"],
                                "choices": q["choices"], "answer": q["answer"], "concepts": q["concepts"],
                                "versions": " ".join(sorted({s.rsplit(".", 1)[1] for s in q["quizzes"].split()}))})
            if seen != set(qs):
                problems.append(f"{f.name}: {len(set(qs) - seen)} question(s) of the packet not rated")
        for f in sorted(pkt.glob("coverage_*.csv")):
            rater = f.stem.split("_", 1)[1]
            for row in csv.DictReader(open(f, encoding="utf-8")):
                deck = row["deck"].strip()
                ids = ";".join(x.strip() for x in row["question_ids"].replace(",", ";").split(";") if x.strip())
                coverage.append({"rater": rater, "deck": deck if deck.endswith(".pdf") else deck + ".pdf",
                                 "idea_number": row["idea_number"].strip(), "question_ids": ids,
                                 "reason": row.get("reason", "").strip()})
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "ratings.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=FIELDS)
        w.writeheader()
        w.writerows(ratings)
    with open(out / "coverage.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=["rater", "deck", "idea_number", "question_ids", "reason"])
        w.writeheader()
        w.writerows(coverage)
    print(f"{len(ratings)} ratings, {len(coverage)} coverage rows: {dict(Counter(r['verdict'] for r in ratings))}")
    for p in problems:
        print("merge_ratings:", p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python eval/merge_ratings.py RATE_DIR eval/real_heldout_rN")
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
