"""Grade files a teacher uses as they are (kb.grading.classfiles), from the real `kb grade`:
grades.csv rows with the question and the reply, pt/es reply columns, the replies template,
the students x questions sheet on a scale, per-student feedback, Moodle's CSV and the chart."""

from __future__ import annotations

import csv
import io
import json

import pytest

from ..conftest import run_kb
from .test_grading import QUIZ

openpyxl = pytest.importorskip("openpyxl")


@pytest.fixture
def ws(tmp_path):
    (tmp_path / "q.json").write_text(json.dumps(QUIZ, ensure_ascii=False), encoding="utf-8")
    return tmp_path


def _rows(path):
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


@pytest.mark.parametrize("header", ["Aluno,Questão,Resposta", "Alumno;Pregunta;Respuesta",
                                    "student,question_id,answer"])
def test_replies_with_pt_es_column_names_are_graded(ws, header):
    sep = ";" if ";" in header else ","
    (ws / "r.csv").write_text(f'{header}\nAna{sep}1{sep}"trava global, uma thread por vez"\nAna{sep}3{sep}b\n',
                              encoding="utf-8")
    r = run_kb(["grade", "q.json", "r.csv", "--out", "rep", "--offline", "--json"], cwd=ws)
    assert r.returncode == 0, r.stderr
    rows = {x["question_id"]: x for x in _rows(ws / "rep" / "grades.csv")}
    assert set(rows) == {"gil", "strat"} and rows["strat"]["points"] == "3"
    # each row says which question and what the student wrote: an override needs nothing else
    assert rows["gil"]["number"] == "1" and rows["gil"]["question"].startswith("O que é o GIL")
    assert rows["gil"]["answer"] == "trava global, uma thread por vez"
    sheet = openpyxl.load_workbook(ws / "rep" / "grades.xlsx")["Grades"]
    head = [c.value for c in sheet[1]]
    assert {"number", "question", "answer"} <= set(head)


def test_the_template_is_what_a_class_fills_and_kb_grades(ws):
    r = run_kb(["grade", "q.json", "replies.csv", "--template"], cwd=ws)
    assert r.returncode == 0, r.stderr
    text = (ws / "replies.csv").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0] == "Aluno,Questão,Enunciado,Resposta" and len(lines) == 1 + len(QUIZ["questions"])
    assert lines[2].startswith(",2,Uma variável fixada")
    r = run_kb(["grade", "q.json", "replies.csv", "--template"], cwd=ws)  # never over the class's replies
    assert r.returncode == 3 and "replies.csv: already exists" in r.stderr
    # the class fills two rows; the blank ones are not problems
    filled = [ln for ln in lines]
    filled[1] = "Ana" + filled[1] + "trava global, uma thread por vez"
    filled[3] = "Ana" + filled[3] + "b"
    (ws / "replies.csv").write_text("\n".join(filled) + "\n", encoding="utf-8")
    r = run_kb(["grade", "q.json", "replies.csv", "--out", "rep", "--offline"], cwd=ws)
    assert r.returncode == 0, r.stderr
    assert {x["question_id"] for x in _rows(ws / "rep" / "grades.csv")} == {"gil", "strat"}


def test_class_sheet_scale_student_files_moodle_and_chart(ws):
    (ws / "r.csv").write_text("student,question_id,answer\nAna,gil,trava global\nAna,strat,b\nBia Souza,strat,a\n"
                              "Bia Souza,allred,all-reduce\n", encoding="utf-8")
    r = run_kb(["--ui-lang", "es", "grade", "q.json", "r.csv", "--out", "rep", "--offline", "--scale", "20"], cwd=ws)
    assert r.returncode == 0, r.stderr
    rep = ws / "rep"
    cls = {x["student"]: x for x in _rows(rep / "class.csv")}
    assert list(cls["Ana"])[:3] == ["student", "Q1", "Q2"] and "grade_20" in cls["Ana"]
    assert cls["Bia Souza"]["Q3"] == "0" and cls["Bia Souza"]["Q5"] == "3" and cls["Bia Souza"]["Q1"] == ""
    assert cls["Bia Souza"]["points"] == "3" and cls["Bia Souza"]["max"] == "6" and cls["Bia Souza"]["grade_20"] == "10"
    moodle = {x["student"]: x for x in _rows(rep / "moodle_grades.csv")}
    assert moodle["Bia Souza"]["Semana 3 (0-20)"] == "10" and "Q5 3/3" in moodle["Bia Souza"]["feedback"]
    # each student's own file, in the interface language (--ui-lang es)
    bia = (rep / "students" / "Bia_Souza.md").read_text(encoding="utf-8")
    assert bia.startswith("# Semana 3 — Bia Souza") and "Total: 3/6 puntos · nota 10/20" in bia
    assert "Su respuesta:" in bia and "> all-reduce" in bia and "**3/3 · correcta**" in bia and "GIL" not in bia
    # the workbook opens; its chart counts each question's points
    wb = openpyxl.load_workbook(rep / "class.xlsx")
    assert wb.sheetnames == ["Class", "Distribution"]
    dist = [[c.value for c in row] for row in wb["Distribution"].iter_rows(min_row=2)]
    assert dist[2] == ["Q3", 1, 0, 0, 1] and dist[4] == ["Q5", 0, 0, 0, 1]
    charts = wb["Distribution"]._charts
    assert len(charts) == 1 and len(charts[0].series) == 4
    assert "Q3   0:1" in r.stdout  # the compact chart in the terminal
    r = run_kb(["grade", "q.json", "r.csv", "--out", "rep2", "--offline", "--scale", "7"], cwd=ws)
    assert r.returncode == 2 and "--scale 7: not a grading scale kb writes" in r.stderr and not (ws / "rep2").exists()


def test_the_terminal_grade_table_keeps_names_and_totals_at_80_columns(tmp_path):
    questions = [{"id": f"m{i}", "type": "mcq", "prompt": f"Pergunta {i}?", "answer": "sim", "lang": "pt",
                  "choices": ["sim", "não"], "correct": 0} for i in range(1, 26)]
    (tmp_path / "q.json").write_text(json.dumps({"schema": 1, "title": "Prova", "questions": questions}),
                                     encoding="utf-8")
    name = "Maria Eduarda dos Santos Albuquerque"
    rows = "".join(f"{name},{i},a\nBia,{i},b\n" for i in range(1, 26))
    (tmp_path / "r.csv").write_text("student,question_id,answer\n" + rows, encoding="utf-8")
    r = run_kb(["grade", "q.json", "r.csv", "--out", "rep"], cwd=tmp_path, env={"COLUMNS": "80"})
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert max(len(ln) for ln in lines) <= 80
    assert any(name in ln and "75/75" in ln and "100" in ln for ln in lines)  # whole name, whole total
    assert any("0/75" in ln and "Bia" in ln for ln in lines)
    assert "Q1–Q5 of 25: every question in grades.md and class.csv" in " ".join(r.stdout.split())
    assert "| Maria Eduarda dos Santos Albuquerque |" in (tmp_path / "rep" / "grades.md").read_text(encoding="utf-8")
