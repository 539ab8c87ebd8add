"""``kb eval quiz`` flags "¿qué caracteriza a «a slide's title»?" (``vague-stem``, advisory): any true
sentence about the heading answers it. kb's writers no longer write that form; ``run_checks`` does not run
the advisory checks, so a writer would not turn such a question down."""

from __future__ import annotations

from kb.quiz import Citation, Question
from kb.writing.checklist import ADVISORY, CheckContext, question_defects, run_checks

PASSAGE = ("Gradientes. Cálculo de derivadas parciales sobre cálculos complejos. Autograd crea dinámicamente el "
           "grafo de operaciones durante el forward y lo recorre en el backward.")


def _short(prompt: str) -> Question:
    answer = "Autograd crea dinámicamente el grafo de operaciones durante el forward y lo recorre en el backward."
    return Question(type="short", prompt=prompt, answer=answer, lang="es",
                    citations=(Citation("tensores.pdf", "p. 47", "c1", answer),))


def test_eval_flags_what_characterises_a_title_and_run_checks_does_not():
    q = _short("En PyTorch, ¿qué caracteriza a «Gradientes»?")
    assert "vague-stem" in ADVISORY
    assert "vague-stem" in question_defects(q, CheckContext(PASSAGE))
    assert "vague-stem" not in run_checks(q, CheckContext(PASSAGE))


def test_a_question_that_says_what_it_asks():
    q = _short("En PyTorch, ¿cuándo construye autograd el grafo de operaciones y cuándo lo recorre?")
    assert "vague-stem" not in question_defects(q, CheckContext(PASSAGE))
