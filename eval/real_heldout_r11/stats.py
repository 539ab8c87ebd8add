"""Round 11 of quiz ratings: ten NEW decks (eval/heldout_decks/, the ten named in
eval/heldout_key_ideas_r11.json), written with their key ideas by two fresh teacher-helpers (G, H) before kb ran on
them, and two quiz versions rated blind in one packet per half of the decks by four fresh raters (see README.md):

    a = af4bcfc (session 17's start), b = 405934b (after the session's writer and outline merges).

A question both versions wrote is rated once and counts for both. Prints, per version and rater: written /
asked, KEEP, KEEP or FIX, the key ideas asked, decks with >= 10 questions, and how many DROPs `kb eval quiz`
flags (eval-quiz-*.json).

    python eval/real_heldout_r11/stats.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
VERSIONS = {"a": "af4bcfc (session 17's start)",
            "b": "405934b (topic stems, deck subjects, summary-slide ranking; not mcq26, reverted by mistake)"}

if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    from rating_round import main

    main(HERE, VERSIONS)
