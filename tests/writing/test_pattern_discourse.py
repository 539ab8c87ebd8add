"""A labelled list whose labels are a slide's discourse roles ("Problema: …; Solución: …", "Ventaja: …;
Problema: …") is asked as ONE question about the slide's topic, each role at once (issue 26): fresh teachers
kept 0 of 76 "¿qué significa cada uno de estos elementos de «…»: Problema; Solución?" (eval/real_heldout_r6,
r7) and rewrote them as "¿Por qué beam search sin normalización favorece secuencias cortas y cómo se
corrige?". The model answer is the items with their labels; the concepts are the descriptions' key phrases,
never the labels. Two or three roles only; labels that are neither terms nor roles get no question.

Through the public API (``generate_quiz`` with the offline writer) on real PDFs: held-out decks rendered as
eval/deck_pdf.py renders them, and a deck written here for the cases they lack.
"""

from __future__ import annotations

import re

import pytest

from kb.text import fold
from kb.writing.pattern_discourse import roles, topic

from ..conftest import deck_quizzes, heldout_decks, text_deck

pytestmark = pytest.mark.slow

ROLES_DECK = """=== Entrenamiento de redes recurrentes
• Las redes recurrentes procesan secuencias paso a paso con un estado oculto
• El entrenamiento usa backpropagation through time sobre la secuencia desplegada
=== Gradient clipping: definición
• Problema: los gradientes explotan en redes recurrentes profundas y el entrenamiento diverge
• Solución: recortar la norma del gradiente a un umbral fijo antes de cada paso del optimizador
=== Mixed precision en redes recurrentes
• Ventaja: la memoria de activaciones se reduce a la mitad con float16
• Desventaja: los gradientes pequeños se pierden por underflow en float16
• Riesgo: la pérdida diverge sin escalado dinámico de la loss
• Coste: hay que mantener una copia maestra de los pesos en float32
=== Sincronizar gradientes entre GPUs
• Hay que promediarlos: cada GPU calcula gradientes sobre su propio trozo del batch
• Volumen: cada paso mueve tantos bytes como parámetros tiene el modelo completo
"""
LABELS = ("problema", "solucion", "solucao", "ventaja", "desventaja", "riesgo", "coste")


@pytest.fixture(scope="module")
def quizzes(tmp_path_factory, model_cache):
    """``generate_quiz`` -n 20 offline on each deck (library call), in one knowledge base: the form is what is
    pinned, not the plan's ranking (at -n 12 validacao_pt's plan has other ideas since the summary slide counts)."""
    def add(corpora):
        heldout_decks(("decoding_es", "validacao_pt"))(corpora)
        text_deck("roles_es", ROLES_DECK)(corpora)

    return deck_quizzes(tmp_path_factory.mktemp("discourse"), add, ("decoding_es", "validacao_pt", "roles_es"),
                        model_cache, n=20)


def _asked(qs, pattern: str):
    return [q for q in qs if re.search(pattern, q.prompt)]


def test_problem_and_solution_are_asked_of_the_slides_topic(quizzes):
    """decoding_es p. 9 "Length penalty y normalización por longitud": Problema; Solución."""
    found = _asked(quizzes["decoding_es"], r"«Length penalty y normalización por longitud», ¿qué problema hay y "
                                           r"cuál es la solución\?$")
    assert len(found) == 1, [q.prompt for q in quizzes["decoding_es"]]
    q = found[0]
    assert q.type == "short" and q.prompt.startswith("En decodificación")  # (set in the deck's subject)
    assert "Problema: cada token suma un log P negativo" in q.answer and "Solución: dividir el score" in q.answer
    assert q.concepts and not {fold(c) for c in q.concepts} & set(LABELS), q.concepts
    assert any("dividir el score" in c for c in q.concepts), q.concepts


def test_roles_in_the_decks_language_and_the_slide_kind_left_out(quizzes):
    """A pt deck asks in Portuguese; a title's slide kind (": definición") is no part of the topic."""
    pt = _asked(quizzes["validacao_pt"], r"em «Nested cross-validation», qual é o problema e qual é a solução\?$")
    assert pt and not {fold(c) for c in pt[0].concepts} & set(LABELS), [q.prompt for q in quizzes["validacao_pt"]]
    es = _asked(quizzes["roles_es"], r"«Gradient clipping», ¿qué problema hay y cuál es la solución\?$")
    assert es, [q.prompt for q in quizzes["roles_es"]]
    assert "recortar la norma del gradiente" in es[0].answer


def test_no_question_on_four_roles_nor_on_sentence_labels(quizzes):
    """Four roles is a slide to recite; "Hay que promediarlos" is a sentence, neither a term nor a role: no
    role question asks them, and only the last resort (origin "labels", to reach n) asks what such labels mean."""
    assert len(quizzes["roles_es"]) >= 3, [q.prompt for q in quizzes["roles_es"]]  # (the deck holding both slides)
    for qs in quizzes.values():
        for q in qs:
            if q.origin != "labels":
                assert "cada uno de estos elementos" not in q.prompt or not re.search(
                    r"\b(Problema|Solución|Ventaja|Desventaja|Riesgo|Coste|Hay que promediarlos)\b", q.prompt), q.prompt
                assert "Hay que promediarlos" not in q.prompt, q.prompt
            assert not ("qué riesgo tiene" in q.prompt and "qué coste tiene" in q.prompt), q.prompt


def test_roles_of_a_list():
    """Which lists are one topic's roles: two or three distinct roles, the first item one of them, at most as
    many other items (a role's sub-points)."""
    assert roles(["Problema", "Solución"], "es") == ["qué problema hay", "cuál es la solución"]
    assert roles(["Ventaja", "Problema", "distribución plana", "distribución afilada"], "es") == [
        "qué ventaja tiene", "qué problema hay"]
    assert roles(["Sintoma", "Causa", "Consequências"], "pt") == [
        "qual é o sintoma", "qual é a causa", "quais são as consequências"]
    assert roles(["Ventaja", "Desventaja", "Riesgo", "Coste"], "es") == []  # four roles
    assert roles(["Hay que promediarlos", "Volumen"], "es") == []  # sentence labels
    assert roles(["Solução", "Duas famílias"], "pt") == []  # one role
    assert roles(["Problema", "Problema"], "es") == []  # one role twice
    assert roles(["BLAS", "Problema", "Solución"], "es") == []  # a term first: not a topic's roles


def test_topic_leaves_out_the_slide_kind():
    assert topic("All-reduce: definición", "es") == "All-reduce"
    assert topic("Gradient accumulation: la idea", "es") == "Gradient accumulation"
    assert topic("Focal loss: definição", "pt") == "Focal loss"
    assert topic("El problema: sincronizar gradientes", "es") == "El problema: sincronizar gradientes"


def test_a_part_with_no_label_goes_on_the_label_before_it():
    """"En CUDA: se usa CUDA IPC; exige método spawn o forkserver" is one labelled item, for the stem, the term
    test and the roles alike (the term test used to read "exige método spawn…" as a label that is no term, and
    sent a list of terms to the last resort)."""
    from kb.writing.pattern_discourse import list_labels

    text = "Hogwild: actualizaciones sin lock; exige método spawn o forkserver; DDP: un proceso por GPU"
    assert list_labels(text) == ["Hogwild", "DDP"]
    assert roles(list_labels("Problema: k fijo; no se adapta a la forma; Solución: top-p"), "es") == \
        roles(["Problema", "Solución"], "es")
