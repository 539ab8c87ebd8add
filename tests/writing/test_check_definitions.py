"""A definition question on a term the deck defines is no opinion ("subjective"), and its term is a
clean noun phrase, not a clause the writer cut out of a sentence ("garbled-term")."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.chunking import chunk_document
from kb.quiz import Citation, Question
from kb.readers import Document
from kb.records import Block, Locator
from kb.writing.asked_term import asked_term, garbled_term
from kb.writing.checklist import CheckContext, run_checks
from kb.writing.course import CourseTerms
from kb.writing.generate import GenerationRequest
from kb.writing.offline import OfflineWriter


def _short(prompt: str, answer: str, lang: str = "es", origin: str = "definition") -> Question:
    return Question("short", prompt, answer, (Citation("deck.pdf", "p. 2", "", answer),), lang=lang, origin=origin)


@pytest.mark.parametrize("prompt,answer,lang", [
    ("O que é MapReduce?", "MapReduce é um paradigma popular para realizar grandes operações em paralelo.", "pt"),
    ("¿Qué es la convolución?", "La convolución es una operación muy común que desliza un filtro sobre la entrada.",
     "es"),
])
def test_a_plain_definition_is_not_subjective(prompt, answer, lang):
    found = run_checks(_short(prompt, answer, lang), CheckContext(answer))
    assert "subjective" not in found


def test_a_definition_that_is_only_a_value_judgement_is():
    a = "El dropout es una técnica muy importante."
    assert "subjective" in run_checks(_short("¿Qué es el dropout?", a), CheckContext(a))


@pytest.mark.parametrize("prompt,term", [
    ("¿Qué es Ray Tune determina?", "Ray Tune determina"),
    ("En PyTorch, ¿qué son los parámetros?", "parámetros"),  # (without its article)
    ("O que é MapReduce?", "MapReduce"),
    ("En Ray, ¿qué significa «Placement group»?", "Placement group"),
    ("¿Cómo se calcula el batch efectivo?", ""),
])
def test_the_term_a_question_asks(prompt, term):
    assert asked_term(prompt) == term


@pytest.mark.parametrize("term", ["Ray Tune determina", "el scheduler decide", "la capa que", "o modelo permite",
                                  "the tuner uses"])
def test_a_term_that_swallowed_a_clause_is_garbled(term):
    assert garbled_term(term)


@pytest.mark.parametrize("term", ["Ray Tune", "la transferencia de aprendizaje", "Distributed Data Parallelism",
                                  "el estado oculto", "tf.distribute.Strategy", "Placement group"])
def test_a_noun_phrase_is_a_term(term):
    assert not garbled_term(term)


def test_the_registry_flags_a_garbled_term():
    a = "Ray Tune determina qué configuración se prueba a continuación."
    assert "garbled-term" in run_checks(_short("¿Qué es Ray Tune determina?", a), CheckContext(a))
    assert "garbled-term" not in run_checks(_short("¿Qué es Ray Tune?", a), CheckContext(a))


def test_the_writer_asks_no_garbled_term():
    # a bullet whose subject and verb run into the term before "es" (the writer asked "¿Qué es Ray Tune
    # determina el trial?"); the real definition beside it is still asked
    text = ("Ajuste de hiperparámetros\n"
            "• Ray Tune determina el trial es el proceso que prueba una configuración concreta en el clúster.\n"
            "• El scheduler ASHA es un algoritmo que detiene pronto las pruebas con peores resultados parciales.\n"
            "• Ray Tune determina el trial que sigue y el scheduler ASHA decide cuándo parar.")
    doc = Document(path=Path("deck.md"), kind="markdown",
                   blocks=[Block(text=text, locator=Locator(heading="Ray Tune > Ajuste de hiperparámetros"))],
                   source_hash="x")
    chunks = chunk_document(doc, "deck.md")
    out = OfflineWriter().write(chunks, GenerationRequest(n=5), CourseTerms(chunks, None))
    prompts = [d.question.prompt for d in out.drafts]
    assert "¿Qué es el scheduler ASHA?" in prompts
    assert not [p for p in prompts if "determina" in p], prompts
