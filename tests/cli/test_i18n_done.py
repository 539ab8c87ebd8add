"""Issue 33's "done when", end to end with the real CLI: a study session, a grade report (with each
student's file) and a Markdown key read entirely in Portuguese and in Spanish — their text is scanned
for English words of kb's interface — and a teacher overrides a grade by editing grades.xlsx alone."""

from __future__ import annotations

import json
import re

import pytest

from ..conftest import run_kb
from ..grading.test_grading import QUIZ
from .i18n_words import english_left

openpyxl = pytest.importorskip("openpyxl")

def test_the_scan_finds_the_english_interface_and_not_paths_or_commands():
    assert english_left("Model answer: all-reduce · next review in 10 min · kb: error: x — fix: kb quiz review w.json"
                        ) == ["answer", "fix", "model", "next", "review"]
    assert english_left("Resposta modelo: sources/grades/the_answer.pdf · rode kb grade quiz.json") == []


ES_QUIZ = {"schema": 1, "title": "Semana 3", "questions": [
    {"id": "gil", "type": "short", "lang": "es", "prompt": "¿Qué es el GIL de Python?",
     "answer": "Un cerrojo del intérprete que deja ejecutar un solo hilo a la vez.", "concepts": ["cerrojo", "un hilo"],
     "citations": [{"source": "sources/clase3.pdf", "locator": "p. 2", "chunk_id": "c1", "quote": "el GIL"}]},
    {"id": "estr", "type": "mcq", "lang": "es", "prompt": "¿Qué estrategia replica el modelo en cada GPU?",
     "answer": "MirroredStrategy", "choices": ["OneDeviceStrategy", "MirroredStrategy"], "correct": 1},
    {"id": "disco", "type": "tf", "lang": "es", "prompt": "¿Verdadero o falso? Spark guarda todo en disco.",
     "answer": "Falso. La fuente dice: Spark guarda los datos intermedios en memoria.", "correct": False},
    {"id": "suma", "type": "cloze", "lang": "es", "prompt": "Los gradientes se suman con _____.",
     "answer": "all-reduce"},
]}
QUIZZES = {"pt": QUIZ, "es": ES_QUIZ}


@pytest.fixture
def ws(tmp_path, monkeypatch):
    (tmp_path / "quizzes").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _write(ws, lang):
    path = ws / "quizzes" / "semana3.json"
    path.write_text(json.dumps(QUIZZES[lang], ensure_ascii=False), encoding="utf-8")
    return path


STUDY_INPUT = {  # each question answered once (a short one ends with an empty line), Enter after the feedback
    "pt": "trava global\n\n\nnão sei\n\n\nb\n\nf\n\nall-reduce\n\n",
    "es": "un cerrojo\n\n\nb\n\nf\n\nall-reduce\n\n",
}


@pytest.mark.parametrize("lang", ["pt", "es"])
def test_a_study_session_and_progress_read_entirely_in_the_language(ws, lang):
    _write(ws, lang)
    r = run_kb(["--ui-lang", lang, "study"], cwd=ws, input=STUDY_INPUT[lang])
    assert r.returncode == 0, r.stderr
    out = r.stdout + r.stderr
    assert {"pt": "sessão: respondidas", "es": "sesión: respondidas"}[lang] in out, out
    assert english_left(out) == [], out
    p = run_kb(["--ui-lang", lang, "progress"], cwd=ws)
    assert english_left(p.stdout + p.stderr) == [], p.stdout


REPLIES = {
    "pt": 'student,question_id,answer\nAna,gil,"trava global, uma thread por vez"\nAna,gpu,\nAna,strat,b\n'
          "Bia,gil,uma trava\nBia,spark,f\nBia,allred,all-reduce\nBia,zzz,x\n",
    "es": 'Alumno,Pregunta,Respuesta\nAna,1,"un cerrojo, un hilo a la vez"\nAna,2,a\nAna,3,\n'
          "Bia,1,no sé\nBia,3,f\nBia,4,all-reduce\nBia,9,x\n",
}


