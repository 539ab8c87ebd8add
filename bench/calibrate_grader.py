"""Fit the offline grader's default level on two grading cultures, and report it honestly.

    python bench/pt_asag_to_csv.py --split dev  -o /tmp/asag-dev.csv    # questions 36-42: fit here
    python bench/pt_asag_to_csv.py --split test -o /tmp/asag-test.csv   # questions 43-50: report only
    python bench/calibrate_grader.py /tmp/asag-dev.csv --course eval/grading_course.csv \
        --report /tmp/asag-test.csv

Fits weighted ridge regressions of the human 0-3 score on kb.grading.offline.FEATURES (and on the
meaning-only SEMANTIC features, for replies in another language than the model answer), then the
three cut points that maximise the mean quadratic weighted kappa of the fitting sets, on
PT_ASAG dev (36-42) and the course-domain set together, each set weighing the same.

Reported, never fitted on:
- PT_ASAG test (43-50), graded with the calibration fitted on dev + the whole course set;
- the course set by leave-one-question-out: for each of its questions, a calibration is fitted on
  PT_ASAG dev + the other course questions and grades that question; the pooled predictions are
  compared with the human grades.

Prints the CALIBRATION dict to paste into kb/grading/offline.py and both reports (n, mean human vs kb,
Pearson, QWK, exact). ``--variant`` tries the feature sets compared in the README.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from kb.config import Settings  # noqa: E402
from kb.embeddings import CachedEmbedder, get_embedder  # noqa: E402
from kb.evaluate import agreement, grading_tasks, load_grading_data  # noqa: E402
from kb.grading.calibration import fit_calibration, sample_per_question  # noqa: E402
from kb.grading.offline import CALIBRATION, FEATURES, SEMANTIC, OfflineGrader, fit_cuts  # noqa: E402

VARIANTS = {
    "all": FEATURES,
    "no_length": tuple(f for f in FEATURES if f not in ("log_words", "short")),
}


class Data:
    def __init__(self, name: str, path: Path, grader: OfflineGrader) -> None:
        self.name = name
        self.rows, _ = load_grading_data(path, (0.0, 3.0))
        self.tasks = grading_tasks(self.rows)
        self.feats = grader.features(self.tasks)
        self.y = np.array([r.human for r in self.rows])
        self.qid = np.array([r.question_id or r.question for r in self.rows])
        self.cross = np.array([f.crosslingual for f in self.feats])

    def X(self, names) -> np.ndarray:
        return np.array([[f.values[k] for k in names] for f in self.feats])

    def subset(self, mask) -> Data:
        d = object.__new__(Data)
        d.name = self.name
        idx = np.flatnonzero(mask)
        d.rows = [self.rows[i] for i in idx]
        d.tasks = [self.tasks[i] for i in idx]
        d.feats = [self.feats[i] for i in idx]
        d.y, d.qid, d.cross = self.y[idx], self.qid[idx], self.cross[idx]
        return d


def ridge(X, y, sw, alpha: float):
    """Weighted ridge on standardised features, returned as raw-feature weights and bias."""
    sw = sw / sw.sum()
    mu = (X * sw[:, None]).sum(0)
    sd = np.sqrt((((X - mu) ** 2) * sw[:, None]).sum(0)) + 1e-9
    Z = (X - mu) / sd
    ym = float((y * sw).sum())
    A = Z.T @ (Z * sw[:, None]) * len(y) + alpha * np.eye(Z.shape[1])
    beta = np.linalg.solve(A, Z.T @ ((y - ym) * sw) * len(y))
    w = beta / sd
    return w, ym - float((w * mu).sum())


def fit(sets: list[Data], names, alpha: float, off_topic: float) -> dict:
    """A calibration from several human-graded sets, each weighing the same."""
    Xs = [d.X(names) for d in sets]
    X = np.vstack(Xs)
    y = np.concatenate([d.y for d in sets])
    sw = np.concatenate([np.full(len(d.y), 1.0 / len(d.y)) for d in sets])
    w, b = ridge(X, y, sw, alpha)
    sem = [list(names).index(k) for k in SEMANTIC if k in names]
    ws, bs = ridge(X[:, sem], y, sw, alpha)
    raws = [x @ w + b for x in Xs]
    cuts = fit_cuts([(r, d.y) for r, d in zip(raws, sets, strict=True)])
    return {"embedder": CALIBRATION["embedder"],
            "weights": {k: round(float(v), 4) for k, v in zip(names, w, strict=True)},
            "bias": round(b, 4),
            "weights_crosslingual": {k: round(float(v), 4) for k, v in zip([names[i] for i in sem], ws, strict=True)},
            "bias_crosslingual": round(bs, 4), "cuts": [round(float(c), 3) for c in cuts], "off_topic": off_topic}


def grade(cal: dict, d: Data, emb) -> np.ndarray:
    g = OfflineGrader(emb, cal)
    return np.array([g._judge(t, f).score * 3 for t, f in zip(d.tasks, d.feats, strict=True)])


def report(name: str, y, s) -> dict:
    pts = np.clip(np.floor(s + 0.5), 0, 3).astype(int)
    a = agreement(y, s, pts)
    out = {"data": name, "n": a["n"], "human_mean": round(float(np.mean(y)), 3),
           "kb_mean": round(float(np.mean(pts)), 3), "pearson": round(a["pearson"], 3), "qwk": round(a["qwk"], 3),
           "exact": round(a["exact"], 3)}
    print(f"{name:32s} n={out['n']:5d} human={out['human_mean']:.2f} kb={out['kb_mean']:.2f} "
          f"pearson={out['pearson']:.3f} qwk={out['qwk']:.3f} exact={out['exact']:.3f}")
    return out


def per_question_level(d: Data, pred: np.ndarray) -> None:
    """How much of the disagreement is each question's level (its graders' strictness) and how much is
    the ranking within it: per question, the human and kb means and Pearson; then the Pearson over all
    replies had kb's scores of each question been shifted to that question's human mean."""
    shifted = pred.copy()
    for q in dict.fromkeys(d.qid):
        m = d.qid == q
        r = float(np.corrcoef(d.y[m], pred[m])[0, 1])
        print(f"  question {q}: n={int(m.sum())} human={d.y[m].mean():.2f} kb={pred[m].mean():.2f} pearson={r:.3f}")
        shifted[m] = pred[m] - pred[m].mean() + d.y[m].mean()
    print(f"  Pearson with each question's level known (kb shifted to its human mean): "
          f"{float(np.corrcoef(d.y, shifted)[0, 1]):.3f}")


def reply_kinds(path: Path) -> dict[int, str]:
    """line → the ``kind`` column of a grading CSV (eval/grading_course.csv has one), if any."""
    import csv

    with path.open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        _ = reader.fieldnames  # the header: rows are numbered from line 2, as kb.evaluate numbers them
        out, line = {}, reader.line_num
        for row in reader:
            if row.get("kind"):
                out[line + 1] = row["kind"]
            line = reader.line_num
    return out


def report_others(cal: dict, args, base: OfflineGrader, emb) -> list[dict]:
    """The fitted level on the ``--also`` sets and on the held-out ``--report`` set (never fitted on)."""
    out = []
    for path in args.also:
        extra = Data(path.stem, path, base)
        out.append(report(path.stem, extra.y, grade(cal, extra, emb)))
    if args.report:
        test = Data("asag-test", args.report, base)
        pred = grade(cal, test, emb)
        out.append(report("asag-test 43-50 (held out)", test.y, pred))
        if args.per_question:
            per_question_level(test, pred)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dev", type=Path, help="PT_ASAG dev CSV (questions 36-42)")
    ap.add_argument("--course", type=Path, help="course-domain CSV, fitted on by leave-one-question-out only")
    ap.add_argument("--report", type=Path, help="held-out CSV to report on (never fitted)")
    ap.add_argument("--variant", choices=VARIANTS, default="all")
    ap.add_argument("--ridge", type=float, default=1.0)
    ap.add_argument("--off-topic", type=float, default=CALIBRATION["off_topic"])
    ap.add_argument("--json", type=Path, help="write the calibration and the reports here")
    ap.add_argument("--per-question", action="store_true",
                    help="for the held-out report: each question's human and kb mean and Pearson within it, and "
                         "the Pearson had kb known each question's human mean (what a per-question level can reach)")
    ap.add_argument("--also", type=Path, nargs="*", default=[],
                    help="more human-graded CSVs to report on with the level fitted on dev and the course set")
    ap.add_argument("--calibrate-k", type=int, nargs="*", default=[],
                    help="also report a teacher calibration on k replies of each held-out course question")
    args = ap.parse_args()

    settings = Settings.from_env()
    emb = CachedEmbedder(get_embedder(CALIBRATION["embedder"]), settings.cache_dir / "embeddings.sqlite")
    base = OfflineGrader(emb)
    names = VARIANTS[args.variant]
    dev = Data("asag-dev", args.dev, base)
    course = Data("course", args.course, base) if args.course else None
    results = []
    if course is not None:  # leave one course question out: fit on dev + the others, grade it
        pred = np.zeros(len(course.y))
        for q in dict.fromkeys(course.qid):
            held = course.qid == q
            cal = fit([dev, course.subset(~held)], names, args.ridge, args.off_topic)
            pred[held] = grade(cal, course.subset(held), emb)
        results.append(report("course (leave-one-question-out)", course.y, pred))
        for k in args.calibrate_k:  # a teacher grades k replies of the held-out question; report the rest
            got: dict[str, list[float]] = {"y": [], "default": [], "calibrated": []}
            for seed in (0, 1, 2):
                for q in dict.fromkeys(course.qid):
                    held = course.subset(course.qid == q)
                    g = OfflineGrader(emb, fit([dev, course.subset(course.qid != q)], names, args.ridge,
                                               args.off_topic))
                    train = set(sample_per_question(list(held.qid), k, seed))
                    rest = [i for i in range(len(held.y)) if i not in train]
                    cal = fit_calibration(g, [(held.tasks[i], int(round(held.y[i]))) for i in sorted(train)],
                                          leave_one_out=False)
                    tuned = cal.grader(g, [held.tasks[0].question.id])
                    got["y"] += [held.y[i] for i in rest]
                    got["default"] += [g._judge(held.tasks[i], held.feats[i]).score * 3 for i in rest]
                    got["calibrated"] += [g.score * 3 for g in tuned.grade([held.tasks[i] for i in rest])]
            for level in ("default", "calibrated"):
                results.append(report(f"course k={k} {level} (3 seeds)", np.array(got["y"]), np.array(got[level])))
        kinds = reply_kinds(args.course)
        if kinds:  # where the grader goes wrong, by the rubric's reply kinds
            by: dict[str, list[tuple[float, float]]] = {}
            for r, h, p in zip(course.rows, course.y, pred, strict=True):
                by.setdefault(kinds.get(r.line, "?"), []).append((h, float(np.floor(p + 0.5))))
            print("  by kind (n, human mean, kb mean): " + "; ".join(
                f"{k} {len(v)} {np.mean([h for h, _ in v]):.2f} {np.mean([p for _, p in v]):.2f}"
                for k, v in by.items()))
    cal = fit([dev] + ([course] if course is not None else []), names, args.ridge, args.off_topic)
    print("CALIBRATION =", json.dumps(cal, indent=4))
    results.append(report("asag-dev (fitted)", dev.y, grade(cal, dev, emb)))
    results += report_others(cal, args, base, emb)
    if args.json:
        args.json.write_text(json.dumps({"calibration": cal, "variant": args.variant, "results": results}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
