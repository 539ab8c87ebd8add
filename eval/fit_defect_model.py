"""Fit kb's advisory drop-risk model (kb/writing/defect_model.json) on teachers' ratings, rounds 1-22.

    python eval/fit_defect_model.py              # fit, cross-validate by round, write the JSON
    python eval/fit_defect_model.py --check 23   # also report once on round 23's ratings (fits nothing on them)
    python eval/fit_defect_model.py --leave-out 13 --out /tmp/m13.json   # a fit without round 13

Rounds: 1 = the review decks (``eval/ratings.csv``, empty ``split``), 2 = the held-out splits A-AJ
(``eval/ratings.csv``), 3-22 = ``eval/real_heldout_rN/ratings.csv`` (round 23 and later, rated after this fit,
are its held-out checks: never fitted on). For rounds 8-22 the leave-one-round-out shares are also given over the
ratings of the questions the round's newest version wrote (what kb still writes). Every teacher rating (not the first
writer's ``author`` self-rating) is one example, the question as rated (kb.writing.defect_model.features); a rating
of a question its round's newest version did not write counts ``--other-weight`` (0.3) in the fit.
Two L2 logistic regressions (numpy): DROP vs the rest, and DROP-or-FIX vs KEEP. The DROP threshold is
chosen for what ``kb eval quiz`` flags, the registry's checks or the risk: the highest p at which the checks
(eval/flag_rounds.py) or the out-of-fold risk (leave one round out) flag ``--recall`` (0.85) of the DROP
ratings of rounds 8-22's newest versions' questions. History: fitted on rounds 1-13 at 0.75, the fresh rounds 14-16
got 71 % and round 17 58 %; fitted on rounds 1-16 at 0.85 (session 20), the fresh round 20 got 56 %. Session 21
refit on rounds 1-20 with the newest versions weighted (leave one round out: rounds 17-20 get 74-97 %), before
round 21 was rated: the fresh rounds 21 and 22 got 81 % and 64 %. Refit on rounds 1-22 (the same rule) before round
23 was rated: round 23 is its held-out check. The shares of DROP / FIX / KEEP flagged are reported per round.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from eval.rating_round import NEWEST  # noqa: E402  (each rated round's newest version)

VERDICTS = ("KEEP", "FIX", "DROP")
LAST_ROUND = 24  # the last round fitted on


def rated(path: Path, round_name: str, where=lambda r: True) -> list[dict]:
    """A ratings file's teacher ratings with a verdict, each tagged with its round."""
    with path.open(encoding="utf-8", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["verdict"] in VERDICTS and r["rater"] != "author" and where(r)]
    for r in rows:
        r["round"] = round_name
        n = int(round_name[1:]) if round_name[1:].isdigit() else 0
        r["newest"] = n in NEWEST and NEWEST[n] in r.get("versions", "").split()
    return rows


def training_rows() -> tuple[list[dict], list[str]]:
    """Rounds 1-LAST_ROUND and the files they come from."""
    rows = rated(ROOT / "eval/ratings.csv", "r1 review", lambda r: not r["split"])
    rows += rated(ROOT / "eval/ratings.csv", "r2 splits A-AJ", lambda r: bool(r["split"]))
    files = ["eval/ratings.csv"]
    for n in range(3, LAST_ROUND + 1):
        files.append(f"eval/real_heldout_r{n}/ratings.csv")
        rows += rated(ROOT / files[-1], f"r{n}")
    return rows, files


_DECKS: dict[str, tuple[list[str], str, list]] = {}


def deck_text(deck: str) -> tuple[list[str], str, list]:
    """A rated deck's slides (``eval/heldout_decks/*.txt``: one ``=== Title`` block a page), its whole
    text, and kb's chunks of it where it is a file kb reads (the sample course, ``../shared`` PDFs)."""
    if deck in _DECKS:
        return _DECKS[deck]
    txt = ROOT / "eval/heldout_decks" / (Path(deck).stem + ".txt")
    pages: list[str] = []
    chunks: list = []
    if txt.is_file():
        pages = ["=== " + p for p in txt.read_text(encoding="utf-8").split("=== ")[1:]]
        whole = "\n".join(pages)
    else:
        from eval.flag_ratings import SHARED
        from kb.chunking import chunk_document
        from kb.readers import read_document

        path = ROOT / deck if deck.startswith("sources/") else SHARED / ("corpora" if "corpora/" in deck else
                                                                         "heldout_decks") / Path(deck).name
        if not path.is_file():  # a model fitted without a deck's pages would differ from the shipped one
            raise SystemExit(f"cannot read the rated deck {deck} (set KB_SHARED_DIR to the shared data)")
        chunks = chunk_document(read_document(path), deck)
        whole = "".join(f"\n{c.locator.heading or ''}\n{c.text}" for c in chunks)
    _DECKS[deck] = (pages, whole, chunks)
    return _DECKS[deck]