@pytest.mark.parametrize("lang", ["pt", "es"])
def test_a_grade_report_and_each_students_file_read_entirely_in_the_language(ws, lang):
    quiz = _write(ws, lang)
    (ws / "r.csv").write_text(REPLIES[lang], encoding="utf-8")
    r = run_kb(["--ui-lang", lang, "grade", str(quiz), "r.csv", "--out", "rep", "--offline"], cwd=ws)
    assert r.returncode == 1, r.stderr  # one row skipped: reports written, the exit code says so
    texts = {"terminal": r.stdout + r.stderr, "grades.md": (ws / "rep" / "grades.md").read_text(encoding="utf-8")}
    for f in sorted((ws / "rep" / "students").glob("*.md")):
        texts[f.name] = f.read_text(encoding="utf-8")
    assert {"grades.md", "Ana.md", "Bia.md"} <= set(texts)
    # the rows kb skipped and the empty answer are said in the language too
    assert {"pt": "desconhecido 'zzz' — linha ignorada", "es": "desconocido '9' — fila omitida"}[lang] \
        in texts["grades.md"]
    for name, text in texts.items():
        assert english_left(text) == [], (lang, name, text)
    # what other programs read stays kb's own English (CSV keys, --json)
    assert (ws / "rep" / "grades.csv").read_text(encoding="utf-8").startswith("student,question_id,points")


@pytest.mark.parametrize("lang", ["pt", "es"])
def test_a_markdown_key_and_sheet_read_entirely_in_the_quizs_language(ws, lang):
    quiz = _write(ws, lang)
    for args, name in ((["--answers"], "key.md"), ([], "sheet.md")):
        r = run_kb(["--ui-lang", lang, "quiz", "export", str(quiz), "--format", "md", *args, "-o", name], cwd=ws)
        assert r.returncode == 0, r.stderr
        text = (ws / name).read_text(encoding="utf-8")
        assert english_left(text) == [], (lang, name, text)
        assert english_left(r.stderr) == [], r.stderr
    key = (ws / "key.md").read_text(encoding="utf-8")
    assert {"pt": "· curta · média</sub>", "es": "· corta · media</sub>"}[lang] in key


def test_a_teacher_overrides_a_grade_by_editing_the_workbook_alone(ws):
    quiz = _write(ws, "pt")
    (ws / "r.csv").write_text(REPLIES["pt"].replace("Bia,zzz,x\n", ""), encoding="utf-8")
    assert run_kb(["grade", str(quiz), "r.csv", "--out", "rep", "--offline"], cwd=ws).returncode == 0
    book = ws / "rep" / "grades.xlsx"
    wb = openpyxl.load_workbook(book)
    sheet = wb["Grades"]
    head = [c.value for c in sheet[1]]
    rows = {(row[head.index("student")].value, row[head.index("question_id")].value): row
            for row in sheet.iter_rows(min_row=2)}
    bia = rows[("Bia", "gil")]
    # the row alone tells the teacher what was asked and what the student wrote
    assert bia[head.index("number")].value == 1 and bia[head.index("answer")].value == "uma trava"
    assert bia[head.index("question")].value.startswith("O que é o GIL")
    assert bia[head.index("points")].value < 3
    bia[head.index("override")].value = 3  # the teacher's decision, in the spreadsheet, saved
    rows[("Ana", "strat")][head.index("points")].value = 2  # and a points cell typed over
    wb.save(book)
    r = run_kb(["grade", str(quiz), "r.csv", "--out", "rep", "--offline"], cwd=ws)
    assert r.returncode == 0, r.stderr
    grades = json.loads((ws / "rep" / "grades.json").read_text(encoding="utf-8"))["students"]
    assert grades["Bia"]["grades"]["gil"]["points"] == 3 and grades["Bia"]["grades"]["gil"]["grader"] == "override"
    assert grades["Ana"]["grades"]["strat"]["points"] == 2
    assert "2 instructor overrides kept (marked *)" in r.stderr
    # kb's new workbook carries the overrides: a third run without edits keeps them and reads nothing new
    r = run_kb(["grade", str(quiz), "r.csv", "--out", "rep", "--offline"], cwd=ws)
    grades = json.loads((ws / "rep" / "grades.json").read_text(encoding="utf-8"))["students"]
    assert grades["Bia"]["grades"]["gil"]["points"] == 3 and grades["Ana"]["grades"]["strat"]["points"] == 2


@pytest.mark.parametrize("lang", ["pt", "es"])
def test_quiz_generate_reports_in_the_language(ingested_workspace, lang):
    r = run_kb(["--ui-lang", lang, "quiz", "generate", "-n", "150", "--offline", "-o", "quizzes/g.json", "--force"],
               cwd=ingested_workspace)
    assert r.returncode == 0, r.stderr
    said = " ".join(r.stderr.split())
    assert {"pt": "questões gravadas em quizzes/g.json", "es": "preguntas escritas en quizzes/g.json"}[lang] in said
    assert {"pt": "nota: escritas ", "es": "nota: escritas "}[lang] in said  # fewer than asked: said why, in words
    # a rejected draft's text is the course's content (an English book title may be in it): only kb's words count
    ui_only = re.sub(r"(rejeitada|rechazada): .*? — ", r"\1: ", said)
    assert english_left(ui_only) == [], r.stderr
