"""The advisory drop-risk model (kb.writing.defect_model): learned from teachers' ratings, shipped in the
package, reported by `kb eval quiz` beside the checks, never used to drop a question."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kb.quiz import Citation, Question
from kb.writing.defect_model import MODEL_FILE, drop_risk, features, load_model
from tests.conftest import SHARED, run_kb

ROOT = Path(__file__).resolve().parents[2]
CITE = (Citation("d.pdf", "p. 3", "", ""),)


def test_the_model_loads_from_the_package_and_says_what_it_was_fitted_on():
    m = load_model()
    assert MODEL_FILE.parent.name == "writing" and MODEL_FILE.is_file()
    assert "eval/real_heldout_r24/ratings.csv" in m["fitted_on"]
    assert not any("r25" in f for f in m["fitted_on"])  # the held-out round (25) is never fitted on
    assert m["examples"] > 3000 and 0 < m["drop"]["threshold"] < 1
    assert set(m["drop"]["weights"]) == set(features(Question("short", "¿Qué es X?", "Y.", CITE)))
    assert sum(abs(w) for w in m["drop"]["weights"].values()) > 1  # not an empty model


def test_a_blank_on_an_everyday_word_scores_above_a_comparison_a_teacher_keeps():
    kept = Question("short", "¿Qué diferencia hay entre DataParallel y DistributedDataParallel en PyTorch?",
                    "DataParallel usa un solo proceso con varios hilos y replica el modelo en cada paso; "
                    "DistributedDataParallel lanza un proceso por GPU y sincroniza los gradientes con all-reduce.",
                    CITE, ("un proceso por GPU", "all-reduce de gradientes", "un solo proceso con varios hilos"),
                    lang="es")
    dropped = Question("cloze", "En uso, el _____ de los datos.", "uso", CITE, ("uso",), lang="es")
    page = ("=== DataParallel y DistributedDataParallel\n• DataParallel: un solo proceso con varios hilos, replica el "
            "modelo en cada paso\n• DistributedDataParallel: un proceso por GPU, sincroniza los gradientes con "
            "all-reduce\n• El uso de los datos")
    low, high = drop_risk(kept, page, page), drop_risk(dropped, page, page)
    assert high["p"] > low["p"]
    assert high["likely"] and not low["likely"]
    assert {"feature": "blank is an everyday word", "high": True} in high["why"]


@pytest.mark.needs_shared(SHARED / "heldout_decks")
def test_the_shipped_json_is_what_the_refit_script_fits(tmp_path):
    out = tmp_path / "m.json"
    r = subprocess.run([sys.executable, "eval/fit_defect_model.py", "--out", str(out)], cwd=ROOT,
                       capture_output=True, text=True, timeout=600,
                       env={"KB_SHARED_DIR": str(SHARED), "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin",
                            "HOME": str(tmp_path)})
    assert r.returncode == 0, r.stderr
    assert "leave-one-round-out" in r.stdout and "r12, newest" in r.stdout
    refit, shipped = json.loads(out.read_text()), load_model()
    assert refit["drop"]["weights"] == shipped["drop"]["weights"]
    assert refit["cv"] == shipped["cv"]


def test_eval_quiz_carries_drop_risk_through_the_cli(ingested_workspace):
    src = "sources/002_79add5e0e3bc6419.txt"
    r = run_kb(["quiz", "generate", "-n", "6", "--offline", "--source", src, "-o", "q.json"], cwd=ingested_workspace)
    assert r.returncode == 0, r.stderr
    r = run_kb(["eval", "quiz", "q.json", "--json"], cwd=ingested_workspace)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    risks = [p["drop_risk"] for p in out["per_question"]]
    assert risks and all(0 < x["p"] < 1 and 0 < x["p_edit"] < 1 for x in risks)
    assert out["likely_dropped"] == sum(x["likely"] for x in risks)
    quiz = json.loads((ingested_workspace / "q.json").read_text())
    assert len(quiz["questions"]) == out["n"]  # advisory: nothing removed
    r = run_kb(["eval", "quiz", "q.json"], cwd=ingested_workspace)
    assert r.returncode == 0 and f"{out['likely_dropped']} of {out['n']}" in r.stdout