def page_of(row: dict) -> tuple[str, str]:
    """The cited page's text and the whole deck's, as ``kb eval quiz`` has them ('' where unreadable)."""
    import re

    from eval.flag_ratings import section_text

    pages, whole, chunks = deck_text(row["deck"])
    if chunks:
        return section_text(chunks, row["locator"]), whole
    m = re.match(r"^pp?\. (\d+)", row["locator"])
    n = int(m.group(1)) if m else 0
    return (pages[n - 1] if 0 < n <= len(pages) else ""), whole


def matrix(rows: list[dict]) -> tuple[np.ndarray, list[str]]:
    from eval.flag_ratings import question_of
    from kb.writing.defect_model import features

    feats = [features(question_of(r, r["deck"]), *page_of(r)) for r in rows]
    names = list(feats[0])
    return np.array([[f[n] for n in names] for f in feats], dtype=float), names


def fit(x: np.ndarray, y: np.ndarray, l2: float, weight: np.ndarray | None = None
        ) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    """Standardise, then Newton steps on the L2-penalised log loss, each example counted ``weight`` times (1 when
    not given); (weights, intercept, mean, std)."""
    wt = np.ones(len(y)) if weight is None else weight
    mean, std = x.mean(0), x.std(0)
    std[std == 0] = 1.0
    z = np.hstack([np.ones((len(x), 1)), (x - mean) / std])
    w = np.zeros(z.shape[1])
    pen = np.full(z.shape[1], l2)
    pen[0] = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-z @ w))
        grad = z.T @ (wt * (p - y)) + pen * w
        hess = (z * (wt * p * (1 - p))[:, None]).T @ z + np.diag(pen) + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w[1:], float(w[0]), mean, std


def predict(model: tuple, x: np.ndarray) -> np.ndarray:
    w, b, mean, std = model
    return 1 / (1 + np.exp(-(((x - mean) / std) @ w + b)))


def out_of_fold(x: np.ndarray, y: np.ndarray, groups: np.ndarray, l2: float, weight: np.ndarray) -> np.ndarray:
    p = np.zeros(len(y))
    for g in np.unique(groups):
        test = groups == g
        p[test] = predict(fit(x[~test], y[~test], l2, weight[~test]), x[test])
    return p


def threshold_for(p: np.ndarray, drop: np.ndarray, recall: float) -> float:
    """The highest threshold whose share of DROPs at or above it reaches ``recall``."""
    ps = np.sort(p[drop])[::-1]
    return float(ps[min(len(ps) - 1, int(np.ceil(recall * len(ps))) - 1)])


def shares(p: np.ndarray, verdicts: np.ndarray, t: float) -> dict[str, str]:
    return {v: f"{int((p[verdicts == v] >= t).sum())}/{int((verdicts == v).sum())}" for v in VERDICTS}


def rating_key(r: dict) -> tuple[str, str, str, str]:
    return (str(r["round"]).lstrip("r"), r["rater"], r["question_id"], r["prompt"])


