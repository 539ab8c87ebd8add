"""Round 8 of quiz ratings: ten NEW decks (eval/heldout_decks/, the ten named in
eval/heldout_key_ideas_r8.json), written with their key ideas by two fresh teacher-helpers before kb ran on them,
and two quiz versions rated blind in one packet by four fresh raters (two per half of the decks; see README.md):

    a = 73697d2 (session 16's start), b = 9883cf5 (sibling terms as objective kinds, the type mix after the
    fill, 'what each element means' only of terms, discourse-role lists, stems and cloze checks).

A question both versions wrote is rated once and counts for both. Prints, per version and rater: written /
asked, KEEP, KEEP or FIX, the key ideas asked, decks with >= 10 questions, and how many DROPs `kb eval quiz`
flags (eval-quiz-*.json).

    python eval/real_heldout_r8/stats.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
VERSIONS = {"a": "73697d2 (the session's start)", "b": "9883cf5 (type mix, term-only label lists, discourse roles)"}

if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    from rating_round import main

    main(HERE, VERSIONS)
