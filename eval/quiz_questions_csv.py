"""The distinct questions of the review quizzes, unrated, for an independent rater.

    python eval/quiz_questions_csv.py /path/to/scratch/quizzes out.csv [QUIZ ...]

QUIZ names a quiz file in the folder without ``.json`` (default: the offline review quizzes;
``llm-03Datos llm-05modelos`` for bench/llm_writer.py's).

One row per distinct question (the same question in two quizzes, options in another order,
is listed once, under the id of its first appearance): question_id, source, locator, type,
prompt, choices (multiple choice, " | "-joined), answer (multiple choice: the right option),
concepts (" | "-joined) and the quizzes it is in. The review quizzes found in the folder are
read (those of QUIZZES that exist; at least one). No rating column: the rater adds one.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

QUIZZES = ["review-03Datos-n12", "review-05modelos-n12", "review-course-n20", "review-03Datos-n30",
           "review-05modelos-n30", "review-001TFDist-n12"]


def main(folder: Path, out: Path, quizzes: list[str] | None = None) -> None:
    rows: dict[tuple, dict] = {}
    for name in quizzes or QUIZZES:
        path = folder / f"{name}.json"
        if not path.exists():
            sys.exit(f"{path}: missing; regenerate the quizzes with the commands in eval/quiz_review.md "
                     "(llm-*: bench/llm_writer.py)")
        for q in json.loads(path.read_text(encoding="utf-8"))["questions"]:
            key = (q["type"], q["prompt"], tuple(sorted(q.get("choices") or ())), q["answer"])
            if key in rows:
                rows[key]["quizzes"] += f" {name}"
                continue
            cit = (q.get("citations") or [{}])[0]
            answer = q["choices"][q["correct"]] if q["type"] == "mcq" else q["answer"]
            rows[key] = {"question_id": q["id"], "source": cit.get("source", ""), "locator": cit.get("locator", ""),
                         "type": q["type"], "prompt": q["prompt"], "choices": " | ".join(q.get("choices") or ()),
                         "answer": answer, "concepts": " | ".join(q.get("concepts") or ()), "quizzes": name}
    with out.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=["question_id", "source", "locator", "type", "prompt", "choices", "answer",
                                          "concepts", "quizzes"])
        w.writeheader()
        w.writerows(rows.values())
    by_src: dict[str, int] = {}
    for r in rows.values():
        by_src[r["source"]] = by_src.get(r["source"], 0) + 1
    print(f"{len(rows)} distinct questions → {out}: " + ", ".join(f"{s} {n}" for s, n in sorted(by_src.items())))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:])
