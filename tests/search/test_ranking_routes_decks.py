"""Retrieval among many decks on neighbouring topics (issue 30, kb.rank_route): a question is ranked toward the deck
whose file name and slide titles carry its words, and a deck's title slide, agenda and closing summary, which name
every subject of the deck, never outrank the slide that explains one. Real held-out decks (eval/heldout_decks,
rendered to PDFs as eval/deck_pdf.py renders them) beside the sample course, ingested by `kb ingest`; the questions
are dev questions of eval/ask_r8 and ask_r10 that the hybrid ranking alone answered from a neighbour deck or from an
agenda."""

from __future__ import annotations

from pathlib import Path

import pytest

import kb

from ..conftest import course_with_decks, heldout_decks

DECKS = ["elastic_pt", "ddpdeep_es", "dali_es", "tensorboard_es", "mlperf_es", "posenc_pt"]


@pytest.fixture(scope="module")
def course(tmp_path_factory, course_template) -> Path:
    return course_with_decks(tmp_path_factory.mktemp("routing"), heldout_decks(DECKS), course_template / ".kb")


def _pages(course: Path, question: str, k: int) -> list[tuple[str, int | None]]:
    return [(Path(h.chunk.source).name, h.chunk.locator.page) for h in kb.open(course / ".kb").search(question, k=k)]


@pytest.mark.parametrize(("question", "deck"), [
    ("¿Qué es el local_rank en DDP?", "ddpdeep_es.pdf"),
    ("Que técnicas existem para estender o contexto de um modelo com RoPE?", "posenc_pt.pdf"),
])
def test_a_question_is_ranked_toward_the_deck_that_teaches_its_subject(course, question, deck):
    # the hybrid ranking alone put a passage of another file first (elastic_pt.pdf's torchrun, the sample course)
    assert _pages(course, question, 1)[0][0] == deck


@pytest.mark.parametrize(("question", "page"), [
    ("¿Qué operador de DALI hace el recorte, el flip y la normalización a la vez?", ("dali_es.pdf", 8)),
    ("¿Cuáles son los tipos de backend de los operadores en DALI?", ("dali_es.pdf", 6)),
    ("Qual a diferença entre codificação posicional sinusoidal e aprendida?", ("posenc_pt.pdf", 9)),
    ("¿Qué es NVIDIA DALI y para qué sirve?", ("dali_es.pdf", 5)),
])
def test_the_title_slide_and_the_agenda_never_outrank_the_slide_that_explains(course, question, page):
    found = _pages(course, question, 5)
    assert found[0][1] not in (1, 2), found  # page 1: the deck's title slide; page 2: its agenda
    assert page in found, found
