"""eval/flag_real_heldout.py: the fresh raters' ratings of the three real held-out decks, checked as
kb eval quiz checks a question."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ..conftest import ROOT, SHARED

HELDOUT = SHARED / "heldout_decks"


@pytest.mark.needs_shared(HELDOUT)
def test_every_rated_deck_is_read_and_the_checks_flag_drops_more_than_keeps(tmp_path):
    r = subprocess.run([sys.executable, "eval/flag_real_heldout.py", "--no-embedder"], cwd=ROOT,
                       capture_output=True, text=True, timeout=600,
                       env={"KB_SHARED_DIR": str(SHARED), "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin",
                            "HOME": str(tmp_path)})
    assert r.returncode == 0, r.stderr
    line = next(x for x in r.stdout.splitlines() if x.startswith("real held-out"))
    # 186 ratings in rounds 3–5: none left out for a deck or page that could not be read again
    assert "(186 ratings)" in line, line
    shares = {v: int(line.split(f"{v} ")[1].split("/")[0]) / int(line.split(f"{v} ")[1].split("/")[1].split(" ")[0])
              for v in ("DROP", "KEEP")}
    assert shares["DROP"] > shares["KEEP"], line
