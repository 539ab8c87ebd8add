"""A stem with a bracket the PDF left unpaired is flagged (eval/real_heldout_r8: «theta) · (R - b)»)."""

from __future__ import annotations

from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, run_checks

_CITE = (Citation("deck.pdf", "p. 3", "", ""),)


def test_an_unpaired_bracket_in_the_stem_is_flagged_a_paired_one_is_not():
    answer = "El controlador se actualiza con REINFORCE: grad theta log p(a_t; theta) · (R - b)"
    bad = Question("short", "En NAS, ¿qué significa cada uno de estos elementos de «NAS con RL»: El controlador se "
                   "actualiza con REINFORCE; theta) · (R - b); Coste?", answer, _CITE, lang="es",
                   concepts=("REINFORCE",), origin="labels")
    assert "garbled-stem" in run_checks(bad, CheckContext(answer))
    good = Question("short", "En NAS, ¿cómo se actualiza el controlador (una RNN)?", answer, _CITE, lang="es",
                    concepts=("REINFORCE",), origin="idea")
    assert "garbled-stem" not in run_checks(good, CheckContext(answer))
