"""An objective question must ask a term of the course, not a slide's label: ``label-answer`` flags a
"which term matches this description" whose answer, or a true/false whose term, is an ordinary word of the
deck's language the deck says only as the label of a line ("Aleatoriedad", "Lección", "Requisito");
``answer-in-description`` flags one whose description lists examples of the answer's category ("T.Resize,
T.RandomCrop, …" → Geométricas) or says the answer. A term passes: a name, code, an English term in a Spanish
deck, or an ordinary phrase the deck's running text says ("Producto interno"). Checked as ``kb eval quiz``
checks a question (:func:`kb.writing.checklist.question_defects`) against a real PDF's text.
(The class was written on eval/real_heldout_r8–r9's multiple choices; the wordings here are new.)"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, question_defects, run_checks

ROOT = Path(__file__).resolve().parents[2]

DECK = """\
=== Aumento de datos en visión con torchvision
• Sesión 4: transformaciones de imágenes con torchvision.transforms.v2 (T)
=== Transformaciones más usadas
• Geométricas: T.Resize, T.RandomCrop, T.RandomRotation, T.RandomAffine
• Color: T.ColorJitter, T.Grayscale, T.RandomEqualize
• Aleatoriedad: T.RandomApply, T.RandomChoice para aplicar otras con una probabilidad
• Normalización: T.Normalize con la media y la desviación de ImageNet
=== Compose y el orden
• Compose: encadena transformaciones en una lista que se aplica en orden
• RandomApply: aplica una lista de transformaciones con probabilidad p
• ToDtype: convierte el tensor a float y escala a [0, 1] antes de normalizar
• Lección: el aumento se aplica solo al conjunto de entrenamiento, nunca al de validación
=== Similitud entre embeddings
• Producto interno: igual al coseno cuando los vectores están normalizados
• Distancia L2: sensible a la norma de los vectores
• Coseno: ángulo entre dos vectores, ignora la norma
• Con vectores normalizados, ordenar por producto interno o por coseno da el mismo resultado
=== Requisitos
• Requisito: las transformaciones v2 aceptan tensores, imágenes PIL y cajas (BoundingBoxes) a la vez
• Backend: T.functional opera sobre tensores en GPU
"""


@pytest.fixture(scope="module")
def deck(tmp_path_factory) -> CheckContext:
    sys.path.insert(0, str(ROOT))
    from eval.deck_pdf import render
    from kb.chunking import chunk_document
    from kb.readers import read_document

    txt = tmp_path_factory.mktemp("deck") / "augment_es.txt"
    txt.write_text(DECK, encoding="utf-8")
    pdf = render(txt, txt.with_suffix(".pdf")) and txt.with_suffix(".pdf")
    chunks = chunk_document(read_document(pdf), "augment_es.pdf")
    whole = "".join(f"\n{c.locator.heading or ''}\n{c.text}" for c in chunks)  # as kb eval quiz builds it
    return CheckContext(whole, whole)


def _which(description: str, choices: tuple[str, ...], answer: str) -> Question:
    prompt = f"En aumento de datos con torchvision, ¿qué término corresponde a esta descripción: «{description}»?"
    return Question("mcq", prompt, answer, (Citation("augment_es.pdf", "p. 2", "c1", description),), (answer,),
                    lang="es", choices=choices, correct=choices.index(answer), origin="siblings")


def _means(term: str, said: str) -> Question:
    return Question("tf", f"¿Verdadero o falso? En aumento de datos con torchvision, «{term}» significa: {said}.",
                    "Falso.", (Citation("augment_es.pdf", "p. 5", "c1", said),), (said,), lang="es", correct=False,
                    origin="siblings")


LABELS = [  # (description, options, answer): the answer an ordinary word the deck says only as a label
    ("el aumento se aplica solo al conjunto de entrenamiento", ("Lección", "Compose", "RandomApply", "ToDtype"),
     "Lección"),
    ("otras transformaciones aplicadas con una probabilidad", ("Aleatoriedad", "Color", "Geométricas", "Normalización"),
     "Aleatoriedad"),
]
TERMS = [  # the answer a term of the deck: code, an English name, an ordinary phrase its sentences say
    ("aplica una lista de transformaciones con probabilidad p", ("Compose", "RandomApply", "ToDtype", "Normalize"),
     "RandomApply"),
    ("igual al coseno cuando los vectores están normalizados", ("Distancia L2", "Producto interno", "Coseno"),
     "Producto interno"),
]
EXAMPLES = [  # the description lists the answer's examples, or says the answer
    ("T.Resize, T.RandomCrop, T.RandomRotation, T.RandomAffine", ("Geométricas", "Color", "Readers", "Backend"),
     "Geométricas"),
    ("T.ColorJitter, T.Grayscale, T.RandomEqualize", ("Backend", "Color", "Compose", "ToDtype"), "Color"),
    ("ordenar por producto interno o por coseno da el mismo resultado", ("Distancia L2", "Producto interno", "Coseno"),
     "Producto interno"),
]


@pytest.mark.parametrize(("description", "choices", "answer"), LABELS)
def test_a_slide_label_as_the_answer_is_flagged(deck, description, choices, answer):
    q = _which(description, choices, answer)
    assert "label-answer" in question_defects(q, deck)  # kb eval quiz reports it
    assert "label-answer" in run_checks(q, deck)  # and the writers turn it down


@pytest.mark.parametrize(("description", "choices", "answer"), TERMS)
def test_a_term_of_the_deck_as_the_answer_passes(deck, description, choices, answer):
    found = question_defects(_which(description, choices, answer), deck)
    assert "label-answer" not in found and "answer-in-description" not in found


@pytest.mark.parametrize(("description", "choices", "answer"), EXAMPLES)
def test_a_description_that_gives_the_answer_away_is_flagged(deck, description, choices, answer):
    assert "answer-in-description" in question_defects(_which(description, choices, answer), deck)


def test_a_true_false_on_a_label_is_flagged_and_on_a_term_passes(deck):
    assert "label-answer" in question_defects(_means("Requisito", "opera sobre tensores en GPU"), deck)
    assert "label-answer" not in question_defects(_means("Backend", "acepta tensores e imágenes PIL a la vez"), deck)


def test_without_the_decks_text_no_label_is_judged(deck):
    q = _which(*LABELS[0])
    assert "label-answer" not in question_defects(q, CheckContext(deck.passage))


def test_an_english_decks_words_are_not_judged():
    from kb.writing.deck_term import deck_term

    text = "Attention\nAttention: each query weighs every key\nLoss: what training minimises"
    assert deck_term("Attention", text, "en") and deck_term("Loss", text, "en")
    assert not deck_term("Moraleja", "Moraleja: mover datos cuesta más que calcular", "es")


def test_a_choice_of_effects_is_no_term_to_name(deck):
    """Options that say what happens ("Reduce la memoria") are ordinary phrases by nature: only a question
    asking to name a term is judged."""
    q = Question("mcq", "En aumento de datos con torchvision, ¿qué efecto tiene aplicar T.Normalize?",
                 "Centra los valores", (Citation("augment_es.pdf", "p. 2", "c1", ""),), lang="es",
                 choices=("Centra los valores", "Borra la imagen", "Duplica el lote"), correct=0)
    assert "label-answer" not in question_defects(q, deck)
