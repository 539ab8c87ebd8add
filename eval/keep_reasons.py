"""The classes of text behind round 11's FIX/DROP ratings of version b (issue 26, keep26): each reason is put in
the classes its words name — the model answer misses the stem's point, a garbled stem from a title class, concepts
that are fragments/labels/trivia, a stem not self-contained. A reason may name several classes.

    python eval/keep_reasons.py [eval/real_heldout_r11/ratings.csv] [version]
"""

from __future__ import annotations

import csv
import re
import sys
from collections import Counter

CLASSES = {
    "answer misses the point": r"answer (?:skips|misses|is only|gives only|only|lists only|covers only|does not|omits"
                               r"|is about|answers)|model answer|add .* to the answer|answer.*(?:sub-list|exceptions"
                               r"|last bullets|only the)",
    "garbled stem (title class)": r"garbled|ungrammatical|article|gender|\besta\b|\beste\b|reads oddly|awkward|"
                                  r"\bo duas\b|agreement|grammar|\bexplique o\b|\bexplica el\b|mistranslat",
    "concept fragment/label/trivia": (r"trivia|fragment|shard|replace (?:the )?(?:\w+ )?concepts?|concepts? [^.]*"
                                      r"(?:label|code|number|not (?:a )?key)"),
    "stem not self-contained": r"self-contained|without the slide|out of context|cannot (?:parse|know)|which example"
                               r"|demonstrative|\bthis\b.*refers|context",
}


def main() -> None:
    path = sys.argv[1] if len(sys.argv) > 1 else "eval/real_heldout_r11/ratings.csv"
    version = sys.argv[2] if len(sys.argv) > 2 else "b"
    counts: Counter[str] = Counter()
    n = 0
    for row in csv.DictReader(open(path, encoding="utf-8")):
        if version not in row["versions"].split(";") and version not in row["versions"]:
            continue
        if row["verdict"] not in ("FIX", "DROP"):
            continue
        n += 1
        hit = [c for c, rx in CLASSES.items() if re.search(rx, row["reason"], re.I)]
        counts.update(hit or ["other"])
    print(f"{path}: {n} FIX/DROP ratings of {version}")
    for c, k in counts.most_common():
        print(f"  {k:4d}  {c}")


if __name__ == "__main__":
    main()
