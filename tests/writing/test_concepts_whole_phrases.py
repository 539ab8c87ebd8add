"""A short question's concepts are whole phrases of its model answer (:func:`kb.writing.concepts.phrase_concepts`),
never cut mid-phrase — the class fresh raters fixed most on the real held-out decks (eval/real_heldout_r3..r5:
"Contiene parámetros de configuración del optimizador, ej", "vez el modelo ha sido entrenado", "Curva ROC Es el
balance entre el true positive rate", "Word-Error-Rate Es una técnica de Score de modelos apta")."""

from __future__ import annotations

from kb.writing.concepts import phrase_concepts


def test_an_abbreviation_is_no_sentence_end_and_the_example_it_opens_goes_with_it():
    got = phrase_concepts("defaults (dict): Contiene parámetros de configuración del optimizador, ej. lr "
                          "(learning rate).", "En optimizadores, ¿qué significa «defaults (dict)»?")
    assert got == ("Contiene parámetros de configuración del optimizador",)
    assert not any(c.endswith((" ej", ", ej")) for c in got)


def test_a_fixed_expression_keeps_its_article():
    got = phrase_concepts("Una vez el modelo ha sido entrenado, se debería desactivar el mecanismo de autograd: "
                          "No es necesario, los pesos no se van a modificar", "¿Por qué se desactiva autograd?")
    assert got[0].startswith("Una vez el modelo ha sido entrenado")


def test_between_a_and_b_is_one_phrase():
    got = phrase_concepts("Muestra el balance entre la tasa de verdaderos positivos del clasificador y la tasa de "
                          "falsos positivos para distintos umbrales de clasificación.", "¿Qué muestra la curva ROC?")
    assert got[0] == ("Muestra el balance entre la tasa de verdaderos positivos del clasificador y la tasa de falsos "
                      "positivos")


def test_the_term_before_a_capitalised_copula_is_not_a_concept():
    for answer in ("Curva ROC Es el balance entre el true positive rate (TPR) y el false positive rate (FPR) para "
                   "distintos umbrales de clasificación.",
                   "Word-Error-Rate (WER) Es una técnica de Score de modelos apta para aplicaciones de reconocimiento "
                   "de habla (speech recognition). Compara la salida esperada con la obtenida."):
        got = phrase_concepts(answer, "¿Qué es " + answer.split(" Es ")[0] + "?")
        assert got and not any(" Es " in c for c in got), got
