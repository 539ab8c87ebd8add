"""The key concepts of a short answer are its model answer's points, one per point and in order (issue 26,
concepts28; kb/writing/answer_points.py): a labelled item gives its label with the gist of its detail, a sentence
its core clause; an example's numbers, a line of code, a tip and a version remark are no point; at most four,
the first point among them. Fresh raters of rounds 10-13 fixed the concepts of short answers more than anything
else, asking for exactly this. Through the public API (``generate_quiz``, offline writer) on a real PDF rendered
as eval/deck_pdf.py renders decks, and on the function itself."""

from __future__ import annotations

import re

import pytest

from kb.text import fold, words
from kb.writing.answer_points import GIST_WORDS, WHOLE_EXTRA, answer_points, point_concepts

from ..conftest import deck_quizzes, text_deck

DECK = """=== Entrenamiento con precisión mixta
• Curso de aprendizaje profundo: sesión de entrenamiento eficiente en la GPU
=== Escalado de la pérdida
• Los gradientes pequeños en FP16 se vuelven cero por underflow
• Se multiplica la pérdida por un factor S antes del backward y los gradientes crecen S veces
• Antes del paso del optimizador se dividen los gradientes por el mismo factor S
• Ejemplo: con S = 65536 un gradiente de 1e-8 pasa a 6.5e-4
    scaler = torch.cuda.amp.GradScaler(init_scale=65536)
=== Serialización
• Formato zip con el grafo serializado, los pesos y los metadatos
• No usa pickle para el grafo: es más portable y seguro que guardar el módulo entero
• Cargar todavía exige Python y PyTorch instalados en la máquina de destino
• Consejo: guardar también la versión de PyTorch usada al exportar
=== Métodos de un DataModule
• prepare_data(): descarga y tokeniza los datos en disco; se ejecuta en un solo proceso
• setup(stage): crea los datasets y las particiones; se ejecuta en todos los procesos
• train_dataloader(): devuelve el DataLoader de entrenamiento con el sampler adecuado
=== Memoria fijada
• Memoria paginable: el sistema operativo puede mover la página; la GPU no copia por DMA directamente
• Memoria fijada: queda fija en la RAM física; la GPU copia por DMA, más rápido y asíncrono
• Cuidado: demasiada memoria fijada reduce la RAM disponible para el sistema
=== Resumen
• La precisión mixta reduce memoria y tiempo si se escala la pérdida
"""


@pytest.fixture(scope="module")
def quizzes(tmp_path_factory, model_cache):
    return deck_quizzes(tmp_path_factory.mktemp("points"), text_deck("mixta_es", DECK), ("mixta_es",), model_cache,
                        n=12)


def _short(qs, title: str):
    found = [q for q in qs if q.type == "short" and q.citations[0].locator.endswith(f" · {title}")]
    assert found, [(q.type, q.prompt, q.citations[0].locator) for q in qs]
    return found


def _whole(c: str) -> bool:
    """A concept a teacher keeps by its form: a few words, ending on no article, preposition or adverb awaiting its
    object."""
    last = fold(words(c)[-1])
    return 2 <= len(words(c)) <= 2 * GIST_WORDS + WHOLE_EXTRA and last not in {
        "de", "del", "la", "el", "en", "a", "y", "por", "con", "que", "los", "las", "antes", "despues"}


def test_a_slide_s_concepts_are_its_points_not_its_example(quizzes):
    (q,) = _short(quizzes["mixta_es"], "Escalado de la pérdida")
    concepts = q.concepts
    assert 2 <= len(concepts) <= 4 and all(_whole(c) for c in concepts), concepts
    assert not any(re.search(r"65536|1e-8|6\.5e-4|GradScaler", c) for c in concepts), concepts
    # one concept per point, in the answer's order: the first point (the problem) first
    assert "cero" in concepts[0] and any("multiplica la pérdida" in c for c in concepts[1:]), concepts


def test_the_first_point_is_a_concept_and_a_tip_is_none(quizzes):
    (q,) = _short(quizzes["mixta_es"], "Serialización")
    concepts = q.concepts
    assert "Formato zip" in concepts[0] and all(_whole(c) for c in concepts), concepts
    assert any("pickle" in c for c in concepts) and not any("versión de PyTorch" in c for c in concepts), concepts


def test_a_labelled_list_gives_each_item_its_label_and_gist(quizzes):
    (q,) = _short(quizzes["mixta_es"], "Memoria fijada")
    assert any(c.startswith("Memoria paginable: ") and "mover la página" in c for c in q.concepts), q.concepts
    # (the item whose label the stem asks about, "¿qué es la memoria fijada?", gives its gist: the stem says the label)
    assert any(c.startswith("queda fija en la RAM física") for c in q.concepts), q.concepts


@pytest.mark.parametrize(("answer", "wanted", "unwanted"), [
    # a worked example, a legend of symbols and a version remark are no points; each sentence is one
    ("Los pesos no dependen de la longitud s; las activaciones sí. s = longitud, b = batch, h = hidden. "
     "FlashAttention elimina el término cuadrático de la atención. Ejemplo: h = 8192, s = 128k -> 36 GB por capa. "
     "Opciones más nuevas: staging en pinned memory con caché.",
     ["pesos no dependen de la longitud s", "FlashAttention elimina el término cuadrático"],
     ["8192", "b = batch", "staging"]),
    # a line of code glued between sentences is no point
    ("Acumular en float32 aunque los checkpoints estén en bf16. weights = weights or [1.0 / len(sds)] * len(sds). "
     "else. Devolver cada tensor a su dtype original al final.",
     ["Acumular en float32", "Devolver cada tensor a su dtype original"], ["weights =", "else"]),
    # a list under a lead-in label is one point: what each item names, not its first third
    ("Objetivo: escrever o modelo uma vez e trocar só a estratégia. Uma Strategy encapsula: em quais dispositivos "
     "as réplicas rodam; como as variáveis são criadas e replicadas; como gradientes e métricas são agregados.",
     ["escrever o modelo uma vez", "Strategy encapsula: dispositivos, variáveis, gradientes"], ["Objetivo"]),
])
def test_the_points_of_an_answer(answer, wanted, unwanted):
    concepts = point_concepts(answer, "¿Qué hay que saber?", "pt" if "escrever" in answer else "es")
    for w in wanted:
        assert any(w in c for c in concepts), concepts
    for u in unwanted:
        assert not any(u in c for c in concepts), concepts


def test_an_answer_of_code_only_has_no_point():
    assert answer_points("x = torch.zeros(3). else. model.to(device)") == []
