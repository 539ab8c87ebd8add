"""Round 7 of quiz ratings: six more NEW decks (eval/heldout_decks/, the six named in
eval/heldout_key_ideas_r7.json), written with their key ideas by a fresh teacher-helper before kb ran on them,
and three quiz versions rated blind in one packet by two fresh raters (see README.md):

    a = 1d1d7c0 (session 15's start), b = aca1838 (the fill), c = e2b2b94 (+ round 6's class fixes).

A question two versions wrote is rated once and counts for both. Prints, per version and rater: written /
asked, KEEP, KEEP or FIX, the key ideas asked (a rater listed, per idea, every question that asks its main
point; an idea counts for a version when one of its questions is in that version's quiz), decks with >= 10
questions, and how many DROPs `kb eval quiz` flags (eval-quiz-*.json).

    python eval/real_heldout_r7/stats.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
VERSIONS = {"a": "1d1d7c0 (the session's start)", "b": "aca1838 (fill, plain forms, flags)",
            "c": "e2b2b94 (+ terms only, concepts not in the stem, distractors of the answer's kind)"}

if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    from rating_round import main

    main(HERE, VERSIONS)
