"""kb ask offline (issue 30, session 18): the slide whose title is the question answers, not a line of another
slide that shares more of the question's words — on a deck written here (es) rendered to a real PDF and ingested
with the sample course."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..conftest import course_with_decks, text_deck
from .helpers import ask, cited_pages

DECK = """\
=== Compilación de modelos en PyTorch
• Sesión 12: torch.compile por dentro

=== Benchmark de un paso compilado
• Descartar las primeras iteraciones antes de medir la velocidad del modelo compilado
• Llamar a torch.cuda.synchronize() antes de parar el reloj
• Repetir la medida y quedarse con la mediana

=== Por qué descartar las primeras iteraciones
• La primera llamada traza y compila el grafo: tarda segundos, no milisegundos
• Los kernels de Triton se autoajustan durante las primeras llamadas
• El caching allocator reserva sus bloques en esas mismas iteraciones

=== Modos de compilación
• default: equilibrio entre tiempo de compilación y velocidad
• reduce-overhead: usa CUDA Graphs para recortar el coste de lanzar kernels
• max-autotune: prueba más configuraciones de kernels, compila mucho más despacio
"""


@pytest.fixture(scope="module")
def course(tmp_path_factory, course_template) -> Path:
    """The sample course with the deck above as corpora/compilacion_es.pdf (page = slide), ingested."""
    return course_with_decks(tmp_path_factory.mktemp("titled"), text_deck("compilacion_es", DECK),
                             course_template / ".kb")


def test_the_slide_titled_with_the_why_answers(course):
    a = ask(course, "¿Por qué hay que descartar las primeras iteraciones antes de medir la velocidad del modelo "
                    "compilado?")
    assert ("compilacion_es.pdf", 3) in cited_pages(a), a["answer"]
    assert "compila el grafo" in a["answer"], a["answer"]
