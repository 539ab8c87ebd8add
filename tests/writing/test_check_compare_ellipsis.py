"""A "difference between A and B" whose B opens on a preposition is ordinary parallel ellipsis when A
has its own function word ("entre entrenar con dropout y sin dropout"): ``ill-posed-compare`` lets it
through, and it reads English "difference" too."""

from __future__ import annotations

import pytest

from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, run_checks


def _short(prompt: str, answer: str, lang: str) -> Question:
    return Question(type="short", prompt=prompt, answer=answer, lang=lang,
                    citations=(Citation("deck.pdf", "p. 3", "c1", answer),))


@pytest.mark.parametrize(("prompt", "answer", "lang"), [
    ("En regularización, ¿qué diferencia hay entre entrenar con dropout y sin dropout?",
     "Con dropout se apagan neuronas al azar en cada paso y el modelo generaliza mejor; sin dropout se sobreajusta.",
     "es"),
    ("Em dropout, qual é a diferença entre o comportamento no treino e na inferência?",
     "No treino os neurônios são desligados ao acaso; na inferência todos ficam ativos e as saídas são escaladas.",
     "pt"),
    ("En PyTorch, ¿qué diferencia hay entre el modo de entrenamiento y de evaluación?",
     "En entrenamiento dropout y batch norm actúan con el lote; en evaluación usan sus estadísticas guardadas.",
     "es"),
])
def test_parallel_ellipsis_is_a_comparison(prompt, answer, lang):
    q = _short(prompt, answer, lang)
    assert "ill-posed-compare" not in run_checks(q, CheckContext(answer))


def test_english_difference_of_a_thing_with_itself():
    q = _short("In network pruning, what is the difference between structured and structured?",
               "Structured pruning removes whole channels, so the model gets smaller and faster.", "en")
    assert "ill-posed-compare" in run_checks(q, CheckContext(q.answer))


@pytest.mark.parametrize(("prompt", "answer", "lang"), [
    ("En PyTorch, ¿qué diferencia hay entre Qué se guarda y Cómo se carga?",
     "Se guarda el state_dict del modelo y se carga con load_state_dict sobre una instancia nueva.", "es"),
    ("Em Kubernetes, qual é a diferença entre a configuração do cluster e no pod?",
     "A configuração do cluster vale para todos os nós; no pod vale só para os seus contêineres.", "pt"),
    ("En PyTorch, ¿qué diferencia hay entre el modelo con dropout y en evaluación?",
     "Con dropout se apagan neuronas al azar; en evaluación todas quedan activas.", "es"),
])
def test_a_fragment_of_a_sentence_is_no_comparison(prompt, answer, lang):
    q = _short(prompt, answer, lang)
    assert "ill-posed-compare" in run_checks(q, CheckContext(answer))


@pytest.mark.parametrize("prompt", [
    "In NumPy, what is the difference between for loops and vectorized NumPy operations?",
    "In PyTorch, what is the difference between with torch.no_grad() and model.eval()?",
])
def test_english_code_opening_on_for_or_with_is_a_comparison(prompt):
    q = _short(prompt, "One turns off gradient tracking; the other switches dropout and batch norm to inference.",
               "en")
    assert "ill-posed-compare" not in run_checks(q, CheckContext(q.answer))
