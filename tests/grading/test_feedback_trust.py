"""Feedback a student can trust (issue 33), with the real offline grader and model: concepts the
reply contains are never listed as missing, one feedback language per student, the model answer
shown whole, an override's verdict text, and each note printed once."""

from __future__ import annotations

import json

import pytest

from kb.embeddings import get_embedder
from kb.grading.base import Task, with_override
from kb.grading.offline import OfflineGrader, compose_feedback
from kb.quiz import Question

from ..conftest import run_kb
from .test_grading import QUIZ

GIL = Question("short", QUIZ["questions"][0]["prompt"], QUIZ["questions"][0]["answer"], (),
               tuple(QUIZ["questions"][0]["concepts"]), "easy", "pt")
ES_GIL = Question("short", "¿Qué hace el GIL en Python?",
                  "El GIL es un bloqueo del intérprete que deja ejecutar un solo hilo a la vez.", (),
                  ("bloqueo", "un solo hilo"), "easy", "es")
ES_ALLREDUCE = Question("short", "¿Para qué sirve all-reduce?",
                        "All-reduce suma los gradientes de todas las GPUs y reparte el resultado.", (),
                        ("suma los gradientes",), "easy", "es")


@pytest.fixture(scope="module")
def embedder():
    return get_embedder("use-m3")


def test_concepts_in_a_reply_in_another_language_are_not_listed_as_missing(embedder):
    grader = OfflineGrader(embedder)
    task = Task(GIL, "The GIL is a global trava of the interpreter that lets one thread run at a time, and this "
                     "limits paralelismo in CPU tasks.")
    f = grader.features([task])[0]
    assert f.crosslingual and set(f.present) < set(f.seen)  # by meaning alone some would read as missing
    g = grader.grade([task])[0]
    assert "other_language" in g.flags
    assert {"trava", "paralelismo"} <= set(g.present) and not {"trava", "paralelismo"} & set(g.missing)
    listed_missing = g.feedback.split("Missing:", 1)[1].split(".")[0] if "Missing:" in g.feedback else ""
    assert "trava" not in listed_missing and "paralelismo" not in listed_missing


def test_feedback_follows_the_language_the_student_writes(embedder):
    # Ana writes Portuguese to Spanish questions; her second reply has no marker word of either language
    alone = OfflineGrader(embedder).grade([Task(ES_ALLREDUCE, "soma os gradientes de todas GPUs", "Ana")])[0]
    assert alone.feedback.startswith("Correcto.")  # nothing to tell by: the question's language
    both = OfflineGrader(embedder).grade([Task(ES_GIL, "É uma trava que não deixa rodar mais de uma thread", "Ana"),
                                          Task(ES_ALLREDUCE, "soma os gradientes de todas GPUs", "Ana")])
    assert both[0].feedback.startswith(("Correto.", "Parcialmente correto", "Pouco completo", "Incorreto"))
    assert both[1].feedback.startswith("Correto. Está certo:")
    # in kb study the same grader sees one reply at a time: it remembers what the student wrote
    grader = OfflineGrader(embedder)
    grader.grade([Task(ES_GIL, "É uma trava que não deixa rodar mais de uma thread")])
    assert grader.grade([Task(ES_ALLREDUCE, "soma os gradientes de todas GPUs")])[0].feedback.startswith("Correto.")


def test_a_numbered_model_answer_is_shown_whole():
    fb = compose_feedback("pt", 1, [], ["lê"], [], "1. Lê o arquivo.\n2. Grava o resultado.")
    assert fb.endswith("Esperado: «1. Lê o arquivo. 2. Grava o resultado.»") and "«1.»" not in fb
    long = " ".join(f"Frase número {i} da resposta modelo." for i in range(40))
    shown = compose_feedback("pt", 0, [], [], [], long).split("Esperado: «")[1]
    assert shown.endswith(" …»") and len(shown) <= 405 and shown.startswith("Frase número 0")


def test_an_override_replaces_the_verdict_text(embedder):
    g = OfflineGrader(embedder).grade([Task(GIL, "É uma trava do interpretador do Python.")])[0]
    assert g.points < 3 and g.feedback.startswith(("Parcialmente correto", "Pouco completo", "Incorreto"))
    o = with_override(g, 3, "teacher")
    assert o.feedback.startswith("Correto. ") and "(2/3)" not in o.feedback and "(1/3)" not in o.feedback
    assert o.feedback.endswith("[overridden: teacher]") and o.verdict == "correct"
    again = with_override(o, 1)
    assert again.feedback.startswith("Pouco completo (1/3). ") and "[overridden" not in again.feedback


def test_an_empty_answer_note_is_printed_once(tmp_path):
    (tmp_path / "q.json").write_text(json.dumps(QUIZ, ensure_ascii=False), encoding="utf-8")
    (tmp_path / "r.csv").write_text("student,question_id,answer\nAna,gil,trava\nAna,gpu,\n", encoding="utf-8")
    r = run_kb(["grade", "q.json", "r.csv", "--out", "rep", "--offline"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("r.csv:3: empty answer from Ana for gpu — graded 0") == 1
