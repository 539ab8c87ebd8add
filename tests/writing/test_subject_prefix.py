"""The subject a stem opens on is the deck's as a reader names it (:mod:`kb.writing.subject`), on the r7 decks
whose stems raters fixed for it (eval/real_heldout_r7/ratings.csv), rendered to real PDFs:

- a title that lists things ("Parameter servers, ring all-reduce y colectivas NCCL") was cut at its "y" into a
  fragment ("En parameter servers, ring all-reduce, ¿…?"): the whole list sets the stem, or nothing when it is
  too long to read as a setting;
- a slide title whose tail names the kind of slide ("O problema: definição", "Codificação sinusoidal: definição")
  set its questions "Em definição, …";
- a label asked what it means whose text says when it is the better choice ("PR-AUC: mais informativa que
  ROC-AUC quando …") is asked as that (``not-a-definition``).
(the clozes are pinned in test_check_trivial_cloze.py).
"""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest

from kb.writing.terms import title_topic
from kb.writing.wording import deck_topic

from ..conftest import course_with_decks, heldout_decks, run_kb

pytestmark = pytest.mark.slow

DECKS = ("allreduce_es", "posenc_pt", "imbalance_pt")


@pytest.fixture(scope="module")
def quizzes(tmp_path_factory, course_template):
    """Per deck, the questions of ``kb quiz generate -n 12 --offline --source corpora/DECK.pdf``."""
    root = course_with_decks(tmp_path_factory.mktemp("prefix"), heldout_decks(DECKS), course_template / ".kb")
    out = {}
    for deck in DECKS:
        r = run_kb(["quiz", "generate", "-n", "12", "--offline", "--source", f"corpora/{deck}.pdf", "--json"], cwd=root)
        assert r.returncode == 0, r.stderr
        out[deck] = [SimpleNamespace(**q) for q in json.loads(r.stdout)["questions"]]
    return out


def test_a_title_that_lists_things_sets_stems_whole_never_cut():
    assert deck_topic("Parameter servers, ring all-reduce y colectivas NCCL") == \
        "parameter servers, ring all-reduce y colectivas NCCL"
    assert deck_topic("BLAS, GEMM y el modelo roofline") == "BLAS, GEMM y el modelo roofline"
    assert deck_topic("Entrenamiento, inferencia, despliegue y monitorización") == \
        "entrenamiento, inferencia, despliegue y monitorización"
    assert deck_topic("Datos, entrenamiento, inferencia, despliegue, monitorización, auditoría y su coste") == ""
    assert deck_topic("Entrenamiento con precisión mixta y optimización de memoria en PyTorch") == \
        "entrenamiento con precisión mixta"  # (no list: its first subject, as before)


def test_a_slide_kind_is_no_subject_its_head_may_be():
    said = {"codificação sinusoidal": 1}

    def mentions(phrase: str, titles: bool = True) -> int:
        return said.get(phrase.lower(), 0)

    assert title_topic("O problema: definição", mentions) == ""
    assert title_topic("Codificação sinusoidal: definição", mentions) == "codificação sinusoidal"
    assert title_topic("Codificação aprendida: definição", mentions) == ""  # (said by no text but its title)


def test_written_stems_open_on_the_decks_subject(quizzes):
    prompts = [q.prompt for qs in quizzes.values() for q in qs]
    assert len(quizzes["allreduce_es"]) >= 6 and len(quizzes["posenc_pt"]) >= 4  # (9 and 5 before the mix: 7, …)
    assert not [p for p in prompts if re.search(r"\bEn parameter servers, ring all-reduce, ", p)]
    assert not [p for p in prompts if re.search(r"\b(?:Em|En) (?:definição|definición),", p)]
    assert any(p.startswith("En parameter servers, ring all-reduce y colectivas NCCL, ") for p in prompts)


def test_a_label_is_asked_what_it_means_only_where_its_text_defines_it(quizzes):
    prompts = [q.prompt for qs in quizzes.values() for q in qs]
    assert not [p for p in prompts if "significa «PR-AUC" in p]
    assert "Em classes desbalanceadas, quando convém usar «PR-AUC (average precision)»?" in prompts

