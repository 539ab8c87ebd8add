"""A test that needs ../shared skips on a user's checkout without it, and fails in CI (CI=true)."""

from __future__ import annotations

import os
import subprocess
import sys

from ..conftest import ROOT

# one test that needs ../shared/benchmarks; without it, the check fails or skips it before it runs
NEEDS_SHARED = "tests/grading/test_grading.py::test_offline_grader_on_pt_asag_held_out_questions"


def _pytest(tmp_path, **env: str) -> subprocess.CompletedProcess:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "CI"))}
    full.update(KB_SHARED_DIR=str(tmp_path / "no-shared"), PYTHONPATH=str(ROOT), **env)
    return subprocess.run([sys.executable, "-m", "pytest", NEEDS_SHARED, "-q", "-p", "no:cacheprovider", "-rs"],
                          cwd=ROOT, env=full, capture_output=True, text=True, timeout=300)


def test_a_test_that_needs_shared_skips_on_a_users_checkout(tmp_path):
    r = _pytest(tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1 skipped" in r.stdout and "no-shared/benchmarks/pt_asag_2018 is missing" in r.stdout


def test_a_test_that_needs_shared_fails_in_ci_without_it(tmp_path):
    r = _pytest(tmp_path, CI="true")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "1 error" in r.stdout and "CI must run the tests that need it" in r.stdout
