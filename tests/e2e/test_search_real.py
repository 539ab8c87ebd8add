"""Search and offline answers on real slide decks, through the real CLI (in process).

One knowledge base per module: 03Datos.pdf, 05modelos.pdf, the "TensorFlow distribuido" deck
as PDF (001TFDist.pdf) and the same deck as text (sources/004_*.txt)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from kb.cli import app

from ..conftest import needs_corpora

pytestmark = [needs_corpora, pytest.mark.slow]  # the session's knowledge base of the decks: ~15 s to build

WRAPPED = {
    # question → the wrapped bullet that must come back whole
    "¿Se debe aplicar data augmentation al conjunto de validación?":
        "Asegúrate de aplicar la data augmentation solo en el conjunto de datos de entrenamiento y no en el "
        "conjunto de datos de prueba o validación.",
    "What does state_dict() return in PyTorch?":
        "El método state_dict() devuelve un diccionario que mapea los nombres de los módulos y los parámetros a "
        "sus respectivos tensores.",
    "¿Qué es MNIST?":
        "MNIST: Un conjunto de imágenes de dígitos escritos a mano, utilizado para reconocimiento de dígitos.",
}


@pytest.fixture(scope="module")
def kb_home(decks_home):
    return decks_home


def _kb(home, *args):
    r = CliRunner().invoke(app, list(args), env={"KB_HOME": str(home)})
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


@pytest.mark.parametrize("question", list(WRAPPED))
def test_offline_answer_gives_the_wrapped_bullet_whole(kb_home, question):
    out = _kb(kb_home, "ask", question, "--offline", "--json")
    assert out["found"]
    assert WRAPPED[question] in out["answer"]
    # every sentence of the answer is a whole sentence of a cited passage
    for part in filter(None, (p.strip() for p in out["answer"].split("]"))):
        sentence, _, n = part.rpartition(" [")
        passage = next(p for p in out["passages"] if p["rank"] == int(n))
        assert sentence.rstrip(".") in passage["text"]


@pytest.mark.parametrize("question", list(WRAPPED))
def test_search_returns_the_wrapped_bullet_whole(kb_home, question):
    out = _kb(kb_home, "search", question, "--json", "-k", "5")
    assert any(WRAPPED[question] in h["text"] for h in out["hits"])
    assert all(0.0 <= h["score"] <= 1.0 for h in out["hits"])
    scores = [h["score"] for h in out["hits"]]
    assert scores == sorted(scores, reverse=True)


def test_duplicated_deck_yields_one_hit_per_passage(kb_home):
    out = _kb(kb_home, "search", "¿En qué año Google liberó el código de DistBelief?", "--json", "-k", "5")
    hits = out["hits"]
    sources = {h["source"].rsplit("/", 1)[-1] for h in hits}
    assert any("DistBelief" in h["text"] for h in hits)
    assert len([h for h in hits if "Google libera el código de DistBelief" in h["text"]]) == 1, sources


def test_offline_answer_prefers_the_question_language_when_the_course_has_it(kb_home):
    out = _kb(kb_home, "ask", "¿Qué devuelve el método parameters() de un modelo?", "--offline", "--json")
    assert out["found"] and "lista de todos los parámetros del modelo" in out["answer"]
