"""Feedback on objective questions (mcq, tf, cloze) is written in the question's language, and a
right answer's feedback is the one the study session leaves unsaid."""

from __future__ import annotations

import pytest

from kb.grading.objective import CORRECT_FEEDBACK, grade_objective
from kb.quiz import Citation, Question

CIT = (Citation("corpora/03Datos.pdf", "p. 14 · Data Shuffling", "c1", "shuffle=True"),)


def _mcq(lang: str) -> Question:
    return Question("mcq", "¿Qué clase divide los lotes entre GPUs?", "DataParallel", CIT,
                    choices=("Sampler", "DataParallel", "Dataset", "DataLoader"), correct=1, lang=lang)


@pytest.mark.parametrize("lang,wrong,unreadable,right", [
    ("es", "(A) es incorrecta. La respuesta es (B) DataParallel.", "responde con una letra", "Correcto."),
    ("pt", "(A) está errada. A resposta é (B) DataParallel.", "responda com uma letra", "Correto."),
    ("en", "(A) is wrong. The answer is (B) DataParallel.", "answer with a letter", "Correct."),
])
def test_mcq_feedback_in_the_questions_language(lang, wrong, unreadable, right):
    q = _mcq(lang)
    assert grade_objective(q, "a").feedback == wrong
    assert unreadable in grade_objective(q, "no lo sé bien").feedback
    assert grade_objective(q, "b").feedback == right and right in CORRECT_FEEDBACK


def test_true_false_and_cloze_feedback_in_spanish():
    tf = Question("tf", "¿Verdadero o falso? El aumento de datos se aplica también al conjunto de prueba.", "Falso",
                  CIT, correct=False, lang="es")
    assert grade_objective(tf, "verdadero").feedback == "La afirmación es falsa."
    assert "verdadero/falso" in grade_objective(tf, "quizás").feedback
    cloze = Question("cloze", "PyTorch proporciona la opción _____ en el DataLoader para mezclar los datos.",
                     "shuffle", CIT, lang="es")
    assert grade_objective(cloze, "sampler").feedback == "El término que falta es 'shuffle'."
    assert grade_objective(cloze, "shuffle").feedback == "Correcto."
