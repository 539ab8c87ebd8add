"""A labelled list is asked of its slide's topic, its labels never pasted in the stem (kb/writing/pattern_topic.py;
it was "¿qué significa cada uno de estos elementos de «T»: A; B?"), and its answer keeps each item whole: a part
with no label of its own ("En CUDA: se usa CUDA IPC; exige método spawn o forkserver") stays on the part before
it, never split off as if it were a label (issue 26: r9 raters, "one, 'exige método spawn o forkserver', is split off
its bullet"; 15 stems of the 36 r6-r9 decks did). Written on hogwild_es and metriclearn_pt (r9), checked on
dataloader_es (r6) and flashattn_es (r8), rendered as eval/deck_pdf.py renders them, through the public API.
"""

from __future__ import annotations

import re

import pytest

from ..conftest import deck_quizzes, heldout_decks

pytestmark = pytest.mark.slow

DECKS = ("hogwild_es", "metriclearn_pt", "dataloader_es", "flashattn_es")
_ITEMS = re.compile(r"^[^:;]{2,40}: .+; [^:;]{2,40}: ")  # an answer that is a labelled list's items
_LISTED = re.compile(r"(?:estos elementos de|destes elementos de) «.*»: (?P<labels>.*)\?$")


@pytest.fixture(scope="module")
def quizzes(tmp_path_factory, model_cache):
    """``generate_quiz`` -n 12 offline on each deck (library call), in one knowledge base."""
    return deck_quizzes(tmp_path_factory.mktemp("labels"), heldout_decks(DECKS), DECKS, model_cache)


def test_no_stem_pastes_a_list_s_labels_and_each_answer_keeps_its_items_whole(quizzes):
    every = [q for qs in quizzes.values() for q in qs]
    assert len(every) >= 30, [q.prompt for q in every]
    assert not [q.prompt for q in every if _LISTED.search(q.prompt)]
    listed = [q for q in every if q.origin in ("idea", "labels") and _ITEMS.search(q.answer)]
    assert len(listed) >= 4, [q.prompt for q in every]
    for q in listed:  # graded by what each item says, never by the slide's labels
        labels = [p.split(":", 1)[0].strip().lower() for p in q.answer.split("; ") if ":" in p]
        assert not {c.lower() for c in q.concepts} & set(labels), (q.prompt, q.concepts)
