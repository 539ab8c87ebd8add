"""eval/rater_packet.py: a blind packet holds each distinct question once, as each quiz version wrote it."""

from __future__ import annotations

import json
import sys

from ..conftest import ROOT

sys.path.insert(0, str(ROOT))

from eval.rater_packet import distinct_questions  # noqa: E402


def _quiz(path, concepts):
    q = {"id": "q1", "type": "short", "prompt": "¿Qué es la focal loss?", "answer": "Una loss que pesa menos los "
         "ejemplos fáciles.", "concepts": concepts, "citations": [{"source": "d.pdf", "locator": "p. 3"}]}
    path.write_text(json.dumps({"questions": [q]}), encoding="utf-8")
    return path


def test_versions_that_differ_only_in_their_concepts_are_rated_apart(tmp_path):
    a = _quiz(tmp_path / "deck.a.json", ["gamma >= 0", "alpha_t"])
    b = _quiz(tmp_path / "deck.b.json", ["pesa menos los ejemplos fáciles"])
    rows = distinct_questions([a, b])
    assert [(r["id"], r["concepts"], r["quizzes"]) for r in rows] == [
        ("q1", "gamma >= 0; alpha_t", "deck.a"), ("q1/2", "pesa menos los ejemplos fáciles", "deck.b")]


def test_the_same_question_in_two_quizzes_is_one_row(tmp_path):
    a = _quiz(tmp_path / "deck.a.json", ["focal loss"])
    b = _quiz(tmp_path / "deck.b.json", ["focal loss"])
    assert [(r["id"], r["quizzes"]) for r in distinct_questions([a, b])] == [("q1", "deck.a deck.b")]
