"""The exploratory share of a review order (kb.grading.review.explore_share, explore; issue 28; tried on dev and
off by default, EXPLORE_MAX = 0): a question whose replies are unlike one another (nearly every reply a group by
itself) has a share of its first decisions drawn at random (seeded by the question) or taken by the group least like
every one decided before it; a question whose replies fall in large groups, and kb's default order, keep the order
by what a decision tells. The real review_order, kernel and decision order on a small synthetic class."""

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
    assert review.explore_share(groups, top=0.5) == pytest.approx(0.5)
    grouped, *_ = _class(grouped=True)  # 4 of 28 replies alone: below EXPLORE_FROM
    assert review.explore_share(grouped, top=0.5) == 0.0
    assert review.explore_share(groups, top=0.0) == 0.0 and review.explore_share([], top=0.5) == 0.0
    assert review.explore_share(groups) == review.EXPLORE_MAX * 1.0  # kb's default: EXPLORE_MAX (0, not kept)
    # half-way between EXPLORE_FROM and every reply alone: half the largest share
    half = groups[:8] + [AnswerGroup("q", (100, 101, 102, 103, 104, 105, 106, 107))]
    single = 8 / 16
    assert review.explore_share(half, top=0.5, start=0.0) == pytest.approx(0.5 * single)


def _reps(items) -> list[int]:
    return [it.group.representative for it in items]


def test_an_unlike_class_takes_its_second_decision_off_the_gain_order_and_a_grouped_one_keeps_it(monkeypatch):
    groups, grades, replies, v, lone = _class(grouped=False)
    before = _reps(review.review_order(groups, grades, replies, v))  # kb's default: by what a decision tells
    monkeypatch.setattr(review, "EXPLORE_MAX", 0.5)  # the share tried on dev
    first = _reps(review.review_order(groups, grades, replies, v))
    assert first == _reps(review.review_order(groups, grades, replies, v))  # seeded by the question: kb grade repeats
    assert not lone & set(before[:4])  # the four crowds first
    assert sorted(first) == sorted(before) and first != before  # the same groups, each once, in another order
    # the 2nd decision is drawn from the groups left; the others are the gain order's next among the groups not yet
    # decided (exploratory decisions come only within the first EXPLORE_UPTO of the question's 28 replies)
    assert first[1] != before[1]
    for t in range(2, len(first)):
        assert first[t] == next(r for r in before if r not in first[:t])
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
    # none after the first ``upto`` decisions: from there on, the order's sequence of the groups left
    b = review.explore(big, long, 0.5, seed="q1", upto=4)
    assert b[:2] == a[:2] and b[2] == next(x for x in long if x not in b[:2])
    assert b[4:] == [x for x in long if x not in b[:4]]
