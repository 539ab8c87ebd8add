"""Count the stem classes fresh raters fixed or dropped (issue 26): rounds 11 (version b) and 12 (version c).

    python eval/stem_fix_classes.py

A rough count by the words of each FIX/DROP reason that names the stem (a reason may fall in several classes or in
none): 1 the stem's form does not match what the answer says, 2 a vague "explica + slide title", 3 a wrong or
garbled setting, 4 grammar. Read the reasons themselves before trusting a number.
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent
ROUNDS = (("real_heldout_r11", "b"), ("real_heldout_r12", "c"))
STEM = re.compile(r"stem|question|prompt|wording|reword|rewrite|asks?", re.I)
CLASSES = {
    "1 form does not match the answer": r"(answer|answered)[^.]*(not|n't|instead|rather)[^.]*(defin|what it is)|"
    r"not a definition|isn't a definition|stem asks (what|for a definition)|asks what .* but|answer (lists|gives|is) "
    r"(commands|steps|precaution|cautions|a table|setup|pitfall)|mismatch|does(n't| not) (match|answer)|wrong question",
    "2 vague explain / slide title": r"vague|generic|slide (title|label)|title|label|open-ended|too broad|broad",
    "3 setting": r"setting|context|prefix|framing|'(En|Em) [^']+'|\"(En|Em) |(En|Em) \w+,",
    "4 grammar": r"gramm|article|agreement|ungrammatical|awkward|gender",
}


def main() -> None:
    rows = [x for folder, version in ROUNDS for x in csv.DictReader((ROOT / folder / "ratings.csv").open())
            if version in x["versions"].split() and x["verdict"] in ("FIX", "DROP")]
    stem = [x for x in rows if STEM.search(x["reason"])]
    counts = Counter(k for x in stem for k, p in CLASSES.items() if re.search(p, x["reason"], re.I))
    print(f"{len(rows)} FIX/DROP ratings of r11 b + r12 c; {len(stem)} name the stem")
    for k in CLASSES:
        print(f"  {k}: {counts[k]}")


if __name__ == "__main__":
    main()
