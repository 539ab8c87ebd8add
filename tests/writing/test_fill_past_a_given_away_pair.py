"""Selection takes a further question unless it and a chosen one give each other away (kb/writing/generate.py,
``_Selection.free``): two chosen questions that do so between themselves — an earlier stage let them through — no
longer turn down every candidate after them. On round 30's gpusort_es a multiple choice answered "ordenación" beside
stems that all open "En ordenación en GPU," stopped the quiz at 5 of 12; the candidate that would give a chosen
answer away, or whose own answer a chosen stem writes, is still turned down."""

from __future__ import annotations

from kb.quiz import Question
from kb.records import Chunk, Locator
from kb.writing.generate import Draft, _Selection

_CHUNK = Chunk("decks/x_es.pdf", "pdf", "texto", Locator(page=3, heading="Ordenación"), "es", 3, "h", 5)


def _short(prompt: str, key: str) -> Draft:
    return Draft(Question("short", prompt, "respuesta", (), lang="es"), _CHUNK, key=key, priority=1.0)


def _mcq(prompt: str, choices: tuple[str, ...], key: str) -> Draft:
    q = Question("mcq", prompt, choices[0], (), lang="es", choices=choices, correct=0)
    return Draft(q, _CHUNK, key=key, priority=1.0)


def test_a_chosen_pair_that_gives_itself_away_blocks_no_other_question():
    sel = _Selection()
    sel.take(_mcq("¿Qué término corresponde a esta descripción: «una primitiva básica»?",
                  ("ordenación", "radix sort", "merge path", "bitonic sort"), "a"))
    sel.take(_short("En ordenación en GPU, ¿qué es el radix sort?", "b"))
    assert sel.free(_short("¿Qué es el merge path?", "c"))
    # (what d itself gives away, or what gives d away, still counts)
    assert not sel.free(_short("En ordenación en GPU, ¿qué es el bitonic sort?", "d"))
    assert not sel.free(_mcq("¿Qué término corresponde a esta descripción: «ordena por dígitos»?",
                             ("radix sort", "merge path", "bitonic sort", "CUB"), "e"))  # ("¿qué es el radix sort?")
