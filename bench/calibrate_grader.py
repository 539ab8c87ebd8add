"""Fit the offline grader's weights and cut points on human-graded replies.

    python bench/pt_asag_to_csv.py --split dev  -o /tmp/asag-dev.csv
    python bench/pt_asag_to_csv.py --split test -o /tmp/asag-test.csv
    python bench/calibrate_grader.py /tmp/asag-dev.csv --report /tmp/asag-test.csv

Fits on the first CSV only (pt_asag_2018 questions 36-42): ridge regression of the human
0-3 score on kb.grading.FEATURES (and on the meaning-only SEMANTIC features, used for replies
in another language than the model answer), then the three cut points that maximise quadratic weighted
kappa on the same data, then the off-topic similarity floor (the highest similarity below
which at least 95 % of dev replies scored 0). Prints the CALIBRATION dict to paste into
kb/grading.py, and the agreement on --report (never used for fitting).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from kb.config import Settings  # noqa: E402
from kb.embeddings import CachedEmbedder, get_embedder  # noqa: E402
from kb.evaluate import agreement, evaluate_grader, grading_tasks, load_grading_data, quadratic_weighted_kappa  # noqa: E402
from kb.grading import FEATURES, SEMANTIC, OfflineGrader  # noqa: E402


def ridge(X, y, alpha: float):
    """Ridge regression on standardised features, returned as raw-feature weights and bias."""
    mu, sd = X.mean(0), X.std(0) + 1e-9
    Z = (X - mu) / sd
    beta = np.linalg.solve(Z.T @ Z + alpha * np.eye(Z.shape[1]), Z.T @ (y - y.mean()))
    w = beta / sd
    return w, float(y.mean() - (w * mu).sum())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dev", type=Path)
    ap.add_argument("--report", type=Path, help="held-out CSV to report on (not fitted)")
    ap.add_argument("--embedder", default="use-m3")
    ap.add_argument("--ridge", type=float, default=1.0)
    args = ap.parse_args()

    settings = Settings.from_env()
    emb = CachedEmbedder(get_embedder(args.embedder), settings.cache_dir / "embeddings.sqlite")
    rows, _ = load_grading_data(args.dev)
    grader = OfflineGrader(emb)
    feats = grader.features(grading_tasks(rows))
    X = np.array([[f.values[k] for k in FEATURES] for f in feats])
    y = np.array([r.human for r in rows])

    w, b = ridge(X, y, args.ridge)
    raw = X @ w + b
    # replies in another language than the model answer: meaning features only
    semantic = [FEATURES.index(k) for k in SEMANTIC]
    ws, bs = ridge(X[:, semantic], y, args.ridge)

    hp = np.clip(np.rint(y), 0, 3).astype(int)
    grid = np.round(np.arange(0.2, 2.9, 0.05), 2)
    best = (-1.0, (0.5, 1.5, 2.5))
    for c in itertools.combinations(grid, 3):
        pts = (raw[:, None] >= np.array(c)).sum(1)
        k = quadratic_weighted_kappa(hp, pts)
        if k > best[0]:
            best = (k, c)
    sims = X[:, FEATURES.index("sim")]
    off = 0.0
    for t in np.round(np.arange(0.05, 0.6, 0.01), 2):
        below = y[sims < t]
        if len(below) >= 10 and (below < 0.5).mean() >= 0.95:
            off = float(t)

    cal = {"embedder": args.embedder, "weights": {k: round(float(v), 4) for k, v in zip(FEATURES, w)},
           "bias": round(b, 4),
           "weights_crosslingual": {k: round(float(v), 4) for k, v in zip(SEMANTIC, ws)},
           "bias_crosslingual": round(bs, 4), "cuts": [float(x) for x in best[1]], "off_topic": off}
    print("CALIBRATION =", json.dumps(cal, indent=4))
    fitted = OfflineGrader(emb, cal)
    res, _ = evaluate_grader(fitted, rows)
    print(f"dev  n={res['n']} pearson={res['pearson']:.3f} spearman={res['spearman']:.3f} "
          f"qwk={res['qwk']:.3f} exact={res['exact']:.3f}  (linear only: pearson="
          f"{agreement(y, np.clip(raw, 0, 3), (raw[:, None] >= np.array(best[1])).sum(1))['pearson']:.3f})")
    if args.report:
        test, _ = load_grading_data(args.report)
        res, _ = evaluate_grader(fitted, test)
        print(f"test n={res['n']} pearson={res['pearson']:.3f} spearman={res['spearman']:.3f} "
              f"qwk={res['qwk']:.3f} exact={res['exact']:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
