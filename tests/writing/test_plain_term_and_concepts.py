"""The plain question on an outline idea (:mod:`kb.writing.plan`) by two classes of text fresh raters fixed or
dropped on the r6 held-out decks (eval/real_heldout_r6/ratings.csv, the questions only the fill wrote):

- "¿qué significa «X»?" where X is a slide's label or a phrase of ordinary words ("Otras señales", "Regla de
  bolso inicial", "Mismo principio en CPU", "intuición SGD"), not a term; raters kept it where X was a code
  name or an English technical term ("default_collate", "Activation checkpointing");
- "¿qué significa cada uno de estos elementos de «T»: a; b; c?" whose key concepts were the labels a; b; c
  the stem already gives: a grader would credit a reply that repeats the stem. The concepts are the key words
  of each item's description, and the registry flags a concept the stem already says, whoever wrote it."""

from __future__ import annotations

from dataclasses import replace

from kb.outline import build_outline
from kb.quiz import Citation, Question
from kb.records import Chunk, Locator
from kb.writing.checklist import CheckContext, question_defects, run_checks
from kb.writing.generate import CourseTerms
from kb.writing.plan import fill_questions, plain_forms, plain_questions

SRC = "slides/dl.pdf"


def _chunk(page: int, title: str, text: str, lang: str = "es") -> Chunk:
    return Chunk(SRC, "pdf", text, Locator(page=page, heading=title), lang, page, "h", 4)


COVER = _chunk(1, "Pipelines de datos en PyTorch", "Curso de aprendizaje profundo\nAutores")


def _fill(chunks: list[Chunk]) -> list[Question]:
    o = build_outline(chunks, SRC, bookmarks=[])
    extra = fill_questions({SRC: o}, [], {c.id: c for c in chunks}, CourseTerms(chunks, None), k=0, lang=None)
    return [d.question for d in extra]


def test_what_x_means_is_asked_of_terms_never_of_a_slides_wording():
    labels = [  # (title, a label of ordinary words: a slide's wording, with its description)
        ("Diagnóstico de la espera", "Otras señales",
         "nvidia-smi con la utilización, htop con los workers al cien por cien y torch.profiler"),
        ("Elegir el número de workers", "Regla de bolso inicial",
         "entre cuatro y ocho workers por GPU sin superar los cores asignados al trabajo"),
        ("Tiling en la jerarquía de memoria", "Mismo principio en CPU",
         "bloques que caben en las cachés L1 y L2 y un micro-kernel en registros SIMD"),
        ("Escalado lineal de la tasa", "intuición SGD",
         "varios pasos pequeños equivalen a un paso con más muestras y una tasa mayor"),
    ]
    terms = [  # (title, a term: a code name, an English technical term in a Spanish deck)
        ("Formar el batch", "default_collate",
         "apila los tensores de las muestras en un tensor con una dimensión de batch nueva"),
        ("Ahorrar memoria de activaciones", "Activation checkpointing",
         "guarda solo algunas activaciones y recalcula las demás durante la pasada backward"),
        ("Registro de modelos", "Registered model",
         "un modelo con nombre y versiones que se promueven de staging a producción"),
    ]
    chunks = [COVER, *[_chunk(p, title, f"• {label}: {what}")
                       for p, (title, label, what) in enumerate(labels + terms, start=2)]]
    prompts = [q.prompt for q in _fill(chunks)]
    for _, label, _ in labels:
        assert not any(f"significa «{label}»" in p for p in prompts), label
    for _, term, _ in terms:
        assert any(f"significa «{term}»" in p for p in prompts), term


STORES = _chunk(2, "MLflow: backend store e artifact store",
                "• Backend store: metadados dos experimentos, runs, parâmetros e métricas\n"
                "• Artifact store: arquivos grandes como modelos e imagens em disco ou S3\n"
                "• Tracking server: ponto central que os clientes acessam via HTTP", "pt")


def test_the_parts_of_a_labelled_list_are_graded_by_their_descriptions_not_their_labels():
    cover = _chunk(1, "Rastreamento de experimentos", "Curso de aprendizado profundo\nAutores", "pt")
    chunks = [cover, STORES]
    o = build_outline(chunks, SRC, bookmarks=[])
    drafts, _ = plain_questions({SRC: o}, [], {c.id: c for c in chunks}, CourseTerms(chunks, None), k=10, lang=None)
    (q,) = [d.question for d in drafts if d.question.type == "short" and "Backend store:" in d.question.answer]
    assert q.prompt == "Em rastreamento de experimentos, o que é MLflow?"  # (its labels in the answer only)
    assert q.concepts and len(q.concepts) == 3
    for concept in q.concepts:
        assert concept.lower() not in q.prompt.lower(), concept
    assert any("metadados" in c for c in q.concepts) and any("HTTP" in c for c in q.concepts)


def test_a_concept_the_stem_already_says_is_flagged_whoever_wrote_the_question():
    prompt = ("Em rastreamento de experimentos, o que significa cada um destes elementos de «MLflow»: "
              "Backend store; Artifact store; Tracking server?")
    answer = STORES.text.replace("• ", "").replace("\n", "; ")
    q = Question(type="short", prompt=prompt, answer=answer, citations=(Citation(SRC, "p. 2", STORES.id, answer),),
                 concepts=("Backend store", "Artifact store", "Tracking server"), lang="pt", origin="llm")
    ctx = CheckContext(STORES.text)
    assert "concept-in-stem" in run_checks(q, ctx)
    assert "concept-in-stem" in question_defects(q, ctx)  # (kb eval quiz reports it)
    fixed = Question(type="short", prompt=prompt, answer=answer, citations=q.citations,
                     concepts=("metadados dos experimentos", "arquivos grandes", "ponto central via HTTP"), lang="pt")
    assert "concept-in-stem" not in run_checks(fixed, ctx)


def test_a_recap_line_of_what_to_do_about_a_term_is_not_asked_as_what_it_means():
    cover = _chunk(1, "Quantização vetorial", "Curso de aprendizado profundo\nAutores", "pt")
    recap = _chunk(2, "Resumo", "• Codebook collapse: monitorar a utilização e a perplexidade dos códigos", "pt")
    (idea,) = build_outline([cover, recap], SRC, bookmarks=[]).ideas[:1]
    collapse = replace(idea, kind="definition", name="Codebook collapse", locator="p. 2 · Resumo",
                       text="Codebook collapse: monitorar a utilização e a perplexidade; reiniciar os mortos")
    gil = replace(collapse, name="GIL", text="GIL: um único thread executa bytecode Python por vez em cada processo")
    assert plain_forms(collapse, "VQ", "pt", mentions=lambda _: 0) == []  # (its answer would be the remedies)
    assert [p for p, _ in plain_forms(gil, "VQ", "pt", mentions=lambda _: 0)] == ["Em VQ, o que significa «GIL»?"]
