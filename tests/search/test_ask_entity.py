"""kb ask offline (issue 30): a question that names one thing the course knows (a class, an API, a strategy:
"MultiWorkerMirroredStrategy") is answered from a page that names it, or not at all. Before, "¿Cómo se configura
un entrenamiento multinodo con MultiWorkerMirroredStrategy?" was answered with a DataLoader's settings from
03Datos.pdf: "Multiprocesamiento" shares the 5-letter stem "multi" that the strategy's name was cut to. The store
is real: the sample course (which holds the TF distribution deck as text) with ../shared/corpora/03Datos.pdf."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kb.answer_rules import entities

from ..conftest import CORPORA, course_with_decks
from .helpers import ask

DATOS = CORPORA / "03Datos.pdf"
pytestmark = pytest.mark.needs_shared(DATOS)


@pytest.fixture(scope="module")
def course(tmp_path_factory, course_template) -> Path:
    """The sample course with 03Datos.pdf (PyTorch's DataLoader deck), ingested by `kb ingest`."""
    return course_with_decks(tmp_path_factory.mktemp("entity"), lambda corpora: shutil.copy(DATOS, corpora),
                             course_template / ".kb")


def _names(passage: dict, name: str) -> bool:
    return name.lower() in f"{passage['locator'].get('heading') or ''}\n{passage['text']}".lower()


def test_entities_are_names_of_one_thing():
    assert entities("¿Cómo se configura un entrenamiento multinodo con MultiWorkerMirroredStrategy?") == [
        "multiworkermirroredstrategy"]
    assert entities("¿Por qué load_best_model_at_end da un ValueError?") == ["load_best_model_at_end", "valueerror"]
    assert entities("Qual a diferença entre ZeRO-2 e ZeRO-3?") == ["zero-2", "zero-3"]
    assert entities("¿Qué hace el decorador @tf.function?") == ["tf.function"]
    # a framework is not one (a deck on PyTorch need not name it on every slide), nor an acronym, nor a year
    assert entities("¿Cómo se aplica gradient clipping en PyTorch?") == []
    assert entities("Quais estratégias de sharding o FSDP oferece?") == []
    assert entities("¿Quién ganó el mundial de 1986?") == []


def test_a_question_on_a_named_strategy_is_answered_from_a_page_that_names_it(course):
    a = ask(course, "¿Cómo se configura un entrenamiento multinodo con MultiWorkerMirroredStrategy?")
    assert a["found"], a["answer"]
    cited = [p for p in a["passages"] if p["rank"] in a["cited"]]
    assert cited and all(_names(p, "MultiWorkerMirroredStrategy") for p in cited), a["answer"]
    assert "DataLoader" not in a["answer"] and "Multiprocesamiento" not in a["answer"]


def test_no_page_naming_every_thing_asked_about_is_not_found_with_the_best_passages(course):
    # the course names both, never together: an answer from either page would not answer the question
    a = ask(course, "¿Cuántos workers usa el DataLoader con MultiWorkerMirroredStrategy?")
    assert not a["found"] and a["cited"] == [], a["answer"]
    assert "no parece contener" in a["answer"]
    assert any(_names(p, "DataLoader") for p in a["passages"])  # the best passages are still shown
