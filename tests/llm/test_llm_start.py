"""The writer's start-up: its checks' one-time set-up waits for the openai import (both need the GIL),
but never for a transport that a run answered from the cache does not make."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

from kb.llm.pool import OrderedPool


def test_wait_for_ends_on_the_first_result_when_no_transport_is_made():
    never = threading.Event()  # a run from the cache: no worker imports openai
    with OrderedPool(lambda x: x * 2, 2) as pool:
        pool.submit(21)
        t0 = time.monotonic()
        pool.wait_for(never)
        waited = time.monotonic() - t0
        assert not never.is_set()
        assert pool.take() == (21, 42)
    assert waited < 5  # it did not wait for an event that never comes


def test_wait_for_ends_when_the_transport_is_ready_while_requests_are_still_out():
    ready, release = threading.Event(), threading.Event()

    def request(x: int) -> int:
        ready.set()  # the transport is made; the reply is still to come
        release.wait(10)
        return x

    with OrderedPool(request, 2) as pool:
        pool.submit(1)
        pool.wait_for(ready)
        assert ready.is_set()
        assert pool.pending == 1  # returned while the request was still out
        release.set()
        assert pool.take() == (1, 1)


def test_the_deck_top_terms_need_no_word_lists_but_its_title_stems_still_do():
    """The LLM writer's first request carries the deck's top terms: working them out must not load
    wordfreq (~0.4 s, bench/llm_parallel.py); ``names_subject`` still reads the title's stems."""
    code = textwrap.dedent("""
        import sys
        from kb.outline import Idea, Outline, Section
        from kb.writing.setting import names_subject, top_terms
        idea = Idea("definition", "Gradientes acumulados", "Os gradientes acumulados ...", "Treino", "p. 2", ("c1",),
                    score=1.0)
        o = Outline("deck.pdf", "Treino distribuído de redes", (Section("Treino", "p. 2", (idea,)),))
        print(top_terms(o), "wordfreq" in sys.modules)
        print(names_subject("O que faz o treino distribuído?", o), "wordfreq" in sys.modules)
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["['gradientes acumulados'] False", "True True"]
