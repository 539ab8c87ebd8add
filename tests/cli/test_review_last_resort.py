"""A question the writer asked only to reach -n (origin "labels": a slide asked of its topic in general words,
kb/writing/pattern_topic.py; it was what each of a slide's labels means, the form fresh teachers never kept as
written) says so on its `kb quiz review` card, in the interface language, so the teacher goes to [e]dit; other
questions carry no such line. The real CLI on a quiz file."""

from __future__ import annotations

import json

import pytest

from ..conftest import run_kb

QUIZ = {"schema": 1, "title": "Semana 5", "questions": [
    {"id": "plain", "type": "short", "prompt": "En decodificación, ¿qué es greedy decoding?", "lang": "es",
     "answer": "En cada paso se elige el token de mayor probabilidad.", "concepts": ["token de mayor probabilidad"],
     "origin": "idea"},
    {"id": "labels", "type": "short", "lang": "es", "origin": "labels",
     "prompt": "En decodificación, explica el muestreo top-k.",
     "answer": "Ventaja: elimina la cola larga; Problema: k fijo no se adapta", "concepts": ["elimina la cola larga"]},
]}
HINT = {"en": "a last resort to reach -n: a slide asked of its topic in general words",
        "pt": "um último recurso para chegar a -n: um slide perguntado pelo seu tema em termos gerais",
        "es": "un último recurso para llegar a -n: una diapositiva preguntada por su tema en términos generales"}


def _cards(tmp_path, lang: str) -> tuple[str, str, str]:
    """`kb quiz review` of QUIZ in ``lang``: (the first card, the second, the whole output), one line each."""
    (tmp_path / "quizzes").mkdir()
    path = tmp_path / "quizzes" / "q.json"
    path.write_text(json.dumps(QUIZ, ensure_ascii=False), encoding="utf-8")
    r = run_kb(["--ui-lang", lang, "quiz", "review", str(path)], cwd=tmp_path, input="k\ns\nq\n")
    assert r.returncode == 0, r.stderr
    out = " ".join(r.stdout.split())
    first, second = out.split("2/2", 1)
    return first, second, out


@pytest.mark.parametrize("lang", ["en", "pt", "es"])
def test_the_last_resort_is_named_on_its_card_only(tmp_path, lang):
    first, second, out = _cards(tmp_path, lang)
    assert HINT[lang] not in first and HINT[lang] in second, out
    assert second.index(HINT[lang]) < second.index("explica el muestreo top-k")  # read before the prompt


SELDOM = {"en": "a last resort to reach -n: a form fresh teachers seldom keep as written",
          "es": "un último recurso para llegar a -n: una forma que los profesores rara vez conservan tal cual"}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_form_teachers_seldom_keep_is_named_on_its_card(tmp_path, lang):
    """The offline writer's other last resorts (kb/writing/form_prior.py): "¿qué es greedy decoding?" answered in one
    line is one; the slide's topic question (origin "labels") keeps its own line, not this one."""
    first, second, out = _cards(tmp_path, lang)
    assert SELDOM[lang] in first and SELDOM[lang] not in second, out
