"""A stem set twice ("Em Net, em Flower …") or on a slide's leftover ("Em PBT, (2017): …") is garbled
(``garbled-setting``)."""

from __future__ import annotations

from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, run_checks

PASSAGE = ("Population Based Training (PBT) (Jaderberg et al., 2017): otimiza hiperparâmetros DURANTE o treino, "
           "com uma população de modelos treinados em paralelo. Em Flower existe suporte a SecAgg+ (workflow no "
           "servidor e mod no cliente).")


def _cloze(prompt: str, answer: str) -> Question:
    return Question(type="cloze", prompt=prompt, answer=answer, lang="pt",
                    citations=(Citation("hpo.pdf", "p. 18", "c1", PASSAGE),))


def test_a_setting_glued_onto_a_citation():
    q = _cloze("Complete a lacuna: Em PBT, (2017): otimiza _____ DURANTE o treino, com uma população de modelos.",
               "hiperparâmetros")
    assert "garbled-setting" in run_checks(q, CheckContext(PASSAGE))


def test_a_stem_set_twice():
    q = Question(type="short", prompt="Em Net, em Flower, que recurso protege as atualizações dos clientes?",
                 answer="SecAgg+: agregação segura com workflow no servidor e mod no cliente.", lang="pt",
                 citations=(Citation("fl.pdf", "p. 14", "c1", PASSAGE),))
    assert "garbled-setting" in run_checks(q, CheckContext(PASSAGE))


def test_one_setting_before_the_sentence():
    q = _cloze("Complete a lacuna: Em Population Based Training, otimizam-se os _____ durante o treino, com uma "
               "população de modelos treinados em paralelo.", "hiperparâmetros")
    assert "garbled-setting" not in run_checks(q, CheckContext(PASSAGE))
