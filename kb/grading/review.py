"""A teacher's few decisions, multiplied: which answer groups to grade first, and what their grades
do to the rest of the class.

- :func:`review_order` ranks a class's answer groups (:mod:`kb.grading.groups`) by how much a teacher's
  decision on a group would tell about the replies of its question: the uncertainty it removes from
  the whole question, given the decisions before it (:func:`kb.grading.kernel.decision_order`: large
  groups and groups with many replies like them first, groups like one already decided later);
- :func:`pull_rest` regrades every reply the teacher did not grade by how the teacher corrected kb on
  the replies most like it (:func:`kb.grading.kernel.propagate`), after ``kb grade`` has given each
  graded group's members the teacher's grade (marked like an override) and refitted the calibration;
- :func:`simulate` is ``kb eval grader --review-budget``: a teacher who makes as many decisions as
  a share of the replies, giving each group the human grade of its representative.

The constants were measured on PT_ASAG dev questions 36–42 only (``bench/review_budget.py``).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from typing import Any, Sequence

from ..i18n import N_, Message
from .agreement import agreement
from .base import MAX_POINTS, MAX_REPLY_CHARS, Grade, Task, make_grade, needs_judgement, points_cell, verdict_for
from .calibration import ZEROING_FLAGS, fit_calibration
from .groups import AnswerGroup, group_id, group_replies
from .kernel import decision_order, propagate, reply_kernel
from .offline import OfflineGrader
from .replies import read_csv

# why kb is unsure of a group (the review sheet's "why" column): nearness of its grade to a cut point (0–1), the
# spread of its members' points, a guard fired or a contradiction is possible. The order itself is by what a
# decision tells about the rest (kb.grading.kernel.decision_order).
UNCERTAINTY_FLOOR = 1.0
GUARD_WEIGHT = 0.5
_GUARDS = frozenset({"off_topic", "copies_question", "inverted", "swapped_roles", "keyword_list", "may_contradict",
                     "other_language"})
# A question with fewer replies graded by the teacher than MIN_GRADED (a small class: 8 replies a question, one or
# two decided) is regraded as before the kernel propagation: the quiz's level refitted on the teacher's grades
# (kb.grading.calibration) and each reply pulled towards the grades of the graded replies most like it — none
# below PULL_FROM cosine, all of PULL_MAX at PULL_FULL and above. With MIN_GRADED or more (PT_ASAG: 30 and more
# a question at 5 %), kernel ridge regression of the teacher's corrections (kb.grading.kernel.propagate), with no
# refit. Measured (2026-11-28): on PT_ASAG dev at 10 % the refit and pull give QWK 0.761, the propagation 0.783,
# both 0.730; on the unseen course sets 6-8 at 10/20/30 % the refit and pull give 0.66 on average, the
# propagation 0.58.
MIN_GRADED = 5
PULL_FROM = 0.60
PULL_FULL = 0.95
PULL_MAX = 0.9
PULL_TAU = 0.03  # the nearest graded replies weigh exp(cosine / PULL_TAU)
REVIEW_NOTE = "review group"
# The questions' orders are merged so that decisions spread over every question: SPREAD_FIRST decisions a question
# first, then each question in proportion to its replies (a random order does so on average; merging by gain
# alone gave a question whose replies are all alike most of the decisions). Measured (2026-11-28, kb's order at
# 10 %, the propagation unchanged): PT_ASAG dev 0.785 -> 0.789, dev questions subsampled to 60 replies each (three
# draws) 0.685 -> 0.702, the course sets 0.678 -> 0.676 (bench/review_budget.py).
SPREAD_FIRST = 2
# A question regraded by propagation shrinks its mean correction of kb (kb.grading.kernel.propagate) towards the
# mean correction over the other questions' decisions (itself shrunk by POOL_SHRINK pseudo-decisions of none), not
# towards 0: a grader too generous everywhere is corrected everywhere after a handful of decisions. Measured
# (2026-11-28, kb's order at 10 %): PT_ASAG dev 0.789 either way, 60 replies a question 0.702 -> 0.705, the same
# with every human grade made one point stricter 0.565 -> 0.582; the course sets do not use it (too few decisions a
# question). POOL_SHRINK = inf is the correction shrunk towards 0 (before).
POOL_SHRINK = 3.0


@dataclass(frozen=True)
class ReviewItem:
    """One answer group in the review order: its id, the group, kb's grade of its representative, kb's
    uncertainty and the priority (size × uncertainty), and why kb is unsure."""

    gid: str
    group: AnswerGroup
    kb_points: int
    uncertainty: float
    priority: float
    why: str


def _uncertainty(grades: Sequence[Grade]) -> tuple[float, str]:
    xs = [g.score * MAX_POINTS for g in grades]
    mean = sum(xs) / len(xs)
    near_cut = max(0.0, 1.0 - 2.0 * min(abs(mean - c) for c in (0.5, 1.5, 2.5)))
    pts = [g.points for g in grades]
    spread = (max(pts) - min(pts)) / MAX_POINTS
    guards = sorted({f for g in grades for f in g.flags if f in _GUARDS})
    u = UNCERTAINTY_FLOOR + near_cut + spread + (GUARD_WEIGHT if guards else 0.0)
    why = []
    if near_cut >= 0.5:
        why.append("between two grades")
    if spread:
        why.append("members graded differently")
    why += guards
    return u, ", ".join(why)


def review_order(groups: Sequence[AnswerGroup], grades: Sequence[Grade], replies: Sequence[str],
                 vecs: Any) -> list[ReviewItem]:
    """The groups a teacher should grade first (``grades``, ``replies`` and ``vecs``, the replies'
    embeddings of length 1: one per index the groups name): per question, the group whose decision
    removes the most uncertainty about the question's replies given the decisions before it
    (:func:`kb.grading.kernel.decision_order` — a group with many replies like it first, one like a
    group already decided late), the questions' orders merged so that every question has decisions
    (:func:`spread_order`: SPREAD_FIRST each first, then in proportion to its replies)."""
    import numpy as np

    by_q: dict[str, list[AnswerGroup]] = {}
    for g in groups:
        by_q.setdefault(g.question_id, []).append(g)
    ranked: list[list[tuple[float, AnswerGroup]]] = []
    for q_groups in by_q.values():
        idx = sorted(m for g in q_groups for m in g.members)
        pos = {m: j for j, m in enumerate(idx)}
        k = reply_kernel(vecs[idx], [replies[m][:MAX_REPLY_CHARS] for m in idx])
        # a reply a guard zeroes keeps its zero whatever the teacher decides elsewhere: nothing to learn there
        w = np.array([0.0 if ZEROING_FLAGS & set(grades[m].flags) else 1.0 for m in idx])
        head = {pos[g.representative]: g for g in q_groups}
        ranked.append([(gain, head[r]) for r, gain in decision_order(k, list(head), w, len(head))])
    merged = [ranked[i][k] for i, k in spread_order([[gain for gain, _ in r] for r in ranked],
                                                    [sum(g.size for _, g in r) for r in ranked])]
    items = []
    for gain, g in merged:
        u, why = _uncertainty([grades[i] for i in g.members])
        items.append(ReviewItem(group_id(g.question_id, replies[g.representative]), g,
                                grades[g.representative].points, u, gain, why))
    return items


def spread_order(gains: Sequence[Sequence[float]], sizes: Sequence[int], *,
                 first: int = SPREAD_FIRST, by_replies: bool = True) -> list[tuple[int, int]]:
    """The questions' own orders (``gains``: per question, its groups' gains in its order; ``sizes``:
    its replies) merged into one as (question, position) pairs: first ``first`` decisions for every
    question, in rounds (within a round, the question whose next decision tells most first), then each
    next decision to the question with the fewest decisions for its replies (ties: the larger gain);
    with ``by_replies`` False, to the question whose next decision has the largest gain (the order
    before 2026-11-28, kept for bench/review_budget.py --steps). Every question keeps its own order."""
    import heapq

    heads = [0] * len(gains)
    out: list[tuple[int, int]] = []
    for _ in range(first):
        for i in sorted((i for i, g in enumerate(gains) if heads[i] < len(g)), key=lambda i: (-gains[i][heads[i]], i)):
            out.append((i, heads[i]))
            heads[i] += 1

    def key(i: int) -> tuple[float, float, int]:
        share = (heads[i] + 1) / max(1, sizes[i]) if by_replies else 0.0
        return share, -gains[i][heads[i]], i

    heap = [key(i) for i, g in enumerate(gains) if heads[i] < len(g)]
    heapq.heapify(heap)
    while heap:
        _, _, i = heapq.heappop(heap)
        out.append((i, heads[i]))
        heads[i] += 1
        if heads[i] < len(gains[i]):
            heapq.heappush(heap, key(i))
    return out


def random_order(groups: Sequence[AnswerGroup], grades: Sequence[Grade], replies: Sequence[str], vecs: Any,
                 seed: int = 0) -> list[ReviewItem]:
    """The same groups in a random order (the baseline a review order must beat)."""
    # shuffled from a fixed order (question, first member), so that the baseline does not move with kb's order
    items = sorted(review_order(groups, grades, replies, vecs), key=lambda it: (it.group.question_id, it.group.members))
    random.Random(seed).shuffle(items)
    return items


def pull_towards(x: float, sims: Any, points: Sequence[int]) -> float:
    """``x`` (kb's 0–3 grade) pulled towards the teacher's grades of the graded replies most like
    this one: weight 0 below PULL_FROM cosine to the nearest, PULL_MAX from PULL_FULL on."""
    import numpy as np

    s = np.asarray(sims, float)
    if not len(s):
        return x
    top = float(s.max())
    w = PULL_MAX * min(1.0, max(0.0, (top - PULL_FROM) / (PULL_FULL - PULL_FROM)))
    if w == 0.0:
        return x
    k = np.exp((s - top) / PULL_TAU)
    near = float((k * np.asarray(points, float)).sum() / k.sum())
    return (1 - w) * x + w * near


def few_graded(question_ids: Sequence[str], graded: Any) -> set[str]:
    """The questions of ``question_ids`` (one per reply) with fewer than MIN_GRADED of their replies
    in ``graded`` (indices): regraded by the refitted level and the pull, not by the propagation."""
    n: dict[str, int] = {}
    for i, q in enumerate(question_ids):
        n[q] = n.get(q, 0) + (i in graded)
    return {q for q, k in n.items() if k < MIN_GRADED}


def regrade(grade: Grade, task: Task, x: float) -> Grade:
    """``grade`` with its points moved to ``x`` (0–3), its feedback kept; the same grade when the
    points do not change."""
    p = int(min(MAX_POINTS, max(0, math.floor(x + 0.5))))
    if p == grade.points:
        return grade
    g = make_grade(task.question, x, grade.feedback, present=grade.present, missing=grade.missing,
                   flags=grade.flags, grader=grade.grader)
    return replace(g, check=grade.check, verdict=verdict_for(p))


def unit_vectors(embedder: Any, texts: Sequence[str]) -> Any:
    """Each text's embedding, of length 1 (an empty text as '-')."""
    import numpy as np

    if not texts:
        return np.zeros((0, 1), dtype=np.float32)
    v = np.asarray(embedder.embed_documents([t.strip() or "-" for t in texts]), dtype=np.float32)
    n = np.linalg.norm(v, axis=1, keepdims=True)
    return v / np.where(n == 0, 1, n)


def pull_rest(tasks: Sequence[Task], grades: list[Grade], vecs: Any, graded: dict[int, int]) -> list[Grade]:
    """Every reply not in ``graded`` (index → the teacher's points) regraded from the teacher's grades of
    its question's replies: where the teacher graded MIN_GRADED or more, kb's grade corrected as the
    teacher corrected the replies most like it (:func:`kb.grading.kernel.propagate`, the question's mean
    correction shrunk towards the other questions'); where fewer,
    pulled towards the grades of the graded replies most like it (:func:`pull_towards`). Guards that
    zero a reply keep it zero."""
    by_q: dict[str, list[int]] = {}
    for i, t in enumerate(tasks):
        if needs_judgement(t):
            by_q.setdefault(t.question.id, []).append(i)
    out = list(grades)
    # per question, the sum and count of the teacher's corrections of kb (replies a guard zeroes left out)
    corr = {q: [graded[i] - grades[i].score * MAX_POINTS for i in idx
                if i in graded and not ZEROING_FLAGS & set(grades[i].flags)] for q, idx in by_q.items()}
    total, count = sum(sum(c) for c in corr.values()), sum(len(c) for c in corr.values())
    for q, idx in by_q.items():
        decided = [j for j, i in enumerate(idx) if i in graded]
        if not decided:
            continue
        free = [j for j, i in enumerate(idx) if i not in graded and not ZEROING_FLAGS & set(grades[i].flags)]
        if len(decided) < MIN_GRADED:
            near = [idx[j] for j in decided]
            for j in free:
                i = idx[j]
                x = pull_towards(grades[i].score * MAX_POINTS, vecs[near] @ vecs[i], [graded[m] for m in near])
                out[i] = regrade(grades[i], tasks[i], x)
            continue
        k = reply_kernel(vecs[idx], [tasks[i].reply[:MAX_REPLY_CHARS] for i in idx])
        prior = [grades[i].score * MAX_POINTS for i in idx]
        # the other questions' mean correction: the question's own decisions count once, in propagate
        toward = (total - sum(corr[q])) / (count - len(corr[q]) + POOL_SHRINK)
        xs = propagate(k, prior, decided, [graded[idx[j]] for j in decided], toward=toward)
        for j in free:
            out[idx[j]] = regrade(grades[idx[j]], tasks[idx[j]], float(xs[j]))
    return out


def simulate(grader: Any, tasks: Sequence[Task], human: Sequence[float], grades: Sequence[Grade],
             budgets: Sequence[float], *, order: str = "kb", seed: int = 0) -> list[dict[str, Any]]:
    """What a teacher's decisions buy: at each budget (% of the replies), the teacher grades that many
    groups in ``order`` (``kb`` or ``random``), giving each the human grade of its representative
    (members that differ from it become errors); kb propagates, refits and regrades; the whole set is
    compared with the human grades (``qwk_rest``: only the replies no decision covered, graded by
    propagation). ``grades``: kb's default grades of ``tasks``."""
    import numpy as np

    free = [i for i, t in enumerate(tasks) if needs_judgement(t)]
    replies = [t.reply for t in tasks]
    vecs = unit_vectors(grader.embedder, replies)
    groups = group_replies([tasks[i].question.id for i in free], [replies[i] for i in free], vecs[free])
    groups = [AnswerGroup(g.question_id, tuple(free[m] for m in g.members)) for g in groups]
    items = (review_order(groups, grades, replies, vecs) if order == "kb"
             else random_order(groups, grades, replies, vecs, seed))
    teacher = [int(np.clip(np.rint(h), 0, MAX_POINTS)) for h in human]
    out = []
    for budget in budgets:
        n_dec = min(len(items), int(round(budget / 100 * len(tasks))))
        graded: dict[int, int] = {}
        for it in items[:n_dec]:
            for m in it.group.members:
                graded[m] = teacher[it.group.representative]
        final = list(grades)
        if graded:
            # as kb grade does: every member takes the group's grade; the level is refitted on the questions
            # with few of them, and the rest is regraded from them (pull_rest)
            few = few_graded([t.question.id for t in tasks], graded)
            refit = [(tasks[i], p) for i, p in graded.items() if tasks[i].question.id in few]
            if refit:
                cal = fit_calibration(grader, refit, leave_one_out=False)
                rest = [i for i, t in enumerate(tasks) if i not in graded and t.question.id in few]
                for i, g in zip(rest, cal.grader(grader, sorted(few)).grade([tasks[i] for i in rest]), strict=True):
                    final[i] = g
            final = pull_rest(tasks, final, vecs, graded)
            for i, p in graded.items():
                final[i] = make_grade(tasks[i].question, p, "", grader="override")
        a = agreement(human, [g.score * MAX_POINTS for g in final], [g.points for g in final])
        # the replies no decision covered: what propagation made of them (None when every reply is covered)
        rest = [i for i in range(len(tasks)) if i not in graded]
        r = agreement([human[i] for i in rest], [final[i].score * MAX_POINTS for i in rest],
                      [final[i].points for i in rest]) if rest else None
        out.append({"budget_pct": budget, "read": n_dec, "covered": len(graded), "qwk": a["qwk"],
                    "pearson": a["pearson"], "exact": a["exact"],
                    "mean": float(np.mean([g.points for g in final])),
                    "qwk_rest": r["qwk"] if r else None})
    return out


# --------------------------------------------------------------------------- kb grade: the review sheet

REVIEW_FILE = "grades-review.csv"
REVIEW_COLUMNS = ("rank", "group", "question_id", "replies", "kb_points", "why", "representative", "students",
                  "teacher")
FIRST_SHARE = 0.10  # "grade these first": as many groups as 10 % of the replies to judge


@dataclass
class ClassReview:
    """A graded class's answer groups in review order (members: indices into ``report.graded``), how
    many to grade first and how many replies they cover."""

    items: list[ReviewItem]
    first: int
    covering: int


def _spread(vecs: Any, idx: Sequence[int]) -> Any:
    """``vecs`` (one row per index of ``idx``) as rows of a matrix indexed like the caller's list."""
    import numpy as np

    out = np.zeros((max(idx) + 1, vecs.shape[1]), dtype=np.float32)
    out[list(idx)] = vecs
    return out


def class_review(report: Any, embedder: Any) -> ClassReview:
    """The review order of a class report's free-text replies kb graded (overridden ones are the
    teacher's already)."""
    graded = report.graded
    idx = [i for i, g in enumerate(graded) if g.grade.grader != "override"
           and needs_judgement(Task(report.quiz.question(g.reply.question_id), g.reply.answer))]
    if not idx:
        return ClassReview([], 0, 0)
    texts = [graded[i].reply.answer[:MAX_REPLY_CHARS] for i in idx]
    vecs = unit_vectors(embedder, texts)
    groups = group_replies([graded[i].reply.question_id for i in idx], texts, vecs)
    groups = [AnswerGroup(g.question_id, tuple(idx[m] for m in g.members)) for g in groups]
    items = review_order(groups, [g.grade for g in graded], [g.reply.answer for g in graded], _spread(vecs, idx))
    first = min(len(items), max(1, math.ceil(FIRST_SHARE * len(idx))))
    return ClassReview(items, first, sum(it.group.size for it in items[:first]))


def review_rows(report: Any, review: ClassReview) -> list[list[Any]]:
    """One row per group, in REVIEW_COLUMNS order, the teacher column empty."""
    graded = report.graded
    rows: list[list[Any]] = []
    for rank, it in enumerate(review.items, 1):
        rep = graded[it.group.representative]
        students = "; ".join(graded[m].reply.student for m in it.group.members)
        rows.append([rank, it.gid, it.group.question_id, it.group.size, it.kb_points, it.why,
                     rep.reply.answer[:MAX_REPLY_CHARS],
                     students, ""])
    return rows


def review_manifest(report: Any, review: ClassReview) -> dict[str, list[list[str]]]:
    """Group id → its members' [student, question id]: kept in grades.json, so that the teacher's
    grade of a group in grades-review.csv finds every member on the next run."""
    g = report.graded
    return {it.gid: [[g[m].reply.student, g[m].reply.question_id] for m in it.group.members] for it in review.items}


def read_review(out_dir: Any) -> tuple[dict[tuple[str, str], tuple[int, str]], list[str]]:
    """The teacher's grades of answer groups in ``out_dir/grades-review.csv`` as overrides: (student,
    question id) → (points, 'review group G') for every member that grades.json lists for the group.
    A value that is not 0–3, or a group grades.json does not know, is a note naming the line."""
    import json
    from pathlib import Path

    from ..sheets import unescape_cell
    path = Path(out_dir) / REVIEW_FILE
    if not path.exists():
        return {}, []
    rows, notes = read_csv(path, required=("group", "teacher"))
    try:
        manifest = json.loads((Path(out_dir) / "grades.json").read_text(encoding="utf-8")).get("review", {})
        if not isinstance(manifest, dict):
            manifest = {}
    except (OSError, ValueError, AttributeError):
        manifest = {}
    out: dict[tuple[str, str], tuple[int, str]] = {}
    for r in rows:
        v, gid = r["teacher"].strip(), unescape_cell(r["group"].strip())
        if not v:
            continue
        p = points_cell(v)
        if p is None:
            notes.append(Message("{path}:{line}: teacher '{value}' is not 0–3 — ignored; write 0, 1, 2 or 3",
                                 path=path, line=r["_line"], value=v))
            continue
        members = manifest.get(gid)
        if not isinstance(members, list):
            notes.append(Message("{path}:{line}: group '{group}' is not in grades.json — ignored; grade the groups "
                                 "of the latest grades-review.csv", path=path, line=r["_line"], group=gid))
            continue
        for m in members:
            if isinstance(m, list) and len(m) == 2:
                out[(str(m[0]), str(m[1]))] = (p, f"{REVIEW_NOTE} {gid}")
    return out, notes


def pull_report(report: Any, embedder: Any, overrides: dict[tuple[str, str], tuple[int, str]],
                answers: dict[tuple[str, str], str], grader: Any = None) -> int:
    """Each reply of ``report`` kb graded pulled towards the teacher's grades (``overrides`` of the
    replies in ``answers``, this batch's and earlier ones) of the replies to its question most like it
    (:func:`pull_rest`); returns how many grades it changed. ``grader`` (the offline grader that graded
    the report) grades the teacher's replies as kb would: the teacher's corrections are measured from
    that grade (without it, from the teacher's own, so only the pull towards like replies acts). With an
    LLM grader kb does not grade the teacher's replies again (a request each): there the corrections are
    not learnt, and only the pull towards like replies acts."""
    graded = report.graded
    examples = [(k, answers[k], p) for k, (p, _) in overrides.items() if k in answers and answers[k].strip()]
    if not examples:
        return 0
    tasks = [Task(report.quiz.question(g.reply.question_id), g.reply.answer[:MAX_REPLY_CHARS]) for g in graded]
    qs = {t.question.id: t.question for t in tasks}
    ex_tasks = [Task(qs[k[1]], text[:MAX_REPLY_CHARS]) for k, text, _ in examples if k[1] in qs]
    ex_points = [p for k, _, p in examples if k[1] in qs]
    vecs = unit_vectors(embedder, [t.reply for t in tasks] + [t.reply for t in ex_tasks])
    n = len(tasks)
    # the teacher's replies join the list as graded ones; only this report's replies are pulled
    grades = [g.grade for g in graded] + [make_grade(t.question, p, "") for t, p in zip(ex_tasks, ex_points,
                                                                                          strict=True)]
    teacher = {n + j: p for j, p in enumerate(ex_points)}
    teacher.update({i: g.grade.points for i, g in enumerate(graded) if g.grade.grader == "override"})
    if isinstance(grader, OfflineGrader):
        # an override's grade is the teacher's: kb's own grade of those replies, at the level that graded the rest
        # (its graded replies left out: a reply graded like itself would hide the teacher's correction)
        own = OfflineGrader(grader.embedder, grader.cal, grader.adjust)
        keys = sorted(teacher)
        all_tasks = list(tasks) + ex_tasks
        for i, g in zip(keys, own.grade([all_tasks[i] for i in keys]), strict=True):
            grades[i] = g
    pulled = pull_rest(list(tasks) + ex_tasks, grades, vecs, teacher)
    changed = 0
    for i, g in enumerate(graded):
        if i not in teacher and pulled[i] is not g.grade:
            g.grade = pulled[i]
            changed += 1
    return changed


def review_summary(previous: Sequence[Any], report: Any, reviewed: dict[tuple[str, str], tuple[int, str]],
                   review: ClassReview | None, out_dir: Any) -> list[str]:
    """What ``kb grade`` says about the review: what the teacher's group grades changed, and which
    groups to grade next."""
    from pathlib import Path

    notes: list[str] = []
    if reviewed:
        before = {(g.reply.student, g.reply.question_id): g.grade.points for g in previous}
        groups = {ov[1] for ov in reviewed.values()}
        took = changed = up = 0
        for g in report.graded:
            key = (g.reply.student, g.reply.question_id)
            if key in reviewed and g.grade.feedback.endswith(f"[overridden: {reviewed[key][1]}]"):
                took += 1
            elif key in before and before[key] != g.grade.points:
                changed += 1
                up += g.grade.points > before[key]
        notes.append(Message("your grades of {groups} gave {gave} their grade; {changed} other grades changed ({up} "
                             "up, {down} down): the calibration was refitted and replies like the ones you graded "
                             "were graded more like them", groups=_count(N_("{n} answer group"),
                                                                         N_("{n} answer groups"), len(groups)),
                             gave=_count(N_("{n} reply"), N_("{n} replies"), took), changed=changed, up=up,
                             down=changed - up))
    if review is not None and review.items:
        notes.append(Message(N_("grade this group (covering {covering}) first: {path} — fill the teacher column "
                                "(0-3), then re-run") if review.first == 1 else
                             N_("grade these {n} groups (covering {covering}) first: {path} — fill the teacher column "
                                "(0-3), then re-run"), n=review.first, path=Path(out_dir) / REVIEW_FILE,
                             covering=_count(N_("{n} reply"), N_("{n} replies"), review.covering)))
    return notes


def _count(one: str, many: str, n: int) -> Message:
    """``n`` and its noun, singular or plural (the same rule, n != 1, in English, Portuguese and Spanish)."""
    return Message(one, n=n) if n == 1 else Message(many, n=n)


def read_review_sheet(out_dir: Any) -> list[dict[str, Any]]:
    """The rows of ``out_dir/grades-review.csv`` (none when absent), keys as REVIEW_COLUMNS."""
    from pathlib import Path

    path = Path(out_dir) / REVIEW_FILE
    return read_csv(path, required=("group", "teacher"))[0] if path.exists() else []


def save_teacher_grade(out_dir: Any, group: str, points: int) -> None:
    """Write ``points`` in the teacher column of ``group``'s row of grades-review.csv, atomically (the
    terminal review saves each key at once)."""
    from pathlib import Path

    from ..quiz import write_atomic
    from ..sheets import csv_text, unescape_cell

    path = Path(out_dir) / REVIEW_FILE
    rows = read_review_sheet(out_dir)
    dialect = "excel-eu" if path.read_bytes().startswith(b"\xef\xbb\xbf") else "comma"
    cols = [c for c in REVIEW_COLUMNS if rows and c in rows[0]] or list(REVIEW_COLUMNS)
    out = []
    for r in rows:
        if r["group"].strip() == group:
            r["teacher"] = str(points)
        out.append([_number_or_text(unescape_cell(r.get(c, ""))) for c in cols])  # csv_text escapes them again
    write_atomic(path, csv_text(cols, out, dialect))


def _number_or_text(v: str) -> Any:
    return int(v) if v.strip().isdigit() else v
