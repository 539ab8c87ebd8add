"""The review order and propagation tried against kb's in bench/review_strata.py (issue 28, 2026-11-28 c:
a stratified order over kb's grade levels and a per-level correction; measured on dev and not kept): with
its defaults the bench's copy is kb's own order and propagation, so its "kb's order (main)" row is main's;
its stratified order spans kb's grade levels; its per-level correction learns a level kb gets wrong."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

from kb.grading import review
from kb.grading.base import Task, make_grade
from kb.grading.groups import AnswerGroup
from kb.quiz import Question

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
strata = pytest.importorskip("review_strata")


def _class(levels: list[int]) -> tuple[list[AnswerGroup], list, list[str], np.ndarray, list[Task]]:
    """One question, one reply a group; reply i graded ``levels[i]`` by kb. The replies at level 2 are near
    wordings of one thing (the crowd a variance order picks from first; after eight, a second crowd); the others
    each say something else."""
    q = Question("short", "O que é o GIL?", "Uma trava do interpretador.", (), id="q")
    rng = np.random.default_rng(0)
    bases = [rng.normal(size=16), rng.normal(size=16)]
    wordings = ["uma trava do interpretador python", "um bloqueio global das threads"]
    replies, vecs = [], []
    n2 = 0
    for i, lv in enumerate(levels):
        if lv == 2:  # the first eight in one crowd, any more in a second
            c = 0 if n2 < 8 else 1
            n2 += 1
            replies.append(f"{wordings[c]} {i}")
            vecs.append(bases[c] + 0.05 * rng.normal(size=16))
        else:
            replies.append(f"resposta diferente número {i} nível {lv} " + "xyz"[i % 3] * (i + 1))
            vecs.append(rng.normal(size=16))
    v = np.vstack(vecs)
    v = (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)
    grades = [make_grade(q, float(lv), "") for lv in levels]
    groups = [AnswerGroup("q", (i,)) for i in range(len(levels))]
    return groups, grades, replies, v, [Task(q, r) for r in replies]


LEVELS = [2] * 8 + [0, 1, 3, 0, 1, 3]


def test_the_bench_with_its_defaults_is_kbs_own_order_and_propagation():
    groups, grades, replies, v, tasks = _class(LEVELS)
    ours = strata.make_review_order(strata.Variant())(groups, grades, replies, v)
    assert [it.group for it in ours] == [it.group for it in review.review_order(groups, grades, replies, v)]
    graded = {i: 1 for i in range(review.MIN_GRADED)} | {9: 3}
    assert ([g.points for g in strata.make_pull_rest(strata.Variant())(tasks, grades, v, graded)]
            == [g.points for g in review.pull_rest(tasks, grades, v, graded)])


def test_kbs_order_starts_in_the_crowd_and_the_stratified_order_visits_every_level_first():
    groups, grades, replies, v, _ = _class(LEVELS)
    kb = [grades[it.group.representative].points for it in review.review_order(groups, grades, replies, v)]
    assert kb[0] == 2  # the representative crowd (kb's level 2) first …
    assert sorted(kb[:4]) == [0, 1, 2, 3]  # … then replies unlike it: here kb's order spans the levels already
    # two crowds at kb's level 2: kb's order decides both before the levels kb graded otherwise
    two = LEVELS[:8] + [2] * 8 + [0, 1, 3]
    groups, grades, replies, v, _ = _class(two)
    kb = [grades[it.group.representative].points for it in review.review_order(groups, grades, replies, v)]
    assert kb[:2] == [2, 2]
    order = strata.make_review_order(strata.Variant(strata="equal"))(groups, grades, replies, v)
    lv = [grades[it.group.representative].points for it in order]
    assert lv[0] == 2 and sorted(lv[:4]) == [0, 1, 2, 3]  # one decision at each of kb's levels before a second
    # "after 2": the first two by variance alone, as kb's order; then the levels not yet decided
    after = strata.make_review_order(strata.Variant(strata="equal", after=2))(groups, grades, replies, v)
    assert [it.group for it in after[:2]] == [it.group for it in review.review_order(groups, grades, replies, v)[:2]]
    assert sorted(grades[it.group.representative].points for it in after[2:5]) == [0, 1, 3]


def test_a_per_level_correction_learns_the_level_kb_gets_wrong():
    """kb is right at level 2 (the teacher gives 2) and too generous at level 3 (the teacher gives 1): the
    question's mean correction moves every reply, the per-level one only those kb graded 3."""
    groups, grades, replies, v, tasks = _class(LEVELS)
    graded = {i: 2 for i in range(4)} | {10: 1, 13: 1}  # four at level 2, both level-3 replies
    idx = list(range(len(tasks)))
    decided = sorted(graded)
    flat = strata.level_offsets("q", idx, decided, grades, graded, {"q": idx}, 0.0,
                                strata.Variant(levels=True, level_shrink=1e12, level_pool=math.inf))
    per = strata.level_offsets("q", idx, decided, grades, graded, {"q": idx}, 0.0,
                               strata.Variant(levels=True, level_shrink=1e-9, level_pool=math.inf))
    # infinitely shrunk: the question's mean correction (-4 over 6 decisions, shrunk by 3 of none) everywhere
    assert flat == pytest.approx([-4 / 9] * len(idx))
    assert per[4] == pytest.approx(0.0, abs=1e-6) and per[10] == pytest.approx(-2.0)
    # with the question's mean correction as offset the bench's propagation is kb's
    k = np.eye(len(idx))
    prior = [g.score * 3 for g in grades]
    assert strata.propagate_offset(k, prior, decided, [graded[i] for i in decided], flat) == pytest.approx(
        review.propagate(k, prior, decided, [graded[i] for i in decided]))
