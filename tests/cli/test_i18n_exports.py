"""Exports a pt/es class receives: an Anki true/false card says the words once and its back gives the word
and the corrected statement; a cloze card never shows its own answer on the front; Moodle keeps an
essay's model answer in the grader's information, out of the feedback students see (read back from the XML)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

from kb.export import get_exporter
from kb.quiz import load_quiz

from ..writing.test_export import read_apkg

QUIZ = {"schema": 1, "title": "Semana 4", "questions": [
    {"id": "init", "type": "cloze", "lang": "pt", "answer": "__init__",
     "prompt": "O método _____ inicializa o objeto; o Python chama __init__ ao criar a instância."},
    {"id": "gil", "type": "tf", "lang": "pt", "prompt": "Verdadeiro ou falso? O GIL acelera threads.",
     "answer": "Falso. A fonte diz: o GIL limita o paralelismo.", "correct": False},
    {"id": "hilo", "type": "tf", "lang": "es", "prompt": "El GIL permite un hilo a la vez.", "answer": "true",
     "correct": True},
    {"id": "ensayo", "type": "short", "lang": "es", "prompt": "¿Qué hace el GIL?",
     "answer": "Deja ejecutar un solo hilo de Python a la vez.", "concepts": ["un hilo a la vez"]},
]}


def _notes(tmp_path) -> dict[str, dict[str, str]]:
    (tmp_path / "q.json").write_text(json.dumps(QUIZ, ensure_ascii=False), encoding="utf-8")
    pkg = read_apkg(get_exporter("anki").render(load_quiz(tmp_path / "q.json")))
    return {n["fields"]["Id"]: n["fields"] for n in pkg["notes"]}


def test_a_cloze_card_hides_every_place_the_prompt_says_its_answer(tmp_path):
    text = _notes(tmp_path)["init"]["Text"]
    assert text.count("{{c1::__init__}}") == 2  # the blank and the second mention: one deletion, both hidden
    assert "__init__" not in re.sub(r"\{\{c1::.*?\}\}", "", text)


def test_true_false_cards_say_the_words_once_and_the_back_gives_the_corrected_statement(tmp_path):
    notes = _notes(tmp_path)
    gil, hilo = notes["gil"], notes["hilo"]
    # the prompt already asks "Verdadeiro ou falso?": no second "Verdadeiro / Falso" under it
    assert 'class="choices"' not in gil["Front"] and gil["Front"].count("Verdadeiro") == 1
    assert gil["Back"] == "<b>Falso</b><br>A fonte diz: o GIL limita o paralelismo."
    # a bare statement (an LLM's) gets the two words of its language; the back is the word, never "true"
    assert hilo["Front"].endswith('<div class="choices">Verdadero / Falso</div>') and hilo["Back"] == "<b>Verdadero</b>"
    assert not any(re.search(r"\b(true|false)\b", n["Front"] + n["Back"]) for n in (gil, hilo))


def test_moodle_essay_answer_is_for_the_grader_only_and_true_false_feedback_uses_the_word(tmp_path):
    (tmp_path / "q.json").write_text(json.dumps(QUIZ, ensure_ascii=False), encoding="utf-8")
    root = ET.fromstring(get_exporter("moodle").render(load_quiz(tmp_path / "q.json")))
    essay = next(q for q in root if q.get("type") == "essay")
    assert "Deja ejecutar un solo hilo de Python a la vez." in essay.findtext("graderinfo/text")
    assert "Respuesta modelo" in essay.findtext("graderinfo/text")
    assert "un solo hilo" not in (essay.findtext("generalfeedback/text") or "")  # students see it after submitting
    tf = [q for q in root if q.get("type") == "truefalse"]
    feedback = " ".join(a.findtext("feedback/text") or "" for q in tf for a in q.iter("answer"))
    assert "Incorreto. Falso. A fonte diz: o GIL limita o paralelismo." in feedback
    assert "Incorrecto. Verdadero." in feedback and not re.search(r"\b(true|false)\b", feedback)
