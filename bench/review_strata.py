"""A review order that spans kb's grades, and a propagation that learns kb's error per grade level: tried
against kb's order (kb/grading/review.py) on dev data only, and not kept (issue 28, 2026-11-28 c).

    python bench/pt_asag_to_csv.py --split dev -o asag-dev.csv
    python bench/review_strata.py asag-dev.csv --small eval/grading_culture_terse_en.csv eval/grading_course.csv \
        eval/grading_course_heldout.csv eval/grading_course_heldout[2-8].csv

The hypothesis: kb's order picks each question's most representative groups (the Gaussian process's
variance), whose replies tend to share kb's grade, so the teacher's decisions teach kb's error at one grade
level only; a random order samples the whole range of kb's grades. Tried here, each beside kb's order
and a random one (QWK of the whole set; the small sets at 10 / 20 / 30 %, the rest at 5 / 10 / 20 %):

- ``strata``: per question, each next decision from the kb grade level (0-3, kb's points of the group's
  representative) with the fewest decisions for its share (``equal``: every level alike; ``prop``: its
  replies; ``sqrt``: their square root), the group that removes most variance within it; ``after``: the
  first decisions of a question by variance alone, as kb's order;
- ``levels``: the question's correction per kb grade level, shrunk (``level_shrink`` pseudo-decisions) towards
  the question's mean correction plus the level's effect over the other questions (``level_pool``
  pseudo-decisions of none; inf: no level effect), with the kernel residual on top;
- ``score``: kb's own grade as a feature of the similarity (``score_w`` × a Gaussian of width ``score_h``
  on the 0-3 grades), in the order and the propagation or in one of them;
- ``min_graded``: propagate from this many decisions on a question instead of 5 (fewer: the refitted
  level and the pull towards the nearest graded replies).

The data: the file itself; 60 replies a question (3 seeded draws, as bench/review_budget.py
--per-question 60 --draws 3); the same with every human grade one point lower (--stricter); 60 *distinct*
replies a question (no two alike once folded: a class of long explanations with few repeated answers,
like the Spanish science set), and that one stricter; and the small sets, averaged.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from review_budget import _draw

from kb.config import Settings
from kb.embeddings import CachedEmbedder, get_embedder
from kb.evaluate import evaluate_grader, grading_tasks, load_grading_data
from kb.grading import kernel, review
from kb.grading.base import MAX_POINTS, MAX_REPLY_CHARS, needs_judgement
from kb.grading.calibration import ZEROING_FLAGS
from kb.grading.groups import group_id
from kb.grading.offline import CALIBRATION, OfflineGrader
from kb.text import fold


@dataclasses.dataclass(frozen=True)
class Variant:
    """One way to order and propagate (the defaults: kb's)."""

    strata: str = ""
    after: int = 0
    levels: bool = False
    level_shrink: float = 3.0
    level_pool: float = 3.0
    score_w: float = 0.0
    score_h: float = 0.5
    score_in: tuple[str, ...] = ("order", "prop")
    min_graded: int = review.MIN_GRADED


VARIANTS = {
    "kb's order (main)": Variant(),
    "strata equal": Variant(strata="equal"),
    "strata equal after 2": Variant(strata="equal", after=2),
    "strata equal after 5": Variant(strata="equal", after=5),
    "strata groups": Variant(strata="groups"),
    "strata groups after 2": Variant(strata="groups", after=2),
    "strata groups after 5": Variant(strata="groups", after=5),
    "strata prop": Variant(strata="prop"),
    "strata sqrt": Variant(strata="sqrt"),
    "levels (shrink 3, pooled 3)": Variant(levels=True),
    "levels (shrink 15, no level effect)": Variant(levels=True, level_shrink=15.0, level_pool=math.inf),
    "strata equal + levels (shrink 3, pooled 3)": Variant(strata="equal", levels=True),
    "strata groups + levels (shrink 3, pooled 3)": Variant(strata="groups", levels=True),
    "score 0.3 in order and propagation": Variant(score_w=0.3),
    "score 0.3 in the order only": Variant(score_w=0.3, score_in=("order",)),
    "score 0.3 in the propagation only": Variant(score_w=0.3, score_in=("prop",)),
    "score 1.0 (width 1.0)": Variant(score_w=1.0, score_h=1.0),
    "propagate from 3 decisions": Variant(min_graded=3),
    "propagate from 1 decision": Variant(min_graded=1),
}


def stratified_order(k: Any, candidates: list[int], weights: Any, levels: list[int], shares: dict[int, float],
                     after: int, noise: float = kernel.GAIN_NOISE) -> list[tuple[int, float]]:
    """kernel.decision_order with each decision after the first ``after`` taken from the level with the
    fewest decisions for its share (ties: the level whose best group gains most)."""
    import numpy as np

    s = np.array(k, dtype=np.float64, copy=True)
    w = np.asarray(weights, dtype=np.float64)
    cand = np.asarray(candidates, dtype=int)
    st = np.asarray(levels)
    used = np.zeros(len(cand), dtype=bool)
    out: list[tuple[int, float]] = []
    for _ in range(len(cand)):
        gain = (w[:, None] * s[:, cand] ** 2).sum(0) / (s[cand, cand] + noise)
        gain[used] = -1.0
        if len(out) >= after:
            open_ = {int(x) for x in st[~used]}
            taken = {lv: int(((st == lv) & used).sum()) for lv in open_}
            pick = min(open_, key=lambda lv: ((taken[lv] + 1) / shares[lv], -float(gain[st == lv].max())))
            gain = np.where(st == pick, gain, -2.0)
        j = int(np.argmax(gain))
        r = cand[j]
        s -= np.outer(s[:, r], s[r, :]) / (s[r, r] + noise)
        used[j] = True
        out.append((int(r), float(gain[j])))
    return out


def with_score(k: Any, xs: Any, v: Variant) -> Any:
    """The kernel plus kb's grade as a feature (nothing when score_w is 0)."""
    import numpy as np

    if not v.score_w:
        return k
    x = np.asarray(xs, dtype=np.float64)
    return k + v.score_w * np.exp(-((x[:, None] - x[None, :]) ** 2) / (2 * v.score_h ** 2))


def make_review_order(v: Variant) -> Any:
    def order(groups, grades, replies, vecs):
        import numpy as np

        by_q: dict[str, list[Any]] = {}
        for g in groups:
            by_q.setdefault(g.question_id, []).append(g)
        ranked = []
        for q_groups in by_q.values():
            idx = sorted(m for g in q_groups for m in g.members)
            pos = {m: j for j, m in enumerate(idx)}
            k = kernel.reply_kernel(vecs[idx], [replies[m][:MAX_REPLY_CHARS] for m in idx])
            if "order" in v.score_in:
                k = with_score(k, [grades[m].score * MAX_POINTS for m in idx], v)
            w = np.array([0.0 if ZEROING_FLAGS & set(grades[m].flags) else 1.0 for m in idx])
            head = {pos[g.representative]: g for g in q_groups}
            if v.strata:
                lv = [grades[g.representative].points for g in head.values()]
                shares: dict[int, float] = {}
                for level, g in zip(lv, head.values(), strict=True):
                    shares[level] = shares.get(level, 0.0) + (g.size if v.strata in ("prop", "sqrt") else 1.0)
                if v.strata == "equal":
                    shares = dict.fromkeys(shares, 1.0)
                elif v.strata == "sqrt":
                    shares = {level: n ** 0.5 for level, n in shares.items()}
                picked = stratified_order(k, list(head), w, lv, shares, v.after)
            else:
                picked = kernel.decision_order(k, list(head), w, len(head))
            ranked.append([(gain, head[r]) for r, gain in picked])
        merged = [ranked[i][j] for i, j in review.spread_order([[gain for gain, _ in r] for r in ranked],
                                                               [sum(g.size for _, g in r) for r in ranked])]
        items = []
        for gain, g in merged:
            u, why = review._uncertainty([grades[i] for i in g.members])
            items.append(review.ReviewItem(group_id(g.question_id, replies[g.representative]), g,
                                           grades[g.representative].points, u, gain, why))
        return items
    return order


def level_offsets(q, idx, decided, grades, graded, by_q, toward, v: Variant):
    """Per reply of question ``q``: the correction at its kb level (see the module's docstring)."""
    import numpy as np

    def corr(i):
        return graded[i] - grades[i].score * MAX_POINTS

    other_s: dict[int, float] = {}
    other_n: dict[int, int] = {}
    for q2, idx2 in by_q.items():
        for i in idx2:
            if q2 != q and i in graded and not ZEROING_FLAGS & set(grades[i].flags):
                other_s[grades[i].points] = other_s.get(grades[i].points, 0.0) + corr(i)
                other_n[grades[i].points] = other_n.get(grades[i].points, 0) + 1
    own = [corr(idx[j]) for j in decided]
    m_q = (sum(own) + kernel.PRIOR_SHRINK * toward) / (len(own) + kernel.PRIOR_SHRINK)
    effect = {lv: 0.0 if math.isinf(v.level_pool) else
              (other_s.get(lv, 0.0) + v.level_pool * toward) / (other_n.get(lv, 0) + v.level_pool) - toward
              for lv in range(MAX_POINTS + 1)}
    s: dict[int, float] = {}
    n: dict[int, int] = {}
    for j in decided:
        lv = grades[idx[j]].points
        s[lv] = s.get(lv, 0.0) + corr(idx[j])
        n[lv] = n.get(lv, 0) + 1
    c = {lv: (s.get(lv, 0.0) + v.level_shrink * (m_q + effect[lv])) / (n.get(lv, 0) + v.level_shrink)
         for lv in range(MAX_POINTS + 1)}
    return np.array([c[grades[i].points] for i in idx])


def propagate_offset(k, prior, decided, points, offset):
    """kernel.propagate with a correction per reply (``offset``) in place of the question's mean."""
    import numpy as np

    prior = np.asarray(prior, dtype=np.float64)
    d = np.asarray(decided, dtype=int)
    t = np.asarray(points, dtype=np.float64) - prior[d]
    a = np.linalg.solve(k[np.ix_(d, d)] + kernel.RIDGE * np.eye(len(d)), t - offset[d])
    out = np.clip(prior + offset + k[:, d] @ a, 0.0, 3.0)
    out[d] = points
    return out


def make_pull_rest(v: Variant) -> Any:
    def pull_rest(tasks, grades, vecs, graded):
        by_q: dict[str, list[int]] = {}
        for i, t in enumerate(tasks):
            if needs_judgement(t):
                by_q.setdefault(t.question.id, []).append(i)
        out = list(grades)
        corr = {q: [graded[i] - grades[i].score * MAX_POINTS for i in idx
                    if i in graded and not ZEROING_FLAGS & set(grades[i].flags)] for q, idx in by_q.items()}
        total, count = sum(sum(c) for c in corr.values()), sum(len(c) for c in corr.values())
        for q, idx in by_q.items():
            decided = [j for j, i in enumerate(idx) if i in graded]
            if not decided:
                continue
            free = [j for j, i in enumerate(idx) if i not in graded and not ZEROING_FLAGS & set(grades[i].flags)]
            if len(decided) < review.MIN_GRADED:
                near = [idx[j] for j in decided]
                for j in free:
                    i = idx[j]
                    x = review.pull_towards(grades[i].score * MAX_POINTS, vecs[near] @ vecs[i],
                                            [graded[m] for m in near])
                    out[i] = review.regrade(grades[i], tasks[i], x)
                continue
            prior = [grades[i].score * MAX_POINTS for i in idx]
            k = kernel.reply_kernel(vecs[idx], [tasks[i].reply[:MAX_REPLY_CHARS] for i in idx])
            if "prop" in v.score_in:
                k = with_score(k, prior, v)
            toward = (total - sum(corr[q])) / (count - len(corr[q]) + review.POOL_SHRINK)
            points = [graded[idx[j]] for j in decided]
            if v.levels:
                xs = propagate_offset(k, prior, decided, points,
                                      level_offsets(q, idx, decided, grades, graded, by_q, toward, v))
            else:
                xs = kernel.propagate(k, prior, decided, points, toward=toward)
            for j in free:
                out[idx[j]] = review.regrade(grades[idx[j]], tasks[idx[j]], float(xs[j]))
        return out
    return pull_rest


def distinct(rows, n: int, seed: int):
    """``n`` rows a question (seeded), no two with the same folded reply, in the file's order."""
    by: dict[str, list[int]] = {}
    for i, r in enumerate(rows):
        by.setdefault(r.question_id or r.question, []).append(i)
    keep: list[int] = []
    for q, idx in sorted(by.items()):
        idx = idx[:]
        random.Random(f"{seed}:{q}").shuffle(idx)
        seen: set[str] = set()
        for i in idx:
            key = " ".join(fold(rows[i].answer).split())
            if key not in seen and len(seen) < n:
                seen.add(key)
                keep.append(i)
    return [rows[i] for i in sorted(keep)]


def stricter(rows):
    return [dataclasses.replace(r, human=max(0.0, r.human - 1.0)) for r in rows]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data", type=Path, help="dev data (PT_ASAG 36-42 as bench/pt_asag_to_csv.py writes it)")
    ap.add_argument("--small", type=Path, nargs="*", default=[], help="small sets, reported at 10/20/30 %%")
    ap.add_argument("--only", default="", help="variants whose name contains this (default: all)")
    args = ap.parse_args()
    emb = CachedEmbedder(get_embedder(CALIBRATION["embedder"]), Settings.from_env().cache_dir / "embeddings.sqlite")
    grader = OfflineGrader(emb)
    rows, _ = load_grading_data(args.data, (0.0, 3.0))
    sets: dict[str, list[Any]] = {"file": [rows]}
    sets["60 a question"] = [_draw(rows, 60, d) for d in range(3)]
    sets["60, stricter"] = [stricter(r) for r in sets["60 a question"]]
    sets["60 distinct"] = [distinct(rows, 60, d) for d in range(3)]
    sets["60 distinct, stricter"] = [stricter(r) for r in sets["60 distinct"]]
    if args.small:
        sets["small sets"] = [load_grading_data(p, (0.0, 3.0))[0] for p in args.small]
    graded = {name: [(grading_tasks(r), [x.human for x in r], evaluate_grader(grader, r)[1]) for r in lst]
              for name, lst in sets.items()}
    budgets = {name: [10.0, 20.0, 30.0] if name == "small sets" else [5.0, 10.0, 20.0] for name in sets}
    print("| order / propagation | " + " | ".join(sets) + " | mean of the large (not small) |")
    print("|---" * (len(sets) + 2) + "|")
    keep = (review.review_order, review.pull_rest, review.MIN_GRADED)

    def row(name: str, order: str, seeds: tuple[int, ...]) -> None:
        cells, large = [], []
        for s, lst in graded.items():
            res = [[r["qwk"] for r in review.simulate(grader, t, h, g, budgets[s], order=order, seed=seed)]
                   for t, h, g in lst for seed in seeds]
            col = [statistics.mean(c) for c in zip(*res, strict=True)]
            cells.append(" / ".join(f"{x:.3f}" for x in col))
            if s != "small sets":
                large.append(col)
        mean = [statistics.mean(c) for c in zip(*large, strict=True)]
        print(f"| {name} | " + " | ".join(cells) + " | " + " / ".join(f"{x:.3f}" for x in mean) + " |", flush=True)

    try:
        row("a random order (3 seeds)", "random", (0, 1, 2))
        for name, v in VARIANTS.items():
            if args.only not in name:
                continue
            review.review_order, review.pull_rest = make_review_order(v), make_pull_rest(v)
            review.MIN_GRADED = v.min_graded
            row(name, "kb", (0,))
    finally:
        review.review_order, review.pull_rest, review.MIN_GRADED = keep


if __name__ == "__main__":
    main()
