"""The review order spreads a teacher's decisions over every question (kb.grading.review.spread_order),
and the random baseline does not move with kb's order: the real review_order, kernel and groups on
small, obvious replies."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from kb.grading.base import make_grade
from kb.grading.groups import AnswerGroup
from kb.grading.review import SPREAD_FIRST, random_order, review_order, spread_order
from kb.quiz import Question


def test_spread_order_gives_every_question_its_first_decisions_then_decisions_by_its_replies():
    # question 0: every next decision tells a lot (gains 9, 8.9, …); question 1: little (1, 0.9, …)
    gains = [[9.0 - 0.1 * k for k in range(40)], [1.0 - 0.01 * k for k in range(40)]]
    order = spread_order(gains, [40, 40])
    assert order[:2 * SPREAD_FIRST] == [(0, 0), (1, 0), (0, 1), (1, 1)]  # rounds, the larger gain first
    for n in range(2 * SPREAD_FIRST, 60):  # then two questions of 40 replies each: never more than one apart
        c = Counter(i for i, _ in order[:n])
        assert abs(c[0] - c[1]) <= 1
    # each question keeps its own order, and every group comes once
    assert [k for i, k in order if i == 1] == list(range(40)) and len(order) == 80


def test_spread_order_follows_the_replies_when_questions_differ_in_size():
    order = spread_order([[1.0] * 30, [5.0] * 10], [90, 10], first=1)
    c = Counter(i for i, _ in order[:20])
    assert c == {0: 18, 1: 2}  # 90 : 10 replies, whatever the gains say
    # a question with no group left drops out; the rest goes on
    assert Counter(i for i, _ in order) == {0: 30, 1: 10}
    assert spread_order([], []) == [] and spread_order([[], [2.0]], [0, 1]) == [(1, 0)]


def _two_questions() -> tuple[list[AnswerGroup], list, list[str], np.ndarray]:
    """Question 'alike': 12 replies in 12 near wordings of one thing (every decision tells much about the
    others); question 'apart': 12 replies that each say something else."""
    qa = Question("short", "O que é o GIL?", "Uma trava do interpretador.", (), id="alike")
    qb = Question("short", "Dê um exemplo de E/S.", "Ler um arquivo.", (), id="apart")
    alike = [f"uma trava do interpretador python {w}" for w in "abcdefghijkl"]
    apart = ["ler um arquivo", "esperar a rede", "gravar no disco", "ler o teclado", "imprimir na tela",
             "baixar uma página", "consultar o banco", "enviar um email", "abrir um socket", "tocar um som",
             "mover o mouse", "acender um led"]
    replies = alike + apart
    rng = np.random.default_rng(0)
    base = rng.normal(size=16)
    v = np.vstack([base + 0.05 * rng.normal(size=16) for _ in alike] + [rng.normal(size=16) for _ in apart])
    v = (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)
    grades = [make_grade(qa, 2.0, "") for _ in alike] + [make_grade(qb, 2.0, "") for _ in apart]
    groups = [AnswerGroup("alike", (i,)) for i in range(12)] + [AnswerGroup("apart", (12 + i,)) for i in range(12)]
    return groups, grades, replies, v


def test_review_order_does_not_give_the_alike_question_every_early_decision():
    groups, grades, replies, v = _two_questions()
    order = review_order(groups, grades, replies, v)
    assert {it.group.question_id for it in order[:2]} == {"alike", "apart"}
    c = Counter(it.group.question_id for it in order[:8])
    assert c == {"alike": 4, "apart": 4}  # 12 replies each: the same share
    # within a question, the decision that tells most comes first (its gain falls)
    gains = [it.priority for it in order if it.group.question_id == "alike"]
    assert gains == sorted(gains, reverse=True)


def test_random_baseline_is_the_same_whatever_order_the_groups_come_in():
    groups, grades, replies, v = _two_questions()
    a = [it.group for it in random_order(groups, grades, replies, v, seed=1)]
    b = [it.group for it in random_order(list(reversed(groups)), grades, replies, v, seed=1)]
    assert a == b and sorted(a, key=lambda g: g.members) == sorted(groups, key=lambda g: g.members)
    assert a != [it.group for it in random_order(groups, grades, replies, v, seed=2)]


def test_spread_order_by_gain_alone_is_the_previous_merge():
    gains = [[9.0, 8.0, 7.0], [1.0, 0.5]]
    assert spread_order(gains, [3, 2], first=0, by_replies=False) == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)]
    assert spread_order(gains, [3, 2], first=0) == [(0, 0), (1, 0), (0, 1), (0, 2), (1, 1)]


def test_propagate_shrinks_a_questions_correction_towards_the_pooled_one():
    from kb.grading.kernel import propagate

    k = np.eye(3)
    # one decision, 3 where kb gave 1: the mean correction (2) shrunk by 3 pseudo-decisions of `toward`
    assert propagate(k, [1.0] * 3, [0], [3.0], shrink=3.0)[2] == pytest.approx(1.0 + 2 / 4)
    assert propagate(k, [1.0] * 3, [0], [3.0], shrink=3.0, toward=2.0)[2] == pytest.approx(3.0)
    assert propagate(k, [2.0] * 3, [0], [2.0], shrink=3.0, toward=-1.0)[2] == pytest.approx(2.0 - 3 / 4)


def test_a_grader_too_generous_everywhere_is_corrected_where_the_replies_are_unlike_any_decided(monkeypatch):
    """Three questions; kb gives 3 to every reply, the teacher 1 to the MIN_GRADED replies decided in each;
    each question's last reply is unlike the decided ones (another direction, other letters)."""
    from kb.grading import review
    from kb.grading.base import Task
    from kb.grading.review import MIN_GRADED, pull_rest

    tasks, vecs, graded = [], [], {}
    for q_id in ("q1", "q2", "q3"):
        q = Question("short", f"Pergunta {q_id}?", "Uma trava do interpretador.", (), id=q_id)
        for i in range(MIN_GRADED):
            graded[len(tasks)] = 1
            tasks.append(Task(q, f"uma trava do interpretador {i}"))
            vecs.append([1.0, 0.0])
        tasks.append(Task(q, "xyzzy"))
        vecs.append([0.0, 1.0])
    v = np.array(vecs, dtype=np.float32)
    grades = [make_grade(t.question, 3.0, "") for t in tasks]
    last = [i for i in range(len(tasks)) if i not in graded]
    # each question's correction (-2 on MIN_GRADED decisions) shrunk towards the other questions' (-20 / 13): 3 -> 1.17
    assert [pull_rest(tasks, grades, v, graded)[i].points for i in last] == [1, 1, 1]
    monkeypatch.setattr(review, "POOL_SHRINK", float("inf"))  # shrunk towards 0, as before: -1.25, 3 -> 2
    assert [pull_rest(tasks, grades, v, graded)[i].points for i in last] == [2, 2, 2]


