"""kb's review order over a question whose replies kb graded at several levels (issue 28): it starts in the
representative crowd and then takes replies unlike it, so its first decisions span kb's grade levels —
what a stratified order was tried for (on dev, not kept: docs/measurements/grading.md, "An order that spans
kb's grades")."""

from __future__ import annotations

import numpy as np

from kb.grading import review
from kb.grading.base import Task, make_grade
from kb.grading.groups import AnswerGroup
from kb.quiz import Question


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


def test_kbs_order_starts_in_the_crowd_then_spans_kbs_levels():
    groups, grades, replies, v, _ = _class(LEVELS)
    kb = [grades[it.group.representative].points for it in review.review_order(groups, grades, replies, v)]
    assert kb[0] == 2  # the representative crowd (kb's level 2) first …
    assert sorted(kb[:4]) == [0, 1, 2, 3]  # … then replies unlike it: kb's order spans the levels already
    # two crowds at kb's level 2: kb's order decides both before the levels kb graded otherwise
    two = LEVELS[:8] + [2] * 8 + [0, 1, 3]
    groups, grades, replies, v, _ = _class(two)
    kb = [grades[it.group.representative].points for it in review.review_order(groups, grades, replies, v)]
    assert kb[:2] == [2, 2]
