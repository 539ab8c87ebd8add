"""What teachers drop as trivial, flagged by the registry whoever wrote it (kb/writing/trivia.py)."""

from __future__ import annotations

from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, run_checks

_CITE = (Citation("deck.pdf", "p. 3", "", ""),)
_DECK = ("Transformaciones\nRandomCrop recorta la imagen; ColorJitter cambia el color.\n"
         "DataParallel\nLa clase DataParallel reparte los lotes. DataParallel usa varias GPUs.")


def _mcq(prompt: str, choices: tuple[str, ...]) -> Question:
    return Question("mcq", prompt, choices[0], _CITE, lang="es", choices=choices, correct=0, origin="mcq")


def test_a_step_number_or_a_file_extension_as_the_answer_is_trivia():
    q = _mcq("En PyTorch, ¿qué término corresponde a esta descripción: «scaler.update(): ajusta la escala»?",
             ("Paso 5", "Paso 4", "Paso 3", "Paso 2"))
    assert "trivia" in run_checks(q, CheckContext("Paso 5: scaler.update(): ajusta la escala"))
    q = _mcq("En PyTorch, ¿cuál es la extensión de archivo para guardar un modelo?", (".pth", ".csv", ".txt", ".py"))
    assert "trivia" in run_checks(q, CheckContext("Guarda el modelo en un archivo .pth con torch.save()"))


def test_a_name_the_deck_says_once_in_no_title_is_trivia():
    cloze = Question("cloze", "Completa el espacio en blanco: En PyTorch, RandomCrop recorta la imagen; _____ cambia "
                     "el color.", "ColorJitter", _CITE, lang="es", origin="cloze")
    assert "trivia" in run_checks(cloze, CheckContext(_DECK, source_text=_DECK))
    central = Question("cloze", "Completa el espacio en blanco: En PyTorch, la clase _____ reparte los lotes.",
                       "DataParallel", _CITE, lang="es", origin="cloze")
    assert "trivia" not in run_checks(central, CheckContext(_DECK, source_text=_DECK))


def test_a_true_definition_copied_from_the_slide_is_flagged_a_false_one_is_not():
    passage = "TensorBoard es un conjunto de herramientas de visualización para ML."
    true = Question("tf", f"¿Verdadero o falso? {passage}", "Verdadero.", _CITE, lang="es", correct=True, origin="tf")
    assert "copied-true" in run_checks(true, CheckContext(passage))
    false = Question("tf", "¿Verdadero o falso? TensorBoard es un formato de archivo para guardar modelos.",
                     "Falso.", (Citation("deck.pdf", "p. 3", "", passage),), lang="es", correct=False, origin="tf")
    assert "copied-true" not in run_checks(false, CheckContext(passage))


def test_what_an_everyday_word_means_is_a_trivial_term():
    a = "La arquitectura: estructura y disposición de las capas y operaciones que componen el modelo."
    q = Question("short", "En PyTorch, ¿qué significa «arquitectura»?", a, _CITE, lang="es", origin="definition")
    assert "trivial-term" in run_checks(q, CheckContext(a))
    layout = Question("short", "En DTensor, ¿qué significa «Layout»?", "Layout: define cómo distribuir un tensor.",
                      _CITE, lang="es", origin="definition")
    assert "trivial-term" not in run_checks(layout, CheckContext(layout.answer))
    # a word the deck gives a technical sense ("trial.report" in its answer) is the course's
    recurso = Question("short", "Em Optuna, o que é o recurso?", "O recurso é o step passado a trial.report.", _CITE,
                       lang="pt", origin="definition")
    assert "trivial-term" not in run_checks(recurso, CheckContext(recurso.answer))
