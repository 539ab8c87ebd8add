"""kb ask offline (issue 30, session 17): a "why" whose best line on a slide states no cause ends the slide's
reasoning, so the lines before it are quoted with it — on a deck written here (es) rendered to a real PDF and
ingested with the sample course; a line that states its own cause ("… -> …") on a slide of independent items
stays alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..conftest import course_with_decks, text_deck
from .helpers import ask, cited_pages, eval_ask

DECK = """\
=== Memoria fijada (pinned memory)
• Aula 5: copias entre CPU y GPU en el DataLoader

=== El cuello de botella de la copia al dispositivo
• La memoria paginable del host puede moverse a disco en cualquier momento
• El driver copia primero cada lote a un búfer fijado y solo después a la GPU
• Esa copia doble ocupa el bus PCIe y un núcleo de CPU por lote
• Resultado: la transferencia de los lotes a la GPU va a la mitad de velocidad
• Solución: pin_memory=True en el DataLoader

=== Errores frecuentes con pin_memory
• Fijar toda la memoria del host -> el sistema operativo se queda sin RAM
• Usar pin_memory sin non_blocking=True -> la copia de cada lote sigue siendo síncrona
• Fijar tensores pequeños uno a uno -> más coste que beneficio
"""


@pytest.fixture(scope="module")
def course(tmp_path_factory, course_template) -> Path:
    """The sample course with the deck above as corpora/pinned_es.pdf (page = slide), ingested."""
    return course_with_decks(tmp_path_factory.mktemp("why"), text_deck("pinned_es", DECK), course_template / ".kb")


def test_why_quotes_the_reasoning_before_the_line_that_matches(course):
    a = ask(course, "¿Por qué la transferencia de los lotes a la GPU va a la mitad de velocidad?")
    assert cited_pages(a) == {("pinned_es.pdf", 2)}, a["answer"]
    steps = ["puede moverse a disco", "copia primero cada lote a un búfer fijado", "Esa copia doble",
             "Resultado: la transferencia"]
    at = [a["answer"].find(s) for s in steps]
    assert all(i >= 0 for i in at) and at == sorted(at), a["answer"]
    assert "Solución" not in a["answer"], a["answer"]
    # a line that states its cause, on a slide of independent items, is not quoted with the items before it
    b = ask(course, "¿Por qué la copia de cada lote sigue siendo síncrona con pin_memory?")
    assert "sigue siendo síncrona" in b["answer"] and "sin RAM" not in b["answer"], b["answer"]


def test_the_reasoning_answer_quotes_its_cited_passage(course, tmp_path):
    items = [("¿Por qué la transferencia de los lotes a la GPU va a la mitad de velocidad?", "pinned_es.pdf", [2],
              ["búfer fijado", "copia doble"])]
    report = eval_ask(course, tmp_path, items)
    assert report["quoted"] == 1.0 and report["correct"] == 1.0, report
