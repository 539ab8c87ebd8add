"""One registry of checks (:mod:`kb.writing.checklist`): the offline writer, the LLM writer and
``kb eval quiz`` all run it, so a defect one of them sees the others see too."""

from __future__ import annotations

import json

from kb.quiz import Citation, Question, Quiz, save_quiz
from kb.writing.checklist import CHECKS, CheckContext, run_checks

from ..conftest import run_kb

PASSAGE = ("El DataLoader ofrece varias configuraciones. La opción shuffle mezcla los datos en cada época. "
           "Los datos se cargan en lotes.")


def _q(**kw) -> Question:
    base = dict(type="cloze", prompt="Completa: La opción shuffle mezcla los _____ en cada época.", answer="datos",
                lang="es", citations=(Citation("x.md", "", "c1", "La opción shuffle mezcla los datos en cada época."),))
    base.update(kw)
    return Question(**base)


def test_the_checks_once_private_to_the_offline_writer_are_in_the_registry():
    assert {"named-in-stem", "bare-attribute", "trivial-blank", "answer-language", "cut-off", "giveaway",
            "unsupported", "source"} <= set(CHECKS)


def test_a_blank_on_an_everyday_word_is_trivial():
    # (prose-blank skipped: this pins the everyday-word check, which tells "datos" from "shuffle")
    assert "trivial-blank" in run_checks(_q(), CheckContext(PASSAGE), skip=frozenset({"prose-blank"}))
    ok = _q(prompt="Completa: La opción _____ mezcla los datos en cada época.", answer="shuffle")
    # (a blank on no code entity is turned down as a class since prose-blank; the everyday-word check itself
    # tells a course word from an everyday one)
    assert "trivial-blank" not in run_checks(ok, CheckContext(PASSAGE), skip=frozenset({"prose-blank"}))
    assert "trivial-blank" in run_checks(ok, CheckContext(PASSAGE))


def test_a_blank_on_a_verb_needs_the_courses_verb_test():
    passage = "El DistributedSampler particiona el conjunto de datos entre los procesos."
    q = _q(prompt="Completa: El DistributedSampler _____ el conjunto de datos entre los procesos.",
           answer="particiona", citations=(Citation("x.md", "", "c1", passage),))
    assert "trivial-blank" in run_checks(q, CheckContext(passage, verb_like=lambda w: w == "particiona"),
                                         skip=frozenset({"prose-blank"}))
    assert "trivial-blank" not in run_checks(q, CheckContext(passage, verb_like=lambda w: False),
                                             skip=frozenset({"prose-blank"}))


def test_an_answer_in_another_language_than_its_stem():
    q = _q(type="short", prompt="¿Qué hace la opción shuffle del DataLoader?",
           answer="It shuffles the data at every epoch of the training loop.")
    assert "answer-language" in run_checks(q, CheckContext(PASSAGE))
    assert "answer-language" not in run_checks(q, CheckContext(PASSAGE), skip=frozenset({"answer-language"}))


def test_eval_quiz_runs_the_registry(ingested_workspace):
    """A cloze on an everyday word, which only the offline writer used to turn down, is now a defect
    ``kb eval quiz`` reports too."""
    from kb.config import Settings
    from kb.store import open_store

    store = open_store(Settings(home=ingested_workspace / ".kb"))
    chunk = next(c for c in store.all_chunks() if not c.is_code and c.kind != "transcript" and " dados " in c.text)
    sentence = next(s for s in chunk.text.replace("\n", " ").split(". ") if " dados " in s).strip()
    prompt = "Complete a lacuna: " + sentence.replace(" dados ", " _____ ", 1).rstrip(".") + "."
    q = Question(type="cloze", prompt=prompt, answer="dados", lang="pt",
                 citations=(Citation(chunk.source, chunk.locator.describe(), chunk.id, sentence),))
    path = ingested_workspace / "q.json"
    save_quiz(Quiz(title="t", questions=(q,), created_at="2026-01-01T00:00:00+00:00"), path)
    r = run_kb(["eval", "quiz", str(path), "--json"], cwd=ingested_workspace)
    assert r.returncode == 0, r.stderr
    per = json.loads(r.stdout)["per_question"][0]
    assert "trivial-blank" in per["defects"]


def test_eval_quiz_reads_the_decks_subject_as_the_writers_do(ingested_workspace):
    """A multiple choice answered by a word of its deck's subject (the setting every stem of the deck's quiz carries)
    is a giveaway for ``kb eval quiz`` as for the writers (subject-answer)."""
    from kb.config import Settings
    from kb.store import open_store
    from kb.writing.course import CourseTerms
    from kb.writing.subject import deck_subject

    chunks = list(open_store(Settings(home=ingested_workspace / ".kb")).all_chunks())
    course = CourseTerms(chunks, None)
    subject, chunk = next((s, c) for c in chunks if not c.is_code and c.kind != "transcript"
                          and len(max((s := deck_subject(course, c.source)).split() or [""], key=len)) >= 5)
    word = max(subject.split(), key=len)
    choices = (word, "alfa beta", "gama delta", "épsilon zeta")
    q = Question(type="mcq", prompt="¿Qué término corresponde a esta descripción: «lo que estudia esta parte»?",
                 answer=word, lang=chunk.lang, choices=choices, correct=0,
                 citations=(Citation(chunk.source, chunk.locator.describe(), chunk.id, chunk.text[:200]),))
    path = ingested_workspace / "subject.json"
    save_quiz(Quiz(title="t", questions=(q,), created_at="2026-01-01T00:00:00+00:00"), path)
    r = run_kb(["eval", "quiz", str(path), "--json"], cwd=ingested_workspace)
    assert r.returncode == 0, r.stderr
    assert "giveaway" in json.loads(r.stdout)["per_question"][0]["defects"], (subject, word)