# twelve right-sounding replies kb grades alike; a strict teacher gives 0 to the first six groups it lists
STRICT_CLASS = [
    "O GIL é uma trava global do interpretador que deixa só uma thread executar bytecode por vez.",
    "Global Interpreter Lock: uma thread por vez roda código Python, então não há paralelismo real.",
    "É um lock do CPython; as threads se revezam e o programa não usa vários núcleos.",
    "Uma trava que impede duas threads de rodarem Python ao mesmo tempo, limitando o paralelismo.",
    "O GIL serializa as threads: só uma executa por vez, e o paralelismo em CPU some.",
    "Trava global: apenas uma thread por vez executa, programas com threads não escalam em CPU.",
    "Mecanismo do interpretador que só permite uma thread ativa, sem paralelismo de CPU.",
    "É o bloqueio global do interpretador, só uma thread roda por vez e perde-se paralelismo.",
    "Uma exclusão mútua no interpretador que faz as threads executarem uma de cada vez.",
    "O GIL garante que uma única thread execute bytecode, por isso threads não dão paralelismo.",
    "Lock global que só libera uma thread por vez; em tarefas de CPU não há ganho com threads.",
    "O interpretador tem uma trava e por isso só uma thread trabalha de cada vez, sem paralelismo.",
]


def test_kb_grade_corrects_the_rest_of_a_question_as_the_teacher_corrected_its_groups(tmp_path):
    """The real `kb grade` twice: the teacher's 0s on six groups (kb gave them 1-2) are corrections of kb's
    own grade, so the six replies nobody graded go down too (they stayed as they were when the teacher's
    grade was taken as kb's)."""
    import csv
    import json

    from ..conftest import run_kb
    from .test_grading import QUIZ, read_gradebook, write_csv

    quiz = tmp_path / "semana3.json"
    quiz.write_text(json.dumps(QUIZ, ensure_ascii=False), encoding="utf-8")
    replies = write_csv(tmp_path / "replies.csv", [("student", "question_id", "answer")]
                        + [(f"S{i:02d}", "gil", r) for i, r in enumerate(STRICT_CLASS)])
    out = tmp_path / "reports"
    r = run_kb(["grade", str(quiz), str(replies), "--out", str(out), "--offline"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    before = {s: int(row["points"]) for (s, _), row in read_gradebook(out).items()}
    assert min(before.values()) >= 1
    with (out / "grades-review.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 12  # every reply its own group
    for row in rows[:6]:
        row["teacher"] = "0"
    with (out / "grades-review.csv").open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    r = run_kb(["grade", str(quiz), str(replies), "--out", str(out), "--offline"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "6 other grades changed (0 up, 6 down)" in " ".join(r.stderr.split())
    book = read_gradebook(out)
    decided = {row["students"] for row in rows[:6]}
    for (s, _), row in book.items():
        if s in decided:
            assert row["points"] == "0" and row["grader"] == "override"
        else:
            assert int(row["points"]) < before[s] and row["grader"] != "override"
