"""Round 3, session 13: the second measurement on the three real held-out decks (../shared/heldout_decks/),
after the outline-divider, stem-setting, definition, trivia and type-mix work (commit df0b0cd). Two new fresh
raters (R4A, R4B: helpers that saw neither the code nor earlier ratings, given eval/rater_instructions.md,
the packet and the key-idea list only) rated the offline quizzes; coverage.csv is their judgement of which of
the decks' key ideas (eval/heldout_key_ideas.json, written before kb first ran on the decks) the quizzes ask.

    python eval/real_heldout_r4/stats.py

Made with steps anyone can repeat: copy the three PDFs to decks/, `kb ingest decks/`,
`kb quiz generate -n 12 --offline --source decks/DECK.pdf -o quizzes/DECK.json`, `kb eval quiz --json`
(eval-quiz-*.json), `python eval/rater_packet.py WS quizzes/*.json -o packet.md --csv questions.csv`.
The writer's own checks filtered these quizzes, so `kb eval quiz` flags few of their DROPs by construction:
eval/flag_ratings.py measures the flagging on the older rated splits instead.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    """The same counts as round 3's script, over this folder's files."""
    spec = importlib.util.spec_from_file_location("r3_stats", HERE.parent / "real_heldout_r3" / "stats.py")
    assert spec and spec.loader
    r3 = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(r3)
    r3.main(HERE)


if __name__ == "__main__":
    main()
