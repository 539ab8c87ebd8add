"""What the raters of the held-out decks did with the offline writer's questions (issue 9), from the
rating files in eval/ alone:

    python eval/heldout_rating_stats.py

1. KEEP / FIX / DROP shares over the held-out splits D–AA and D–AD (each question weighs 1, its
   raters' ratings share it): "about 85 % a usable draft, 19 % usable as written" in the README.
2. How often the FIX and DROP reasons name the concepts or the context, by kind of question.
3. The per-kind estimate of the teacher's share that was tried for `kb eval quiz` and dropped: each
   kind's KEEP rate on D–O (shrunk towards the mean by 3 pseudo-questions), applied to P–AA, with the
   AUC of that estimate against the raters' KEEP share per question (0.5 = no better than chance).

The ratings are eval/ratings.csv's held-out rows (split F's were rated blind beside the review decks,
source_file quiz_review_v7.csv); A–C (writer v6) are
left out, as in the README's D–AA figures. Every rated question counts, also those of a blind packet
that only the starting commit wrote (U: 255 questions over D–AA where the README counts the 253 of the
writer being measured; AB–AD: 17 where it counts 13), so the shares differ from the README's by a
fraction of a point.
"""

from __future__ import annotations

import csv
import re
from collections import Counter, defaultdict
from pathlib import Path

EVAL = Path(__file__).resolve().parent
D_O = "D E F G H I J K L M N O".split()
P_AA = "PQ R S T U V W X Y Z AA".split()
AB_AD = "AB AC AD".split()
AE_AG = ["AE", "AF", "AG"]  # measured only: AE, AF with v13 (v14's fixes came after), AG with v14
# AH with v14; AI and AJ each rated blind with v14 and v15 in one packet (the union of both quizzes)
AH_AJ = ["AH", "AI", "AJ"]

_DEF = re.compile(r"(qué es|qué son|qué significa|o que é|o que são|o que significa|what is|what are|"
                  r"what does)\b", re.I)
_DIFF = re.compile(r"(diferencia|diferença|difference)", re.I)
_EXPLAIN = re.compile(r"(cómo|como|how|por qué|para qué|por que|para que|why|qué problema|que problema|qué coste|"
                      r"qual é o custo|pasos|passos|steps|partes|parts|compone)\b", re.I)
_REASONS = {"concepts": r"concept",
            "context": r"context|situat|self-contained|on its own|vague|which (library|framework)|leans on|"
                       r"slide (title|heading)"}


def load() -> list[dict]:
    """Every rated held-out question: split, type, prompt, ratings and reasons (from eval/ratings.csv)."""
    by: dict[tuple[str, str], dict] = {}
    for r in csv.DictReader((EVAL / "ratings.csv").open(encoding="utf-8")):
        if not r["split"]:
            continue  # a review deck (tuned on)
        q = by.setdefault((r["source_file"], r["row"]),
                          {"split": r["split"], "type": r["type"], "prompt": r["prompt"], "ratings": [], "reasons": []})
        q["ratings"].append(r["verdict"])
        q["reasons"].append(r["reason"])
    return list(by.values())


def kind(r: dict) -> str:
    """The question's kind, from its type and its stem's template."""
    p = r["prompt"]
    if r["type"] != "short":
        return r["type"]
    if _DEF.search(p):
        return "definition"
    if _DIFF.search(p):
        return "difference"
    return "explain" if _EXPLAIN.search(p) else "other short"


def keep(r: dict) -> float:
    return r["ratings"].count("KEEP") / len(r["ratings"])


def auc(scores: list[float], truth: list[float]) -> float:
    """The chance that a question raters kept more scores above one they kept less (ties: half)."""
    num = den = 0.0
    for i in range(len(scores)):
        for j in range(len(scores)):
            if truth[i] > truth[j]:
                den += 1
                num += (scores[i] > scores[j]) + 0.5 * (scores[i] == scores[j])
    return num / den if den else float("nan")


def main() -> None:
    rows = load()
    for name, splits in (("D–AA", D_O + P_AA), ("D–AD", D_O + P_AA + AB_AD), ("D–AG", D_O + P_AA + AB_AD + AE_AG),
                          ("D–AJ", D_O + P_AA + AB_AD + AE_AG + AH_AJ)):
        part = [r for r in rows if r["split"] in splits]
        c: Counter[str] = Counter()
        for r in part:
            for x in r["ratings"]:
                c[x] += 1 / len(r["ratings"])
        n = len(part)
        print(f"{name}: {n} questions  KEEP {c['KEEP'] / n:.1%}  FIX {c['FIX'] / n:.1%}  DROP {c['DROP'] / n:.1%}  "
              f"KEEP or FIX {(c['KEEP'] + c['FIX']) / n:.1%}")

    print("\nFIX/DROP reasons that name …, by kind (D–AA)")
    named: dict[str, Counter[str]] = defaultdict(Counter)
    total: Counter[str] = Counter()
    for r in rows:
        if r["split"] not in D_O + P_AA:
            continue
        for rating, reason in zip(r["ratings"], r["reasons"], strict=True):
            if rating == "KEEP":
                continue
            total[kind(r)] += 1
            for what, rx in _REASONS.items():
                named[kind(r)][what] += bool(re.search(rx, reason, re.I))
    for k, n in total.most_common():
        print(f"  {k:12s} {n:4d} reasons: " + ", ".join(f"{w} {named[k][w] / n:.0%}" for w in _REASONS))

    print("\nPer-kind estimate of the teacher's share: KEEP rates of D–O applied to P–AA")
    fit = [r for r in rows if r["split"] in D_O]
    mean = sum(keep(r) for r in fit) / len(fit)
    by: dict[str, list[float]] = defaultdict(list)
    for r in fit:
        by[kind(r)].append(keep(r))
    prior = {k: (sum(v) + 3 * mean) / (len(v) + 3) for k, v in by.items()}
    print("  D–O rates: " + ", ".join(f"{k} {sum(v) / len(v):.0%} of {len(v)}" for k, v in sorted(by.items())))
    test = [r for r in rows if r["split"] in P_AA]
    est = [prior.get(kind(r), mean) for r in test]
    truth = [keep(r) for r in test]
    print(f"  P–AA: {len(test)} questions, estimate {sum(est) / len(est):.1%}, raters {sum(truth) / len(truth):.1%}, "
          f"AUC {auc(est, truth):.2f}")


if __name__ == "__main__":
    main()
