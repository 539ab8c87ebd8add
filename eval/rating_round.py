"""The numbers of a blind quiz-rating round (eval/real_heldout_r6 … r14): per version, the questions written, the
raters' KEEP / FIX / DROP, the key ideas asked and the DROPs `kb eval quiz` flags. A round's folder holds ratings.csv,
coverage.csv, quizzes/ (DECK.V.json and eval-quiz-DECK.V.json) and versions.json (the versions: letter -> what it was).

    python eval/rating_round.py eval/real_heldout_r12"""

from __future__ import annotations

import csv
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

# Each rated round's newest version (what kb still writes when the round is read): the self-check scripts
# (eval/fit_defect_model.py, eval/flag_rounds.py, eval/drop_classes.py) weigh its ratings apart.
NEWEST = {8: "b", 9: "c", 10: "d", 11: "b", 12: "c", 13: "c", 14: "f", 15: "f", 16: "g",
          17: "n", 18: "c", 19: "d", 20: "e", 21: "e", 22: "f", 23: "g", 24: "h", 25: "j", 26: "k", 27: "l", 28: "m",
          29: "n", 30: "o", 31: "p", 32: "q", 33: "r", 34: "s", 35: "v", 36: "w", 37: "z", 38: "z", 39: "z", 40: "z"}


def quiz_ids(version: str, here: Path) -> dict[str, set[str]]:
    """Per deck (file stem), the question ids of that version's quiz."""
    return {p.name.split(".")[0]: {q["id"] for q in json.loads(p.read_text(encoding="utf-8"))["questions"]}
            for p in sorted((here / "quizzes").glob(f"*.{version}.json")) if not p.name.startswith("eval-quiz-")}


def question_key(qtype: str, prompt: str, choices: list[str], answer: str, concepts: list[str]) -> tuple:
    """What makes two versions' questions one packet row (eval/rater_packet.py): type, stem, choice set, answer (a
    multiple choice's right option), concepts. A multiple choice whose options a version orders otherwise has another
    id in that version's quiz, and the packet rates it under the first version's id."""
    return qtype, prompt, tuple(sorted(choices)), answer, tuple(concepts)


def flagged(version: str, here: Path) -> dict:
    """What kb eval quiz flags in a version's quizzes (a check's defect, an unsupported answer, or the advisory drop
    risk), by question id and by :func:`question_key`."""
    out: dict = {}
    for p in sorted((here / "quizzes").glob(f"eval-quiz-*.{version}.json")):
        quiz = here / "quizzes" / p.name.removeprefix("eval-quiz-")
        keys = {}
        if quiz.exists():
            for q in json.loads(quiz.read_text(encoding="utf-8"))["questions"]:
                choices = q.get("choices") or []
                answer = choices[q["correct"]] if q["type"] == "mcq" and choices else q["answer"]
                keys[q["id"]] = question_key(q["type"], q["prompt"], choices, answer, q.get("concepts") or [])
        for q in json.loads(p.read_text(encoding="utf-8"))["per_question"]:
            flag = bool(q["defects"]) or not q["supported"] or bool((q.get("drop_risk") or {}).get("likely"))
            out[q["id"]] = flag
            if q["id"] in keys:
                out[keys[q["id"]]] = flag
    return out


