"""A deck's divider and administrative titles ("Introducción", "Agenda", "Índice", "Resumen", "Otras
herramientas", in es/pt/en) are no ideas: they never rank among the central ones, nor lend an idea
"in the index"."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.ingest import read_and_chunk
from kb.lang import divider_title
from kb.outline import build_outline
from tests.pdfgen import make_pdf

from ..conftest import CORPORA, needs_corpora


@pytest.mark.parametrize("title", ["Introducción", "Agenda", "Índice", "Otras herramientas", "Introducción al curso",
                                   "3. Resumen", "Preguntas y respuestas", "Outras ferramentas", "Conclusões",
                                   "Obrigado!", "Objetivos de la sesión", "Other tools", "Summary", "References"])
def test_divider_titles(title):
    assert divider_title(title)


@pytest.mark.parametrize("title", ["Introducción a TensorFlow", "Errores frecuentes y resumen", "Data Augmentation",
                                   "Otras técnicas de regularización", "Resumen de gradientes", "Motivação: por que "
                                   "aprender com texto?", "Herramientas de profiling"])
def test_titles_that_name_a_subject_are_no_dividers(title):
    assert not divider_title(title)


def _outline(tmp_path: Path, pages: list[list[str]]):
    # ("•" is 0x95 in the font's WinAnsi encoding, as eval/deck_pdf.py writes it)
    pdf = make_pdf(tmp_path / "deck.pdf", [[ln.replace("•", "\x95") for ln in p] for p in pages])
    _, chunks, failed = read_and_chunk(pdf, "deck.pdf", 50)
    assert failed is None
    return build_outline(chunks, "deck.pdf", bookmarks=[])


def test_a_divider_slide_is_not_a_central_idea(tmp_path):
    body = ["• Las redes recurrentes procesan secuencias paso a paso manteniendo un estado oculto",
            "• El estado oculto resume lo visto hasta ahora en la secuencia de entrada",
            "• Se entrenan con backpropagation through time sobre la secuencia desplegada"]
    topics = [("Celdas LSTM", "La celda LSTM", "tres puertas que controlan el flujo de información"),
              ("Celdas GRU", "La celda GRU", "dos puertas y ningún estado de celda aparte"),
              ("Gradient clipping", "El recorte del gradiente", "un límite a la norma del gradiente en cada paso"),
              ("Padding y masking", "El enmascarado", "marcar las posiciones de relleno para que no cuenten"),
              ("Truncated BPTT", "La retropropagación truncada", "el desplegado de solo k pasos hacia atrás")]
    o = _outline(tmp_path, [
        ["Redes recurrentes", "", "Curso de aprendizaje profundo"],
        ["Índice", "", "• Introducción", *(f"• {t}" for t, _, _ in topics), "• Resumen"],
        ["Introducción", "", *body],
        *([t, "", f"• {name}: usa {what} durante el entrenamiento de la red",
           f"• {name} se aplica en cada paso temporal de la secuencia de entrada"] for t, name, what in topics),
        ["Resumen", "", *body],
    ])
    top = [i.name for i in o.top(3)]
    assert top and not any(divider_title(n) for n in top), top
    intro = next(i for i in o.ideas if i.name == "Introducción")
    assert intro.score == 0 and intro.why == ("divider title",)
    assert any("in the index" in i.why for i in o.ideas if "LSTM" in i.name)
    assert not any("in the index" in i.why for i in o.ideas if "recurrentes" in i.text and i.name != "Introducción")


@needs_corpora
def test_no_divider_among_the_top_ideas_of_a_real_deck():
    # 001TFDist's own index opens on "Introducción al curso"; its top ideas are what it teaches
    path = CORPORA / "001TFDist.pdf"
    _, chunks, _ = read_and_chunk(path, "corpora/001TFDist.pdf", 50)
    o = build_outline(chunks, "corpora/001TFDist.pdf")
    top = [i.name for i in o.top(10)]
    assert len(top) == 10 and not any(divider_title(n) for n in top), top
