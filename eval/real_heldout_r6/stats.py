"""Round 6 of quiz ratings: ten NEW decks (eval/heldout_decks/, the ten named in
eval/heldout_key_ideas_r6.json), written with their key ideas by two fresh teacher-helpers before kb
ran on them, and two quiz versions rated blind in one packet by four fresh raters (two per half):

    a = main at 1d1d7c0 (the start of round 3, session 15), b = after session 15's writer work.

A question both versions wrote is rated once and counts for both. Prints, per version and rater:
written / asked, KEEP, KEEP or FIX, the key ideas asked (a rater listed, per idea, every question that
asks its main point; an idea counts for a version when one of its questions is in that version's quiz),
decks with >= 10 questions, and how many DROPs `kb eval quiz` flags (eval-quiz-*.json, run at the
commit named in README.md).

    python eval/real_heldout_r6/stats.py
"""

from __future__ import annotations

import csv
import json
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
VERSIONS = {"a": "main 1d1d7c0 (before)", "b": "after session 15"}


def quiz_ids(version: str, here: Path = HERE) -> dict[str, set[str]]:
    """Per deck (file stem), the question ids of that version's quiz."""
    return {p.name.split(".")[0]: {q["id"] for q in json.loads(p.read_text(encoding="utf-8"))["questions"]}
            for p in sorted((here / "quizzes").glob(f"*.{version}.json")) if not p.name.startswith("eval-quiz-")}


def flagged(version: str, here: Path = HERE) -> dict[str, bool]:
    out: dict[str, bool] = {}
    for p in sorted((here / "quizzes").glob(f"eval-quiz-*.{version}.json")):
        for q in json.loads(p.read_text(encoding="utf-8"))["per_question"]:
            out[q["id"]] = bool(q["defects"]) or not q["supported"]
    return out


def main(here: Path = HERE, versions: dict[str, str] = VERSIONS) -> None:
    """The numbers of a round whose folder ``here`` holds ratings.csv, coverage.csv and quizzes/ (DECK.V.json)."""
    ratings = list(csv.DictReader(open(here / "ratings.csv", encoding="utf-8")))
    coverage = list(csv.DictReader(open(here / "coverage.csv", encoding="utf-8")))
    verdict: dict[str, dict[str, str]] = defaultdict(dict)   # rater -> id -> verdict
    deck_of: dict[str, str] = {}
    for r in ratings:
        verdict[r["rater"]][r["question_id"]] = r["verdict"]
        deck_of[r["question_id"]] = r["deck"]
    for v, label in versions.items():
        ids = quiz_ids(v, here)
        flags = flagged(v, here)
        every = set().union(*ids.values())
        print(f"== version {v}: {label}")
        print("  written per deck (of 12):", ", ".join(f"{d} {len(q)}" for d, q in ids.items()),
              f"= {len(every)}; decks with >= 10: {sum(len(q) >= 10 for q in ids.values())} of {len(ids)}")
        pooled: Counter = Counter()
        for rater, vs in sorted(verdict.items()):
            mine = [q for q in every if q in vs]
            c = Counter(vs[q] for q in mine)
            pooled.update(c)
            drops = [q for q in mine if vs[q] == "DROP"]
            print(f"  {rater} ({len(mine)} rated): KEEP {c['KEEP']} ({c['KEEP'] / len(mine):.0%}), FIX {c['FIX']}, "
                  f"DROP {c['DROP']}; KEEP or FIX {(c['KEEP'] + c['FIX']) / len(mine):.0%}; "
                  f"kb eval quiz flags {sum(flags.get(q, False) for q in drops)} of {len(drops)} DROPs")
        n = sum(pooled.values())
        kept_or_fixed = (pooled["KEEP"] + pooled["FIX"]) / n
        print(f"  all ratings ({n}): KEEP {pooled['KEEP'] / n:.0%}, KEEP or FIX {kept_or_fixed:.0%}")
        for rater in sorted({r["rater"] for r in coverage}):
            rows = [r for r in coverage if r["rater"] == rater]
            asked = [r for r in rows if set(filter(None, r["question_ids"].replace(",", ";").split(";")))
                     & ids.get(r["deck"].removesuffix(".pdf"), set())]
            per_deck = Counter(r["deck"] for r in asked)
            decks = sorted({r["deck"] for r in rows})
            print(f"  {rater}: key ideas asked {len(asked)} of {len(rows)}; decks with >= 4 of 5: "
                  f"{sum(per_deck[d] >= 4 for d in decks)} of {len(decks)}")


if __name__ == "__main__":
    main()
