"""Build eval/ratings.csv, one row per (question, rater), from the per-split rating files
`eval/quiz_review*.csv` (about six layouts, the rater's id inside the column names):

    python eval/ratings_convert.py            # writes eval/ratings.csv from the quiz_review*.csv files
    python eval/ratings_convert.py --check    # proves that eval/ratings.csv holds every cell of every file

The per-split files were removed once `--check` passed (the commit "eval: ratings.csv replaces the 50
per-split rating files"); to see them or rerun this script, restore them from the commit before it:
`git checkout b4580b2 -- 'eval/quiz_review*.csv'` (b4580b2: "eval: one long ratings file …").
`source_file` and `row` give each rating's file and row there, so the journal's and the tests'
references to those files still resolve.
"""

from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

EVAL = Path(__file__).resolve().parent
OUT = EVAL / "ratings.csv"
FIELDS = ["source_file", "row", "split", "held_out", "writer", "measured", "rater", "question_id", "verdict",
          "reason", "deck", "locator", "type", "prompt", "choices", "answer", "concepts", "quizzes", "backend"]
# the columns of the old files other than the ratings, in the long file under the same name
# ("source" is called "deck"; the v6_llm file's "writer" column is called "backend")
RENAMED = {"source": "deck", "writer": "backend"}

# the writer each held-out split measured (eval/quiz_review.md, the split table); "A" is the file with no suffix
SPLIT_WRITER = {
    "A": "v6", "B": "v6", "C": "v6", "D": "v7 first cut", "E": "v7 second cut", "F": "v7 third cut",
    "G": "v7 fourth cut", "H": "v7 fifth cut", "I": "v7", "J": "v7", "K": "v8 second cut", "L": "v8 third cut",
    "M": "v8 fourth cut", "N": "v8", "O": "v8 (91298de)", "PQ": "v9 (2be9e19)", "R": "v9 (5ce04cc)",
    "S": "v9 (fe55e28)", "T": "v9 (2e9e536)", "U": "v10 (167019d)", "V": "v10 (d22daee)", "W": "v10",
    "X": "v10", "Y": "v10", "Z": "v11 (bc5f774)", "AA": "v11 (c93bac6)", "AB": "v12 (152cb30)",
    "AC": "v13 (cd9af1a)", "AD": "v13 (a4e6c4a)", "AE": "v13 (5c7cca4)", "AF": "v13 (874820a)",
    "AG": "v14 (8d7823a)", "AH": "v14 (a20dd0b)", "AI": "v15 first cut", "AJ": "v15",
}
# splits rated blind beside an older commit: a question only that commit wrote ("base-…" quizzes only)
# is rated but not measured (the README's "written" counts leave it out)
BLIND_BASE = {"U": "v9 (47e9835)", "AB": "36f47dd", "AC": "36f47dd", "AD": "36f47dd"}
# files rated on the review decks (tuned on): the writer, and the rater of a file with one rating column
TUNING = {
    "quiz_review.csv": ("v1", "author"), "quiz_review_independent.csv": ("v1", None),
    "quiz_review_independent_v2.csv": ("v2", "2"), "quiz_review_independent_v3.csv": ("v3", "3"),
    "quiz_review_independent_v4.csv": ("v4", None), "quiz_review_independent_v5.csv": ("v5", None),
    "quiz_review_independent_v6a.csv": ("v6 first cut (a6369e3)", None),
    "quiz_review_independent_v6.csv": ("v6 second cut (0a01de6)", None),
    "quiz_review_independent_v6_final.csv": ("v6 third cut (81586b7)", None),
    "quiz_review_independent_v6_llm.csv": ("v6", None), "quiz_review_v7.csv": ("v7", None),
    "quiz_review_v13.csv": ("v13", None), "quiz_review_v14.csv": ("v14", None),
    "quiz_review_equations.csv": ("v11 '=' definitions", None), "quiz_review_new_clozes.csv": ("v14 cloze fix", None),
    "quiz_review_arrows.csv": ("v15 arrows", None),
}
# the journal names the raters of these files "4A", "5C", "6E" …: the file's rating_A is rater 4A
RATER_PREFIX = {"quiz_review_independent_v4.csv": "4", "quiz_review_independent_v5.csv": "5",
                "quiz_review_independent_v6a.csv": "6", "quiz_review_independent_v6.csv": "6",
                "quiz_review_independent_v6_final.csv": "6", "quiz_review_independent_v6_llm.csv": "6"}
_HELDOUT = re.compile(r"quiz_review_heldout_decks(?:_(\w+))?\.csv")


