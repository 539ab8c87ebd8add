"""A name asked for whose acronym the stem already says gives itself away (``giveaway``, from the
registry's ``acronym-in-stem``)."""

from __future__ import annotations

from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, run_checks

PASSAGE = ("Neural Architecture Search (NAS). Estrategias de búsqueda: Reinforcement Learning (RL): la evolución "
           "de la red está guiada por un algoritmo de RL. Algoritmos evolutivos: mutación y selección de "
           "arquitecturas. Búsqueda aleatoria: muestreo uniforme del espacio.")
CHOICES = ("Reinforcement Learning (RL)", "Algoritmos evolutivos", "Búsqueda aleatoria", "Optimización bayesiana")


def _mcq(description: str) -> Question:
    return Question(type="mcq", prompt=f"En NAS, ¿qué término corresponde a esta descripción: «{description}»?",
                    answer=CHOICES[0], choices=CHOICES, correct=0, lang="es",
                    citations=(Citation("nas.pdf", "p. 11", "c1", PASSAGE),))


def test_the_acronym_of_the_right_option_in_the_description():
    q = _mcq("la evolución de la red está guiada por un algoritmo de RL")
    assert "giveaway" in run_checks(q, CheckContext(PASSAGE))
    assert "giveaway" not in run_checks(q, CheckContext(PASSAGE), skip=frozenset({"acronym-in-stem"}))


def test_a_description_without_the_acronym():
    q = _mcq("un agente aprende con recompensas qué arquitectura proponer")
    assert "giveaway" not in run_checks(q, CheckContext(PASSAGE))
