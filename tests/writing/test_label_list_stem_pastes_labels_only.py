""""¿qué significa cada uno de estos elementos de «T»: A; B?" lists a slide's labels only: a part with no label of
its own ("En CUDA: se usa CUDA IPC; exige método spawn o forkserver") goes on the part before it, never pasted
in the stem as if it were a label (issue 26: r9 raters, "one, 'exige método spawn o forkserver', is split off
its bullet"; 15 stems of the 36 r6-r9 decks did). Written on hogwild_es and metriclearn_pt (r9), checked on
dataloader_es (r6) and flashattn_es (r8), rendered as eval/deck_pdf.py renders them, through the public API.
"""

from __future__ import annotations

import re

import pytest

import kb
from kb.writing.generate import GenerationRequest, generate_quiz
from kb.writing.offline import OfflineWriter

from ..conftest import heldout_decks, run_kb

pytestmark = pytest.mark.slow

DECKS = ("hogwild_es", "metriclearn_pt", "dataloader_es", "flashattn_es")
_LISTED = re.compile(r"(?:estos elementos de|destes elementos de) «.*»: (?P<labels>.*)\?$")


@pytest.fixture(scope="module")
def quizzes(tmp_path_factory, model_cache):
    root = tmp_path_factory.mktemp("labels")
    (root / "corpora").mkdir()
    heldout_decks(DECKS)(root / "corpora")
    r = run_kb(["ingest", "corpora"], cwd=root, env={"XDG_CACHE_HOME": str(model_cache)})
    assert r.returncode == 0, r.stderr
    course = kb.open(root / ".kb")
    out = {}
    for name in DECKS:
        src = next(s["source"] for s in course.sources() if s["source"].endswith(f"{name}.pdf"))
        out[name] = generate_quiz(course.workspace, GenerationRequest(n=12, sources=(src,)), OfflineWriter(),
                                  now="t").quiz.questions
    return out


def test_every_label_in_the_stem_opens_a_part_of_the_answer(quizzes):
    listed = [(q.prompt, q.answer) for qs in quizzes.values() for q in qs if _LISTED.search(q.prompt)]
    assert len(listed) >= 4, listed
    pasted = [(lb, p) for p, a in listed for lb in _LISTED.search(p).group("labels").split("; ") if f"{lb}:" not in a]
    assert not pasted, pasted
    hogwild = [p for p, _ in listed if "«torch.multiprocessing»" in p]
    assert hogwild and "exige método spawn" not in hogwild[0], hogwild
