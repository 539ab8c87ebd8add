"""A slide aside or role label asked as the answer is flagged (eval/real_heldout_r8: "Moraleja", "Ojo; Alternativa")."""

from __future__ import annotations

from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, run_checks

_CITE = (Citation("deck.pdf", "p. 3", "", ""),)


def _which(description: str, choices: tuple[str, ...], lang: str = "es") -> Question:
    return Question("mcq", f"En IO, ¿qué término corresponde a esta descripción: «{description}»?", choices[0], _CITE,
                    lang=lang, choices=choices, correct=0, concepts=(choices[0],), origin="mcq")


def test_an_aside_label_as_the_answer_is_flagged_a_term_is_not():
    moral = _which("en GPU moderna, el cuello de botella suele ser mover datos", ("Moraleja", "FLOPs", "Memoria extra"))
    assert "slide-label-answer" in run_checks(moral, CheckContext("Moraleja: en GPU moderna, el cuello de botella"))
    term = _which("memoria rápida dentro del chip", ("SRAM", "HBM", "DRAM"))
    assert "slide-label-answer" not in run_checks(term, CheckContext("SRAM: memoria rápida dentro del chip"))


def test_asking_what_aside_labels_mean_is_flagged():
    prompt = ("En gradientes que explotan, ¿qué significa cada uno de estos elementos de «Diagnóstico en código»: "
              "Ojo; Alternativa?")
    answer = "Ojo: .item() sincroniza GPU y CPU; Alternativa: register_hook en tensores intermedios"
    q = Question("short", prompt, answer, _CITE, lang="es", concepts=(".item() sincroniza GPU y CPU",), origin="labels")
    assert "slide-label-answer" in run_checks(q, CheckContext(answer))
    terms = Question("short", prompt.replace("Ojo; Alternativa", "clip_grad_norm_; register_hook"), answer, _CITE,
                     lang="es", concepts=(".item() sincroniza GPU y CPU",), origin="labels")
    assert "slide-label-answer" not in run_checks(terms, CheckContext(answer))
