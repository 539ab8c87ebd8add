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


# round 31's raters fixed concepts whose formula lost a bracket of symbols ("Combinação de dois pares e (m_b, d_b)",
# "E[ grad log p(z)]", "f(g) = exp(-)") or its symbol ("soma_s x O_s" of "O = soma_s (w_s / W) x O_s"): a bracket
# of symbols is part of the formula, an aside's words are not
@pytest.mark.parametrize("answer, prompt, kept", [
    ("Cada thread produz um par parcial (m, d). Combinação de dois pares (m_a, d_a) e (m_b, d_b): "
     "D = d_a x exp(m_a - M) + d_b x exp(m_b - M).", "Em softmax na GPU, o que é o operador de combinação?",
     "(m_a, d_a) e (m_b, d_b)"),
    ("Reducción de varianza: restar un baseline b (media móvil de f o una red que la estima): "
     "E[(f(z) - b) grad log p(z)] sigue siendo insesgado.", "Explica el estimador de función score.",
     "E[(f(z) - b) grad log p(z)]"),
    ("CDF: F(g) = exp(-exp(-g)). Densidad: f(g) = exp(-(g + exp(-g))).", "¿Qué es la distribución Gumbel?",
     "f(g) = exp(-(g + exp(-g)))"),
    ("Passo 1: M = max_s LSE_s. Passo 2: w_s = exp(LSE_s - M) para cada split (valores em (0, 1], sem overflow). "
     "Passo 3: W = soma_s w_s. Passo 4: O = soma_s (w_s / W) x O_s.",
     "Em Flash-Decoding, explique passo a passo a redução final.", "M = max_s LSE_s"),
])
def test_a_bracket_of_symbols_stays_in_its_formula(answer, prompt, kept):
    concepts = point_concepts(answer, prompt, "es" if "¿" in prompt else "pt")
    assert any(kept in c for c in concepts), concepts
    assert not [c for c in concepts if _garbled(c)], concepts
    assert not any("media móvil" in c for c in concepts), concepts  # (an aside's words stay out)


def test_a_half_open_interval_does_not_run_the_points_together():
    answer = ("Passo 2: w_s = exp(LSE_s - M) para cada split (valores em (0, 1], sem overflow). "
              "Passo 3: W = soma_s w_s. Passo 4: O = soma_s (w_s / W) x O_s.")
    concepts = point_concepts(answer, "Em Flash-Decoding, explique passo a passo a redução final.", "pt")
    assert not any("Passo 3" in c and "Passo 4" in c for c in concepts), concepts
    assert any(c.startswith("Passo 4: O = ") for c in concepts), concepts


@pytest.mark.parametrize("answer, aside", [
    ("El warmup - (ver nota) estabiliza el inicio del entrenamiento.", "(ver nota)"),  # (a dash, no minus)
    ("Usa mixed precision (FP16/BF16) para ahorrar memoria en el entrenamiento.", "(FP16/BF16)"),  # (a name's slash)
])
def test_an_aside_is_no_formula_s_bracket(answer, aside):
    concepts = point_concepts(answer, "¿Cómo se entrena?", "es")
    assert concepts and not any(aside in c for c in concepts), concepts


def test_a_code_name_with_a_math_prefix_is_no_formula():
    answer = "La ventana de contexto limita la longitud de la secuencia.\nn_ctx = max_position_embeddings\nlr = min_lr"
    concepts = point_concepts(answer, "¿Qué limita la secuencia?", "es")
    assert concepts and not any("max_position" in c or "min_lr" in c for c in concepts), concepts
