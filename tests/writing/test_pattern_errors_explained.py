"""A common-mistakes slide's bullet "mistake: explanation" (299 of the 658 bullets of rounds 19-24's 100 such slides;
20 read "mistake -> consequence", the form :mod:`kb.writing.pattern_errors` asked alone) is asked why it is a mistake,
answered by the explanation; where the explanation is a remedy (an infinitive first) it is asked what to do instead.
A label ("Memoria: …"), a colon inside brackets ("(ex: CLIP, 0.5/0.5)") or a bullet with no colon asks nothing.

The class was counted on rounds 19-24's decks; the end-to-end checks run on round 16-18 decks (labelsmooth_es,
nerf_pt, timm_pt), rendered as eval/deck_pdf.py renders them, through the public API.
"""

from __future__ import annotations

import pytest

from kb.writing.pattern_errors import PER_SLIDE, error_forms, explained

from ..conftest import deck_quizzes, heldout_decks

DECKS = ("labelsmooth_es", "nerf_pt", "timm_pt")


def test_a_mistake_and_its_explanation_are_read_from_a_bullet():
    text = ("Errores comunes\n• Olvidar guardar scheduler.state_dict(): al reanudar se repite el warmup\n"
            "• Memoria: usar gradient checkpointing\n"
            "• Usar mean/std de ImageNet de memoria con otro peso (ej: CLIP, 0.5/0.5)\n"
            "• Fijar la semilla solo en el rank 0 -> los modelos divergen entre procesos\n"
            "• ¿Por qué falla el modelo?: nadie lo sabe todavía\n"
            "• Olvidar model.eval() antes de validar")
    assert explained(text) == [("Olvidar guardar scheduler.state_dict()", "al reanudar se repite el warmup")]


def test_it_is_asked_why_it_is_a_mistake_or_what_to_do_instead():
    passage = ("• Aplicar softmax antes de CrossEntropyLoss: la pérdida ya incluye log_softmax\n"
               "• Evaluar el modelo solo con error a un paso: medir también el error en rollouts multi-paso")
    assert error_forms("Errores comunes", passage, "label smoothing", "es") == [
        ("En label smoothing, ¿por qué es un error frecuente «Aplicar softmax antes de CrossEntropyLoss»?",
         "La pérdida ya incluye log_softmax."),
        ("En label smoothing, ¿qué se debe hacer en lugar de esto: «Evaluar el modelo solo con error a un paso»?",
         "Medir también el error en rollouts multi-paso.")]
    pt = error_forms("Erros comuns", "• Não normalizar a escala da cena: t_near/t_far errados", "NeRF", "pt")
    assert pt == [("Em NeRF, por que é um erro comum «Não normalizar a escala da cena»?", "T_near/t_far errados.")]
    en = error_forms("Common mistakes", "• Calling optimizer.step() twice per batch: the learning rate doubles", "",
                     "en")
    assert en == [("Why is «Calling optimizer.step() twice per batch» a common mistake?", "The learning rate doubles.")]


@pytest.fixture(scope="module")
def quizzes(tmp_path_factory, model_cache):
    return deck_quizzes(tmp_path_factory.mktemp("errors_explained"), heldout_decks(DECKS), DECKS, model_cache)


def _why(qs):
    return [q for q in qs if "por qué es un error frecuente" in q.prompt or "por que é um erro comum" in q.prompt]


@pytest.mark.slow
def test_round_16_18_decks_ask_their_mistakes_why(quizzes):
    asked = {name: _why(qs) for name, qs in quizzes.items()}
    assert sum(bool(v) for v in asked.values()) >= 2, {k: [q.prompt for q in v] for k, v in quizzes.items()}
    for name, qs in quizzes.items():
        mistakes = [q for q in qs if "erro" in q.prompt.split(",")[-1] or "en lugar de esto" in q.prompt
                    or "em vez disto" in q.prompt]
        assert len(mistakes) <= PER_SLIDE, [q.prompt for q in mistakes]
        assert len(qs) >= 10, name
    for q in (q for v in asked.values() for q in v):
        cause = q.prompt.split("«", 1)[1].rsplit("»", 1)[0]
        assert cause.count("(") == cause.count(")"), q.prompt  # (never cut inside brackets)
        assert q.answer.endswith(".") and ":" not in q.answer[:2] and q.concepts, (q.prompt, q.answer)


def test_a_colon_in_code_or_after_a_numbered_label_splits_nothing():
    text = ("• Usar lambda x: x + 1 como collate_fn con num_workers > 0\n"
            "• Escribir `if x: return` sin else en el bucle\n"
            "• Error típico 1: olvidar llamar a zero_grad() antes de backward")
    assert explained(text) == []
