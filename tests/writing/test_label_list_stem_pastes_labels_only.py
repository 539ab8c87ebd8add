""""¿qué significa cada uno de estos elementos de «T»: A; B?" lists a slide's labels only: a part with no label of
its own ("En CUDA: se usa CUDA IPC; exige método spawn o forkserver") goes on the part before it, never pasted
in the stem as if it were a label (issue 26: r9 raters, "one, 'exige método spawn o forkserver', is split off
its bullet"; 15 stems of the 36 r6-r9 decks did). Written on hogwild_es and metriclearn_pt (r9), checked on
dataloader_es (r6) and flashattn_es (r8), rendered as eval/deck_pdf.py renders them, through the public API.
"""

from __future__ import annotations

import re

import pytest

from ..conftest import deck_quizzes, heldout_decks

pytestmark = pytest.mark.slow

DECKS = ("hogwild_es", "metriclearn_pt", "dataloader_es", "flashattn_es")
_LISTED = re.compile(r"(?:estos elementos de|destes elementos de) «.*»: (?P<labels>.*)\?$")


@pytest.fixture(scope="module")
def quizzes(tmp_path_factory, model_cache):
    """``generate_quiz`` -n 12 offline on each deck (library call), in one knowledge base."""
    return deck_quizzes(tmp_path_factory.mktemp("labels"), heldout_decks(DECKS), DECKS, model_cache)


def test_every_label_in_the_stem_opens_a_part_of_the_answer(quizzes):
    listed = [(q.prompt, q.answer) for qs in quizzes.values() for q in qs if _LISTED.search(q.prompt)]
    assert len(listed) >= 4, listed
    pasted = [(lb, p) for p, a in listed for lb in _LISTED.search(p).group("labels").split("; ") if f"{lb}:" not in a]
    assert not pasted, pasted
    hogwild = [p for p, _ in listed if "«torch.multiprocessing»" in p]
    assert hogwild and "exige método spawn" not in hogwild[0], hogwild
