"""Fit kb's prior over question forms (kb/writing/form_prior.py) on rated rounds, and say how it ranks held-out ones.

    python eval/fit_form_prior.py         # fit on rounds 10-13, held out 14-16: writes kb/writing/form_prior.json
    python eval/fit_form_prior.py --fit 10-13 --test 14-16 --smooth 10 --dry

Each form's rate is its KEEP share among the fit's ratings (every rater's verdict one sample), smoothed toward the
fit's mean by ``--smooth`` pseudo-ratings: (keep + s * mean) / (n + s). On the held-out rounds it reports the AUC of
the prior as a score of KEEP (ties count half) and the KEEP rate of the questions it ranks in the top and bottom
half."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from form_keep import rated, rounds  # noqa: E402

from kb.writing.form_prior import PRIOR_FILE, Pages, features  # noqa: E402

DECKS = Path(__file__).resolve().parent / "heldout_decks"
FEATURES = ("form", "short", "share", "rank4")
_PAGES: dict[str, Pages | None] = {}


def own_rank(row: dict[str, str]) -> int:
    """The rank of the rated question's slide among its deck's (eval/heldout_decks/DECK.txt, "=== " per slide) for
    its stem; 0 when the deck or page is unknown."""
    import re

    deck = row["deck"]
    if deck not in _PAGES:
        f = DECKS / f"{deck}.txt"
        _PAGES[deck] = Pages(f.read_text(encoding="utf-8").split("=== ")[1:]) if f.exists() else None
    m = re.match(r"p\. (\d+)", row["locator"])
    pages = _PAGES[deck]
    return pages.rank(row["prompt"], int(m.group(1)) - 1) if pages and m else 0


def keep_features(rows: list[dict[str, str]], model: dict) -> list[list[float]]:
    out = []
    for r in rows:
        x = features(r["type"], r["prompt"], r["answer"], own_rank(r), model)
        out.append([x[k] for k in FEATURES])
    return out


def fit_logistic(xs: list[list[float]], ys: list[bool], l2: float = 1.0, steps: int = 50) -> tuple[float, list[float]]:
    """Logistic regression by Newton's method (pure Python, a handful of features), L2 ``l2`` on the weights."""
    k = len(xs[0]) + 1
    w = [0.0] * k
    import math
    for _ in range(steps):
        g = [0.0] * k
        h = [[0.0] * k for _ in range(k)]
        for x, y in zip(xs, ys, strict=True):
            v = [1.0, *x]
            p = 1 / (1 + math.exp(-sum(a * b for a, b in zip(w, v, strict=True))))
            for i in range(k):
                g[i] += (p - y) * v[i]
                for j in range(k):
                    h[i][j] += p * (1 - p) * v[i] * v[j]
        for i in range(1, k):
            g[i] += l2 * w[i]
            h[i][i] += l2
        step = _solve(h, g)
        w = [a - b for a, b in zip(w, step, strict=True)]
        if max(abs(b) for b in step) < 1e-8:
            break
    return w[0], w[1:]


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        if abs(m[c][c]) < 1e-12:
            m[c][c] = 1e-12
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(rows: list[dict[str, str]], smooth: float) -> dict[str, float]:
    n = Counter(r["form"] for r in rows)
    keep = Counter(r["form"] for r in rows if r["verdict"] == "KEEP")
    mean = sum(keep.values()) / max(1, len(rows))
    return {f: round((keep[f] + smooth * mean) / (n[f] + smooth), 4) for f in sorted(n)}


def auc(scores: list[float], labels: list[bool]) -> float:
    """P(score of a KEEP > score of a non-KEEP), ties half (Mann-Whitney)."""
    pos = sorted(s for s, y in zip(scores, labels, strict=True) if y)
    neg = sorted(s for s, y in zip(scores, labels, strict=True) if not y)
    if not pos or not neg:
        return float("nan")
    import bisect
    total = 0.0
    for s in pos:
        lo, hi = bisect.bisect_left(neg, s), bisect.bisect_right(neg, s)
        total += lo + 0.5 * (hi - lo)
    return total / (len(pos) * len(neg))


