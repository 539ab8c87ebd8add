"""What the LLM tests share: a copy of the ingested sample course to work in, and the environment
that points kb at a stub server (tests/openai_stub.py)."""

from __future__ import annotations

import shutil

import pytest


@pytest.fixture
def ws(ingested, tmp_path, monkeypatch):
    """A copy of the ingested sample course, as the working folder."""
    shutil.copytree(ingested, tmp_path / "ws")
    monkeypatch.chdir(tmp_path / "ws")
    return tmp_path / "ws"


def stub_env(url: str, **extra: str) -> dict[str, str]:
    """kb's environment for the stub server at ``url``."""
    return {"OPENAI_BASE_URL": url, "KB_LLM_MODEL": "stub-model", "OPENAI_API_KEY": "k", **extra}
