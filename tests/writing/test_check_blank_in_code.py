"""A cloze whose blank sits inside code (in quotes, glued to an operator) asks for a label any word fills
(``blank-in-code``)."""

from __future__ import annotations

from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, run_checks

PASSAGE = ("Conferir quantas GPUs cada nó oferece: kubectl get nodes -o "
           "custom-columns='NOME:.metadata.name,GPUS:.status.allocatable.nvidia\\.com/gpu'. "
           "O device plugin da NVIDIA anuncia o recurso nvidia.com/gpu ao scheduler.")


def _cloze(prompt: str, answer: str) -> Question:
    return Question(type="cloze", prompt=prompt, answer=answer, lang="pt",
                    citations=(Citation("k8s.pdf", "p. 9", "c1", PASSAGE),))


def test_a_blank_inside_a_quoted_command():
    q = _cloze("Complete a lacuna: Para conferir quantas GPUs cada nó oferece: kubectl get nodes -o "
               "custom-columns='_____:.metadata.name,GPUS:.status.allocatable.nvidia\\.com/gpu'.", "NOME")
    assert "blank-in-code" in run_checks(q, CheckContext(PASSAGE))


def test_a_blank_glued_to_an_operator():
    q = _cloze("Complete a lacuna: Em Flower existe suporte a _____+ (workflow no servidor e mod no cliente).",
               "SecAgg")
    assert "blank-in-code" in run_checks(q, CheckContext("Em Flower existe suporte a SecAgg+ (workflow no servidor "
                                                         "e mod no cliente)."))


def test_a_blank_on_a_word_of_a_sentence():
    q = _cloze("Complete a lacuna: No Kubernetes, o _____ da NVIDIA anuncia o recurso nvidia.com/gpu ao scheduler.",
               "device plugin")
    assert "blank-in-code" not in run_checks(q, CheckContext(PASSAGE))
