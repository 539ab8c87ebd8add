"""Round 6 of quiz ratings: ten NEW decks (eval/heldout_decks/, the ten named in
eval/heldout_key_ideas_r6.json), written with their key ideas by two fresh teacher-helpers before kb
ran on them, and two quiz versions rated blind in one packet by four fresh raters (two per half):

    a = main at 1d1d7c0 (the start of round 3, session 15), b = after session 15's writer work.

A question both versions wrote is rated once and counts for both. Prints, per version and rater:
written / asked, KEEP, KEEP or FIX, the key ideas asked (a rater listed, per idea, every question that
asks its main point; an idea counts for a version when one of its questions is in that version's quiz),
decks with >= 10 questions, and how many DROPs `kb eval quiz` flags (eval-quiz-*.json, run at the
commit named in README.md).

    python eval/real_heldout_r6/stats.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
VERSIONS = {"a": "main 1d1d7c0 (before)", "b": "after session 15"}

if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    from rating_round import main

    main(HERE, VERSIONS)
