"""``subject-answer``, reported as ``giveaway`` (kb/writing/check_label_answer.py): a multiple choice whose right
option is the deck's subject, which the stem's setting names: «Em PPO, qual termo corresponde a esta descrição:
«clipping de 1ª ordem; …»?» → PPO (round 25, ppo_pt: all three fresh raters dropped it). A subject that is not the
right option gives nothing away."""

from __future__ import annotations

from kb.quiz import Question
from kb.writing.check_label_answer import subject_answer
from kb.writing.checklist import CheckContext, run_checks


def _mcq(prompt: str, choices: tuple[str, ...], correct: int) -> Question:
    return Question("mcq", prompt, choices[correct], (), lang="pt", choices=choices, correct=correct)


def test_the_subject_named_in_the_setting_is_no_answer_to_ask():
    q = _mcq("Em PPO, qual termo corresponde a esta descrição: «clipping de 1ª ordem; várias épocas por lote; simples "
             "e robusto»?", ("REINFORCE", "PPO", "A2C", "TRPO"), 1)
    assert "giveaway" in run_checks(q, CheckContext(passage=""))


def test_another_right_option_is_judged_as_before():
    q = _mcq("Em PPO, qual termo corresponde a esta descrição: «estimador de vantagem com média exponencial dos "
             "resíduos TD»?", ("GAE", "PPO", "KL adaptativo", "Entropia"), 0)
    assert "giveaway" not in run_checks(q, CheckContext(passage=""))


def test_the_decks_subject_is_no_answer_to_ask_in_its_quiz():
    # (round 30, gpusort_es: "En PyTorch, ¿qué término corresponde a esta descripción: «una primitiva básica …»?"
    # → ordenación, in a deck whose every stem opens "En ordenación en GPU,")
    q = _mcq("En PyTorch, ¿qué término corresponde a esta descripción: «una primitiva básica: aparece dentro de muchas "
             "operaciones de alto nivel»?", ("ordenación", "radix sort", "merge path", "bitonic sort"), 0)
    assert "giveaway" in run_checks(q, CheckContext(passage="", subject="ordenación en GPU"))
    cloze = Question("cloze", "Completa el espacio en blanco: La _____ es una primitiva básica.", "ordenación", (),
                     lang="es")
    assert "giveaway" in run_checks(cloze, CheckContext(passage="", subject="ordenación en GPU"))
    # a word of the subject shorter than a name ("GPU") and another right option give nothing away
    other = _mcq("¿Qué término corresponde a esta descripción: «ordena por dígitos, de menos a más significativo»?",
                 ("radix sort", "merge path", "bitonic sort", "GPU"), 0)
    assert "giveaway" not in run_checks(other, CheckContext(passage="", subject="ordenación en GPU"))
    gpu = _mcq("¿Qué término corresponde a esta descripción: «procesador con miles de hilos»?",
               ("CPU", "GPU", "TPU", "FPGA"), 1)
    assert subject_answer(gpu, "ordenación en GPU") is None