def ratings_of(header: list[str], single_rater: str | None) -> list[tuple[str, str, str]]:
    """(rater id, rating column, reason column) of one layout; a rater column names the rater per row."""
    out = []
    for col in header:
        if m := re.fullmatch(r"rating_(\w+)", col):
            out.append((m.group(1), col, f"reason_{m.group(1)}"))
    if "author_rating" in header:  # the first independent rating beside the author's
        out += [("author", "author_rating", ""), ("1", "independent_rating", "independent_reason")]
    if "rating" in header:
        out.append((single_rater or "?", "rating", "reason"))
    return out


def split_of(path: Path, row: dict) -> str:
    """The held-out split of a row, or "" for a review deck (tuned on)."""
    if m := _HELDOUT.fullmatch(path.name):
        return (m.group(1) or "a").upper()
    if path.name == "quiz_review_v7.csv" and any(d in row["source"] for d in ("ray_es", "tfdata_pt")):
        return "F"  # the held-out split rated blind beside the review decks
    return ""


def convert() -> list[dict]:
    out = []
    files = sorted(EVAL.glob("quiz_review*.csv"))
    if not files:
        sys.exit("eval/quiz_review*.csv: none here (eval/ratings.csv holds them); to rerun, restore them with "
                 "git checkout b4580b2 -- 'eval/quiz_review*.csv'")
    for path in files:
        rows = list(csv.DictReader(path.open(encoding="utf-8")))
        header = list(rows[0])
        writer, single = TUNING.get(path.name, ("", None))
        cols = ratings_of(header, single)
        rating_cols = {c for _, a, b in cols for c in (a, b)} | {c for c in header if re.fullmatch(r"rater_\d", c)}
        for i, row in enumerate(rows, 1):
            split = split_of(path, row)
            quizzes = row.get("quizzes", "").split()
            base_only = bool(quizzes) and all(q.startswith("base-") for q in quizzes)
            w = SPLIT_WRITER.get(split, writer)
            if split in BLIND_BASE and base_only:
                w = BLIND_BASE[split]
            if split == "F" or (split in ("AI", "AJ") and len(quizzes) > 1):
                w = {"F": "v7 third cut", "AI": "v14 and v15 first cut", "AJ": "v14 and v15"}[split]
            for rater, rcol, why in cols:
                if m := re.fullmatch(r"rating_(\d)", rcol):  # the rater's id is in the rater_N column
                    rater = row[f"rater_{m.group(1)}"]
                rater = RATER_PREFIX.get(path.name, "") + rater
                rec = {"source_file": path.name, "row": i, "split": split, "held_out": "yes" if split else "no",
                       "writer": w, "measured": "no" if split in BLIND_BASE and base_only else "yes",
                       "rater": rater, "question_id": row["question_id"], "verdict": row[rcol],
                       "reason": row.get(why, "")}
                for k, v in row.items():
                    if k not in rating_cols and k != "question_id":
                        rec[RENAMED.get(k, k)] = v
                out.append(rec)
    return out


def check() -> int:
    """Rebuild every old file's cells from eval/ratings.csv and compare them with the file."""
    long = list(csv.DictReader(OUT.open(encoding="utf-8")))
    by: dict[tuple[str, int], list[dict]] = {}
    for r in long:
        by.setdefault((r["source_file"], int(r["row"])), []).append(r)
    bad = 0
    files = sorted(EVAL.glob("quiz_review*.csv"))
    for path in files:
        for i, row in enumerate(csv.DictReader(path.open(encoding="utf-8")), 1):
            recs = by.pop((path.name, i), [])
            cells = {v for k, v in row.items() if k and not re.fullmatch(r"rater_\d", k)} - {""}
            held = {v for r in recs for k, v in r.items() if k not in ("source_file", "row")} - {""}
            if not recs or not cells <= held or any(r["question_id"] != row["question_id"] for r in recs):
                bad += 1
                print(f"{path.name} row {i}: not in {OUT.name}", file=sys.stderr)
    bad += len(by)
    fresh = [{k: str(r.get(k, "")) for k in FIELDS} for r in convert()]
    if fresh != long:
        bad += 1
        print(f"{OUT.name} is not what this script makes of the files: rerun it without --check", file=sys.stderr)
    print(f"{len(files)} files, {len(long)} ratings: {'every cell held' if not bad else f'{bad} rows differ'}")
    return 1 if bad else 0


def main() -> int:
    if "--check" in sys.argv:
        return check()
    rows = convert()
    with OUT.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS, extrasaction="raise")
        w.writeheader()
        for r in rows:
            w.writerow({k: r.get(k, "") for k in FIELDS})
    print(f"wrote {OUT}: {len(rows)} ratings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
