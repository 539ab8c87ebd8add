"""eval/key_idea_coverage.py: how many of a teacher's key ideas kb's outline ranks among its top ideas
and a quiz asks — and, on a dev deck, that a `-n 12` quiz writes at least 10 questions and asks the
teacher's key ideas (eval/key_ideas_dev.json, written by a teacher-helper who never saw kb)."""

from __future__ import annotations

import json
import shutil
import sys

from kb.quiz import Citation, Question

from ..conftest import CORPORA, ROOT, needs_corpora, run_kb

sys.path.insert(0, str(ROOT))

from eval.key_idea_coverage import load_key_ideas, main, phrase_in, quiz_coverage  # noqa: E402


def test_a_phrase_starts_a_word_and_a_short_one_is_a_whole_word():
    assert phrase_in("tensor", "Los tensores guardan los parámetros")
    assert phrase_in("época", "en cada epoca del bucle")  # (folded: accents do not count)
    assert not phrase_in("tensor", "un dtensor")  # not inside a word
    assert not phrase_in("nas", "ventanas nasales")  # 4 letters or fewer: a whole word
    assert phrase_in("nas", "una búsqueda NAS de arquitecturas")
    assert phrase_in("step()", "llama a optimizer.step() tras backward")


def test_quiz_coverage_counts_the_key_ideas_a_prompt_or_answer_names():
    ideas = [{"idea": "autograd", "pages": [40], "phrases": ["autograd", "backward"]},
             {"idea": "shape/dtype/device", "pages": [20], "phrases": ["dtype"]}]
    cite = (Citation("decks/t.pdf", "p. 40", "c40", "..."),)
    qs = [Question("short", "¿Qué hace backward()?", "Calcula los gradientes.", cite)]
    got = quiz_coverage(ideas, qs, {})
    assert got == {"questions": 1, "hit": [1], "cited": []}  # (no chunk known: no page to cite)
    assert quiz_coverage(ideas, [], {})["hit"] == []


def test_the_dev_key_ideas_are_five_per_file_with_pages_or_sections():
    keys = load_key_ideas(ROOT / "eval" / "key_ideas_dev.json")
    assert {"001TFDist.pdf", "03Datos.pdf", "05modelos.pdf"} <= set(keys)
    for ideas in keys.values():
        assert len(ideas) == 5
        assert all(i["phrases"] and (i.get("pages") or i.get("sections")) for i in ideas)


@needs_corpora
def test_a_dev_deck_quiz_asks_the_teacher_s_key_ideas(tmp_path, capsys):
    (tmp_path / "decks").mkdir()
    shutil.copy(CORPORA / "03Datos.pdf", tmp_path / "decks" / "03Datos.pdf")
    assert run_kb(["ingest", "decks"], cwd=tmp_path).returncode == 0
    assert main([str(ROOT / "eval" / "key_ideas_dev.json"), str(tmp_path), "--generate", "12", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    row = report["decks"]["03Datos.pdf"]
    assert report["decks"]["05modelos.pdf"] == {"missing": True}
    # measured when this was written: 12 questions asking 5 of the 5 key ideas; the outline's top 5
    # holds 4 of them (DataLoader, transforms, augmentation, DDP), its top 10 all 5
    assert row["quiz"]["questions"] >= 10
    assert len(row["quiz"]["hit"]) >= 4
    assert len(row["outline"]["5"]["strict"]) >= 3 and len(row["outline"]["10"]["strict"]) >= 4
