"""Shared fixtures: an isolated environment and home folder for every test, a temporary
workspace with the sample course, and one ingested knowledge base per session."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "sources"
SHARED = Path(os.environ.get("KB_SHARED_DIR") or ROOT.parent / "shared")  # ../shared beside the checkout
CORPORA = SHARED / "corpora"


@pytest.fixture(autouse=True)
def isolated_env(monkeypatch, tmp_path_factory):
    """No KB_/OPENAI_ variable or home-folder state leaks into a test."""
    for var in list(os.environ):
        if var.startswith(("KB_", "OPENAI_")) or var == "NO_COLOR":
            monkeypatch.delenv(var, raising=False)
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("ANONYMIZED_TELEMETRY", "False")
    yield


@pytest.fixture(autouse=True)
def release_chroma_clients():
    """In-process tests open a Chroma client per workspace and chromadb caches each one (with its
    SQLite and segment files) for the life of the process; drop them after each test so the suite
    does not run out of file descriptors."""
    yield
    cached = sys.modules.get("chromadb.api.shared_system_client")
    if cached is not None:
        cached.SharedSystemClient.clear_system_cache()


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    """A temporary working directory holding a copy of the sample course in sources/."""
    shutil.copytree(SOURCES, tmp_path / "sources")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture(scope="session")
def ingested(tmp_path_factory):
    """A workspace whose .kb was built once from the sample course (read-only for tests)."""
    ws = tmp_path_factory.mktemp("ingested")
    shutil.copytree(SOURCES, ws / "sources")
    r = run_kb(["ingest", "sources"], cwd=ws)
    assert r.returncode == 0, r.stderr
    return ws


def run_kb(args, cwd, input=None, env=None, timeout=600):
    """Run the real ``kb`` command line in a subprocess."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith(("KB_", "OPENAI_"))}
    full_env.update({"COLUMNS": "200", "PYTHONIOENCODING": "utf-8"})
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "kb.cli", *args], cwd=cwd, input=input, capture_output=True,
        text=True, env=full_env, timeout=timeout,
    )


needs_corpora = pytest.mark.skipif(not CORPORA.is_dir(), reason="../shared/corpora is not beside the checkout")
