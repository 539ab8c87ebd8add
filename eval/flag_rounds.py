"""What ``kb eval quiz`` flags on the fresh raters' ratings of rounds 8-12 (``eval/real_heldout_rN``): the
registry's checks (each question against its cited page, its deck and the other questions of its version's
quiz, lexical support: no embedder) and the advisory drop risk (kb/writing/defect_model.json), per verdict.

    python eval/flag_rounds.py                      # rounds 8-12, every rating and the newest version's
    python eval/flag_rounds.py --rounds 11 12       # the dev rounds
    python eval/flag_rounds.py --examples DROP      # the DROPs neither flags (newest version's marked *)
    python eval/flag_rounds.py --model /tmp/m.json  # another fit of the drop risk

A rating counts once per rater (a question both raters of a half rated counts twice, as in eval/rating_round.py). The
decks are rendered from ``eval/heldout_decks/DECK.txt`` as ``kb quiz generate`` read them.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from eval import flag_ratings  # noqa: E402
from eval.rating_round import NEWEST  # noqa: E402

VERDICTS = ("DROP", "FIX", "KEEP")


def rendered_deck(deck: str, tmp: Path) -> Path | None:
    """A held-out text deck rendered to a PDF in ``tmp`` (as the round's quizzes were written from)."""
    txt = ROOT / "eval" / "heldout_decks" / (Path(deck).stem + ".txt")
    if not txt.is_file():
        return None
    from eval.deck_pdf import render

    out = tmp / (Path(deck).stem + ".pdf")
    if not out.exists():
        render(txt, out)
    return out


def ratings(round_no: int) -> list[dict]:
    """A round's ratings with a verdict, shaped as :func:`eval.flag_ratings.flag` reads them (one quiz per
    deck and version)."""
    path = ROOT / "eval" / f"real_heldout_r{round_no}" / "ratings.csv"
    with path.open(encoding="utf-8", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["verdict"] in VERDICTS]
    for r in rows:
        r.update(round=round_no, writer="", source_file=f"r{round_no}", quizzes=r["versions"],
                 newest=NEWEST.get(round_no, "?") in r["versions"].split())
    return rows


def check_flags(rows: list[dict]) -> list[tuple[dict, list[str]]]:
    """Each rating and the registry's defects in its question (``thin-concepts``, a grader's note, left out)."""
    flag_ratings.deck_file = rendered_deck
    return [(r, [d for d in found if d != "thin-concepts"]) for r, found in flag_ratings.flag(rows)]


def flagged(rows: list[dict], model: dict | None) -> list[tuple[dict, list[str], bool]]:
    """Each rating, the registry's defects in its question and whether the drop risk calls it likely dropped."""
    from eval.fit_defect_model import page_of
    from kb.writing.defect_model import drop_risk

    return [(r, found, bool(drop_risk(flag_ratings.question_of(r, r["deck"]), *page_of(r), model=model)["likely"]))
            for r, found in check_flags(rows)]


def share(done: list[tuple[dict, list[str], bool]], verdict: str, how: str) -> str:
    got = [(f, risk) for r, f, risk in done if r["verdict"] == verdict]
    n = sum(1 for f, risk in got if {"checks": bool(f), "risk": risk, "either": bool(f) or risk}[how])
    return f"{n}/{len(got)}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, nargs="+", default=sorted(NEWEST))
    ap.add_argument("--examples", metavar="VERDICT", help="list this verdict's ratings neither flags")
    ap.add_argument("--flagged", metavar="VERDICT", help="list this verdict's ratings the checks flag")
    ap.add_argument("--model", help="a drop-risk JSON other than the shipped one")
    args = ap.parse_args()
    import json

    model = json.loads(Path(args.model).read_text(encoding="utf-8")) if args.model else None
    done = flagged([r for n in args.rounds for r in ratings(n)], model)
    for verdict, unflagged in ((args.examples, True), (args.flagged, False)):
        for r, f, risk in done:
            if verdict and r["verdict"] == verdict and (not f and not risk) == unflagged:
                print(f"r{r['round']}{'*' if r['newest'] else ' '} {r['type']:5} {r['deck']} | {r['prompt'][:130]} | "
                      f"A: {r['answer'][:70]} | {f} risk={risk} | {r['reason'][:110]}")
    print("flagged DROP / FIX / KEEP ratings (checks | drop risk | either):")
    for label, part in [(f"r{n}", [d for d in done if d[0]["round"] == n]) for n in args.rounds] + \
            [("all", done), ("all, newest version", [d for d in done if d[0]["newest"]])]:
        print(f"  {label:20} " + "   ".join(f"{v} {share(part, v, 'checks')} | {share(part, v, 'risk')} | "
                                           f"{share(part, v, 'either')}" for v in VERDICTS))
    drops = [f for r, f, _ in done if r["verdict"] == "DROP"]
    print("defects on DROPs:", dict(Counter(d for f in drops for d in set(f)).most_common()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
