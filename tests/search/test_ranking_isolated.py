"""Tests rank with the store's own vectors whatever a developer's shell sets KB_RANKING_EMBEDDER to: the isolated
environment (tests/conftest.py's isolated_env) removes it with every KB_ variable, and the CLI helpers hide it as
they hide every KB_ variable of the test process (a test passes it with ``env=``)."""

from __future__ import annotations

import os
import shutil

from kb.search import ranking_embedder_name

from ..conftest import run_kb


def test_no_ranking_embedder_is_set_in_a_test():
    assert "KB_RANKING_EMBEDDER" not in os.environ
    assert ranking_embedder_name() is None


def test_the_cli_helper_hides_the_test_processs_ranking_embedder(ingested, tmp_path, monkeypatch):
    shutil.copytree(ingested, tmp_path, dirs_exist_ok=True)
    monkeypatch.setattr("kb.search._WARNED", set())
    monkeypatch.setenv("KB_RANKING_EMBEDDER", "no-such-embedder")  # as a shell would have it
    hidden = run_kb(["search", "¿Qué es un tensor?", "-k", "2"], cwd=tmp_path)
    assert hidden.returncode == 0 and "KB_RANKING_EMBEDDER" not in hidden.stderr
    passed = run_kb(["search", "¿Qué es un tensor?", "-k", "2"], cwd=tmp_path,
                    env={"KB_RANKING_EMBEDDER": "no-such-embedder"})
    assert passed.returncode == 2 and "KB_RANKING_EMBEDDER='no-such-embedder'" in passed.stderr
