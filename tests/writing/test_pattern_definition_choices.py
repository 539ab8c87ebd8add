"""A definition the deck states is also asked as a multiple choice (which of the deck's terms this
describes). Selection keeps no type above ~40 % only where the deck offers other forms that pass the checks: here the
definitions' clozes blank plain terms (prose-blank) and one multiple choice alone is not asked, so every question is a
short answer."""

from __future__ import annotations

from pathlib import Path

from kb.chunking import chunk_document
from kb.outline import build_outline
from kb.readers import Document
from kb.records import Block, Locator
from kb.writing.course import CourseTerms
from kb.writing.generate import GenerationRequest, select
from kb.writing.offline import OfflineWriter

_SLIDES = [
    ("Optimizadores", "El optimizador SGD es un método que actualiza los pesos en la dirección opuesta al gradiente."),
    ("Momento", "El momento es una técnica que acumula una media de los gradientes pasados para suavizar el paso."),
    ("Adam", "Adam es un optimizador que adapta el paso de cada parámetro con la media de sus gradientes al cuadrado."),
    ("Scheduler", "El scheduler es un objeto que cambia la tasa de aprendizaje a lo largo de las épocas."),
    ("Weight decay", "El weight decay es una penalización que reduce los pesos grandes en cada actualización."),
]


def _write(n: int = 5):
    blocks = [Block(text=f"{t}\n• {body}", locator=Locator(heading=f"Optimización en PyTorch > {t}"))
              for t, body in _SLIDES]
    chunks = chunk_document(Document(Path("optim.md"), "markdown", blocks, "x"), "optim.md")
    course = CourseTerms(chunks, None)
    course.outlines = {"optim.md": build_outline(chunks, "optim.md", bookmarks=[])}
    req = GenerationRequest(n=n, sources=("optim.md",))
    return OfflineWriter().write(chunks, req, course), req


def test_a_definition_is_also_a_multiple_choice_on_the_decks_terms():
    out, _ = _write()
    mcqs = [d.question for d in out.drafts if d.question.type == "mcq"]
    assert mcqs, [d.question.prompt for d in out.drafts]
    q = mcqs[0]
    assert "corresponde a esta descripción" in q.prompt and len(q.choices) == 4
    assert q.choices[q.correct] not in q.prompt.split("«", 1)[1]  # the description does not name its term
    terms = {"optimizador sgd", "momento", "adam", "scheduler", "weight decay"}
    assert {c.lower() for c in q.choices} <= terms, q.choices  # the deck's terms, as it writes them


def test_definitions_whose_clozes_blank_plain_terms_fall_back_to_short_answers():
    """The definitions' clozes blank a term that is no code entity ("_____ es un optimizador que adapta el paso …" →
    Adam): prose-blank turns them down (kb/writing/check_objective_kind.py: raters drop such clozes far more often
    than they keep them). What is left of the objective kinds here is one multiple choice, and one alone is not asked
    (its right option would sit at one position): selection asks the definitions as short answers."""
    out, req = _write()
    assert [r for r in out.rejected if r.what.startswith("Completa") and "trivial-blank" in r.reason]
    assert [d for d in out.drafts if d.question.type == "mcq"]
    chosen, _ = select(out.drafts, req, out.drafts)
    assert len(chosen) >= 4 and {d.question.type for d in chosen} == {"short"}, [d.question.type for d in chosen]
