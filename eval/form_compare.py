"""Two versions' quizzes of the same decks under kb's form prior (kb/writing/form_prior.py): written per deck, the
form mix, the quiz's expected KEEP (its questions' mean prior) and the raters' verdicts on the questions the second
version removes or adds (by question id, in any round's eval/real_heldout_rN/ratings.csv).

    python eval/form_compare.py /tmp/formprior30/r14/base /tmp/formprior30/r14/new

(eval/keep26_gen.sh writes such directories; key-idea coverage: eval/key_idea_coverage.py --quiz.)"""

from __future__ import annotations

import csv
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

from kb.writing.form_prior import form_of, prior

EVAL = Path(__file__).resolve().parent


def quizzes(d: Path) -> dict[str, list[dict]]:
    """Per deck, the questions of ``d``/DECK.json; exits (2) naming what is missing: the folder, any quiz in it, or a
    quiz's "questions"."""
    if not d.is_dir():
        sys.exit(f"form_compare: {d}: no such folder (a folder of DECK.json quizzes, eval/keep26_gen.sh)")
    out: dict[str, list[dict]] = {}
    for p in sorted(d.glob("*.json")):
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            sys.exit(f"form_compare: {p}: not a quiz JSON ({e})")
        if not isinstance(data, dict) or not isinstance(data.get("questions"), list):
            sys.exit(f'form_compare: {p}: no "questions" list (a quiz of `kb quiz generate -o`)')
        out[p.stem] = data["questions"]
    if not out:
        sys.exit(f"form_compare: {d}: no quiz (DECK.json) in it — write them with eval/keep26_gen.sh")
    return out


def verdicts() -> dict[str, list[str]]:
    out: dict[str, list[str]] = defaultdict(list)
    for f in sorted(EVAL.glob("real_heldout_r*/ratings.csv")):
        for r in csv.DictReader(open(f, encoding="utf-8")):
            out[r["question_id"].split("/")[0]].append(r["verdict"])
    return out


def main(a: Path, b: Path) -> None:
    qa, qb = quizzes(a), quizzes(b)
    rated = verdicts()
    for name, q in (("A", qa), ("B", qb)):
        every = [x for qs in q.values() for x in qs]
        mix = Counter(form_of(x["type"], x["prompt"]) for x in every)
        exp = sum(prior(x["type"], x["prompt"]) for x in every) / max(1, len(every))
        print(f"{name}: {len(every)} written; decks >= 10: {sum(len(v) >= 10 for v in q.values())} of {len(q)}; "
              f"per deck {[len(v) for v in q.values()]}; expected KEEP {exp:.3f}")
        print("   mix:", ", ".join(f"{f} {n}" for f, n in mix.most_common()))
    for label, x, y in (("removed", qa, qb), ("added", qb, qa)):
        ids = [q for d in x for q in x[d] if q["id"] not in {o["id"] for o in y.get(d, [])}]
        v = Counter(v for q in ids for v in rated.get(q["id"], []))
        print(f"{label}: {len(ids)} questions, {sum(q['id'] in rated for q in ids)} rated; verdicts {dict(v)}; forms",
              dict(Counter(form_of(q["type"], q["prompt"]) for q in ids)))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python eval/form_compare.py DIR_A DIR_B")
    main(Path(sys.argv[1]), Path(sys.argv[2]))
