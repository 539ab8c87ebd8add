"""What :func:`kb.writing.answer_points.with_answer_points` leaves as it is (the last concept step of both writers):
a question that is not a short answer, a harvested one, one whose concepts are names by construction
(``NAMED_ORIGINS``: a list's parts, a procedure's steps, …), and, but on a slide's idea or list, one whose concepts are
all code names ("nvidia-smi"); every other short answer takes its answer's points. The writers' tests pin the
points themselves; these pin the cases kept apart."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kb.quiz import Citation, Question
from kb.writing.answer_points import point_concepts, with_answer_points
from kb.writing.concept_faults import NAMED_ORIGINS

CITE = (Citation("d.pdf", "p. 3", "", ""),)
ANSWER = ("Los gradientes pequeños en FP16 se vuelven cero por underflow. Se multiplica la pérdida por un factor "
          "antes del backward y los gradientes crecen. Antes del paso del optimizador se dividen los gradientes.")
SHORT = Question("short", "¿Por qué se escala la pérdida?", ANSWER, CITE, concepts=("underflow", "factor"),
                 lang="es", origin="llm")


def test_a_short_answer_takes_its_points():
    points = point_concepts(ANSWER, SHORT.prompt, "es")
    assert len(points) >= 2 and any("cero" in c for c in points), points
    assert with_answer_points(SHORT).concepts == points


@pytest.mark.parametrize("change", [
    {"type": "tf", "answer": "verdadero", "correct": True},
    {"origin": "harvested"},
    *({"origin": o} for o in sorted(NAMED_ORIGINS)),
    {"concepts": ("nvidia-smi",)},
    {"concepts": ("torch.compile()", "DTensor")},
    {"concepts": ("torch.compile / dynamo",)},
], ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_what_is_left_as_it_is(change):
    q = replace(SHORT, **change)
    assert with_answer_points(q) is q


@pytest.mark.parametrize("origin", ["idea", "labels"])
def test_on_a_slides_idea_or_list_code_names_give_way_to_the_points(origin):
    q = replace(SHORT, concepts=("nvidia-smi",), origin=origin)
    assert with_answer_points(q).concepts == point_concepts(ANSWER, SHORT.prompt, "es") != ("nvidia-smi",)


@pytest.mark.parametrize("pair", ["FlatParameter / DTensor", "FP16 / BF16", "nvidia-smi / nvtop"])
def test_a_comparisons_names_are_left_as_they_are(pair):
    q = replace(SHORT, concepts=(pair,))
    assert with_answer_points(q) is q


@pytest.mark.parametrize("pair", ["modificar / preparar", "escalar la pérdida / dividir los gradientes"])
def test_a_pair_of_plain_words_takes_the_answers_points(pair):
    q = replace(SHORT, concepts=(pair,))
    assert with_answer_points(q).concepts == point_concepts(ANSWER, SHORT.prompt, "es") != (pair,)
