"""Clozes fresh raters dropped as trivial or subjectless (eval/real_heldout_r7), by class of text: a blank
right after a number ("las 4 _____" → GPUs: the count says what fills it) is ``trivial-blank``; a sentence
that opens on "se" and a verb with no noun after it ("Se combina a menudo con temperature y con _____": its
subject, top-p, was the slide's title) is ``no-subject``. Clozes round 6's raters kept pass."""

from __future__ import annotations

import pytest

from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, question_defects, run_checks


def _cloze(statement: str, answer: str, lang: str = "es") -> Question:
    head = "Completa el espacio en blanco: " if lang == "es" else "Complete a lacuna: "
    passage = statement.replace("_____", answer)
    return Question(type="cloze", prompt=head + statement, answer=answer, concepts=(answer,), lang=lang,
                    citations=(Citation("deck.pdf", "p. 9", "c1", passage),), origin="cloze")


def test_a_blank_after_a_count_is_trivial():
    q = _cloze("En Ring all-reduce, tras 3 pasos, GPU i tiene el chunk (i + 1) mod 4 sumado de las 4 _____.", "GPUs")
    # (prose-blank flags every blank on no code entity: skipped, so this pins the count's own check)
    assert "trivial-blank" in run_checks(q, CheckContext(q.citations[0].quote), skip=frozenset({"prose-blank"}))
    assert "trivial-blank" in question_defects(q, CheckContext(q.citations[0].quote))


def test_a_blank_on_a_name_every_deck_writes_is_trivial():
    q = _cloze("En Ring all-reduce, tras 3 pasos más, todas las _____ tienen los chunks sumados.", "GPUs")
    assert "trivial-blank" in run_checks(q, CheckContext(q.citations[0].quote), skip=frozenset({"prose-blank"}))


def test_a_sentence_whose_subject_is_left_out_has_no_subject():
    q = _cloze("Se combina a menudo con temperature y con _____.", "top-k")
    assert "no-subject" in run_checks(q, CheckContext(q.citations[0].quote))


@pytest.mark.parametrize(("statement", "answer", "lang"), [
    ("En ComplEx, mismo coste que _____ con 2d números reales.", "DistMult", "es"),
    ("En un Transformer grande, más del 90% de los FLOPs están en _____.", "GEMMs", "es"),
    ("Em rastreamento de experimentos, salvar checkpoints como _____ (pelo menos o melhor e o último).",
     "artifacts", "pt"),
    ("Se usa DistributedSampler para repartir los índices del dataset entre los _____.", "ranks", "es"),
])
def test_kept_clozes_pass(statement, answer, lang):
    q = _cloze(statement, answer, lang)
    # (these clozes raters kept; the subject and blank-form checks let them through. Their blanks are no code
    # entity, and since prose-blank the writers turn every such cloze down: the class is dropped far more often than
    # kept on every split, these with it — kb/writing/check_objective_kind.py)
    found = run_checks(q, CheckContext(q.citations[0].quote), skip=frozenset({"prose-blank"}))
    assert "no-subject" not in found and "trivial-blank" not in found
    assert ("trivial-blank" in run_checks(q, CheckContext(q.citations[0].quote))) is (answer != "DistMult")