def main(here: Path, versions: dict[str, str]) -> None:
    """The numbers of a round whose folder ``here`` holds ratings.csv, coverage.csv and quizzes/ (DECK.V.json)."""
    ratings = list(csv.DictReader(open(here / "ratings.csv", encoding="utf-8")))
    coverage = list(csv.DictReader(open(here / "coverage.csv", encoding="utf-8")))
    verdict: dict[str, dict[str, str]] = defaultdict(dict)   # rater -> id -> verdict
    deck_of: dict[str, str] = {}
    for r in ratings:
        verdict[r["rater"]][r["question_id"]] = r["verdict"]
        deck_of[r["question_id"]] = r["deck"]
    # which versions wrote each rated question: a packet rates two versions' different questions under one id as
    # "ID" and "ID/2", so where ratings.csv names the versions, that decides (a quiz's ids alone cannot)
    vers_of = {r["question_id"]: set(r.get("versions", "").split()) for r in ratings}
    key_of = {r["question_id"]: question_key(r["type"], r["prompt"], [c for c in r["choices"].split(" | ") if c],
                                             r["answer"], [c for c in r["concepts"].split("; ") if c])
              for r in ratings}
    by_versions = all(vers_of.values())
    for v, label in versions.items():
        ids = quiz_ids(v, here)
        flags = flagged(v, here)
        every = set().union(*ids.values())
        print(f"== version {v}: {label}")
        print("  written per deck (of 12):", ", ".join(f"{d} {len(q)}" for d, q in ids.items()),
              f"= {len(every)}; decks with >= 10: {sum(len(q) >= 10 for q in ids.values())} of {len(ids)}")
        pooled: Counter = Counter()
        flagged_by: Counter = Counter()  # verdict -> ratings of flagged questions

        def is_flagged(q: str, flags: dict = flags) -> bool:
            return flags.get(key_of[q], flags.get(q.split("/")[0], False))

        for rater, vs in sorted(verdict.items()):
            mine = [q for q in vs if v in vers_of[q]] if by_versions else [q for q in every if q in vs]
            c = Counter(vs[q] for q in mine)
            pooled.update(c)
            if not mine:  # (a rater of another packet: round 13's last five questions)
                continue
            drops = [q for q in mine if vs[q] == "DROP"]
            flagged_by.update(vs[q] for q in mine if is_flagged(q))
            print(f"  {rater} ({len(mine)} rated): KEEP {c['KEEP']} ({c['KEEP'] / len(mine):.0%}), FIX {c['FIX']}, "
                  f"DROP {c['DROP']}; KEEP or FIX {(c['KEEP'] + c['FIX']) / len(mine):.0%}; "
                  f"kb eval quiz flags {sum(is_flagged(q) for q in drops)} "
                  f"of {len(drops)} DROPs")
        n = sum(pooled.values())
        kept_or_fixed = (pooled["KEEP"] + pooled["FIX"]) / n
        print(f"  all ratings ({n}): KEEP {pooled['KEEP'] / n:.0%}, KEEP or FIX {kept_or_fixed:.0%}; kb eval quiz "
              f"flags {flagged_by['DROP']} of {pooled['DROP']} DROP, {flagged_by['FIX']} of {pooled['FIX']} FIX, "
              f"{flagged_by['KEEP']} of {pooled['KEEP']} KEEP ratings")
        ideas = asked_all = 0
        for rater in sorted({r["rater"] for r in coverage}):
            # (the decks this version wrote a quiz for: round 38's L asked 12 of the 20)
            rows = [r for r in coverage if r["rater"] == rater and r["deck"].removesuffix(".pdf") in ids]
            if not rows:
                continue
            asked = [r for r in rows if any(
                v in vers_of.get(q, ()) if by_versions else q in ids.get(r["deck"].removesuffix(".pdf"), set())
                for q in filter(None, r["question_ids"].replace(",", ";").split(";")))]
            per_deck = Counter(r["deck"] for r in asked)
            decks = sorted({r["deck"] for r in rows})
            print(f"  {rater}: key ideas asked {len(asked)} of {len(rows)}; decks with >= 4 of 5: "
                  f"{sum(per_deck[d] >= 4 for d in decks)} of {len(decks)}")
            ideas, asked_all = ideas + len(rows), asked_all + len(asked)
        print(f"  all raters: key ideas asked {asked_all} of {ideas} ({asked_all / max(1, ideas):.0%})")


if __name__ == "__main__":
    if len(sys.argv) != 2 or not (Path(sys.argv[1]) / "versions.json").is_file():
        sys.exit("usage: python eval/rating_round.py eval/real_heldout_rN   (a folder with versions.json)")
    folder = Path(sys.argv[1])
    main(folder, json.loads((folder / "versions.json").read_text(encoding="utf-8")))
