"""A "which term matches this description" whose description writes a code name with the answer library's
usual prefix ("np.random.seed" → NumPy, "torch.manual_seed" → PyTorch) gives the answer away: the registry
reports ``answer-in-description``, so the writers drop it and
``kb eval quiz`` flags it. (The class was read on eval/real_heldout_r12's drops; the wordings here are new.)"""

from __future__ import annotations

from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, question_defects, run_checks

CITE = (Citation("repro_es.pdf", "p. 4", "", ""),)
PAGE = """Semillas por biblioteca
• NumPy: np.random.default_rng(s) crea un generador local con su propia semilla
• PyTorch: torch.manual_seed(s) siembra la CPU y todos los dispositivos
• Python: random.seed(s) y PYTHONHASHSEED para el hash de cadenas
• JAX: las claves se pasan explícitamente, sin estado global"""
CHOICES = ("NumPy", "PyTorch", "Python", "JAX")


def _which(description: str, answer: str) -> Question:
    return Question("mcq", f"En reproducibilidad, ¿qué término corresponde a esta descripción: «{description}»?",
                    answer, CITE, lang="es", choices=CHOICES, correct=CHOICES.index(answer))


def test_a_description_that_writes_the_answer_library_prefix_is_flagged():
    q = _which("np.random.default_rng(s) crea un generador local con su propia semilla", "NumPy")
    assert "answer-in-description" in question_defects(q, CheckContext(PAGE, PAGE))
    q = _which("torch.manual_seed(s) siembra la CPU y todos los dispositivos", "PyTorch")
    assert "answer-in-description" in run_checks(q, CheckContext(PAGE, PAGE))  # the writers drop it too


def test_a_description_without_the_library_code_name_passes():
    q = _which("las claves se pasan explícitamente, sin estado global", "JAX")
    assert "answer-in-description" not in question_defects(q, CheckContext(PAGE, PAGE))
    # another library's code name says nothing of this answer
    q = _which("como torch.manual_seed, pero las claves se pasan explícitamente", "JAX")
    assert "answer-in-description" not in question_defects(q, CheckContext(PAGE, PAGE))


def test_a_short_question_is_not_a_naming_choice():
    q = Question("short", "¿Qué hace np.random.default_rng(s) en NumPy?", "Crea un generador local con su semilla.",
                 CITE, ("generador local",), lang="es")
    assert "answer-in-description" not in question_defects(q, CheckContext(PAGE, PAGE))
