"""A stem that pastes a slide's labels and asks what each means, when the labels are scaffolding (numbered
steps, sentences, ordinary words the deck says only as labels), reads as nothing to a student who never saw
the slide: ``kb eval quiz`` reports ``labels-not-terms`` (advisory: teachers mostly edit such a stem, so the
writers do not drop on it). Labels that are terms of the deck pass. (Read on eval/real_heldout_r8–r12's label
lists; the wordings here are new.)"""

from __future__ import annotations

from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, question_defects, run_checks

CITE = (Citation("perfil_es.pdf", "p. 9", "", ""),)
DECK = """Perfilado de un bucle de entrenamiento
Cómo encontrar el cuello de botella
Paso 1: medir el tiempo por iteración con torch.profiler
Paso 2: mirar si la GPU espera a los datos (huecos en la traza)
Paso 3: aumentar num_workers o usar pin_memory
Moraleja: medir antes de optimizar
Herramientas
torch.profiler: registra operadores y kernels con sus tiempos
Nsight Systems: línea de tiempo de CPU, GPU y comunicaciones
El profiler de PyTorch exporta la traza para verla en Perfetto; Nsight Systems muestra toda la máquina."""


def _labels(title: str, labels: str) -> Question:
    return Question("short", f"En perfilado, ¿qué significa cada uno de estos elementos de «{title}»: {labels}?",
                    "…", CITE, ("medir",), lang="es")


def test_numbered_steps_and_slide_words_are_flagged_by_eval_only():
    for q in (_labels("Cómo encontrar el cuello de botella", "Paso 1; Paso 2; Paso 3"),
              _labels("Cómo encontrar el cuello de botella", "Paso 3; Moraleja")):
        ctx = CheckContext(DECK, DECK)
        assert "labels-not-terms" in question_defects(q, ctx)
        assert "labels-not-terms" not in run_checks(q, ctx)  # advisory: the writers keep it


def test_labels_that_are_terms_of_the_deck_pass():
    q = _labels("Herramientas", "torch.profiler; Nsight Systems")
    assert "labels-not-terms" not in question_defects(q, CheckContext(DECK, DECK))


def test_without_the_deck_nothing_is_said():
    q = _labels("Cómo encontrar el cuello de botella", "Paso 1; Paso 2; Paso 3")
    assert "labels-not-terms" not in question_defects(q, CheckContext(DECK))
