"""Round 10 of quiz ratings: ten NEW decks (eval/heldout_decks/, the ten named in
eval/heldout_key_ideas_r10.json), written with their key ideas by two fresh teacher-helpers before kb ran on them,
and three quiz versions rated blind in one packet by four fresh raters (two per half of the decks; see README.md):

    a = 73697d2 (session 16's start), c = 3179546 (round 9's c), d = 7ff65c5 (+ checks for what round 8's
    teachers dropped, concepts a grader can mark with, task titles asked how, label lists paste labels only),
    e = f9a35ac (d with the drop checks reverted: main at the end of the session; generated after the rating, so
    not rated itself, but 86 of its 88 questions are c's or d's and carry their ratings).

A question both versions wrote is rated once and counts for both. Prints, per version and rater: written /
asked, KEEP, KEEP or FIX, the key ideas asked, decks with >= 10 questions, and how many DROPs `kb eval quiz`
flags (eval-quiz-*.json).

    python eval/real_heldout_r10/stats.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
VERSIONS = {"a": "73697d2 (the session's start)", "c": "3179546 (round 9's c)",
            "d": "7ff65c5 (+ drop checks, usable concepts, task titles, labels only)",
            "e": "f9a35ac (d without the drop checks; not rated: 86 of its 88 questions were rated as c's or d's)"}

if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    from rating_round import main

    main(HERE, VERSIONS)
