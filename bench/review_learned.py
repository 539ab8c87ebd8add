"""Learned propagation of a teacher's decisions, tried on dev and not kept (2026-11-28 d): each variant
wraps kb's own propagation (kb.grading.review.pull_rest) and changes only what it says, so that kb's
order, groups and refit stay kb's.

    python bench/pt_asag_to_csv.py --split dev -o asag-dev.csv
    python bench/review_learned.py asag-dev.csv                       # every variant, QWK at 5 / 10 / 20 %
    python bench/review_learned.py asag-dev.csv --stricter            # every human grade one point lower
    python bench/review_learned.py asag-dev.csv --variants kb,mix-2,mix-3 --peripheral-zeros 60 --stricter

Variants (name: what replaces kb's grade of each reply no decision covered):

- ``kb``: kb's propagation as it is (kernel ridge regression of the teacher's corrections);
- ``stack-ridge`` / ``stack-gbm``: a model pooled over every question, fitted on the decided replies
  (each described without the decided replies of its own group: kernel ≥ 1.5), predicting the teacher's
  grade from kb's grade, kb's propagated grade, the 3 nearest decided replies' grades and similarity;
  ridge regression, or gradient boosting (scikit-learn, bench only);
- ``quantiles``: the propagated grades' order within the question kept, their levels taken from the
  teacher's grades of the question's decided replies (plus 3 pseudo-decisions of every question's);
- ``signals-G``: kb's own features (similarity to the model answer, coverage, length…; standardised
  per question) added to the similarity as a linear kernel of weight G;
- ``grade-G``: kb's grade added to the similarity as a linear kernel of weight G;
- ``mix-N`` (an order, not a propagation): every N-th decision of a question taken at random from its
  remaining groups, the others in kb's order (so that replies unlike any other, e.g. wrong explanations each
  wrong in its own way, are reached early), the questions merged as kb merges them.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from kb.config import Settings  # noqa: E402
from kb.embeddings import CachedEmbedder, get_embedder  # noqa: E402
from kb.evaluate import evaluate_grader, grading_tasks, load_grading_data  # noqa: E402
from kb.grading import review  # noqa: E402
from kb.grading.base import MAX_POINTS, MAX_REPLY_CHARS, needs_judgement  # noqa: E402
from kb.grading.calibration import ZEROING_FLAGS  # noqa: E402
from kb.grading.kernel import reply_kernel  # noqa: E402
from kb.grading.offline import CALIBRATION, FEATURES, OfflineGrader  # noqa: E402

KB_PULL = review.pull_rest
KB_KERNEL = review.reply_kernel
KB_ORDER = review.review_order
STATE: dict = {"variant": "kb", "phi": {}, "weight": 0.0, "in_pull": False}


def _by_question(tasks) -> dict[str, list[int]]:
    by_q: dict[str, list[int]] = {}
    for i, t in enumerate(tasks):
        if needs_judgement(t):
            by_q.setdefault(t.question.id, []).append(i)
    return by_q


def _features(k, prior, krr, dec, pts, j, excl) -> list[float]:
    s = k[j, dec].astype(float).copy()
    s[excl] = -np.inf
    valid = [int(x) for x in np.argsort(-s) if np.isfinite(s[x])]
    if valid:
        top = valid[:3]
        w = np.exp(s[top] / 0.1)
        knn, m1, p1, kp = float(w @ pts[top] / w.sum()), float(s[valid[0]]), float(pts[valid[0]]), prior[dec][valid[0]]
    else:
        knn, m1, p1, kp = prior[j], 0.0, prior[j], prior[j]
    return [prior[j], krr[j], knn, m1, p1, p1 - kp, m1 * (p1 - kp), m1 * (knn - prior[j])]


def _stack(tasks, grades, out, graded, kind: str):
    X, y, rows = [], [], []
    for idx in _by_question(tasks).values():
        dec = np.array([j for j, i in enumerate(idx) if i in graded], dtype=int)
        if not len(dec):
            continue
        k = reply_kernel(np.asarray(STATE["vecs"])[idx], [tasks[i].reply[:MAX_REPLY_CHARS] for i in idx])
        prior = np.array([grades[i].score * MAX_POINTS for i in idx])
        pts = np.array([graded[idx[j]] for j in dec], float)
        corr = float(np.mean(pts - prior[dec]))
        krr = np.array([prior[j] + corr if i in graded else out[i].score * MAX_POINTS for j, i in enumerate(idx)])
        for jj, j in enumerate(dec):
            X.append(_features(k, prior, krr, dec, pts, j, k[j, dec] >= 1.5) + [corr])
            y.append(pts[jj])
        for j, i in enumerate(idx):
            if i not in graded and not ZEROING_FLAGS & set(grades[i].flags):
                rows.append((i, _features(k, prior, krr, dec, pts, j, np.zeros(len(dec), bool)) + [corr]))
    A, B = np.array(X), np.array([f for _, f in rows])
    if kind == "ridge":
        A1, B1 = np.c_[np.ones(len(A)), A], np.c_[np.ones(len(B)), B]
        pred = B1 @ np.linalg.solve(A1.T @ A1 + np.eye(A1.shape[1]), A1.T @ np.array(y))
    else:
        from sklearn.ensemble import HistGradientBoostingRegressor

        m = HistGradientBoostingRegressor(max_iter=150, learning_rate=0.05, max_leaf_nodes=15, min_samples_leaf=20)
        pred = m.fit(A, y).predict(B)
    for (i, _), x in zip(rows, pred, strict=True):
        out[i] = review.regrade(grades[i], tasks[i], float(np.clip(x, 0, 3)))
    return out


def _quantiles(tasks, grades, out, graded, pseudo: float = 3.0):
    pool = np.bincount(list(graded.values()), minlength=4).astype(float)
    pool /= pool.sum()
    for idx in _by_question(tasks).values():
        dec = [i for i in idx if i in graded]
        free = [i for i in idx if i not in graded and not ZEROING_FLAGS & set(grades[i].flags)]
        if len(dec) < review.MIN_GRADED or not free:
            continue
        have = np.bincount([graded[i] for i in dec], minlength=4).astype(float)
        want = np.clip((have + pseudo * pool) / (len(dec) + pseudo) * (len(dec) + len(free)) - have, 0, None)
        cum = np.cumsum(want / want.sum() * len(free))
        for r, j in enumerate(np.argsort([out[i].score for i in free], kind="stable")):
            p = min(MAX_POINTS, int(np.searchsorted(cum, r + 0.5)))
            out[free[j]] = review.regrade(grades[free[j]], tasks[free[j]], float(p))
    return out


def kernel(vecs, texts):
    """kb's similarity, plus a linear kernel of kb's features or grade while propagating (signals-, grade-)."""
    k = KB_KERNEL(vecs, texts)
    v, w = STATE["variant"], STATE["weight"]
    if not STATE["in_pull"] or not (v.startswith("signals") or v.startswith("grade")):
        return k
    rows = [STATE["phi"][t] for t in texts]
    if v.startswith("signals"):
        f = np.array([r[0] for r in rows])
        f = (f - f.mean(0)) / (f.std(0) + 1e-6)
        return k + w * (f @ f.T) / f.shape[1]
    g = np.array([r[1] for r in rows]) / MAX_POINTS
    return k + w * np.outer(g - g.mean(), g - g.mean())


def review_order(groups, grades, replies, vecs):
    """kb's order, or with ``mix-N`` every N-th decision of a question a seeded random pick of its remaining groups."""
    items = KB_ORDER(groups, grades, replies, vecs)
    if not STATE["variant"].startswith("mix"):
        return items
    every = int(STATE["variant"].split("-")[1])
    by_q: dict[str, list] = {}
    for it in items:
        by_q.setdefault(it.group.question_id, []).append(it)
    seqs = []
    for q in sorted(by_q):
        left, rng, seq = by_q[q][:], random.Random(q), []
        while left:
            it = left[rng.randrange(len(left))] if len(seq) % every == every - 1 else left[0]
            left.remove(it)
            seq.append(it)
        seqs.append(seq)
    merged = review.spread_order([[1.0 - 1e-3 * j for j in range(len(s))] for s in seqs],
                                 [sum(it.group.size for it in s) for s in seqs])
    return [seqs[i][j] for i, j in merged]