def union_threshold(p: np.ndarray, checked: np.ndarray, drop: np.ndarray, recall: float) -> float:
    """The highest threshold at which the checks or the risk (p at or above it) flag ``recall`` of the DROPs."""
    for t in sorted(set(p[drop]), reverse=True):
        if (checked | (p >= t))[drop].mean() >= recall:
            return float(t)
    return float(p.min())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--recall", type=float, default=0.85,
                    help=f"share of the DROP ratings of rounds 8-{LAST_ROUND}'s newest versions that kb eval quiz "
                         "(checks or risk) must flag, out of fold")
    ap.add_argument("--l2", type=float, default=10.0)
    ap.add_argument("--other-weight", type=float, default=0.3,
                    help="what a rating counts for in the fit unless it rates a question of its round's newest "
                         "version (rounds 8 on): 1 for those")
    ap.add_argument("--check", type=int, metavar="N", help="report once on round N's ratings (fits nothing on them)")
    ap.add_argument("--out", default=str(ROOT / "kb/writing/defect_model.json"))
    ap.add_argument("--leave-out", type=int, metavar="N", help="fit without round N (to flag its ratings out of fold)")
    args = ap.parse_args()
    from eval.flag_rounds import check_flags, ratings

    rows, files = training_rows()
    if args.leave_out:
        rows = [r for r in rows if r["round"] != f"r{args.leave_out}"]
        files = [f for f in files if f != f"eval/real_heldout_r{args.leave_out}/ratings.csv"]
    x, names = matrix(rows)
    verdicts = np.array([r["verdict"] for r in rows])
    groups = np.array([r["round"] for r in rows])
    drop, edit = (verdicts == "DROP").astype(float), (verdicts != "KEEP").astype(float)
    newest = np.array([r["newest"] for r in rows])
    # what kb writes now weighs most: the ratings of each round's newest version (rounds 8 on) count 1, the rest
    # --other-weight (leave one round out on rounds 14-20, DROP against KEEP: AUC 0.79 -> 0.84 on round 20, the same or
    # up to 0.02 higher on the others; 0.1-0.5 all within 0.03 of each other)
    weight = np.where(newest, 1.0, args.other_weight)
    oof = out_of_fold(x, drop, groups, args.l2, weight)
    # what the registry's checks flag on the fresh raters' rounds (each question against its page, deck and quiz)
    fresh_rounds = [n for n in NEWEST if n != args.leave_out and n <= LAST_ROUND]
    checks = {rating_key(r): bool(f) for r, f in check_flags([r for n in fresh_rounds for r in ratings(n)])}
    checked = np.array([checks.get(rating_key(r), False) for r in rows])
    fresh = np.isin(groups, [f"r{n}" for n in fresh_rounds])
    # the threshold: the highest p at which kb eval quiz (checks or risk) flags --recall of the DROP ratings of
    # the questions rounds 8-LAST_ROUND's newest versions wrote (what kb writes now), p out of fold (leave one
    # round out)
    t = union_threshold(oof[fresh & newest], checked[fresh & newest], verdicts[fresh & newest] == "DROP", args.recall)
    per_round = {g: shares(oof[groups == g], verdicts[groups == g], t) for g in dict.fromkeys(groups)}
    pooled = shares(oof, verdicts, t)
    keep = verdicts == "KEEP"
    curve = {f"{r:.0%}": f"{(oof[keep] >= threshold_for(oof, verdicts == 'DROP', r)).mean():.0%}"
             for r in (0.3, 0.5, 0.7, 0.9)}
    print("leave-one-round-out, the risk alone: DROP recall -> KEEP ratings flagged:", curve)
    print(f"leave-one-round-out, threshold p >= {t:.3f} (checks or risk flag {args.recall:.0%} of "
          f"r8-r{LAST_ROUND}'s newest versions' DROPs); the risk alone:")
    per_newest = {f"{g}, newest": shares(oof[(groups == g) & newest], verdicts[(groups == g) & newest], t)
                  for g in dict.fromkeys(groups[newest])}
    for g, s in {**per_round, f"all r1-r{LAST_ROUND}": pooled, **per_newest,
                 f"r8-r{LAST_ROUND}": shares(oof[fresh], verdicts[fresh], t),
                 f"r8-r{LAST_ROUND}, newest": shares(oof[fresh & newest], verdicts[fresh & newest], t)}.items():
        print(f"  {g:16} flags DROP {s['DROP']:>7}  FIX {s['FIX']:>7}  KEEP {s['KEEP']:>7}")
    either = np.where(checked, 1.0, oof)  # (a checked rating counts as flagged at any threshold)
    union = {g: shares(either[m], verdicts[m], t) for g, m in [
        *((f"r{n}", groups == f"r{n}") for n in fresh_rounds),
        *((f"r{n}, newest", (groups == f"r{n}") & newest) for n in fresh_rounds),
        (f"r8-r{LAST_ROUND}", fresh), (f"r8-r{LAST_ROUND}, newest", fresh & newest)]}
    print("checks or risk (what kb eval quiz flags), the risk out of fold:")
    for g, s in union.items():
        print(f"  {g:16} flags DROP {s['DROP']:>7}  FIX {s['FIX']:>7}  KEEP {s['KEEP']:>7}")
    model: dict = {"fitted_on": files, "rounds": sorted(set(groups)), "examples": len(rows), "l2": args.l2,
                   "other_weight": args.other_weight,
                   "refit": "python eval/fit_defect_model.py",
                   "cv": {"by": "leave one round out", "threshold": round(t, 4),
                          "threshold_rule": f"checks or risk flag {args.recall:.0%} of the DROP ratings of rounds "
                                            f"8-{LAST_ROUND}'s newest versions",
                          "flagged": pooled, "keep_flagged_at_recall": curve, "per_round": per_round,
                          "per_round_newest_version": per_newest, "checks_or_risk": union}}
    for key, y, th in (("drop", drop, t), ("drop_or_fix", edit, 0.5)):
        w, b, mean, std = fit(x, y, args.l2, weight)
        model[key] = {"intercept": round(b, 5), "threshold": round(th, 4),
                      "weights": {n: round(float(v), 5) for n, v in zip(names, w, strict=True)},
                      "scale": {n: [round(float(m), 5), round(float(s), 5)]
                                for n, m, s in zip(names, mean, std, strict=True)}}
    Path(args.out).write_text(json.dumps(model, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    top = sorted(model["drop"]["weights"].items(), key=lambda kv: -abs(kv[1]))[:8]
    print("heaviest DROP weights:", ", ".join(f"{n} {v:+.2f}" for n, v in top))
    if args.check:
        check = rated(ROOT / f"eval/real_heldout_r{args.check}/ratings.csv", f"r{args.check}")
        xc, _ = matrix(check)
        pc = predict(fit(x, drop, args.l2, weight), xc)
        vc = np.array([r["verdict"] for r in check])
        flags = {rating_key(r): bool(f) for r, f in check_flags(ratings(args.check))}
        pu = np.where([flags.get(rating_key(r), False) for r in check], 1.0, pc)
        print(f"round {args.check} (held out, once), p >= {t:.3f}: the risk", shares(pc, vc, t),
              "checks or risk", shares(pu, vc, t))
        nc = np.array([r["newest"] for r in check])
        if nc.any():
            print(f"round {args.check}, its newest version's questions: the risk", shares(pc[nc], vc[nc], t),
                  "checks or risk", shares(pu[nc], vc[nc], t))


if __name__ == "__main__":
    main()
