"""A short question's key concepts are the slide's point as a teacher keeps it (issue 26, concepts27): what the asked
term is first, then each item of the slide's list (a labelled list's items each with its term: "Partial: cada rank
tiene un valor parcial"); never a fragment ("Con n capas", "de lanzar kernels", "Tiene un coste", "mesmo código"),
worked numbers or an example ("C = 6 x 175e9 x 300e9 ~ 3,15e23 FLOPs", "modelo de 7B parâmetros"), a version
remark ("Disponible desde CUDA 10") or a code comment ("# RemovableHandle es context manager") — the classes of
the FIX reasons of rounds 11-12 (eval/real_heldout_r11, r12). ``kb eval quiz`` reports such a concept a quiz still
holds (``fragment-concept``).

Written on round 12's decks (dtensor_es, recompute_es, flops_pt, galore_pt), rendered as eval/deck_pdf.py renders
them, through the public API (``generate_quiz``, offline writer).
"""

from __future__ import annotations

import pytest

from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, question_defects, run_checks
from kb.writing.concept_faults import concept_fault

from ..conftest import deck_quizzes, heldout_decks

DECKS = ("dtensor_es", "recompute_es", "flops_pt", "galore_pt")


@pytest.mark.parametrize(("concept", "lang", "fault"), [
    # a fragment: opens on a preposition or adverbial, a subjectless verb, a word that needs its referent, a sign;
    # ends on a pronoun or a verb awaiting its object; one plain word
    ("Con n capas", "es", "fragment"), ("En el backward", "es", "fragment"), ("Na prática", "pt", "fragment"),
    ("de lanzar kernels", "es", "fragment"), ("Tiene un coste", "es", "fragment"),
    ("mesmo código", "pt", "fragment"), ("~ 8d^2 no total", "pt", "fragment"),
    ("batch o un modelo mayor, lo", "es", "fragment"), ("Cambiar la geometría exige", "es", "fragment"),
    ("modelo em si", "pt", "fragment"), ("GPU", "es", "fragment"),
    # worked numbers or an example instead of the rule
    ("C = 6 x 175e9 x 300e9 ~ 3,15e23 FLOPs", "pt", "instance"), ("h = 8192, s = 128k, b = 1", "es", "instance"),
    ("modelo de 7B parâmetros", "pt", "instance"), ("Salvou com 16 GPUs", "pt", "instance"),
    ("7 x 1g.5gb", "es", "instance"), ("4g.20gb + 2g.10gb + 1g.5gb", "es", "instance"),
    # a version remark, a code comment
    ("Disponible desde CUDA 10", "es", "trivia"),
    ("versiones recientes emiten un warning si no lo haces", "es", "trivia"),
    ("# RemovableHandle es context manager", "es", "code-shard"),
    # who proposed it (rounds 8-21's raters named the author in 44 of 54 FIX reasons of questions with such a concept)
    ("Propuesta por Raissi, Perdikaris y Karniadakis", "es", "trivia"), ("proposto por Frantar et al.", "pt", "trivia"),
    ("Ronneberger et al. para microscopía, hoy estándar en imagen médica", "es", "trivia"),
    ("introduced by Vaswani and colleagues", "en", "trivia"), ("Minderer et al., Google", "pt", "trivia"),
    ("Ulyanov et al.: sustituir Batch Norm por Instance Norm en la red generadora", "es", None),  # its claim
    # (who did what, after a label: round 31's raters fixed "Goyal's 5 epochs" as trivia)
    ("Gradual por épocas: Goyal et al. usan 5 épocas de warmup lineal para lote 8192", "es", "trivia"),
    ("Escalado lineal: el lr crece linealmente con el lote (Goyal et al.)", "es", None),  # (a citation's aside)
    ('Power et al., "Grokking: Generalization Beyond Overfitting on Small Algorithmic Datasets"', "pt", "trivia"),
    ("la máscara creada por la GPU", "es", None), ("gradiente generado por Adam", "es", None),
    # what raters kept or asked for: a rule, a formula, a bound, a name, a phrase opening on an article
    ("DTensor = tensor local + DeviceMesh + lista de placements", "es", None),
    ("sin sincronización con la CPU", "es", None), ("a janela efetiva do EMA", "pt", None),
    ("unos 5-20 µs de CPU por operación", "es", None), ("Bytes = 2 x n_layers x n_kv_heads x head_dim", "es", None),
    ("~20 tokens por parâmetro", "pt", None), ("2 log2(N) pasos", "es", None), ("all-reduce", "es", None),
    ("max_seq_len", "es", None), ("/dev/dri", "pt", None), ("el estado se resetea", "es", None),
    ("contabilidade numérica mais precisa", "pt", None), ("errores en ops sin versión determinista", "es", None),
    ("determinismo completo para depurar y para tests", "es", None),
])
def test_each_class_of_what_raters_rewrote(concept, lang, fault):
    assert concept_fault(concept, lang) == fault


