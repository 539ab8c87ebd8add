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


def _def(prompt: str, answer: str, lang: str) -> Question:
    return Question(type="short", prompt=prompt, answer=answer, lang=lang,
                    citations=(Citation("deck.pdf", "p. 6", "c1", answer),), origin="definition")


def test_arrows_through_a_clause_are_a_consequence_not_a_sequence():
    chain = _def("Em embeddings de texto, o que é o tokenizer?",
                 "O tokenizer e o modelo são um par -> sempre carregar juntos -> mais rápido.", "pt")
    colon = _def("En entrenamiento distribuido, ¿qué es DDP?",
                 "DDP es un envoltorio: con él -> cada GPU calcula su gradiente.", "es")
    for q in (chain, colon):
        assert "not-a-definition" in run_checks(q, CheckContext(q.answer)), q.answer
