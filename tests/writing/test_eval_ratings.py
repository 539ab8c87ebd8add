"""eval/ratings.csv, the one file of every teacher rating, and the README's numbers recomputed from it."""

from __future__ import annotations

import csv
import subprocess
import sys

from ..conftest import ROOT


def _questions() -> dict[tuple[str, str], list[dict]]:
    by: dict[tuple[str, str], list[dict]] = {}
    with (ROOT / "eval" / "ratings.csv").open(encoding="utf-8") as f:
        for r in csv.DictReader(f):
            by.setdefault((r["source_file"], r["row"]), []).append(r)
    return by


def test_ratings_hold_every_rated_question_of_the_fifty_files() -> None:
    qs = _questions()
    assert len(qs) == 1083  # the rows of the 50 quiz_review*.csv files it replaced
    assert len({f for f, _ in qs}) == 50
    assert {r["verdict"] for q in qs.values() for r in q} == {"KEEP", "FIX", "DROP"}
    # a question's raters are distinct people, and every held-out question has two
    for q in qs.values():
        assert len({r["rater"] for r in q}) == len(q)
        if q[0]["held_out"] == "yes":
            assert len(q) == 2, q[0]


def test_numbers_the_readme_quotes_are_recomputed_from_the_ratings() -> None:
    run = subprocess.run([sys.executable, str(ROOT / "eval" / "rating_numbers.py")], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "(51 of 319)" in run.stdout
    assert "DIFF" not in run.stdout