def ranking_scores(scores: list[float], rows: list[dict[str, str]]) -> dict[str, float]:
    labels = [r["verdict"] == "KEEP" for r in rows]
    order = sorted(range(len(rows)), key=lambda i: -scores[i])
    half = len(rows) // 2
    top, bottom = order[:half], order[half:]
    return {"auc": round(auc(scores, labels), 3), "n": len(rows),
            "keep_top_half": round(sum(labels[i] for i in top) / max(1, len(top)), 3),
            "keep_bottom_half": round(sum(labels[i] for i in bottom) / max(1, len(bottom)), 3)}


def ranking(rates: dict[str, float], mean: float, rows: list[dict[str, str]]) -> dict[str, float]:
    scores = [rates.get(r["form"], mean) for r in rows]
    labels = [r["verdict"] == "KEEP" for r in rows]
    order = sorted(range(len(rows)), key=lambda i: -scores[i])
    half = len(rows) // 2
    top, bottom = order[:half], order[half:]
    return {"auc": round(auc(scores, labels), 3), "n": len(rows),
            "keep_top_half": round(sum(labels[i] for i in top) / max(1, len(top)), 3),
            "keep_bottom_half": round(sum(labels[i] for i in bottom) / max(1, len(bottom)), 3),
            "keep": round(sum(labels) / max(1, len(labels)), 3)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fit", default="10-13")
    ap.add_argument("--test", default="14-16")
    ap.add_argument("--smooth", type=float, default=10.0)
    ap.add_argument("--dry", action="store_true", help="report only, write nothing")
    a = ap.parse_args()
    train, test = rated(rounds(a.fit)), rated(rounds(a.test))
    rates = fit(train, a.smooth)
    mean = round(sum(r["verdict"] == "KEEP" for r in train) / len(train), 4)
    held = {"all": ranking(rates, mean, test),
            "short": ranking(rates, mean, [r for r in test if r["type"] == "short"])}
    for r in sorted({r["round"] for r in test}):
        held[f"r{r}"] = ranking(rates, mean, [x for x in test if x["round"] == r])
    model = {"rates": rates, "mean": mean}
    xs = keep_features(train, model)
    short = [x for x in xs if x[1]]
    known = short  # (every rated deck is in eval/heldout_decks: no rank is unknown)
    means = {"rank4": round(sum(x[3] for x in known) / max(1, len(known)), 4)}
    bias, ws = fit_logistic(xs, [r["verdict"] == "KEEP" for r in train])
    weights = {k: round(w, 4) for k, w in zip(FEATURES, ws, strict=True)}
    model["keep_model"] = {"bias": round(bias, 4), "weights": weights, "means": means}
    import math
    xt = keep_features(test, model)
    pk = [1 / (1 + math.exp(-(bias + sum(w * v for w, v in zip(ws, x, strict=True))))) for x in xt]
    keep_held = {"all": ranking_scores(pk, test)}
    keep_held["short"] = ranking_scores([p for p, r in zip(pk, test, strict=True) if r["type"] == "short"],
                                        [r for r in test if r["type"] == "short"])
    for r in sorted({r["round"] for r in test}):
        keep_held[f"r{r}"] = ranking_scores([p for p, x in zip(pk, test, strict=True) if x["round"] == r],
                                            [x for x in test if x["round"] == r])
    model["keep_model"]["held_out"] = keep_held
    print("keep model:", model["keep_model"]["bias"], model["keep_model"]["weights"], means)
    for k, v in keep_held.items():
        print(f"  keep model {k:6s} {v}")
    n = Counter(r["form"] for r in train)
    for f in sorted(rates, key=lambda f: -rates[f]):
        print(f"{f:16s} n={n[f]:4d} prior={rates[f]:.3f}")
    print(f"mean {mean:.3f}; held out (rounds {a.test}):")
    for k, v in held.items():
        print(f"  {k:6s} {v}")
    if not a.dry:
        out = {"fitted_on": {"rounds": rounds(a.fit), "ratings": len(train),
                             "files": "eval/real_heldout_rN/ratings.csv", "smooth": a.smooth,
                             "script": "eval/fit_form_prior.py"},
               "mean": mean, "rates": rates, "counts": dict(sorted(n.items())),
               "held_out": {"rounds": rounds(a.test), **held}, "keep_model": model["keep_model"]}
        PRIOR_FILE.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print("wrote", PRIOR_FILE)


if __name__ == "__main__":
    main()
