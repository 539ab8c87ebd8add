"""A "what is X" whose definition spells out a sequence with arrows ("una secuencia: tokenizer → modelo →
postprocesado") is a definition: ``not-a-definition`` is kept for an arrow saying what follows from X."""

from __future__ import annotations

from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, run_checks


def test_a_pipeline_defined_as_a_sequence_of_steps():
    answer = "Un pipeline es una secuencia: tokenizer → modelo → postprocesado."
    q = Question(type="short", prompt="En Hugging Face, ¿qué es un pipeline?", answer=answer, lang="es",
                 citations=(Citation("hf.pdf", "p. 4", "c1", answer),), origin="definition")
    assert "not-a-definition" not in run_checks(q, CheckContext(answer))