def pull_rest(tasks, grades, vecs, graded):
    STATE["in_pull"], STATE["vecs"] = True, vecs
    try:
        out = KB_PULL(tasks, grades, vecs, graded)
    finally:
        STATE["in_pull"] = False
    v = STATE["variant"]
    if len(graded) < 50 or not (v.startswith("stack") or v == "quantiles"):
        return out
    return _stack(tasks, grades, out, graded, v.split("-")[1]) if v.startswith("stack") else \
        _quantiles(tasks, grades, out, graded)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("--budgets", default="5,10,20")
    ap.add_argument("--variants", default="kb,stack-ridge,stack-gbm,quantiles,signals-0.3,signals-1,signals-3,"
                    "grade-1,mix-2,mix-3")
    ap.add_argument("--stricter", action="store_true", help="every human grade one point lower (0 stays 0)")
    ap.add_argument("--peripheral-zeros", type=int, default=0, metavar="N",
                    help="grade seeded draws of N distinct replies a question (no two alike once folded), its replies "
                    "graded 0 the ones least like the others (a stand-in for wrong explanations each wrong in its own "
                    "way), with a random order beside")
    ap.add_argument("--draws", type=int, default=3, help="with --peripheral-zeros: this many draws, averaged")
    args = ap.parse_args()
    review.pull_rest = pull_rest
    review.reply_kernel = kernel
    review.review_order = review_order
    emb = CachedEmbedder(get_embedder(CALIBRATION["embedder"]), Settings.from_env().cache_dir / "embeddings.sqlite")
    grader = OfflineGrader(emb)
    all_rows, _ = load_grading_data(args.data, (0.0, 3.0))
    budgets = [float(b) for b in args.budgets.split(",")]
    variants = args.variants.split(",") + (["random (3 seeds)"] if args.peripheral_zeros else [])
    res: dict[str, list[list[float]]] = {v: [] for v in variants}
    for d in range(args.draws if args.peripheral_zeros else 1):
        rows = _peripheral_draw(emb, all_rows, args.peripheral_zeros, d) if args.peripheral_zeros else all_rows
        if args.stricter:
            rows = [dataclasses.replace(r, human=max(0.0, r.human - 1.0)) for r in rows]
        tasks, human = grading_tasks(rows), [r.human for r in rows]
        base, grades = evaluate_grader(grader, rows)
        free = [i for i, t in enumerate(tasks) if needs_judgement(t)]
        STATE["phi"] = {}
        for i, f in zip(free, grader.features([tasks[i] for i in free]), strict=True):
            # by the text the propagation's kernel sees (kb's grade of equal texts to one question is equal)
            STATE["phi"][tasks[i].reply[:MAX_REPLY_CHARS]] = ([f.values[k] for k in FEATURES],
                                                              grades[i].score * MAX_POINTS)
        print(f"{args.data} (draw {d}): n={len(rows)} default qwk={base['qwk']:.3f}", flush=True)
        for v in variants:
            kind, _, w = v.partition("-")
            STATE["variant"], STATE["weight"] = v, float(w) if kind in ("signals", "grade") else 0.0
            if v.startswith("random"):
                STATE["variant"] = "kb"
                rnd = [review.simulate(grader, tasks, human, grades, budgets, order="random", seed=s)
                       for s in (0, 1, 2)]
                res[v].append([float(np.mean([x[i]["qwk"] for x in rnd])) for i in range(len(budgets))])
            else:
                res[v].append([r["qwk"] for r in review.simulate(grader, tasks, human, grades, budgets)])
    print("| variant | " + " | ".join(f"{b:g} %" for b in budgets) + " |")
    for v, runs in res.items():
        print(f"| {v} | " + " | ".join(f"{np.mean(c):.3f}" for c in zip(*runs, strict=True)) + " |", flush=True)