@pytest.fixture(scope="module")
def quizzes(tmp_path_factory, model_cache):
    """``generate_quiz`` -n 12 offline on each deck (library call), in one knowledge base."""
    return deck_quizzes(tmp_path_factory.mktemp("point"), heldout_decks(DECKS), DECKS, model_cache)


@pytest.mark.slow
def test_a_labelled_list_gives_each_item_with_its_term_after_the_definition(quizzes):
    """dtensor_es p. 5 "Placements: Shard, Replicate, Partial": the concepts left out Partial (r12 raters); each
    placement is a concept that names it, after what a DTensor is."""
    q = next(q for q in quizzes["dtensor_es"] if q.type == "short" and "placements" in q.prompt
             and "Partial(" in q.answer)
    assert q.concepts[0].startswith("DTensor = tensor local"), q.concepts
    for term in ("Shard", "Replicate", "Partial"):
        assert any(c.startswith(term) and ": " in c for c in q.concepts), q.concepts


@pytest.mark.slow
def test_no_short_question_keeps_a_concept_no_teacher_keeps(quizzes):
    """The four decks held 19 such concepts before (recompute_es's "Con n capas", "Tiene un coste", "de lanzar
    kernels"; flops_pt's 6ND worked example; galore_pt's "modelo de 7B parâmetros", "GPU"), and every short
    question keeps concepts (a grader needs them)."""
    shorts = [q for qs in quizzes.values() for q in qs if q.type == "short"]
    assert len(shorts) >= 20 and all(q.concepts for q in shorts)
    bad = [(q.prompt, c, f) for q in shorts for c in q.concepts
           if (f := concept_fault(c, q.lang)) and not (q.origin in ("parts", "steps", "equation") and " " not in c)]
    assert not bad, bad


def test_kb_eval_quiz_reports_a_fragment_concept_a_quiz_still_holds():
    """A quiz written elsewhere (or before) whose concepts hold a fragment: advisory, so the writers' registry does
    not turn it down, but ``kb eval quiz`` says it."""
    answer = ("Mide pico de memoria y tiempo por paso, con y sin checkpointing. Sin synchronize() el tiempo medido "
              "es el de lanzar kernels, no el de ejecutarlos.")
    q = Question(type="short", prompt="En checkpointing de activaciones, ¿cómo medir el efecto?", answer=answer,
                 lang="es", origin="plain", concepts=("Mide pico de memoria y tiempo por paso", "de lanzar kernels"),
                 citations=(Citation("deck.pdf", "p. 9", "c1", answer),))
    ctx = CheckContext(answer)
    assert "fragment-concept" in question_defects(q, ctx)
    assert "fragment-concept" not in run_checks(q, ctx)
    whole = Question(type="short", prompt=q.prompt, answer=answer, lang="es", origin="plain",
                     concepts=("Mide pico de memoria y tiempo por paso", "sin synchronize() se mide el lanzamiento"),
                     citations=q.citations)
    assert "fragment-concept" not in question_defects(whole, ctx)


def test_a_point_labelled_by_its_authors_keeps_its_claim_without_them():
    from kb.writing.answer_points import point_concepts

    answer = ("Lin et al.: cerca de 1% dos pesos são salientes. Propuesta por Noam Shazeer. "
              "Teorema de Lipman et al.: perda condicional tem os mesmos gradientes que a marginal.")
    concepts = point_concepts(answer, "O que é AWQ?", "pt")
    assert "cerca de 1% dos pesos são salientes" in concepts
    assert "perda condicional tem os mesmos gradientes que a marginal" in concepts
    assert not any("et al" in c or "Shazeer" in c for c in concepts), concepts


@pytest.mark.parametrize("concept", ["los actores creados por Ray", "el ruido introducido por Dropout",
                                     "o grafo criado por Dynamo", "the overhead introduced by Checkpointing"])
def test_what_a_library_creates_or_introduces_is_no_attribution(concept):
    assert concept_fault(concept, "es") is None


def test_an_attribution_set_aside_by_a_comma_is_trivia():
    assert concept_fault("Transformer, propuesto por Vaswani y colegas", "es") == "trivia"
