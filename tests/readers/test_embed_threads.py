"""The encoder's BLAS threads: KB_EMBED_THREADS, else one core fewer than the machine has."""

from __future__ import annotations

import os

import pytest

from kb.embeddings import embed_threads
from kb.errors import ExitCode, UsageError


def test_default_leaves_a_core_for_reading_and_writing(monkeypatch):
    monkeypatch.delenv("KB_EMBED_THREADS", raising=False)
    assert embed_threads() == max(1, (os.cpu_count() or 1) - 1)


def test_the_environment_sets_it(monkeypatch):
    monkeypatch.setenv("KB_EMBED_THREADS", "3")
    assert embed_threads() == 3


@pytest.mark.parametrize("raw", ["0", "two", "1.5", "-1"])
def test_a_bad_value_is_a_usage_error_naming_the_fix(monkeypatch, raw):
    monkeypatch.setenv("KB_EMBED_THREADS", raw)
    with pytest.raises(UsageError) as e:
        embed_threads()
    assert e.value.message == f"KB_EMBED_THREADS={raw!r} is not a whole number of threads, 1 or more"
    assert e.value.hint == "set KB_EMBED_THREADS to a whole number of threads, 1 or more, or unset it"
    assert e.value.exit_code == ExitCode.USAGE
