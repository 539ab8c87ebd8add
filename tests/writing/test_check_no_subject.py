"""``no-subject`` is one rule in one place (:mod:`kb.writing.check_subject`), registered once: a statement to
complete or judge that opens on a conjugated verb ("Distribuye (shards) la copia al _____ …") and a sentence to
complete that opens, after its setting, on "se" ("En cuDNN, se fijan una vez …") are both flagged by the
registry's ``no-subject`` entry and by no other entry; the forms that say their subject pass."""

from __future__ import annotations

from kb.quiz import Question
from kb.writing.checklist import CHECKS, CheckContext, run_checks
from kb.writing.checks import vocabulary

PASSAGE = """Distribuye (shards) la copia al Layout solicitado. El Layout define cómo distribuir.
Se fijan una vez al inicio: las semillas y los flags de cuDNN.
Se recomienda un periodo de calentamiento sin compresión.
Utiliza la opción pin_memory del DataLoader."""


def cloze(body: str, answer: str) -> Question:
    return Question("cloze", f"Completa el espacio en blanco: {body}", answer, (), (answer,), lang="es")


def entries_saying_no_subject(q: Question) -> set[str]:
    ctx = CheckContext(PASSAGE, PASSAGE, vocabulary(PASSAGE))
    return {name for name, check in CHECKS.items() if "no-subject" in check(q, ctx)}


def test_a_sentence_opening_on_a_verb_or_on_se_has_no_subject_by_one_entry() -> None:
    on_verb = cloze("Distribuye (shards) la copia al _____ solicitado.", "Layout")
    on_se = cloze("En cuDNN, se fijan una vez al inicio del _____.", "script")
    also_se = cloze("También se puede pasar un _____ de calentamiento.", "periodo")
    for q in (on_verb, on_se, also_se):
        assert entries_saying_no_subject(q) == {"no-subject"}, q.prompt


def test_a_sentence_that_says_its_subject_passes() -> None:
    ctx = CheckContext(PASSAGE, PASSAGE, vocabulary(PASSAGE))
    own = cloze("En el lanzador, se recomienda un periodo de _____ sin compresión.", "calentamiento")
    instruction = cloze("Utiliza la opción _____ del DataLoader.", "pin_memory")
    noun = cloze("El Layout define cómo _____.", "distribuir")
    for q in (own, instruction, noun):
        assert "no-subject" not in run_checks(q, ctx), q.prompt


def test_a_sentence_on_se_after_an_instruction_with_its_context_in_brackets_has_no_subject() -> None:
    q = Question("cloze", "Completa el espacio en blanco (cuDNN: Semillas): se fijan una vez al inicio del _____.",
                 "script", (), ("script",), lang="es")
    assert entries_saying_no_subject(q) == {"no-subject"}
