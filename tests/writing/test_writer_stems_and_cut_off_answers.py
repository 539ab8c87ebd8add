"""Writer v5: each class of question the two raters of writer v4 did not keep that an offline
writer can fix (eval/quiz_review_independent_v4.csv), pinned on the real page that produced it:
stems leaning on a slide title, items whose name gives the answer, concepts that are side
details, answers cut off or in another language.
"""

from __future__ import annotations

import re

import pytest

from kb.config import Settings
from kb.quiz import Question
from kb.workspace import open_workspace
from kb.writing.checklist import other_language
from kb.writing.concepts import answer_concepts
from kb.writing.wording import framework, whole_sentences

from ..conftest import SYNC_ASYNC, needs_corpora, write_offline

pytestmark = needs_corpora


@pytest.fixture(scope="module")
def ws(real_decks_course):
    """The sample course and the three real decks (read-only)."""
    return open_workspace(Settings(home=real_decks_course / ".kb"))


@pytest.fixture(scope="module")
def quizzes(ws):
    res = write_offline(ws, {"corpora/03Datos.pdf": 12, "corpora/05modelos.pdf": 12, "corpora/001TFDist.pdf": 12,
                             "sources/001_96d83118e2ee854a.txt": 8})
    out: dict = {src: r["quiz"] for src, r in res.items() if src != "course"}
    out["course"] = res["course"]["terms"]
    out["drafts"] = {src: r["drafts"] for src, r in res.items() if src != "course"}  # chosen or not
    return out


def _qs(quizzes):
    return [q for k, v in quizzes.items() if k not in ("course", "drafts") for q in v]


def test_the_library_a_deck_names_most(quizzes):
    course = quizzes["course"]
    texts = {s.rsplit("/", 1)[-1]: [c.text for c in cs] for s, cs in course.by_source.items()}
    assert framework(texts["05modelos.pdf"]) == "PyTorch"
    assert framework(texts["03Datos.pdf"]) == "PyTorch"
    assert framework(texts["001TFDist.pdf"]) == "TensorFlow"


def test_no_stem_quotes_a_slide_title(quizzes):
    """Students do not see «Estructura de un modelo en PyTorch»: the subject is named instead."""
    for q in _qs(quizzes):
        assert not re.search(r"(?:^|\s)(?:En|Em|In)\s+«", q.prompt), q.prompt
    m = [q.prompt for q in quizzes["corpora/05modelos.pdf"]]
    # a bare definition is situated too (v6 asks the slide's two components instead, p. 4)
    assert "En PyTorch, ¿qué son los parámetros?" in [q.prompt for q in quizzes["drafts"]["corpora/05modelos.pdf"]]
    assert "En PyTorch, ¿cómo se puede guardar el estado del modelo?" in m
    assert "En PyTorch, ¿cómo se pueden obtener los nombres de las capas y módulos del modelo?" in m
    d = [q.prompt for q in quizzes["corpora/001TFDist.pdf"]]
    assert "En DTensor, ¿qué significa «Layout»?" in d  # "DTENSORS: Conceptos": the name the title opens on
    assert "En data parallelism, ¿cuál es el cuello de botella?" in d  # the title's topic in plain words


def test_averaging_says_of_what(quizzes):
    d = [q.prompt for q in quizzes["corpora/001TFDist.pdf"]]
    assert SYNC_ASYNC in d  # v6; the deck's subject since v10


def test_names_that_give_the_answer_are_not_asked(quizzes):
    for q in _qs(quizzes):
        assert "__len__()" not in q.prompt  # "devuelve la longitud"
        assert "predefinidas" not in q.prompt  # "Evitan tener que definir …"
        assert not ("torch.hub" in q.prompt and "torch.hub.load" in q.answer)


def test_steps_have_their_own_action_as_concept(quizzes):
    steps = [q for q in quizzes["corpora/05modelos.pdf"] if q.origin == "steps" and "Congela" in q.answer]
    assert steps and "congelar" in steps[0].concepts


def test_concepts_are_not_examples_or_parentheses():
    answer = ("En PyTorch, las transformaciones son operaciones aplicadas a los datos para modificarlos. "
              "Pueden incluir el reescalado de las imágenes, la normalización de los valores, entre otros.")
    got = answer_concepts(("imágenes", "normalización", "operaciones"), "¿Qué son las transformaciones?", answer, None)
    assert got == ("operaciones",)


def test_book_answers_end_on_whole_sentences(quizzes):
    (cuda,) = [q for q in quizzes["sources/001_96d83118e2ee854a.txt"] if "CUDA_ERROR" in q.prompt] or [None]
    if cuda is not None:
        assert cuda.answer.rstrip().endswith((".", "?", "!")) and not cuda.answer.rstrip().endswith(":")
        assert not re.search(r"\s[A-Z]\.$", cuda.answer)
    assert whole_sentences("Uno dos tres. Cuatro cinco seis. Por ejemplo:", 40) == "Uno dos tres. Cuatro cinco seis."


def test_no_english_answer_under_a_spanish_stem(quizzes):
    for q in quizzes["corpora/03Datos.pdf"]:
        assert "single-process" not in q.answer
    q = Question("short", "¿Qué diferencia hay entre A y B?",
                 "DataParallel: single-process multi-thread; Distributed Data Parallel: multi-process parallelism.",
                 (), ("x",), "medium", "es")
    assert other_language(q) == ["answer-language"]
    ok = Question("short", "¿Cómo se cargan datos en paralelo?", "Utiliza la opción num_workers en el DataLoader.",
                  (), ("x",), "medium", "es")
    assert other_language(ok) == []


def test_counts_hold(quizzes):
    assert len(quizzes["corpora/03Datos.pdf"]) >= 10
    assert len(quizzes["corpora/05modelos.pdf"]) >= 10
