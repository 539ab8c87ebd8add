"""Round 3, session 14: the third measurement on the three real held-out decks (../shared/heldout_decks/),
after the outline ranked by topic and the quiz plan aimed at the top ideas (commit 33a0fdf). Two new fresh
raters (R5A, R5B: helpers that saw neither the code nor earlier ratings, given eval/rater_instructions.md,
the packet and the key-idea list only) rated the offline quizzes; coverage.csv is their judgement of which of
the decks' key ideas (eval/heldout_key_ideas.json) the quizzes ask. Both raters counted an idea as asked only
when a question asks its main point (touched in part is "no").

    python eval/real_heldout_r5/stats.py

Made with the same steps as round 4 (see eval/real_heldout_r4/stats.py)."""

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
