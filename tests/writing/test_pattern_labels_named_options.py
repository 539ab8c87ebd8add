"""A labelled list's which-term multiple choice takes as its wrong options the siblings the deck names across its
slides before a row it names once (session 27, ``LabelPatterns._named_first``; ``mcq:unnamed`` in
kb/writing/form_prior.py: such a question among words the deck seldom says was kept 18-37 % and dropped 30-50 % on
rounds 14-36, against 43-53 % and 16-22 %). Pinned on a held-out page (eval/heldout_decks/dyntopk_es.txt, round 36,
rendered to a real PDF as eval/deck_pdf.py renders it), through the library call `kb quiz generate -n 12 --offline
--source DECK` makes: p. 13's comparison table of routing strategies. "Top-k token-choice" is one row there and
said nowhere else in the deck; "Mixture-of-Depths" is said in seven of its lines."""

from __future__ import annotations

import pytest

from kb.writing.deck_term import NAMED_LINES, named_lines

from ..conftest import ROOT, deck_quizzes, heldout_decks

pytestmark = pytest.mark.slow

DECKS = ("dyntopk_es",)


@pytest.fixture(scope="module")
def quizzes(tmp_path_factory, model_cache):
    return deck_quizzes(tmp_path_factory.mktemp("named"), heldout_decks(DECKS), DECKS, model_cache)


def test_a_table_row_the_deck_names_once_gives_way_to_a_named_sibling(quizzes):
    deck = (ROOT / "eval" / "heldout_decks" / "dyntopk_es.txt").read_text(encoding="utf-8")
    assert named_lines("Top-k token-choice", deck) < NAMED_LINES <= named_lines("Mixture-of-Depths", deck)
    (q,) = [q for q in quizzes["dyntopk_es"] if q.type == "mcq" and "«k nominal fijo" in q.prompt]
    assert q.correct_text == "Expertos nulos"
    assert "Mixture-of-Depths" in q.choices and "Top-k token-choice" not in q.choices, q.choices
