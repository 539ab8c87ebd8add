"""eval/flag_ratings.py: the teachers' ratings checked as kb eval quiz checks a question, on two halves of the decks."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

from ..conftest import ROOT, SHARED, needs_corpora

sys.path.insert(0, str(ROOT))

from eval.flag_ratings import HELD_OUT, half_of, question_of  # noqa: E402


def test_the_halves_split_the_rated_decks_and_leave_out_the_held_out_ones():
    decks = {r["deck"] for r in csv.DictReader((ROOT / "eval" / "ratings.csv").open(encoding="utf-8"))}
    halves = {half_of(d) for d in decks}
    assert halves == {"write", "report"}
    assert not {Path(d).name for d in decks} & HELD_OUT


def test_an_old_multiple_choice_row_reads_its_options_and_answer():
    row = {"choices": "", "answer": "Sampler | DataParallel | torch.utils.data.Dataset → DataParallel", "type": "mcq",
           "prompt": "Completa la frase: «La clase _____ reparte los lotes.»", "locator": "p. 15 · Data Loading",
           "concepts": ""}
    q = question_of(row, "corpora/03Datos.pdf")
    assert q.choices == ("Sampler", "DataParallel", "torch.utils.data.Dataset") and q.correct_text == "DataParallel"
    tf = question_of({**row, "type": "tf", "prompt": "¿Verdadero o falso? X es Y.",
                      "answer": "Falso. La fuente dice: “X es Z.”"}, "d.pdf")
    assert tf.correct is False and tf.citations[0].quote == "X es Z."


@needs_corpora
def test_the_report_half_is_measured():
    r = subprocess.run([sys.executable, "eval/flag_ratings.py", "--half", "report", "--json"],
                       cwd=ROOT, capture_output=True, text=True, timeout=600,
                       env={**os.environ, "KB_SHARED_DIR": str(SHARED), "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)["report"]
    assert res["decks"] >= 40 and res["DROP"]["ratings"] >= 100
    assert res["DROP"]["share"] > res["KEEP"]["share"]  # it flags what teachers drop more than what they keep
