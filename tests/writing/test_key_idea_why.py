"""eval/key_idea_coverage.py --why: what became of each planned top idea of a deck's `-n 12` quiz — and,
on a dev deck and the sample course's text export of the TensorFlow deck, that the planned ideas get
questions that pass the checks (measured before this: 05modelos asked 4 of its 5 top ideas in 11
questions; the text export's plain questions were all set "En contenidos del curso, …" and failed)."""

from __future__ import annotations

import json
import re
import shutil
import sys

from ..conftest import CORPORA, ROOT, needs_corpora, run_kb

sys.path.insert(0, str(ROOT))

from eval.key_idea_coverage import main  # noqa: E402


@needs_corpora
def test_why_lists_each_planned_idea_and_the_planned_ideas_are_asked(tmp_path, capsys):
    (tmp_path / "decks").mkdir()
    shutil.copy(CORPORA / "05modelos.pdf", tmp_path / "decks" / "05modelos.pdf")
    text = next((ROOT / "sources").glob("004_*.txt"))
    shutil.copy(text, tmp_path / "decks" / text.name)
    assert run_kb(["ingest", "decks"], cwd=tmp_path).returncode == 0
    assert main([str(ROOT / "eval" / "key_ideas_dev.json"), str(tmp_path), "--generate", "12", "--why",
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    deck = report["decks"]["05modelos.pdf"]
    planned = deck["planned"]
    assert [p["rank"] for p in planned] == [1, 2, 3, 4, 5, 6]  # plan_size(12)
    assert any(p["asked"] for p in planned)
    assert all(p["by"] for p in planned if p["asked"])  # an asked idea names the question type that asks it
    assert sum(p["asked"] for p in planned[:5]) >= 4
    assert deck["quiz"]["questions"] >= 10 and len(deck["quiz"]["hit"]) >= 4
    assert sum(deck["types"].values()) == deck["quiz"]["questions"]
    export = report["decks"][text.name]
    assert export["quiz"]["questions"] >= 10
    # 4 of its 6 planned ideas have a question that passes the checks (asked, or outdone by a better
    # question); the other two are a code slide and "Variables", an everyday word (trivial-term)
    assert sum(p["asked"] or p["passed"] > 0 for p in export["planned"]) >= 4
    assert sum(p["asked"] for p in export["planned"]) >= 2
    # a planned idea turned down names the checks that did it, none of them a slide's label as setting
    assert all("slide-label-context" not in p["failed"] for p in export["planned"])
    assert main([str(ROOT / "eval" / "key_ideas_dev.json"), str(tmp_path), "--generate", "12", "--why"]) == 0
    shown = capsys.readouterr().out
    assert re.search(r"(?m)^  plan #1 \w+ «[^»]+» \(pp?\. [\d–]+\): ", shown), shown
    assert "asked by " in shown and "; types " in shown
