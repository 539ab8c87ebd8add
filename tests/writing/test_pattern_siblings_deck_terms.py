"""The sibling pattern asks terms of the course, not a slide's categories. On real PDFs of three decks fresh
raters read (eval/real_heldout_r10, rendered as eval/deck_pdf.py renders them), `kb quiz generate -n 12 --offline
--source DECK` (library call) used to ask which category a list of examples belongs to ("fn.resize, fn.crop, …"
→ Geométricos; "IPO, KTO, ORPO, …" → Variantes; "fn.random.coin_flip, …" → Aleatoriedad) and what a label the
deck says only as a label means ("«Requisito» significa: vmap, grad, …"): both raters dropped each of them. The
decks' sibling terms (vmap's in_dims / out_dims / chunk_size / randomness) are still asked in an objective kind.
"""

from __future__ import annotations

import re

import pytest

from kb.text import fold

from ..conftest import deck_quizzes, heldout_decks

pytestmark = pytest.mark.slow

DECKS = ("dali_es", "rlhf_pt", "vmap_pt")
LABELS = {"geometricos", "aleatoriedad", "variantes", "requisito"}  # the decks' labels asked in round 10


@pytest.fixture(scope="module")
def quizzes(tmp_path_factory, model_cache):
    root = tmp_path_factory.mktemp("siblings")
    return deck_quizzes(root, heldout_decks(DECKS), DECKS, model_cache)


def _term(q) -> str:
    if q.type == "mcq":
        return q.choices[q.correct]
    m = re.search(r"«([^»]+)»", q.prompt)
    return m.group(1) if m else ""


def test_no_objective_question_asks_a_slides_category(quizzes):
    objective = [q for qs in quizzes.values() for q in qs if q.type in ("mcq", "tf")]
    assert len(objective) >= 2, {k: [(q.type, q.prompt) for q in qs] for k, qs in quizzes.items()}
    asked = [(q.prompt, _term(q)) for q in objective]
    assert not [a for a in asked if fold(a[1]) in LABELS], asked
    # no description that lists examples for the student to sort ("fn.resize, fn.crop, …", "IPO, KTO (…), …")
    assert not [p for p, _ in asked if re.search(r"«(?:fn\.[\w.]+|[A-Z]{3,}(?: \([^)]*\))?), ", p)], asked
