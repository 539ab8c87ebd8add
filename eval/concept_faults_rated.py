"""How often :func:`kb.writing.concept_faults.concept_fault` finds a concept no teacher keeps among rated short
questions (issue 26, concepts27): per verdict, the ratings whose concepts hold one, and, of the FIX ratings whose
reason names the concepts, the fault classes found.

    python eval/concept_faults_rated.py            # rounds 11 (version b) and 12 (version c), the rules' write set
    python eval/concept_faults_rated.py r9:c r10:c  # ROUND:VERSION pairs
"""

from __future__ import annotations

import csv
import sys
from collections import Counter
from pathlib import Path

from kb.writing.concept_faults import concept_fault

HERE = Path(__file__).resolve().parent


def main() -> None:
    pairs = [a.split(":") for a in sys.argv[1:]] or [["r11", "b"], ["r12", "c"]]
    rated: Counter[str] = Counter()
    flagged: Counter[str] = Counter()
    classes: Counter[str] = Counter()
    for rnd, version in pairs:
        with open(HERE / f"real_heldout_{rnd}" / "ratings.csv", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                if version not in row["versions"].split() or row["type"] != "short":
                    continue
                lang = "pt" if row["deck"].endswith("_pt") else "es"
                faults = {x for c in row["concepts"].split(";") if (x := concept_fault(c.strip(), lang))}
                rated[row["verdict"]] += 1
                flagged[row["verdict"]] += bool(faults)
                if row["verdict"] == "FIX" and "concept" in row["reason"].lower():
                    classes.update(faults)
    counts = " ".join(f"{v}: {flagged[v]} of {rated[v]}" for v in ("KEEP", "FIX", "DROP"))
    print(counts, "ratings with a faulty concept")
    print("FIX ratings that name the concepts, by class:", dict(classes.most_common()))


if __name__ == "__main__":
    main()
