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

from kb.writing.form_prior import PRIOR_FILE  # noqa: E402


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


def _span(text: str) -> str:
    """A span of rounds ("10-13", "14"), checked here so that a typo is a usage error, not a traceback."""
    try:
        rs = rounds(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is no span of rounds (e.g. 10-13)") from None
    if not rs:
        raise argparse.ArgumentTypeError(f"{text!r} holds no round (e.g. 10-13)")
    return text


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fit", default="10-13", type=_span)
    ap.add_argument("--test", default="14-16", type=_span)
    ap.add_argument("--smooth", type=float, default=10.0)
    ap.add_argument("--dry", action="store_true", help="report only, write nothing")
    a = ap.parse_args()
    train, test = rated(rounds(a.fit)), rated(rounds(a.test))
    for span, rows in ((a.fit, train), (a.test, test)):
        if not rows:  # (no mean to smooth toward, no ranking to report: a prior fitted on nothing is no prior)
            sys.exit(f"fit_form_prior: no ratings for rounds {span}: eval/real_heldout_rN/ratings.csv is missing or "
                     f"empty for each of {', '.join(map(str, rounds(span)))} — name rated rounds (--fit/--test)")
    rates = fit(train, a.smooth)
    mean = round(sum(r["verdict"] == "KEEP" for r in train) / len(train), 4)
    held = {"all": ranking(rates, mean, test),
            "short": ranking(rates, mean, [r for r in test if r["type"] == "short"])}
    for r in sorted({r["round"] for r in test}):
        held[f"r{r}"] = ranking(rates, mean, [x for x in test if x["round"] == r])
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
               "held_out": {"rounds": rounds(a.test), **held}}
        PRIOR_FILE.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print("wrote", PRIOR_FILE)


if __name__ == "__main__":
    main()
