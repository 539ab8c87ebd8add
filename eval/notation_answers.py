"""How raters kept and dropped objective questions whose answer is a formula's symbol (kb's ``notation-answer``
check, kb/writing/check_objective_kind.py: a cloze's blank or a multiple choice's key such as "alpha_t", "U_jj", that
its deck, eval/heldout_decks/DECK.txt, does not write as code), against the other clozes and multiple choices, on the
rounds named.

    python eval/notation_answers.py 14-31      # where the check was not written (it was read on 32-33)

Every rater's verdict on a question is one sample (eval/real_heldout_rN/ratings.csv, every version rated)."""

from __future__ import annotations

import csv
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from form_keep import deck_text, rounds  # noqa: E402

from kb.writing.check_objective_kind import notation_symbol  # noqa: E402

EVAL = Path(__file__).resolve().parent


def main(span: str = "14-31") -> None:
    counts: dict[tuple[str, bool], Counter] = {}
    names: dict[tuple[str, bool], set[str]] = {}
    for r in rounds(span):
        f = EVAL / f"real_heldout_r{r}" / "ratings.csv"
        if not f.exists():
            continue
        for row in csv.DictReader(f.open(encoding="utf-8")):
            if row["type"] not in ("cloze", "mcq"):
                continue
            key = (row["type"], notation_symbol(row["answer"], deck_text(row.get("deck", ""))))
            counts.setdefault(key, Counter())[row["verdict"]] += 1
            if key[1]:
                names.setdefault(key, set()).add(row["answer"].strip())
    if not counts:
        sys.exit(f"notation_answers: no rated cloze or multiple choice in rounds {span}")
    for (qtype, symbol), c in sorted(counts.items()):
        n = sum(c.values())
        print(f"{qtype:5s} {'symbol' if symbol else 'other ':6s} n={n:4d} KEEP {c['KEEP'] / n:4.0%} "
              f"DROP {c['DROP'] / n:4.0%}  {' '.join(sorted(names.get((qtype, symbol), ())))}")


if __name__ == "__main__":
    main(*sys.argv[1:2])
