"""What the checks for dropped forms (kb/writing/checks_drop.py) flag of round 8's ratings, per check and per
half of the decks: R8A/R8B rated flashattn, openmp, rag, continual, pyspark (the half the checks were written
on), R8C/R8D rated nas, gradclip, webdataset, torchscript, llmeval (the half they were checked on). A rating
counts once per version it applies to (as stats.py counts). "before" is what kb eval quiz flagged at rating
time (quizzes/eval-quiz-*.json); "after" adds what the new checks flag. With ``--eval-dir DIR``, "before" is
what the ``kb eval quiz --json`` outputs in DIR flag (eval-quiz-DECK.V.json, as /work/notes/r8_gen.sh writes them
in a workspace where the decks are ingested) and "after" adds nothing: run it on the outputs of each checkout.

    python eval/real_heldout_r8/flag_drops.py [--eval-dir DIR]
"""

from __future__ import annotations

import argparse
import csv
import json
from collections import Counter
from pathlib import Path

from kb.quiz import load_quiz
from kb.writing.checklist import DROP_CHECKS

HERE = Path(__file__).resolve().parent


def load(eval_dir: Path | None) -> tuple[dict, dict]:
    """Round 8's questions by (version, id), and whether kb eval quiz flagged each: the committed outputs,
    or those in ``eval_dir``."""
    questions, before = {}, {}
    evals = sorted(eval_dir.glob("eval-quiz-*.json")) if eval_dir else []
    for path in [*sorted((HERE / "quizzes").glob("*.json")), *evals]:
        if not path.name.startswith("eval-quiz-"):
            v = path.stem.rsplit(".", 1)[1]
            questions.update({(v, q.id): q for q in load_quiz(path).questions})
        elif (eval_dir is None) == (path.parent == HERE / "quizzes"):  # (not the other outputs)
            v = path.stem.rsplit(".", 1)[1]
            for row in json.loads(path.read_text())["per_question"]:
                before[(v, row["id"])] = bool(row["defects"]) or not row["supported"]
    return questions, before


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--eval-dir", type=Path, help="kb eval quiz --json outputs to count instead of quizzes/eval-quiz-*")
    args = ap.parse_args()
    questions, before = load(args.eval_dir)
    counts: Counter = Counter()
    for r in csv.DictReader((HERE / "ratings.csv").open()):
        half = "AB" if r["rater"] in ("R8A", "R8B") else "CD"
        for v in ("a", "b"):
            q = questions.get((v, r["question_id"]))
            if q is None:  # (stats.py counts a rating for each version whose quiz holds the question)
                continue
            hit = [] if args.eval_dir else [name for name, check in DROP_CHECKS.items() if check(q)]
            was = before.get((v, q.id), False)
            counts[(half, r["verdict"], "all")] += 1
            counts[(half, r["verdict"], "before")] += was
            counts[(half, r["verdict"], "after")] += was or bool(hit)
            for name in hit:
                counts[(half, r["verdict"], name)] += 1
    names = ["before", "after", *DROP_CHECKS]
    for half in ("AB", "CD", "both"):
        print(f"== {half}" + (" (written on)" if half == "AB" else " (checked on)" if half == "CD" else ""))
        for verdict in ("DROP", "FIX", "KEEP"):
            def n(key: str, verdict: str = verdict, half: str = half) -> int:
                return sum(counts[(h, verdict, key)] for h in ("AB", "CD") if half in (h, "both"))
            shown = [f"{k} {n(k)}" for k in names if n(k) or k in ("before", "after")]
            print(f"  {verdict} {n('all')}: " + ", ".join(shown))


if __name__ == "__main__":
    main()
