"""How many of the DROP ratings of rounds 14–16 does ``kb eval quiz`` flag with a checkout's code? (issue 26, objdrop30)

    KEEP26_DIR=/tmp/objdrop30 bash eval/keep26_gen.sh r14 /work/main base    # (also r15, r16): one KB_HOME a round
    python eval/drop_selfcheck.py /tmp/objdrop30 /work/main base /work/wt/objdrop30 new

The rated quizzes of each round's newest version (``eval/real_heldout_rN/quizzes/DECK.V.json``,
:data:`eval.rating_round.NEWEST`) are checked again by ``kb eval quiz --json`` with each CHECKOUT's code, against
the decks that ``eval/keep26_gen.sh`` ingested into ``WORK/rN/.kb``; a rating counts as flagged as
``eval/rating_round.py`` counts it (a defect, an unsupported answer, or the drop risk). Prints, per checkout, the
flagged share of the DROP, FIX and KEEP ratings, all and objective (mcq, tf, cloze) only.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
ROUNDS = (14, 15, 16)


def flags(work: Path, checkout: str, rnd: int, version: str, runs: Counter) -> dict[str, bool]:
    """Question id → flagged, for the round's rated quizzes of ``version`` checked with ``checkout``'s code; counts
    each run of ``kb eval quiz`` in ``runs`` ("ok" or "failed")."""
    out: dict[str, bool] = {}
    env = dict(os.environ, KB_HOME=str(work / f"r{rnd}" / ".kb"), PYTHONPATH=checkout)
    for quiz in sorted((ROOT / "eval" / f"real_heldout_r{rnd}" / "quizzes").glob(f"*.{version}.json")):
        if quiz.name.startswith("eval-quiz-"):
            continue
        run = subprocess.run([sys.executable, "-m", "kb.cli", "eval", "quiz", str(quiz), "--json"], env=env,
                             cwd=work / f"r{rnd}", capture_output=True, text=True)
        if run.returncode != 0:
            print(f"  r{rnd} {quiz.name}: kb eval quiz failed: {run.stderr.strip()[-200:]}", file=sys.stderr)
            runs["failed"] += 1
            continue
        runs["ok"] += 1
        for q in json.loads(run.stdout)["per_question"]:
            out[q["id"]] = bool(q["defects"]) or not q["supported"] or bool((q.get("drop_risk") or {}).get("likely"))
    return out


def main(argv: list[str]) -> int:
    from eval.rating_round import NEWEST

    if len(argv) < 3 or len(argv) % 2 == 0:
        sys.exit("usage: python eval/drop_selfcheck.py WORK CHECKOUT TAG [CHECKOUT TAG ...]")
    work = Path(argv[0])
    missing = [f"{work / f'r{rnd}' / '.kb'} (ingest it: KEEP26_DIR={work} bash eval/keep26_gen.sh r{rnd} CHECKOUT TAG)"
               for rnd in ROUNDS if not (work / f"r{rnd}" / ".kb").is_dir()]
    missing += [f"{c} (no such checkout)" for c in argv[1::2] if not Path(c).is_dir()]
    if missing:
        print("drop_selfcheck: missing:\n  " + "\n  ".join(missing), file=sys.stderr)
        return 2
    status = 0
    for checkout, tag in zip(argv[1::2], argv[2::2], strict=True):
        total: Counter = Counter()
        hit: Counter = Counter()
        runs: Counter = Counter()
        for rnd in ROUNDS:
            flagged = flags(work, checkout, rnd, NEWEST[rnd], runs)
            for row in csv.DictReader(open(ROOT / "eval" / f"real_heldout_r{rnd}" / "ratings.csv", encoding="utf-8")):
                if NEWEST[rnd] not in row["versions"].split():
                    continue
                f = flagged.get(row["question_id"].split("/")[0], False)
                for kind in ("all", "objective") if row["type"] in ("mcq", "tf", "cloze") else ("all",):
                    total[kind, row["verdict"]] += 1
                    hit[kind, row["verdict"]] += f
        if not runs["ok"]:  # (every rating would count as not flagged: 0 % would be no measurement)
            print(f"{tag}: no rated quiz was checked with {checkout}: {runs['failed']} kb eval quiz runs, every one "
                  f"failed (the messages above)", file=sys.stderr)
            status = 1
            continue
        for kind in ("all", "objective"):
            print(f"{tag} {kind}: " + ", ".join(
                f"{v} {hit[kind, v]}/{total[kind, v]} ({hit[kind, v] / max(total[kind, v], 1):.0%})"
                for v in ("DROP", "FIX", "KEEP")))
        if runs["failed"]:
            print(f"{tag}: {runs['failed']} of {runs['failed'] + runs['ok']} kb eval quiz runs failed: their "
                  f"questions count as not flagged above", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
