"""The quiz-rating numbers the README quotes, recomputed from eval/ratings.csv and checked against it:

    python eval/numbers.py          # prints each number and whether README.md says it; exit 1 if one differs

A question's raters share it (two raters, one KEEP: half a question kept). "Written" counts the
questions of the writer a split measured (`measured` = yes); a blind packet's questions that only an
older commit wrote are rated but not counted (eval/MANIFEST.md).
"""

from __future__ import annotations

import csv
import sys
from collections import defaultdict
from pathlib import Path

EVAL = Path(__file__).resolve().parent
README = EVAL.parent / "README.md"
D_AJ = ("D E F G H I J K L M N O PQ R S T U V W X Y Z AA AB AC AD AE AF AG AH AI AJ").split()


def questions(where) -> list[list[dict]]:
    """The rated questions (each a list of its ratings, one per rater) whose ratings pass ``where``."""
    by: dict[tuple[str, str], list[dict]] = defaultdict(list)
    with (EVAL / "ratings.csv").open(encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if where(r):
                by[(r["source_file"], r["row"])].append(r)
    return list(by.values())


def pct(x: float) -> str:
    """A share as the README writes it: "16 %"."""
    return f"{round(100 * x)} %"


def share(qs: list[list[dict]], *verdicts: str) -> float:
    """How many questions the raters gave one of ``verdicts``, each rater's share 1 / (raters)."""
    return sum(sum(r["verdict"] in verdicts for r in q) / len(q) for q in qs)


def per_rater(qs: list[list[dict]]) -> str:
    """KEEP count per rater, in the order they appear: "17 / 23 … and 15 / 23 …"."""
    keep: dict[str, int] = defaultdict(int)
    for q in qs:
        for r in q:
            keep[r["rater"]] += r["verdict"] == "KEEP"
    return " and ".join(f"{k} / {len(qs)} = {pct(k / len(qs))}" for k in keep.values())


def numbers() -> list[tuple[str, str]]:
    """(what, the text the README says) for each number."""
    held = questions(lambda r: r["split"] in D_AJ and r["measured"] == "yes")
    n, keep, usable = len(held), share(held, "KEEP"), share(held, "KEEP", "FIX")
    newest = questions(lambda r: r["split"] in ("AI", "AJ"))
    both = sum(all(r["verdict"] == "KEEP" for r in q) for q in newest)
    review = questions(lambda r: r["source_file"] == "quiz_review_v14.csv")
    llm = questions(lambda r: r["backend"].startswith("llm"))
    llm_keep = {sum(r["verdict"] == "KEEP" for q in llm for r in q if r["rater"] == x) for x in ("6K", "6L")}
    return [
        ("held-out splits D–AJ, KEEP of those written", f"**{pct(keep / n)} of those written** ({keep:g} of {n})"),
        ("held-out splits D–AJ, KEEP or FIX", f"{pct(usable / n)} KEEP or FIX"),
        ("splits AI and AJ, kept by both raters", f"{both} of {len(newest)} (both raters)"),
        ("review decks 03Datos + 05modelos, v14, KEEP per rater", per_rater(review)),
        ("LLM writer, KEEP per rater", f"{'/'.join(map(str, sorted(llm_keep)))} / {len(llm)} for both raters"),
    ]


def main() -> int:
    readme = README.read_text(encoding="utf-8")
    bad = 0
    for what, text in numbers():
        ok = text in readme
        bad += not ok
        print(f"{'ok  ' if ok else 'DIFF'} {what}: {text}")
    if bad:
        print(f"\n{bad} number(s) not found in {README.name} as written: update the README or the ratings",
              file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
