"""A question whose replies are unlike one another (nearly every reply a group by itself) has a share of its
decisions taken by an exploratory rule — the group least like every one decided before it — so that replies each
wrong in its own way are reached early (kb.grading.review.explore_share, explore; issue 28); a question whose
replies fall in large groups keeps the order by what a decision tells. The real review_order, kernel and
decision order on a small synthetic class."""

from __future__ import annotations

import numpy as np
import pytest

from kb.grading import review
from kb.grading.base import make_grade
from kb.grading.groups import AnswerGroup
from kb.quiz import Question

Q = Question("short", "O que é o GIL?", "Uma trava do interpretador.", (), id="q")
WORDINGS = ["uma trava do interpretador python", "um bloqueio global das threads", "lock do cpython para bytecode",
            "mutex que serializa as threads"]


def _class(grouped: bool) -> tuple[list[AnswerGroup], list, list[str], np.ndarray, set[int]]:
    """One question: four crowds of six near wordings each (kb graded them 3) and four replies each unlike every
    other (kb graded them 3 too: the generous grade a wrong explanation gets). With ``grouped`` each crowd is one
    group of six; otherwise every reply is a group by itself. Returns the groups, grades, replies, vectors and
    the indices of the lone replies."""
    rng = np.random.default_rng(0)
    bases = [rng.normal(size=24) for _ in WORDINGS]
    replies, vecs, groups = [], [], []
    for c, w in enumerate(WORDINGS):
        members = []
        for k in range(6):
            members.append(len(replies))
            replies.append(f"{w} {k}")
            vecs.append(bases[c] + 0.05 * rng.normal(size=24))
        groups += [AnswerGroup("q", tuple(members))] if grouped else [AnswerGroup("q", (m,)) for m in members]
    lone = set()
    for text in ["é um compilador rápido", "uma biblioteca gráfica", "o gerenciador de pacotes",
                 "um formato de imagem"]:
        lone.add(len(replies))
        groups.append(AnswerGroup("q", (len(replies),)))
        replies.append(text)
        vecs.append(rng.normal(size=24))
    v = np.vstack(vecs)
    v = (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)
    return groups, [make_grade(Q, 3.0, "") for _ in replies], replies, v, lone


def test_explore_share_grows_with_the_share_of_replies_alone_in_their_group():
    groups, *_ = _class(grouped=False)
    assert review.EXPLORE_MAX > 0 and review.explore_share(groups) == pytest.approx(review.EXPLORE_MAX)
    grouped, *_ = _class(grouped=True)  # 4 of 28 replies alone: below EXPLORE_FROM
    assert review.explore_share(grouped) == 0.0
    assert review.explore_share(groups, top=0.0) == 0.0 and review.explore_share([]) == 0.0
    # half-way between EXPLORE_FROM and every reply alone: half the largest share
    half = groups[:8] + [AnswerGroup("q", (100, 101, 102, 103, 104, 105, 106, 107))]
    single = 8 / 16
    assert review.explore_share(half, start=0.0) == pytest.approx(review.EXPLORE_MAX * single)


def _reps(items) -> list[int]:
    return [it.group.representative for it in items]


def test_an_unlike_class_takes_every_second_decision_off_the_gain_order_and_a_grouped_one_keeps_it(monkeypatch):
    groups, grades, replies, v, lone = _class(grouped=False)
    first = _reps(review.review_order(groups, grades, replies, v))
    assert first == _reps(review.review_order(groups, grades, replies, v))  # seeded by the question: kb grade repeats
    monkeypatch.setattr(review, "EXPLORE_MAX", 0.0)  # the order before: by what a decision tells
    before = _reps(review.review_order(groups, grades, replies, v))
    assert not lone & set(before[:4])  # the four crowds first
    assert sorted(first) == sorted(before) and first != before  # the same groups, each once, in another order
    # the 1st, 3rd, 5th … decision is the gain order's next among the groups not yet decided; the others are not
    for t in range(0, 12, 2):
        assert first[t] == next(r for r in before if r not in first[:t])
    assert any(first[t] != next(r for r in before if r not in first[:t]) for t in range(1, 12, 2))
    monkeypatch.undo()
    # large groups (most replies share a group): no exploration, the order by what a decision tells
    groups, grades, replies, v, lone = _class(grouped=True)
    kept = _reps(review.review_order(groups, grades, replies, v))
    monkeypatch.setattr(review, "EXPLORE_MAX", 0.0)
    assert kept == _reps(review.review_order(groups, grades, replies, v))


def test_explore_picks_at_random_seeded_or_the_candidate_least_like_the_decided_ones():
    k = np.array([[1.0, 0.9, 0.1, 0.5], [0.9, 1.0, 0.2, 0.4], [0.1, 0.2, 1.0, 0.3], [0.5, 0.4, 0.3, 1.0]])
    order = [(0, 4.0), (1, 3.0), (3, 2.0), (2, 1.0)]
    assert review.explore(k, order, 0.0) == order
    # every second decision: after 0, the one least like it (2); then the order's next (1); then the last (3)
    assert review.explore(k, order, 0.5, rule="farthest") == [(0, 4.0), (2, 1.0), (1, 3.0), (3, 2.0)]
    # at random: the same seed, the same order; the first decision is always the order's first
    big = np.eye(30)
    long = [(i, 30.0 - i) for i in range(30)]
    a = review.explore(big, long, 0.5, seed="q1")
    assert a == review.explore(big, long, 0.5, seed="q1") and a[0] == (0, 30.0)
    assert sorted(a) == sorted(long) and a != long
    assert any(review.explore(big, long, 0.5, seed=f"q{i}") != a for i in range(2, 6))
