"""«¿qué significa «X»?» asked where the text after the label does not say what X means: it says what to do
about a label in the deck's own words ("Reproducibilidad: fijar la semilla"), when X is better than another
("mais informativa que ROC-AUC quando …"), or X is itself an action ("Escalar el LR"). The registry reports
``not-a-definition``; what a technique does ("Weight decay: encoger los pesos …", "recalcular activaciones en
backward para ahorrar memoria") is its definition.
Wordings from eval/real_heldout_r7 (the class was written on them) and eval/real_heldout_r6 (checked on)."""

from __future__ import annotations

import pytest

from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, question_defects, run_checks


def _means(subject: str, label: str, body: str, lang: str) -> Question:
    prompt = (f"En {subject}, ¿qué significa «{label}»?" if lang == "es"
              else f"Em {subject}, o que significa «{label}»?")
    answer = f"{label}: {body}"
    return Question(type="short", prompt=prompt, answer=answer, concepts=(body.split()[-1],), lang=lang,
                    citations=(Citation("deck.pdf", "p. 3", "c1", answer),), origin="plain")


NOT_DEFINED = [
    ("decodificación", "Reproducibilidad", "fijar la semilla (torch.manual_seed / set_seed).", "es"),
    ("classes desbalanceadas", "Custo assimétrico", "escolher o limiar que minimiza custo = c_FN · FN + c_FP · FP",
     "pt"),
    ("classes desbalanceadas", "Métricas", "agregar TP/FP/FN de todos os ranks antes de calcular F1", "pt"),
    ("classes desbalanceadas", "PR-AUC (average precision)", "mais informativa que ROC-AUC quando positivos são raros",
     "pt"),
    ("batch size", "Escalar el LR", "lineal (SGD) o raíz (Adam) como punto de partida", "es"),
    ("quantização vetorial", "Quantizar em estágios", "cada codebook quantiza o resíduo do anterior", "pt"),
]

DEFINED = [
    ("funciones de activación", "\"dying ReLU\"", "neuronas que quedan siempre a 0", "es"),
    ("funciones de activación", "Activation checkpointing", "recalcular activaciones en backward para ahorrar memoria",
     "es"),
    ("optimizadores", "Weight decay", "encoger los pesos directamente en cada paso: theta <- theta - lr · theta",
     "es"),
    ("rastreamento de experimentos", "MLflow Projects",
     "empacotar código + ambiente (MLproject) para execução reprodutível.", "pt"),
    ("rastreamento de experimentos", "mlflow.autolog()", "ativa logging automático para as bibliotecas suportadas",
     "pt"),
    ("pipelines de datos", "default_collate", "apila tensores (torch.stack), convierte números y arrays numpy", "es"),
]


@pytest.mark.parametrize(("subject", "label", "body", "lang"), NOT_DEFINED)
def test_a_meaning_answered_by_what_to_do_or_when_is_flagged(subject, label, body, lang):
    q = _means(subject, label, body, lang)
    ctx = CheckContext(q.answer)
    assert "not-a-definition" in run_checks(q, ctx)
    assert "not-a-definition" in question_defects(q, ctx)  # kb eval quiz reports it too


@pytest.mark.parametrize(("subject", "label", "body", "lang"), DEFINED)
def test_a_meaning_the_text_defines_passes(subject, label, body, lang):
    q = _means(subject, label, body, lang)
    assert "not-a-definition" not in run_checks(q, CheckContext(q.answer))


def _idea(name: str, body: str):
    from kb.outline import Idea

    return Idea("definition", name, f"{name}: {body}", "Decodificación", "p. 12 · Sampling: muestrear", ("c1",))


def test_the_plain_question_asks_what_the_text_says():
    from kb.writing.plan import plain_forms

    subject = "decodificación en modelos sequence-to-sequence"
    (do,) = plain_forms(_idea("Reproducibilidad", "fijar la semilla con torch.manual_seed o con set_seed antes de "
                                                  "generar"), subject, "es")
    assert do[0] == f"En {subject}, ¿qué se recomienda hacer en cuanto a «Reproducibilidad»?"
    (when,) = plain_forms(_idea("PR-AUC", "más informativa que ROC-AUC cuando los positivos son raros en el "
                                          "conjunto"), subject, "es")
    assert when[0] == f"En {subject}, ¿cuándo conviene usar «PR-AUC»?"
    assert plain_forms(_idea("Escalar el LR", "lineal con SGD o raíz con Adam como punto de partida razonable"),
                       subject, "es") == []
    (means,) = plain_forms(_idea("Top-k sampling", "conservar solo los k tokens más probables, renormalizar y "
                                                   "muestrear"), subject, "es")
    assert means[0] == f"En {subject}, ¿qué significa «Top-k sampling»?"
