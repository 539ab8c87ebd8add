"""A false statement that pins one bullet's text onto another bullet's label lower-cased into the sentence
("variantes consiste en congelar sus estadísticas …") does not parse (``swapped-bullet``); a swap
between two terms is a confusion worth asking."""

from __future__ import annotations

from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, run_checks

PASSAGE = ("QAT: fake quantization y STE. BatchNorm: congelar sus estadísticas tras unas épocas para estabilizar "
           "los rangos. Variantes: LSQ aprende también el scale s por descenso de gradiente. "
           "Fake quantization: cuantiza y decuantiza en el forward; STE: el gradiente pasa como identidad.")


def _false(statement: str, label: str, truth: str) -> Question:
    return Question(type="tf", prompt=f"¿Verdadero o falso? {statement}", answer=f"Falso. La fuente dice: “{label}: "
                    f"{truth}”", correct=False, lang="es", citations=(Citation("quant.pdf", "p. 15", "c1", truth),))


def test_a_plain_word_given_another_bullets_text():
    q = _false("En QAT, variantes consiste en congelar sus estadísticas tras unas épocas para estabilizar los rangos.",
               "Variantes", "LSQ aprende también el scale s por descenso de gradiente.")
    assert "swapped-bullet" in run_checks(q, CheckContext(PASSAGE))


def test_two_terms_swapped():
    q = _false("En QAT, «STE» consiste en cuantiza y decuantiza en el forward.", "STE",
               "el gradiente pasa como identidad.")
    assert "swapped-bullet" not in run_checks(q, CheckContext(PASSAGE))
