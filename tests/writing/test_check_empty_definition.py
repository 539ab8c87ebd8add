"""A "what is X" answered "X es el mismo", "X são comuns" is an empty definition (eval/real_heldout_r8)."""

from __future__ import annotations

from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, run_checks

_CITE = (Citation("deck.pdf", "p. 3", "", ""),)


def test_an_evaluative_predicate_is_no_definition_a_definition_is():
    answer = "Híbridos são comuns: replay + distilação (DER, iCaRL), replay + regularização."
    q = Question("short", "Em aprendizado contínuo, o que são Híbridos?", answer, _CITE, lang="pt",
                 concepts=("replay + distilação",), origin="definition")
    assert "empty-definition" in run_checks(q, CheckContext(answer))
    answer = "El algoritmo es el mismo; lo que cambia es cómo se mapea al hardware."
    q = Question("short", "En atención eficiente en memoria, ¿qué es el algoritmo?", answer, _CITE, lang="es",
                 concepts=("cómo se mapea al hardware",), origin="definition")
    assert "empty-definition" in run_checks(q, CheckContext(answer))
    answer = "Os métodos híbridos são métodos que combinam replay com distilação ou regularização."
    q = Question("short", "Em aprendizado contínuo, o que são métodos híbridos?", answer, _CITE, lang="pt",
                 concepts=("combinam replay com distilação",), origin="definition")
    assert "empty-definition" not in run_checks(q, CheckContext(answer))
