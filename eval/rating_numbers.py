"""The quiz-rating numbers the README quotes, recomputed from eval/ratings.csv and checked against it:

    python eval/rating_numbers.py          # prints each number and whether README.md says it; exit 1 if one differs

It checks the journal's figures too (eval/quiz_review.md: each writer's share, the split table's
questions written and KEEP per rater).

A question's raters share it (two raters, one KEEP: half a question kept). "Written" counts the
questions of the writer a split measured (`measured` = yes); a blind packet's questions that only an
older commit wrote are rated but not counted (eval/MANIFEST.md).
"""

from __future__ import annotations

import csv
import re
import sys
from collections import defaultdict
from pathlib import Path

EVAL = Path(__file__).resolve().parent
README = EVAL.parent / "README.md"
# the quiz journal; it may move to docs/measurements/ (issue 32)
JOURNAL = next((p for p in [EVAL / "quiz_review.md", *sorted(EVAL.parent.glob("docs/measurements/quiz*.md"))]
                if p.exists()), EVAL / "quiz_review.md")
D_AJ = ("D E F G H I J K L M N O PQ R S T U V W X Y Z AA AB AC AD AE AF AG AH AI AJ").split()


def questions(where) -> list[list[dict]]:
    """The rated questions (each a list of its ratings, one per rater) whose ratings pass ``where``."""
    by: dict[tuple[str, str], list[dict]] = defaultdict(list)
    with (EVAL / "ratings.csv").open(encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if where(r):
                by[(r["source_file"], r["row"])].append(r)
    return list(by.values())


def pct(x: float) -> str:
    """A share as the README writes it: "16 %"."""
    return f"{round(100 * x)} %"


def share(qs: list[list[dict]], *verdicts: str) -> float:
    """How many questions the raters gave one of ``verdicts``, each rater's share 1 / (raters)."""
    return sum(sum(r["verdict"] in verdicts for r in q) / len(q) for q in qs)


def per_rater(qs: list[list[dict]]) -> str:
    """KEEP count per rater, in the order they appear: "17 / 23 … and 15 / 23 …"."""
    keep: dict[str, int] = defaultdict(int)
    for q in qs:
        for r in q:
            keep[r["rater"]] += r["verdict"] == "KEEP"
    return " and ".join(f"{k} / {len(qs)} = {pct(k / len(qs))}" for k in keep.values())


def numbers() -> list[tuple[str, str]]:
    """(what, the text the README says) for each number."""
    held = questions(lambda r: r["split"] in D_AJ and r["measured"] == "yes")
    n, keep, usable = len(held), share(held, "KEEP"), share(held, "KEEP", "FIX")
    newest = questions(lambda r: r["split"] in ("AI", "AJ"))
    both = sum(all(r["verdict"] == "KEEP" for r in q) for q in newest)
    review = questions(lambda r: r["source_file"] == "quiz_review_v14.csv")
    llm = questions(lambda r: r["backend"].startswith("llm"))
    llm_keep = {sum(r["verdict"] == "KEEP" for q in llm for r in q if r["rater"] == x) for x in ("6K", "6L")}
    return [
        ("held-out splits D–AJ, KEEP of those written", f"**{pct(keep / n)} of those written** ({keep:g} of {n})"),
        ("held-out splits D–AJ, KEEP or FIX", f"{pct(usable / n)} KEEP or FIX"),
        ("splits AI and AJ, kept by both raters", f"{both} of {len(newest)} (both raters)"),
        ("review decks 03Datos + 05modelos, v14, KEEP per rater", per_rater(review)),
        ("LLM writer, KEEP per rater", f"{'/'.join(map(str, sorted(llm_keep)))} / {len(llm)} for both raters"),
    ]


# the writers' groups of splits in the journal's headline ("v7 23 %, v8 18 %, …, v15 on AI–AJ 3 of 34")
GROUPS = {"v7": "D E F G H I J", "v8": "K L M N O", "v9": "PQ R S T", "v10": "U V", "W–AA": "W X Y Z AA",
          "AB–AH": "AB AC AD AE AF AG AH", "AI–AJ": "AI AJ"}


def journal_numbers() -> list[tuple[str, str]]:
    """(what, the text eval/quiz_review.md says): each writer group's KEEP share, each split's row."""
    held = questions(lambda r: r["split"] in D_AJ and r["measured"] == "yes")
    out = []
    for name, splits in GROUPS.items():
        part = [q for q in held if q[0]["split"] in splits.split()]
        keep = share(part, "KEEP")
        said = f"{name} {pct(keep / len(part))}" if name in ("v7", "v8", "v9") else f"{name} {keep:g} of {len(part)}"
        out.append((f"writer group {name}", said))
    for split in D_AJ:
        part = [q for q in held if q[0]["split"] == split]
        kept = [sum(q[i]["verdict"] == "KEEP" for q in part) for i in (0, 1)]
        out.append((f"split {split}: written, KEEP per rater", f"{len(part)} / {kept[0]} / {kept[1]}"))
    return out


def journal_rows() -> dict[str, str]:
    """The journal's split table as "written / KEEP rater 1 / KEEP rater 2" per split (the measured writer's row)."""
    rows: dict[str, str] = {}
    for line in JOURNAL.read_text(encoding="utf-8").splitlines():
        cells = [c.strip(" *") for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not (m := re.match(r"([A-Z]+(?:/[A-Z])?)\b", cells[0])):
            continue
        split = m.group(1).replace("/", "")
        written = re.findall(r"(\d+) / \d+", cells[2])
        keep = re.match(r"(\d+) / (\d+)", cells[3])
        if split not in D_AJ or not written or not keep or (split in rows and "same packet" not in cells[0]):
            continue  # U: its second row ("same packet") is the writer measured
        # AI, AJ: "11 / 48 and 19 / 48", the second writer of the packet (v15) is the one measured
        rows[split] = f"{written[-1]} / {keep.group(1)} / {keep.group(2)}"
    return rows


def main() -> int:
    # the README, and the evidence pages it links to once they move to docs/ (issue 32)
    readme = "\n".join(p.read_text(encoding="utf-8") for p in [README, *sorted(README.parent.glob("docs/**/*.md"))])
    bad = 0
    for what, text in numbers():
        ok = text in readme
        bad += not ok
        print(f"{'ok  ' if ok else 'DIFF'} {what}: {text}")
    journal, table = JOURNAL.read_text(encoding="utf-8"), journal_rows()
    for what, text in journal_numbers():
        split = what.split()[1].rstrip(":")
        ok = table.get(split) == text if what.startswith("split") else text in journal
        bad += not ok
        print(f"{'ok  ' if ok else 'DIFF'} {what}: {text}" + ("" if ok else f" (journal: {table.get(split)})"))
    if bad:
        print(f"\n{bad} number(s) not found in {README.name} or {JOURNAL.name} as written: update the text or "
              "the ratings", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
