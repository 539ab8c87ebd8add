"""Several checks of the registry report one defect (``meaning-not-defined`` and ``what-is-not-defined`` both say
``not-a-definition``): a question holds each defect once, or ``kb eval quiz`` counts one question twice in a
defect's row."""

from __future__ import annotations

from kb.quiz import Question
from kb.writing.checklist import CheckContext, question_defects, run_checks


def test_a_meaning_answered_by_what_to_do_is_not_a_definition_once():
    answer = "Tokenizador: usar el mismo vocabulario al entrenar y al servir, y guardarlo con el modelo"
    q = Question(type="short", prompt="En el preprocesado de texto, ¿qué significa «Tokenizador»?", answer=answer,
                 lang="es", citations=(), concepts=("mismo vocabulario al entrenar y al servir",))
    ctx = CheckContext(passage=answer)
    for found in (run_checks(q, ctx), question_defects(q, ctx)):
        assert found.count("not-a-definition") == 1, found
        assert len(found) == len(set(found)), found
