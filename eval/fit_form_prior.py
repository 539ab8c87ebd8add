"""Fit kb's prior over question forms (kb/writing/form_prior.py) on rated rounds, and say how it ranks held-out ones.

    python eval/fit_form_prior.py                                               # kb/writing/form_prior.json
    python eval/fit_form_prior.py --fit 14-20 --test 21-24 --dry                 # the check alone

Each form's rate is its KEEP (and DROP) share among the fit's ratings (every rater's verdict one sample), smoothed
toward its family's by ``--smooth`` pseudo-ratings, the family's (the form and its sub-forms: one-line answers, code
blanks) toward the fit's mean: (keep + s * family) / (n + s). On the held-out rounds it reports the AUC of the prior
as a score of KEEP (ties count half), the KEEP rate of the questions it ranks in the top and bottom half, and how
the forms it names last resorts (form_prior.last_resort) were kept and dropped there."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from form_keep import rated, rounds  # noqa: E402

from kb.writing.form_prior import LAST_RESORT, PRIOR_FILE, parent, rated_form  # noqa: E402


def fit(rows: list[dict[str, str]], smooth: float, verdict: str = "KEEP") -> dict[str, float]:
    """Each form's KEEP (or ``verdict``) share, smoothed toward its family's (the form with its sub-forms,
    ``form_prior.parent``), the family's toward the mean; a family with no rating of the plain form gets the
    family's rate under its name too (a sub-form's question then falls back on it: ``form_prior.prior``)."""
    n = Counter(r["form"] for r in rows)
    keep = Counter(r["form"] for r in rows if r["verdict"] == verdict)
    mean = sum(keep.values()) / max(1, len(rows))
    root = {f: parent(f) or f for f in n}
    fam_n, fam_keep = Counter(), Counter()
    for f in n:
        fam_n[root[f]] += n[f]
        fam_keep[root[f]] += keep[f]
    fam = {g: (fam_keep[g] + smooth * mean) / (fam_n[g] + smooth) for g in fam_n}
    rates = {f: (keep[f] + smooth * fam[root[f]]) / (n[f] + smooth) for f in n}
    for g, r in fam.items():
        rates.setdefault(g, r)
    return {f: round(rates[f], 4) for f in sorted(rates)}


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
    scores = [rates.get(rated_form(r["form"], rates), mean) for r in rows]
    labels = [r["verdict"] == "KEEP" for r in rows]
    order = sorted(range(len(rows)), key=lambda i: -scores[i])
    half = len(rows) // 2
    top, bottom = order[:half], order[half:]
    return {"auc": round(auc(scores, labels), 3), "n": len(rows),
            "keep_top_half": round(sum(labels[i] for i in top) / max(1, len(top)), 3),
            "keep_bottom_half": round(sum(labels[i] for i in bottom) / max(1, len(bottom)), 3),
            "keep": round(sum(labels) / max(1, len(labels)), 3)}


def _fit_and_test(train: list[dict[str, str]], test: list[dict[str, str]], smooth: float) -> tuple:
    """(KEEP rates, DROP rates, mean, the held-out report, the last-resort forms) of a fit on ``train``."""
    rates = fit(train, smooth)
    drops = fit(train, smooth, "DROP")
    mean = round(sum(r["verdict"] == "KEEP" for r in train) / len(train), 4)
    held = {"all": ranking(rates, mean, test),
            "short": ranking(rates, mean, [r for r in test if r["type"] == "short"])}
    for r in sorted({r["round"] for r in test}):
        held[f"r{r}"] = ranking(rates, mean, [x for x in test if x["round"] == r])
    # the last resorts (form_prior.last_resort) the fit names, and how the held-out rounds kept and dropped them
    low = {f for f, v in rates.items() if v < LAST_RESORT * mean or drops[f] > v}
    below = [r for r in test if rated_form(r["form"], rates) in low]
    held["last_resort"] = {"forms": sorted(low), "n": len(below),
                           "keep": round(sum(r["verdict"] == "KEEP" for r in below) / max(1, len(below)), 3),
                           "drop": round(sum(r["verdict"] == "DROP" for r in below) / max(1, len(below)), 3)}
    held["all"]["drop"] = round(sum(r["verdict"] == "DROP" for r in test) / max(1, len(test)), 3)
    return rates, drops, mean, held, low


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
    ap.add_argument("--fit", default="14-33", type=_span)  # (what kb/writing/form_prior.json holds)
    ap.add_argument("--test", default="8-13", type=_span)
    ap.add_argument("--smooth", type=float, default=10.0)
    ap.add_argument("--dry", action="store_true", help="report only, write nothing")
    ap.add_argument("--check", default="14-31:32-33",
                    help="FIT:TEST spans: the same fit on earlier rounds, tested on later ones, kept beside it")
    ap.add_argument("--out", type=Path, default=PRIOR_FILE, help="where to write the fit (default: kb's own)")
    a = ap.parse_args()
    train, test = rated(rounds(a.fit)), rated(rounds(a.test))
    for span, rows in ((a.fit, train), (a.test, test)):
        if not rows:  # (no mean to smooth toward, no ranking to report: a prior fitted on nothing is no prior)
            sys.exit(f"fit_form_prior: no ratings for rounds {span}: eval/real_heldout_rN/ratings.csv is missing or "
                     f"empty for each of {', '.join(map(str, rounds(span)))} — name rated rounds (--fit/--test)")
    rates, drops, mean, held, low = _fit_and_test(train, test, a.smooth)
    check = None
    if a.check:  # the same fit on earlier rounds, tested on later ones it never saw
        fit_span, _, test_span = a.check.partition(":")
        c_train, c_test = rated(rounds(fit_span)), rated(rounds(test_span))
        if not c_train or not c_test:
            sys.exit(f"fit_form_prior: --check {a.check}: no ratings for one of its spans")
        check = {"fit": rounds(fit_span), "test": rounds(test_span), **_fit_and_test(c_train, c_test, a.smooth)[3]}
    n = Counter(r["form"] for r in train)
    for f in sorted(rates, key=lambda f: -rates[f]):
        last = "  last resort" if f in low else ""
        print(f"{f:20s} n={n[f]:4d} prior={rates[f]:.3f} drop={drops[f]:.3f}{last}")
    print(f"mean {mean:.3f}; held out (rounds {a.test}):")
    for k, v in held.items():
        print(f"  {k:6s} {v}")
    if check:
        print(f"check: fitted on rounds {a.check.partition(':')[0]}, tested on {a.check.partition(':')[2]}:")
        for k, v in check.items():
            print(f"  {k:6s} {v}")
    if not a.dry:
        out = {"fitted_on": {"rounds": rounds(a.fit), "ratings": len(train),
                             "files": "eval/real_heldout_rN/ratings.csv", "smooth": a.smooth,
                             "script": "eval/fit_form_prior.py"},
               "mean": mean, "rates": rates, "drops": drops, "counts": dict(sorted(n.items())),
               "held_out": {"rounds": rounds(a.test), **held}, **({"check": check} if check else {})}
        a.out.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print("wrote", a.out)


if __name__ == "__main__":
    main()
