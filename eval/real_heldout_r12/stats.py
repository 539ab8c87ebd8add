"""Round 12 of quiz ratings: ten NEW decks (eval/heldout_decks/, the ten named in
eval/heldout_key_ideas_r12.json), written with their key ideas by two fresh teacher-helpers (G, H) before kb ran on
them, and two quiz versions rated blind in one packet per half of the decks by four fresh raters (see README.md):

    s = af4bcfc (session 17's start), a = bf92fac (its first merges: round 11's b), c = 0783259 (the second:
    mcq26 restored, keep26, the advisory drop risk).

A question both versions wrote is rated once and counts for both. Prints, per version and rater: written /
asked, KEEP, KEEP or FIX, the key ideas asked, decks with >= 10 questions, and how many DROPs `kb eval quiz`
flags (eval-quiz-*.json).

    python eval/real_heldout_r12/stats.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
VERSIONS = {"s": "af4bcfc (session 17's start)", "a": "bf92fac (round 11's b: topic stems, subjects, summary ranking)",
            "c": "0783259 (+ deck-term siblings and checks restored, whole-slide answers, concept rules)"}

if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    from rating_round import main

    main(HERE, VERSIONS)
