"""Convert the PT_ASAG 2018 benchmark (../shared/benchmarks/pt_asag_2018) into the CSV that
`kb eval grader` reads: question, reference (one acceptable answer per line), answer, score,
concepts (;-separated), plus question_id.

    python bench/pt_asag_to_csv.py --split dev  -o /tmp/asag-dev.csv   # questions 36-42: calibrate here
    python bench/pt_asag_to_csv.py --split test -o /tmp/asag-test.csv  # questions 43-50: report here

The benchmark is CC BY-NC-SA 4.0 and stays outside the project: the CSVs go wherever -o says.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import defaultdict
from pathlib import Path


def _find_default() -> Path:
    """../shared/benchmarks/pt_asag_2018 beside the checkout, or beside a folder above it (a git worktree)."""
    root = Path(__file__).resolve().parent.parent
    for up in root.parents:
        if (up / "shared" / "benchmarks" / "pt_asag_2018").is_dir():
            return up / "shared" / "benchmarks" / "pt_asag_2018"
    return root.parent / "shared" / "benchmarks" / "pt_asag_2018"


DEFAULT = _find_default()
SPLITS = {"dev": range(36, 43), "test": range(43, 51), "all": range(36, 51)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=DEFAULT)
    ap.add_argument("--split", choices=SPLITS, default="test")
    ap.add_argument("-o", "--out", type=Path, required=True)
    args = ap.parse_args()
    if not args.data.is_dir():
        print(f"{args.data}: not found — pass --data DIR with the benchmark's CSV files", file=sys.stderr)
        return 2

    def rows(name):
        with (args.data / name).open(encoding="utf-8", newline="") as f:
            return list(csv.DictReader(f))

    questions = {int(r["question_id"]): r["question_text"] for r in rows("questions.csv")}
    refs, concepts = defaultdict(list), defaultdict(list)
    for r in rows("reference_answers.csv"):
        refs[int(r["question_id"])].append(r["refans_text"].strip())
    for r in rows("concepts.csv"):
        concepts[int(r["question_id"])].append(r["concept_text"].strip())
    keep = set(SPLITS[args.split])
    n = 0
    with args.out.open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["question_id", "question", "reference", "answer", "score", "concepts"])
        for r in rows("student_answers_and_grades_v2.csv"):
            qid = int(r["question_id"])
            if qid in keep:
                w.writerow([qid, questions[qid], "\n".join(refs[qid]), r["answer_text"], r["grade"],
                            "; ".join(concepts[qid])])
                n += 1
    print(f"wrote {n} rows ({args.split}: questions {min(keep)}-{max(keep)}) to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
