"""The eval scripts a measurement is rerun with say what is missing and exit non-zero, instead of a traceback or a
report of nothing with exit 0: eval/fit_form_prior.py on rounds with no ratings (it divided by zero),
eval/form_compare.py on no folder, an empty one or a file that is no quiz (it printed "0 written" and exited 0, or
an IndexError with no arguments), eval/drop_selfcheck.py without its ingested rounds or when every ``kb eval quiz``
run failed (it printed 0 % flagged and exited 0). Each script is run as a person runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str | Path, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=120)


def test_fit_form_prior_on_rounds_without_ratings_says_so():
    # (--dry: whatever happens, kb/writing/form_prior.json is not written)
    run = _run(ROOT / "eval" / "fit_form_prior.py", "--fit", "90-91", "--test", "92", "--dry")
    assert run.returncode != 0
    assert "no ratings for rounds 90-91" in run.stderr and "Traceback" not in run.stderr


def test_fit_form_prior_on_a_span_that_is_no_span_is_a_usage_error():
    run = _run(ROOT / "eval" / "fit_form_prior.py", "--fit", "ten", "--dry")
    assert run.returncode == 2 and "'ten' is no span of rounds" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize("case", ["missing", "empty", "not-json", "no-questions", "no-arguments"])
def test_form_compare_says_what_is_missing(tmp_path, case):
    a, b = tmp_path / "a", tmp_path / "b"
    b.mkdir()
    (b / "deck_es.json").write_text('{"questions": []}', encoding="utf-8")
    if case != "missing":
        a.mkdir()
    if case == "not-json":
        (a / "deck_es.json").write_text("", encoding="utf-8")
    if case == "no-questions":
        (a / "deck_es.json").write_text('{"quiz": 1}', encoding="utf-8")
    run = _run(ROOT / "eval" / "form_compare.py", *(() if case == "no-arguments" else (a, b)))
    assert run.returncode != 0 and "Traceback" not in run.stderr, run.stderr
    expected = {"missing": f"{a}: no such folder", "empty": f"{a}: no quiz (DECK.json)",
                "not-json": "deck_es.json: not a quiz JSON", "no-questions": 'deck_es.json: no "questions" list',
                "no-arguments": "usage: python eval/form_compare.py DIR_A DIR_B"}[case]
    assert expected in run.stderr


def test_drop_selfcheck_without_its_ingested_rounds_names_them(tmp_path):
    run = _run(ROOT / "eval" / "drop_selfcheck.py", tmp_path, tmp_path / "nowhere", "new")
    assert run.returncode == 2
    assert f"{tmp_path}/r14/.kb (ingest it: KEEP26_DIR={tmp_path} bash eval/keep26_gen.sh r14" in run.stderr
    assert f"{tmp_path / 'nowhere'} (no such checkout)" in run.stderr


def test_drop_selfcheck_when_every_run_failed_exits_non_zero(tmp_path):
    for rnd in (14, 15, 16):
        (tmp_path / f"r{rnd}" / ".kb").mkdir(parents=True)
    broken = tmp_path / "checkout"  # a checkout whose kb does not import (a syntax error, a half-applied patch)
    (broken / "kb").mkdir(parents=True)
    (broken / "kb" / "__init__.py").write_text('raise ImportError("a broken checkout")\n', encoding="utf-8")
    run = _run(ROOT / "eval" / "drop_selfcheck.py", tmp_path, broken, "new")
    assert run.returncode == 1, run.stdout
    assert f"new: no rated quiz was checked with {broken}" in run.stderr and "every one failed" in run.stderr
    assert "DROP" not in run.stdout  # (no 0 % flagged reported as a measurement)


def test_stand_in_model_tasks_on_a_folder_with_no_recorded_requests_says_so(tmp_path):
    run = _run(ROOT / "eval" / "stand_in_model.py", "tasks", tmp_path / "nothing")
    assert run.returncode != 0 and "holds no recorded requests" in run.stderr and "Traceback" not in run.stderr
    assert not (tmp_path / "nothing").exists()  # (nothing made where nothing was recorded)
    helped = _run(ROOT / "eval" / "stand_in_model.py", "--help")
    assert helped.returncode == 0 and "example:" in helped.stdout and "kb quiz generate" in helped.stdout


def test_review_rounds_on_a_folder_with_no_outputs_says_so(tmp_path):
    run = _run(ROOT / "eval" / "review_rounds.py", tmp_path, "--rounds", "39")
    assert run.returncode != 0 and "no kb eval quiz outputs" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize("round_no", ["38", "39", "40"])
def test_review_rounds_reads_the_committed_review_of_each_round(round_no):
    """The model review's measurement reruns from what is committed (eval/model_review): every rating of the round
    has its question's review, and the table has a row for each verdict."""
    run = _run(ROOT / "eval" / "review_rounds.py", ROOT / "eval" / "model_review", "--rounds", round_no)
    assert run.returncode == 0, run.stderr
    assert "no output holds" not in run.stderr and "did not review" not in run.stdout
    for version in ("L", "z"):
        assert f"round {round_no}, version {version}" in run.stdout
    assert all(f"  {v} " in run.stdout for v in ("DROP", "FIX", "KEEP"))
