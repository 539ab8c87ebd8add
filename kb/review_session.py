"""`kb grade … --review`: the answer groups of grades-review.csv one by one in the terminal. Keys:
0–3 grade the group (saved at once in the teacher column), s skips it, q quits; Ctrl-C or Ctrl-D end
it too, every key already given being saved. The caller then re-runs the grading to apply them."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from .grading.base import MAX_POINTS
from .grading.review import read_review_sheet, save_teacher_grade


def review_groups(out_dir: Path, console, read: Callable[[str], str] | None = None) -> int:
    """Ask a grade for each group not yet graded; returns how many groups the teacher graded. The
    prompts go to ``console`` (stderr: stdout keeps the report); ``read`` reads a line."""
    if read is None:
        def read(prompt: str) -> str:
            console.print(prompt, end="", markup=False, highlight=False)
            return input()

    rows = [r for r in read_review_sheet(out_dir) if not r["teacher"].strip()]
    graded = 0
    for n, r in enumerate(rows, 1):
        why = f" ({r.get('why')})" if r.get("why") else ""
        console.print(f"\n[bold]group {n} of {len(rows)}[/] · question {r.get('question_id', '')} · "
                      f"{r.get('replies', '?')} replies · kb: {r.get('kb_points', '?')}/{MAX_POINTS}{why}")
        console.print(f"  «{r.get('representative', '')}»", markup=False, highlight=False)
        while True:
            try:
                key = read(f"grade 0-{MAX_POINTS}, s skip, q quit: ").strip().lower()
            except (EOFError, KeyboardInterrupt):
                return graded
            if key == "q":
                return graded
            if key == "s":
                break
            if key.isdigit() and 0 <= int(key) <= MAX_POINTS:
                save_teacher_grade(out_dir, r["group"].strip(), int(key))
                graded += 1
                break
            console.print(f"  type 0-{MAX_POINTS}, s or q", style="yellow")
    return graded
