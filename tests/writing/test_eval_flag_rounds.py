"""eval/flag_rounds.py: the fresh raters' ratings of rounds 8-12, checked as ``kb eval quiz`` checks a question
(its cited page, its deck rendered from eval/heldout_decks/, its version's quiz), every rating read again."""

from __future__ import annotations

import subprocess
import sys

from ..conftest import ROOT


def test_round_12_is_read_whole_and_its_giveaways_are_flagged(tmp_path):
    r = subprocess.run([sys.executable, "eval/flag_rounds.py", "--rounds", "12", "--flagged", "DROP"], cwd=ROOT,
                       capture_output=True, text=True, timeout=600,
                       env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert r.returncode == 0, r.stderr
    line = next(x for x in r.stdout.splitlines() if x.startswith("  r12 "))  # (the summary row)
    # every one of round 12's 484 ratings checked: none left out for a deck or page that could not be read again
    assert "DROP" in line and "/56 " in line and "/306 " in line and "/122 " in line, line
    flagged = [x for x in r.stdout.splitlines() if x.startswith("r12")]
    # the library prefix that names the answer (np.random.seed → NumPy) and the code shard answering "o que é GaLore?"
    assert any("np.random.seed" in x and "answer-in-description" in x for x in flagged)
    assert any("o que é GaLore?" in x and "code-answer" in x for x in flagged)
