"""The DROP ratings of rounds 8-12 (``eval/real_heldout_rN/ratings.csv``) by the class of defect their reason
names, each rating in its first matching class (read from the question's form and the rater's reason; the
rules were checked by reading every reason), over every rating and over the round's newest version's.

    python eval/drop_classes.py            # counts: ratings (distinct questions), all / newest version
    python eval/drop_classes.py --list     # each DROP with its class
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from eval.rating_round import NEWEST  # noqa: E402  (each rated round's newest version)

_NAMING = re.compile(r"(?i)t[ée]rmino corresponde|termo corresponde|term matches")
# (class, test on the rating) in order: the first that holds names the rating's class
CLASSES: list[tuple[str, object]] = [
    ("label-list stem (slide labels pasted as the question)",
     lambda r: re.search(r"cada (?:uno de estos|um destes) elementos", r["prompt"])),
    ("description gives the answer away (its words, an example, a library prefix)",
     lambda r: r["type"] in ("mcq", "tf") and re.search(
         r"(?i)give[sn]? (?:the answer |it )?away|gives the answer|points to|guessable from|word for word|only choice",
         r["reason"])),
    ("objective question on a slide or table label",
     lambda r: r["type"] in ("mcq", "tf") and (_NAMING.search(r["prompt"]) or "significa" in r["prompt"])),
    ("model answer is a code shard", lambda r: re.search(r"(?i)garbled code|code fragment|code lines|raw signature",
                                                         r["reason"])),
    ("trivial cloze blank", lambda r: r["type"] == "cloze"),
    ("stem and answer do not match (a 'what is X' the answer never says)",
     lambda r: re.search(r"(?i)does not (?:say|answer|match)|never (?:says|mentions)|do not match|"
                         r"without (?:the|defin)|misses|answer is only|only side notes", r["reason"])),
    ("stem meaningless out of the slide (a phrase, a title, 'this example')",
     lambda r: re.search(r"(?i)meaningless|garbled|artifact|cannot see|never gives|absurd|slide phrase|"
                         r"exercise statement|lab assignment|wording", r["reason"])),
    ("trivia or low value", lambda r: True),
]


def drops() -> list[dict]:
    out = []
    for n in sorted(NEWEST):
        with (ROOT / "eval" / f"real_heldout_r{n}" / "ratings.csv").open(encoding="utf-8", newline="") as f:
            for r in csv.DictReader(f):
                if r["verdict"] == "DROP":
                    r["round"], r["newest"] = n, NEWEST[n] in r["versions"].split()
                    r["class"] = next(name for name, test in CLASSES if test(r))  # type: ignore[operator]
                    out.append(r)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    rows = drops()
    if args.list:
        for r in rows:
            print(f"r{r['round']}{'*' if r['newest'] else ' '} {r['class'][:30]:30} | {r['prompt'][:90]} | "
                  f"{r['reason'][:90]}")

    def count(part: list[dict], name: str) -> str:
        got = [r for r in part if r["class"] == name]
        return f"{len(got)} ({len({(r['round'], r['question_id']) for r in got})})"
    newest = [r for r in rows if r["newest"]]
    print(f"{'class':78} all    newest version")
    for name, _ in CLASSES:
        print(f"{name:78} {count(rows, name):8} {count(newest, name)}")
    print(f"{'all':78} {len(rows)} ({len({(r['round'], r['question_id']) for r in rows})})   {len(newest)} "
          f"({len({(r['round'], r['question_id']) for r in newest})})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
