"""The similarity of replies, the decision order and the propagation of a teacher's grades
(kb.grading.kernel): pure functions on small, obvious matrices."""

from __future__ import annotations

import numpy as np
import pytest

from kb.grading.kernel import char_vectors, decision_order, propagate, reply_kernel


def test_char_vectors_find_the_same_words_misspelt_and_not_other_words():
    v = char_vectors(["mitocôndria produz energia", "mitocondria produs energia", "o núcleo guarda o DNA", ""])
    assert float(v[0] @ v[1]) > 0.6 > 0.2 > float(v[0] @ v[2])
    assert float(np.abs(v[3]).sum()) == 0.0  # no letters: no similarity to anything


def test_reply_kernel_adds_meaning_and_letters():
    vecs = np.array([[1.0, 0.0], [1.0, 0.0], [-1.0, 0.0]], dtype=np.float32)
    k = reply_kernel(vecs, ["igual", "igual", "outra"])
    assert k[0, 1] == pytest.approx(2.0, abs=1e-5)  # same meaning, same letters
    assert k[0, 2] == pytest.approx(0.0, abs=1e-5)  # opposite embeddings count as unlike, not as negative


def test_decision_order_takes_the_crowded_reply_first_then_one_unlike_it():
    # replies 0-3 alike (a crowd), 4 alone
    k = np.eye(5)
    k[:4, :4] = 0.95
    np.fill_diagonal(k, 1.0)
    order = decision_order(k, [0, 1, 2, 3, 4], np.ones(5), 3)
    assert order[0][0] in {0, 1, 2, 3} and order[1][0] == 4
    assert order[0][1] > order[1][1] > order[2][1]
    # a reply weighed 0 (a guard zeroes it) adds nothing to the gain of deciding it
    assert decision_order(np.eye(2), [0, 1], np.array([0.0, 1.0]), 1)[0][0] == 1


def test_propagate_corrects_kb_where_the_teacher_corrected_it_and_keeps_the_decisions():
    k = np.array([[2.0, 1.9, 0.0], [1.9, 2.0, 0.0], [0.0, 0.0, 2.0]])
    prior = [1.0, 1.0, 1.0]
    out = propagate(k, prior, [0], [3.0], shrink=0.0)
    assert out[0] == 3.0  # the teacher's grade
    assert out[1] > 2.0  # like the decided reply: corrected as it was
    assert out[2] == pytest.approx(3.0, abs=1e-6)  # unlike it: only the question's mean correction
    shrunk = propagate(k, prior, [0], [3.0], shrink=3.0)
    assert shrunk[2] == pytest.approx(1.5)  # the mean correction shrunk: 2 / (1 + 3)
    assert shrunk[1] == pytest.approx(1.5 + 1.9 * 1.5 / 3.0)  # and the rest of it by how alike: 2.45
    assert list(propagate(k, prior, [], [])) == prior  # no decision: kb's grades
    assert max(propagate(k, [2.9, 2.9, 2.9], [0], [3.0])) <= 3.0


def test_few_graded_replies_pull_their_likes_and_many_propagate_a_correction():
    from kb.grading.base import Task, make_grade
    from kb.grading.review import MIN_GRADED, pull_rest, pull_towards
    from kb.quiz import Question

    assert pull_towards(1.0, [0.5], [3]) == 1.0  # nothing alike: kb's grade stays
    assert pull_towards(1.0, [0.99, 0.5], [3, 0]) == pytest.approx(1.0 + 0.9 * 2.0, abs=1e-3)
    q = Question("short", "O que é o GIL?", "Uma trava do interpretador.", (), id="gil")
    texts = ["uma trava", "uma trava", "outra coisa"] + [f"uma trava {i}" for i in range(MIN_GRADED)]
    tasks = [Task(q, t) for t in texts]
    vecs = np.array([[1.0, 0.0]] * 2 + [[0.0, 1.0]] + [[1.0, 0.0]] * MIN_GRADED, dtype=np.float32)
    grades = [make_grade(q, 1.0, "") for _ in tasks]
    # one graded reply: its copy is pulled to the teacher's 3, the reply unlike it keeps kb's 1
    out = pull_rest(tasks, grades, vecs, {0: 3})
    assert [g.points for g in out[1:3]] == [3, 1]
    # MIN_GRADED graded replies, all 3 where kb gave 1: the reply like them is corrected by as much
    out = pull_rest(tasks, grades, vecs, {3 + i: 3 for i in range(MIN_GRADED)})
    assert out[0].points == 3 and out[2].points < out[0].points
