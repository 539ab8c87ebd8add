"""How well a grader agrees with people: Pearson and Spearman on the 0–3 score, quadratic weighted
kappa, exact agreement and the confusion matrix on whole points.

Used by :mod:`kb.evaluate` (``kb eval grading``) and :mod:`kb.grading.review` (a review's simulated
agreement); below both, so neither imports the other. numpy is imported inside the functions.
"""

from __future__ import annotations


def pearson(x, y) -> float:
    """Pearson correlation of two sequences (0 when either is constant or shorter than 2)."""
    import numpy as np

    x, y = np.asarray(x, float), np.asarray(y, float)
    if len(x) < 2 or x.std() == 0 or y.std() == 0:
        return 0.0
    return float(np.corrcoef(x, y)[0, 1])


def _ranks(x):
    import numpy as np

    x = np.asarray(x, float)
    order = np.argsort(x, kind="mergesort")
    ranks = np.empty(len(x))
    ranks[order] = np.arange(len(x))
    for v in np.unique(x):  # ties share their mean rank
        m = x == v
        ranks[m] = ranks[m].mean()
    return ranks


def quadratic_weighted_kappa(a, b, k: int = 4) -> float:
    """Cohen's kappa with quadratic weights between two lists of whole points 0..k-1."""
    import numpy as np

    a, b = np.asarray(a, int), np.asarray(b, int)
    o = np.zeros((k, k))
    for i, j in zip(a, b, strict=True):
        o[i, j] += 1
    w = np.array([[(i - j) ** 2 for j in range(k)] for i in range(k)]) / (k - 1) ** 2
    e = np.outer(o.sum(1), o.sum(0)) / max(1, o.sum())
    den = (w * e).sum()
    return float(1 - (w * o).sum() / den) if den else 1.0


def agreement(human, predicted_score, predicted_points) -> dict:
    """Pearson/Spearman on the continuous 0–3 score; QWK, exact agreement and the confusion
    matrix on whole points (human scores rounded)."""
    import numpy as np

    h = np.asarray(human, float)
    s = np.asarray(predicted_score, float)
    hp = np.clip(np.rint(h), 0, 3).astype(int)
    pp = np.asarray(predicted_points, int)
    confusion = [[int(((hp == i) & (pp == j)).sum()) for j in range(4)] for i in range(4)]
    return {
        "n": int(len(h)),
        "pearson": pearson(h, s),
        "spearman": pearson(_ranks(h), _ranks(s)),
        "qwk": quadratic_weighted_kappa(hp, pp),
        "exact": float((hp == pp).mean()) if len(h) else 0.0,
        "confusion": confusion,
    }
