"""kb ask offline (issue 30): a question word that a passage holds only inside a longer identifier or word is not the
question's subject being named there. "¿Qué archivos guarda un checkpoint del Trainer?" was answered "Com o Trainer,
basta gradient_checkpointing=True em TrainingArguments" from peft_pt's slide "Gradient checkpointing": another deck,
another sense ("checkpoint" inside gradient_checkpointing and checkpointing, "Trainer" beside TrainingArguments). The
store is real: the sample course with the held-out decks hftrainer_es and peft_pt rendered to PDFs."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.answer_rules import QuestionWords, is_compound
from kb.answering import _terms

from ..conftest import course_with_decks, heldout_decks
from .helpers import ask, cited_pages


@pytest.fixture(scope="module")
def course(tmp_path_factory, course_template) -> Path:
    """The sample course with hftrainer_es.pdf (the Trainer's checkpoints) and peft_pt.pdf (gradient checkpointing)."""
    return course_with_decks(tmp_path_factory.mktemp("compound"), heldout_decks(["hftrainer_es", "peft_pt"]),
                             course_template / ".kb")


def _named(question_words: str, text: str) -> set[str]:
    """The question's stems that ``text`` names (its terms as kb ask reads them, minus the ones it lacks anyway)."""
    stems = {t for t in _terms(question_words) if not t.startswith("=")}
    return stems & QuestionWords(question_words.split()).terms(text, _terms(text))


def test_snake_and_camel_case_are_compounds_a_dotted_path_is_names():
    assert is_compound("gradient_checkpointing") and is_compound("TrainingArguments") and is_compound("AdamW")
    assert not is_compound("checkpoint") and not is_compound("tf") and not is_compound("ZERO")


def test_a_word_inside_a_longer_identifier_or_word_does_not_name_it():
    assert _named("checkpoint", "• Com o Trainer, basta gradient_checkpointing=True em TrainingArguments") == set()
    assert _named("checkpoint", "Gradient checkpointing") == set()  # grown past an inflection: another word
    assert _named("Trainer", "TrainingArguments(output_dir='out')") == set()
    assert _named("Trainer", "class MyCallback(TrainerCallback)") == set()
    assert _named("Adam", "AdamW: opción por defecto") == set()


def test_the_word_itself_or_its_plural_names_it_and_a_dot_joins_names():
    assert _named("checkpoint", "Checkpoints y resume") == {"check"}
    assert _named("Trainer", "trainer.train(resume_from_checkpoint=True)") == {"train"}  # a dot joins names
    assert _named("LSTM", "layers.LSTM(64, return_sequences=True)") == {"lstm"}
    assert _named("pytorch", "PyTorch: detach()") == {"pytor"}
    assert _named("dataloader", "DataLoaders de validación") == {"datal"}
    # pt/es derive nouns from verbs: "configura" is named by "configuración" (only an English gerund is another word)
    assert _named("configura", "Configuración del clúster") == {"confi"}
    assert _named("offload optimizer", 'Offload do optimizer: "offload_optimizer": {"device": "cpu"}') == {
        "offlo", "optim"}


def test_a_checkpoint_question_is_not_answered_from_gradient_checkpointing(course):
    a = ask(course, "¿Qué archivos guarda un checkpoint del Trainer?")
    assert "gradient_checkpointing" not in a["answer"], a["answer"]
    assert not any(name == "peft_pt.pdf" for name, _ in cited_pages(a)), a["answer"]
    # found on the Trainer's deck, or not found with the Trainer's checkpoint slide among the passages shown
    assert all(name == "hftrainer_es.pdf" for name, _ in cited_pages(a)), a["answer"]
    assert a["found"] or any(Path(p["source"]).name == "hftrainer_es.pdf" and p["locator"]["page"] == 18
                             for p in a["passages"]), a["passages"]
