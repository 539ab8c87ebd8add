"""How often real replies hit a short answer's concepts: the teacher's concepts of the grading CSVs against the
concepts kb.writing.answer_points gives the same reference answers (issue 26, concepts28). Replies a teacher scored
3 (right) should hit most, replies scored 0 (wrong) few; longer concepts must not leave a right reply unmatched.

    python eval/answer_points_hits.py
"""

from __future__ import annotations

import csv
from pathlib import Path

from kb.grading.signals import concept_hits
from kb.writing.answer_points import point_concepts

ROOT = Path(__file__).resolve().parent


def _share(concepts: list[str], reply: str) -> float | None:
    if not concepts:
        return None
    present, missing = concept_hits(concepts, reply)
    return len(present) / (len(present) + len(missing) or 1)


def main() -> None:
    rows = []
    for f in sorted(ROOT.glob("grading_course_heldout*.csv")) + [ROOT / "grading_course.csv"]:
        if "second_rater" not in f.name:
            with f.open(encoding="utf-8", newline="") as fh:
                rows += [r for r in csv.DictReader(fh) if r.get("kind") != "other_lang"]
    for score in ("3", "2", "1", "0"):
        teacher = points = 0.0
        n = skipped = 0
        for r in rows:
            if r["score"] != score:
                continue
            own = [c.strip() for c in r["concepts"].split(";") if c.strip()]
            a = _share(own, r["answer"])
            b = _share(list(point_concepts(r["reference"], r["question"], r["lang"])), r["answer"])
            if a is None or b is None:
                skipped += 1
                continue
            teacher, points, n = teacher + a, points + b, n + 1
        if not n:
            print(f"score {score}: no replies with concepts ({skipped} without)")
            continue
        print(f"score {score}: {n} replies ({skipped} without concepts): share of concepts hit, "
              f"teacher's {teacher / n:.2f}, answer points {points / n:.2f}")


if __name__ == "__main__":
    main()
