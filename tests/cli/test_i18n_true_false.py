"""True/false answers as a teacher reads them in `kb quiz review` and `kb quiz show`: the word in the
question's language (Verdadeiro/Falso, Verdadero/Falso) and, for a false statement, the corrected
statement kb has — never the JSON words true/false; the card's labels in the interface language."""

from __future__ import annotations

import json
import re

import pytest

from ..conftest import run_kb
from .i18n_words import english_left
from .test_i18n import TF_QUIZ

CARD = {  # the card of the offline writer's false statement (question 3), in each interface language
    "en": ["Answer: Falso. A fonte diz: o GIL limita o paralelismo.", "(reviewed 0 of 3)", "3/3 · tf · medium"],
    "pt": ["Resposta: Falso. A fonte diz: o GIL limita o paralelismo.", "(revisadas 0 de 3)",
           "3/3 · V/F · média · pt"],
    "es": ["Respuesta: Falso. A fonte diz: o GIL limita o paralelismo.", "(revisadas 0 de 3)",
           "3/3 · V/F · media · pt"],
}


@pytest.fixture
def tf_quiz(tmp_path, monkeypatch):
    (tmp_path / "quizzes").mkdir()
    path = tmp_path / "quizzes" / "tf.json"
    path.write_text(json.dumps(TF_QUIZ, ensure_ascii=False), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return path


@pytest.mark.parametrize("lang", ["en", "pt", "es"])
def test_review_card_shows_the_word_and_the_corrected_statement(tf_quiz, lang):
    r = run_kb(["--ui-lang", lang, "quiz", "review", str(tf_quiz)], cwd=tf_quiz.parent.parent, input="s\ns\nq\n")
    assert r.returncode == 0, r.stderr
    out = " ".join(r.stdout.split())
    for piece in CARD[lang]:
        assert piece in out, (lang, piece, r.stdout)
    # an LLM's bare "false"/"True. …" become the word of the question's language
    assert "Falso." in out and "Verdadero. Una por vez." in out
    assert not re.search(r"\((true|false)\)|: (true|false)\b", out), out
    if lang != "en":  # the session around the cards too: keys, counts, what to do next
        assert {"pt": "[k] manter [e] editar", "es": "[k] conservar [e] editar"}[lang] in out
        assert {"pt": "revisadas 0 de 3 (3 rascunhos); rode kb quiz review",
                "es": "revisadas 0 de 3 (3 borradores); ejecute kb quiz review"}[lang] in " ".join(r.stderr.split())
        assert english_left(r.stdout + r.stderr) == [], r.stdout + r.stderr


@pytest.mark.parametrize("lang", ["pt", "es"])
def test_quiz_show_gives_the_word_not_true_or_false(tf_quiz, lang):
    r = run_kb(["--ui-lang", lang, "quiz", "show", str(tf_quiz)], cwd=tf_quiz.parent.parent)
    assert r.returncode == 0, r.stderr
    out = " ".join(r.stdout.split())
    assert "→ Falso." in out and "→ Verdadero. Una por vez." in out and "→ Falso. A fonte diz" in out
    assert {"pt": "3 questões", "es": "3 preguntas"}[lang] in out
    assert not re.search(r"→ (true|false)\b", out, re.IGNORECASE)


def test_editing_a_false_statement_shows_and_keeps_its_corrected_statement(tf_quiz):
    from kb.quiz import load_quiz
    from kb.review import parse_edit, render_for_edit

    q = load_quiz(tf_quiz).questions[2]
    text = render_for_edit(q)
    assert "\nFalso. A fonte diz: o GIL limita o paralelismo.\n" in text and "\nfalse\n" not in text
    assert parse_edit(text, q).answer == "Falso. A fonte diz: o GIL limita o paralelismo."  # not cut to "Falso"
    fixed = parse_edit(text.replace("A fonte diz: o GIL", "A fonte diz: o GIL do CPython"), q)
    assert (fixed.correct, fixed.answer) == (False, "Falso. A fonte diz: o GIL do CPython limita o paralelismo.")
    llm = load_quiz(tf_quiz).questions[0]  # an LLM's bare "false": the word of the question's language
    assert "\nFalso.\n" in render_for_edit(llm) and parse_edit(render_for_edit(llm), llm).answer == "Falso"
