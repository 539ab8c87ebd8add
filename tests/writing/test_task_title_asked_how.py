"""A slide whose title is a task ("Depurar NaNs", "Elegir max_norm", "Cargar checkpoints") is asked how the task
is done ("¿cómo se puede depurar NaNs?"), never "¿qué se entiende por «Depurar NaNs»?": a task is no concept
(issue 26: fresh raters fixed all three such stems of rounds 8-9, 6 ratings). Written and checked on the decks
those stems came from (gradclip_es of r8, ddpdeep_es of r9; rounds 6-7 wrote none), rendered as
eval/deck_pdf.py renders them, through the public API; a title that names a concept ("DistributedSampler") is
asked what it is (kb/writing/pattern_topic.py).
"""

from __future__ import annotations

import pytest

from ..conftest import deck_quizzes, heldout_decks

pytestmark = pytest.mark.slow

DECKS = ("gradclip_es", "ddpdeep_es")


@pytest.fixture(scope="module")
def prompts(tmp_path_factory, model_cache):
    """The prompts of ``generate_quiz`` -n 12 offline on each deck, in one knowledge base."""
    quizzes = deck_quizzes(tmp_path_factory.mktemp("tasks"), heldout_decks(DECKS), DECKS, model_cache)
    return {name: [q.prompt for q in qs] for name, qs in quizzes.items()}


def test_a_task_title_is_asked_how_it_is_done(prompts):
    every = [p for ps in prompts.values() for p in ps]
    assert not [p for p in every if "entiende por «Depurar" in p or "entiende por «Cargar" in p
                or "entiende por «Elegir" in p], every
    assert any("¿cómo se puede depurar NaNs?" in p or "¿cómo se puede elegir max_norm?" in p
               for p in prompts["gradclip_es"]), prompts
    assert any("¿qué es DistributedSampler?" in p for p in prompts["ddpdeep_es"]), prompts