def _peripheral_draw(emb, rows, n: int, seed: int):
    """Per question, ``n`` replies with distinct words (seeded), as many graded 0 as the question's share, those
    the least like its other replies (mean cosine to their 5 nearest)."""
    from kb.grading.groups import normalise

    vec = review.unit_vectors(emb, [r.answer for r in rows])
    by: dict[str, list[int]] = {}
    for i, r in enumerate(rows):
        by.setdefault(r.question_id or r.question, []).append(i)
    keep: list[int] = []
    for q, idx in sorted(by.items()):
        idx = idx[:]
        random.Random(f"{seed}:{q}").shuffle(idx)
        seen: set[str] = set()
        uniq = [i for i in idx if normalise(rows[i].answer) and not (normalise(rows[i].answer) in seen
                                                                       or seen.add(normalise(rows[i].answer)))]
        zeros = [i for i in uniq if round(rows[i].human) == 0]
        others = [i for i in uniq if round(rows[i].human) != 0]
        near = {i: float(np.sort(vec[uniq] @ vec[i])[-6:-1].mean()) for i in zeros}
        nz = round(n * len(zeros) / max(1, len(uniq)))
        keep += sorted(zeros, key=lambda i: near[i])[:nz] + others[:n - nz]
    return [rows[i] for i in sorted(keep)]

if __name__ == "__main__":
    main()
