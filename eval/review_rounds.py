"""What ``kb eval quiz`` flags of each verdict fresh raters gave, with the model's review beside kb's own checks.

    python eval/review_rounds.py eval/model_review                 # rounds 38 and 39
    python eval/review_rounds.py eval/model_review --rounds 39
    python eval/review_rounds.py eval/model_review --examples DROP # the DROP ratings nothing flags

DIR holds ``rN/DECK.V.json``: ``kb eval quiz --json`` of round N's rated quiz of DECK by version V
(``eval/real_heldout_rN/quizzes/DECK.V.json``), run with a model configured (eval/model_review/README.md). Each
rating counts once per rater, as in eval/rating_round.py. Columns: ``checks`` (a defect of kb's registry that
counts against ``clean``), ``risk`` (the drop risk calls it likely), ``model`` (the model's review says drop),
``flagged`` (kb eval quiz's own count: checks or model), ``any`` (any of the three).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

VERDICTS = ("DROP", "FIX", "KEEP")
COLUMNS = ("checks", "risk", "model", "flagged", "any")


def reviews(folder: Path, round_no: int) -> dict[tuple[str, str, str], dict]:
    """(deck, version, question id) → that question's ``per_question`` entry of ``kb eval quiz --json``."""
    from kb.writing.checklist import ADVISORY

    out = {}
    files = sorted((folder / f"r{round_no}").glob("*.json"))
    if not files:
        raise SystemExit(f"{folder / f'r{round_no}'}: no kb eval quiz outputs (DECK.V.json); see the docstring")
    for f in files:
        if "." not in f.name[:-len(".json")]:
            print(f"{f}: not DECK.V.json, skipped", file=sys.stderr)
            continue
        deck, version = f.name[:-len(".json")].rsplit(".", 1)
        data = json.loads(f.read_text(encoding="utf-8"))
        for p in data["per_question"]:
            p["checks"] = bool(set(p["defects"]) - set(ADVISORY))
            out[(deck, version, p["id"])] = p
    return out


def rated(round_no: int, seen: dict) -> list[tuple[dict, dict]]:
    """Each rating with a verdict of round N and its question's review (a rating of a question no output holds
    is left out, and counted on stderr)."""
    path = ROOT / "eval" / f"real_heldout_r{round_no}" / "ratings.csv"
    with path.open(encoding="utf-8", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["verdict"] in VERDICTS]
    out, missing = [], 0
    for r in rows:
        got = next((seen[k] for v in r["versions"].split() if (k := (r["deck"], v, r["question_id"])) in seen), None)
        if got is None:
            missing += 1
            continue
        out.append((r, got))
    if missing:
        print(f"round {round_no}: {missing} ratings of questions no output holds (left out)", file=sys.stderr)
    return out


def marks(p: dict) -> dict[str, bool]:
    mr = p.get("model_review") or {}
    risk = bool((p.get("drop_risk") or {}).get("likely"))
    model = mr.get("verdict") == "drop"
    return {"checks": p["checks"], "risk": risk, "model": model, "flagged": p["checks"] or model,
            "any": p["checks"] or risk or model}


def table(pairs: list[tuple[dict, dict]], label: str) -> None:
    print(f"\n{label}")
    print("  verdict  ratings  " + "  ".join(f"{c:>13}" for c in COLUMNS))
    for v in VERDICTS:
        got = [marks(p) for r, p in pairs if r["verdict"] == v]
        if not got:
            continue
        cells = [f"{sum(m[c] for m in got):>4}/{len(got):<4} {sum(m[c] for m in got) / len(got):4.0%}" for c in COLUMNS]
        print(f"  {v:<7}  {len(got):>7}  " + "  ".join(f"{x:>13}" for x in cells))
    unread = sum(1 for _, p in pairs if not p.get("model_review"))
    if unread:
        print(f"  (ratings of questions the model did not review: {unread})")


def agreement(pairs: list[tuple[dict, dict]]) -> None:
    """The model's verdict against each rater's, next to each rater's against the other raters' of the question."""
    by_q: dict[tuple, list[str]] = defaultdict(list)
    model: dict[tuple, str] = {}
    for r, p in pairs:
        key = (r["deck"], r["question_id"])
        by_q[key].append(r["verdict"])
        if p.get("model_review"):
            model[key] = p["model_review"]["verdict"].upper()
    mr = [(model[k], v) for k, vs in by_q.items() if k in model for v in vs]
    rr = [(a, b) for vs in by_q.values() for i, a in enumerate(vs) for j, b in enumerate(vs) if i != j]
    if mr:
        print(f"  the model matches a rater's verdict {sum(a == b for a, b in mr) / len(mr):.0%} of {len(mr)} "
              f"ratings; two raters of a question match {sum(a == b for a, b in rr) / max(1, len(rr)):.0%} "
              f"of {len(rr)} ordered pairs")
        print("  model × rater: " + ", ".join(f"{a}/{b} {n}" for (a, b), n in sorted(Counter(mr).items())))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--rounds", type=int, nargs="+", default=[38, 39])
    ap.add_argument("--examples", metavar="VERDICT", help="list this verdict's ratings nothing flags")
    args = ap.parse_args()
    everything = []
    for n in args.rounds:
        pairs = rated(n, reviews(args.folder, n))
        everything += pairs
        for version in sorted({v for r, _ in pairs for v in r["versions"].split()}):
            mine = [(r, p) for r, p in pairs if version in r["versions"].split()]
            table(mine, f"round {n}, version {version}")
            agreement(mine)
    if len(args.rounds) > 1:
        table(everything, "all")
        agreement(everything)
    if args.examples:
        print()
        for r, p in everything:
            if r["verdict"] == args.examples and not marks(p)["any"]:
                mr = p.get("model_review") or {}
                print(f"{r['deck']} {r['versions']} {r['question_id']} [{mr.get('verdict', '-')}] {r['prompt'][:110]}"
                      f"\n    rater: {r['reason'][:160]}\n    model: {mr.get('reason', '')[:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
