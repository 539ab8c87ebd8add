"""The offline grader's feedback sentences, by language: the verdict for each grade and the reasons.

Below both the grade record (:mod:`kb.grading.base`, whose override rewrites the opening verdict) and
the offline grader (:mod:`kb.grading.offline`, which writes them), so neither imports the other.
Stdlib only.
"""

from __future__ import annotations

# Feedback a student can act on, in the reply's language: the verdict and why, what was right, what
# is missing or wrong, and — when the grade is not full — the model answer's gist to compare with.
FEEDBACK: dict[str, dict[str, str]] = {
    "pt": {
        "3": "Correto.", "2": "Parcialmente correto (2/3).", "1": "Pouco completo (1/3).", "0": "Incorreto (0/3).",
        "right": "Está certo: {}.", "missing": "Faltou: {}.", "all_present": "Os conceitos-chave estão lá",
        "but_far": "mas a explicação não diz o mesmo que a resposta modelo.",
        "no_concepts_far": "A resposta diz pouco do que a resposta modelo diz.",
        "same_meaning": "A resposta diz o mesmo que a resposta modelo.",
        "other_language": "Avaliada pelo sentido: está em outra língua que a resposta modelo.",
        "off_topic": "A resposta não trata do que foi perguntado.",
        "copies_question": "A resposta repete a pergunta em vez de respondê-la.",
        "inverted_yes": "A resposta modelo diz que sim; a resposta diz o contrário.",
        "inverted_no": "A resposta modelo diz que não; a resposta diz o contrário.",
        "keyword_list": "Só palavras-chave: explique como elas se relacionam.",
        "swapped_roles": "A resposta troca os papéis de {} e {}: o que diz de um, a resposta modelo diz do outro.",
        "may_contradict": "Pode dizer o contrário da resposta modelo: «{}» onde ela diz «{}».",
        "expected": "Esperado: «{}»",
        "empty": "Sem resposta.",
    },
    "es": {
        "3": "Correcto.", "2": "Parcialmente correcto (2/3).", "1": "Poco completo (1/3).", "0": "Incorrecto (0/3).",
        "right": "Está bien: {}.", "missing": "Falta: {}.", "all_present": "Los conceptos clave están",
        "but_far": "pero la explicación no dice lo mismo que la respuesta modelo.",
        "no_concepts_far": "La respuesta dice poco de lo que dice la respuesta modelo.",
        "same_meaning": "La respuesta dice lo mismo que la respuesta modelo.",
        "other_language": "Evaluada por el sentido: está en otro idioma que la respuesta modelo.",
        "off_topic": "La respuesta no trata de lo que se pregunta.",
        "copies_question": "La respuesta repite la pregunta en lugar de responderla.",
        "inverted_yes": "La respuesta modelo dice que sí; la respuesta dice lo contrario.",
        "inverted_no": "La respuesta modelo dice que no; la respuesta dice lo contrario.",
        "keyword_list": "Solo palabras clave: explica cómo se relacionan.",
        "swapped_roles": "La respuesta intercambia los papeles de {} y {}: lo que dice de uno, la respuesta modelo "
                         "lo dice del otro.",
        "may_contradict": "Puede decir lo contrario de la respuesta modelo: «{}» donde ella dice «{}».",
        "expected": "Se esperaba: «{}»",
        "empty": "Sin respuesta.",
    },
    "en": {
        "3": "Correct.", "2": "Partly correct (2/3).", "1": "Incomplete (1/3).", "0": "Incorrect (0/3).",
        "right": "Right: {}.", "missing": "Missing: {}.", "all_present": "The key concepts are there",
        "but_far": "but the explanation does not say what the model answer says.",
        "no_concepts_far": "The reply says little of what the model answer says.",
        "same_meaning": "The reply says what the model answer says.",
        "other_language": "Graded on meaning: the reply is in another language than the model answer.",
        "off_topic": "The reply does not address the question.",
        "copies_question": "The reply repeats the question instead of answering it.",
        "inverted_yes": "The model answer says yes; the reply says the opposite.",
        "inverted_no": "The model answer says no; the reply says the opposite.",
        "keyword_list": "Only keywords: explain how they relate.",
        "swapped_roles": "The reply swaps the roles of {} and {}: what it says of one, the model answer says of "
                         "the other.",
        "may_contradict": "May say the opposite of the model answer: \"{}\" where it says \"{}\".",
        "expected": "Expected: «{}»",
        "empty": "No answer given.",
    },
}
