"""A short answer's key concept is never garbled by the cut that makes it (issue 26, garble29): fresh raters of
rounds 14 and 15 fixed concepts such as "2*/N", "Se envían * r valores", "N_opt = ** 0.5", "sum(dy *" and
"Hoffmann et" (a sentence cut at "et al."). A formula keeps its brackets, a sentence is not cut at an
abbreviation's period, and no concept ends on an operator or a stub, nor leaves a bracket open. Through the public
API (``generate_quiz``, offline writer) on a real PDF, and on :func:`point_concepts` itself."""

from __future__ import annotations

import re

import pytest

from kb.writing.answer_points import point_concepts

from ..conftest import deck_quizzes, text_deck

DECK = """=== Compresión de gradientes
• Curso de entrenamiento distribuido: comunicar menos bytes por paso
=== Por qué comprimir: el ancho de banda
• En data parallel, cada paso sincroniza un gradiente del mismo tamaño que el modelo
• Ring all-reduce envía unas 2*(N-1)/N veces ese volumen por GPU
• Con Ethernet de 10-25 Gbit/s entre nodos, la comunicación domina sobre el cómputo
=== PowerSGD: idea
• Vogels et al. (2019): aproximar cada gradiente matricial M (n x m) con rango r pequeño
• Se envían (n + m) * r valores en lugar de n * m
• Q se reutiliza del paso anterior y se usa error feedback
=== Forma de Chinchilla
• La pérdida no puede bajar de la entropía del propio texto: hay un término constante E
• Forma paramétrica de Hoffmann et al. (Chinchilla): L(N, D) = E + A / N**alpha + B / D**beta
• El término A / N**alpha es el error por modelo finito y B / D**beta el error por datos finitos
"""

# a concept a cut garbled: an operator without its operand, a stub of "et al." / "e.g.", an open bracket
_GARBLED = re.compile(r"(?:[*/=+^\\-]|\*\*)\s*$|[=+*/]\s*[*/]|\b(?:et|al|e\.g|p\. ej)\.?$|[a-zñáéíóú]{3} \* ")


def _garbled(c: str) -> bool:
    c = c.replace("**", "^")
    return bool(_GARBLED.search(c)) or c.count("(") != c.count(")") or c.count("[") != c.count("]")


@pytest.fixture(scope="module")
def quizzes(tmp_path_factory, model_cache):
    return deck_quizzes(tmp_path_factory.mktemp("garbled"), text_deck("garble_es", DECK), ("garble_es",),
                        model_cache, n=12)


def test_no_concept_of_a_deck_with_formulas_is_garbled(quizzes):
    shorts = [q for q in quizzes["garble_es"] if q.type == "short" and q.concepts]
    assert shorts, [(q.type, q.prompt) for q in quizzes["garble_es"]]
    bad = [(q.prompt, c) for q in shorts for c in q.concepts if _garbled(c)]
    assert not bad, bad


@pytest.mark.parametrize("answer", [
    "Ring all-reduce envía unas 2*(N-1)/N veces ese volumen por GPU. La comunicación domina sobre el cómputo.",
    "Se envían (n + m) * r valores en lugar de n * m. Q se reutiliza del paso anterior con error feedback.",
    "Forma paramétrica de Hoffmann et al. (Chinchilla): L(N, D) = E + A / N**alpha + B / D**beta. "
    "La pérdida no puede bajar de la entropía del propio texto.",
    "N_opt = (C / 120) ** 0.5 da el tamaño del modelo. D_opt crece igual que N_opt con el cómputo disponible.",
])
def test_a_point_with_a_formula_gives_a_whole_concept_or_none(answer):
    concepts = point_concepts(answer, "Explica la compresión de gradientes.", "es")
    assert concepts, answer
    assert not [c for c in concepts if _garbled(c)], concepts
    # a formula's bracket is kept with it, not cut out as an aside
    assert not any(re.search(r"\*\s*/|=\s*\^|envían \*", c.replace("**", "^")) for c in concepts), concepts
