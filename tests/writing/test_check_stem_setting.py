"""A stem is set in the deck's subject, never by a slide's label: the ``stem-setting`` check of the
registry (``slide-label-context``, ``missing-context``) and the offline writer's stems."""

from __future__ import annotations

from pathlib import Path

import pytest

import kb
from kb.ingest import read_and_chunk
from kb.outline import build_outline
from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, run_checks
from kb.writing.generate import GenerationRequest, generate_quiz
from kb.writing.offline import OfflineWriter
from kb.writing.setting import stem_setting
from tests.pdfgen import make_pdf


@pytest.fixture(scope="module")
def rnn_outline(tmp_path_factory):
    pages = [["Redes recurrentes con PyTorch", "", "Curso de aprendizaje profundo"],
             ["Celdas LSTM", "", "• La celda LSTM: tiene tres puertas que controlan el flujo de información",
              "• Puerta de olvido: decide qué parte del estado de celda se descarta en cada paso"],
             ["Gradient clipping", "", "• El recorte del gradiente: limita la norma del gradiente en cada paso",
              "• Evita que los gradientes exploten al entrenar con secuencias largas"]]
    pdf = make_pdf(tmp_path_factory.mktemp("deck") / "rnn.pdf", [[ln.replace("•", "\x95") for ln in p] for p in pages])
    _, chunks, _ = read_and_chunk(pdf, "rnn.pdf", 50)
    return build_outline(chunks, "rnn.pdf", bookmarks=[])


@pytest.mark.parametrize("prompt", [
    "Completa el espacio en blanco (El router): Noisy _____ gating suma ruido gaussiano a los logits.",
    "Complete a lacuna (Por que a comunicação importa): adicionar _____ não acelera.",
    "En «Estructura de un modelo en PyTorch», ¿qué son los parámetros?",
    "En uso, ¿qué devuelve la función?",
    "En consideraciones adicionales, ¿qué hay que tener en cuenta?",
    "¿Verdadero o falso? En introducción, la red tiene memoria.",
])
def test_a_slide_label_is_no_setting(prompt):
    assert stem_setting(prompt, "es" if " en " in prompt.lower() or "¿" in prompt else "pt", None) \
        == "slide-label-context"


@pytest.mark.parametrize("prompt", [
    "En PyTorch, ¿qué devuelve el método state_dict()?",
    "En Mixture of Experts (MoE), ¿qué significa «Combinación»?",
    "Completa el espacio en blanco: En PyTorch, la clase _____ divide los lotes.",
    "Em otimização de hiperparâmetros, o que significa «Random search»?",
])
def test_a_subject_is_a_setting(prompt):
    assert stem_setting(prompt, "es", None) is None


def test_a_stem_that_names_nothing_of_the_deck_misses_its_context(rnn_outline):
    o = rnn_outline
    assert stem_setting("¿Qué es una puerta?", "es", o) == "missing-context"
    assert stem_setting("¿Verdadero o falso? El recorte limita la norma en cada paso.", "es", o) == "missing-context"
    assert stem_setting("¿Qué hace una red recurrente con la secuencia?", "es", o) is None  # the title's word
    assert stem_setting("¿Qué es gradient clipping?", "es", o) is None  # one of its top terms
    assert stem_setting("¿Qué devuelve nn.LSTM?", "es", o) is None  # a name written as code
    assert stem_setting("¿Qué es una puerta?", "es", None) is None  # (no outline: nothing to judge by)


def test_the_registry_reports_it_for_every_writer(rnn_outline):
    q = Question("short", "¿Qué es una puerta?", "Una puerta decide qué parte del estado se descarta.",
                 (Citation("rnn.pdf", "p. 2", "", ""),), lang="es")
    found = run_checks(q, CheckContext("Puerta de olvido: decide qué parte del estado de celda se descarta",
                                       outline=rnn_outline))
    assert "missing-context" in found


def test_offline_stems_are_set_in_the_deck_subject(ingested_workspace):
    course = kb.open(Path(ingested_workspace) / ".kb")
    ws = course.workspace
    report = generate_quiz(ws, GenerationRequest(n=12), OfflineWriter(), now="test")
    qs = report.quiz.questions
    assert len(qs) >= 8
    chunks = list(ws.store.all_chunks())
    outlines = {s: build_outline(chunks, s) for s in {q.citations[0].source for q in qs}}
    bad = [(q.prompt, d) for q in qs if q.origin != "harvested"  # (the book's own exercises, as written)
           and (d := stem_setting(q.prompt, q.lang, outlines[q.citations[0].source]))]
    assert not bad, bad
