"""kb ask offline (issue 30, session 18): "what is X" on the slide titled X (with a gloss: "Precarga de datos
(prefetching)") is answered by the slide from the top, not by the later line that repeats X's words — on a deck
written here (es) rendered to a real PDF and ingested with the sample course."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..conftest import course_with_decks, text_deck
from .helpers import ask, cited_pages

DECK = """\
=== Carga de datos eficiente
• Sesión 7: que la GPU nunca espere al disco

=== Precarga de datos (prefetching)
• Preparar el siguiente batch en la CPU mientras la GPU procesa el actual
• En PyTorch: DataLoader(prefetch_factor=2) con num_workers > 0
• Con la precarga de datos se oculta la latencia de lectura del disco

=== Memoria fijada (pinned memory)
• pin_memory=True copia cada batch a memoria page-locked
• La copia a la GPU puede ser asíncrona con non_blocking=True
"""


@pytest.fixture(scope="module")
def course(tmp_path_factory, course_template) -> Path:
    """The sample course with the deck above as corpora/carga_es.pdf (page = slide), ingested."""
    return course_with_decks(tmp_path_factory.mktemp("opening"), text_deck("carga_es", DECK), course_template / ".kb")


def test_what_is_on_the_slide_titled_with_it_is_read_from_the_top(course):
    a = ask(course, "¿Qué es la precarga de datos?")
    assert cited_pages(a) == {("carga_es.pdf", 2)}, a["answer"]
    assert "Preparar el siguiente batch en la CPU" in a["answer"], a["answer"]
