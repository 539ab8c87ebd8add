"""``prose-blank``, reported as ``trivial-blank`` (kb/writing/check_objective_kind.py): a cloze whose blank is no code
entity — a prose word, a name or acronym, a hyphenated term — is turned down by every writer and flagged by ``kb eval
quiz``; a blank on a code entity is judged as before. Round 30's clozes, rated before the check was written: the three
prose blanks below were dropped by all three raters, the code blank kept by all three."""

from __future__ import annotations

import pytest

from kb.quiz import Question
from kb.writing.checklist import CheckContext, run_checks


def _cloze(stem: str, answer: str, lang: str) -> Question:
    prompt = ("Complete a lacuna: " if lang == "pt" else "Completa el espacio en blanco: ") + stem
    return Question("cloze", prompt, answer, (), lang=lang)


@pytest.mark.parametrize(("stem", "answer", "lang"), [
    ("Em WaveNet, mesmo número de parâmetros e campo receptivo maior, sem _____: a resolução temporal é mantida.",
     "pooling", "pt"),
    ("Em Mask R-CNN, vencedores dos desafios _____ 2015 (MNC) e 2016 (FCIS).", "COCO", "pt"),
    ("En Redes convolucionales temporales (TCN), memoria de _____ ~ B x C x T x número de capas.", "activaciones",
     "es"),
])
def test_a_blank_on_prose_is_turned_down(stem, answer, lang):
    q = _cloze(stem, answer, lang)
    assert "trivial-blank" in run_checks(q, CheckContext(passage=stem.replace("_____", answer)))


def test_a_blank_on_a_code_entity_is_judged_as_before():
    stem = ("Em Triton Inference Server, com batching dinâmico, a documentação recomenda, em geral, não fixar _____ "
            "(exceção: engines TensorRT otimizados para tamanhos específicos).")
    q = _cloze(stem, "preferred_batch_size", "pt")
    assert "trivial-blank" not in run_checks(q, CheckContext(passage=stem.replace("_____", "preferred_batch_size")))
