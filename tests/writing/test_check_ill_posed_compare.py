"""A "difference between A and B" whose A and B are one thing, or a fragment of a slide's sentence,
asks nothing a student could answer (``ill-posed-compare``)."""

from __future__ import annotations

from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, run_checks

PASSAGE = ("Não estruturada vs estruturada. Não estruturada: zera pesos individuais; esparsidade alta, "
           "ganho real só com kernels esparsos. Estruturada: remove canais ou cabeças inteiras; o modelo "
           "fica menor e mais rápido em qualquer hardware.")


def _short(prompt: str, answer: str) -> Question:
    return Question(type="short", prompt=prompt, answer=answer, lang="pt",
                    citations=(Citation("poda.pdf", "p. 5", "c1", answer),))


def test_a_thing_compared_with_itself():
    q = _short("Em poda de redes, qual é a diferença entre Estruturada e Estruturada?",
               "Estruturada: remove canais ou cabeças inteiras; o modelo fica menor e mais rápido.")
    assert "ill-posed-compare" in run_checks(q, CheckContext(PASSAGE))


def test_a_side_that_opens_on_a_function_word_is_a_sentence_fragment():
    q = _short("Em Kubernetes, qual é a diferença entre apiVersion e no pod?",
               "apiVersion: v1; no pod o volume é montado em /ckpt.")
    assert "ill-posed-compare" in run_checks(q, CheckContext(PASSAGE + " apiVersion: v1; no pod o volume é montado."))


def test_two_terms_are_compared():
    q = _short("Em poda de redes, qual é a diferença entre poda não estruturada e poda estruturada?",
               "Não estruturada: zera pesos individuais. Estruturada: remove canais ou cabeças inteiras.")
    assert "ill-posed-compare" not in run_checks(q, CheckContext(PASSAGE))


def test_a_side_that_is_a_slide_s_closing_remark_is_no_thing():
    # (a table's last label read as a side: round 27's raters fixed or dropped all six ratings of these two)
    q = _short("Em MobileNet v1, v2 e v3, qual é a diferença entre MobileNetV3-Small e Tendência?",
               "MobileNetV3-Small: 67,4% top-1 / 56M MACs. Tendência: NAS e atenção leve dominam.")
    assert "ill-posed-compare" in run_checks(q, CheckContext(PASSAGE))
    q = _short("En LayerNorm y RMSNorm, ¿qué diferencia hay entre Mistral, Qwen, Gemma y Tendencia?",
               "Mistral, Qwen, Gemma: pre-norm con RMSNorm. Tendencia: pre-norm + RMSNorm es hoy el estándar.")
    assert "ill-posed-compare" in run_checks(q, CheckContext(PASSAGE))
