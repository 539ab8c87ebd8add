"""A short question's key concepts are what a grader can mark a reply with (issue 26, the FIX reasons of rounds
8-9): never a piece of code cut out of its expression ("x.mean" of ``x = (x - x.mean(0)) / x.std(0)``), a call
to copy to the letter ("LinearLR(optimizer, start_factor=0.01, …)"), a quoted warning, a phrase cut before its
object ("convertir con") or a lone generic word beside the answer's phrases ("varianza"); and a phrase whose
bracket held what it says keeps it ("pred de forma (N, 1) y target de forma (N,)", not "pred de forma y target
de forma"). ``kb eval quiz`` reports a concept of these kinds a quiz still holds (``unusable-concept``).

The rule was written on the r9 decks (einsum_es, lrsched_es) and checked on r7's (allreduce_es, bayesian_es),
rendered as eval/deck_pdf.py renders them, through the public API (``generate_quiz``, offline writer).
"""

from __future__ import annotations

import pytest

from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, question_defects, run_checks

from ..conftest import deck_quizzes, heldout_decks

pytestmark = pytest.mark.slow

DECKS = ("einsum_es", "lrsched_es", "allreduce_es", "bayesian_es", "activaciones_es", "cudaprog_es")


@pytest.fixture(scope="module")
def quizzes(tmp_path_factory, model_cache):
    """``generate_quiz`` -n 16 offline on each deck (library call), in one knowledge base: the slides these tests
    read are each asked (at -n 12 a plain question on another slide's topic may take one's place)."""
    return deck_quizzes(tmp_path_factory.mktemp("concepts"), heldout_decks(DECKS), DECKS, model_cache, n=16)


def _asking(qs, title, about: str = ""):
    """The short question on the slide ``title`` (by the slide it cites: a slide's idea is asked of its topic, its
    title never quoted, kb/writing/pattern_topic.py), the one whose answer says ``about`` where the slide has two."""
    found = [q for q in qs if q.type == "short" and q.citations[0].locator.endswith(f" · {title}")
             and about in q.answer]
    assert found, [q.prompt for q in qs]
    return found[0]


def test_no_code_fragment_nor_call_to_copy_nor_quoted_warning(quizzes):
    """einsum_es p. 5: "x.mean" was cut out of "x = (x - x.mean(0)) / x.std(0)"; lrsched_es p. 7, p. 13: the
    whole LinearLR call and "lr_scheduler.step" of the warning PyTorch prints were concepts."""
    broadcast = _asking(quizzes["einsum_es"], "Broadcasting en la práctica")
    assert broadcast.concepts and not {"x.mean", "x.std"} & set(broadcast.concepts), broadcast.concepts
    warmup = _asking(quizzes["lrsched_es"], "Warmup lineal")
    assert warmup.concepts and not any("start_factor=" in c for c in warmup.concepts), warmup.concepts
    order = _asking(quizzes["lrsched_es"], "Orden: optimizer.step() antes que scheduler.step()")
    assert order.concepts and "lr_scheduler.step" not in order.concepts, order.concepts
    # leaving concepts out never leaves a short question without any (a grader needs them)
    shorts = [q for qs in quizzes.values() for q in qs if q.type == "short"]
    assert len(shorts) >= 12 and all(q.concepts for q in shorts)


def test_a_bracket_that_holds_the_point_stays_in_the_concept(quizzes):
    """einsum_es p. 6 (written on) and allreduce_es p. 2 (checked on): a shape, a formula's term."""
    traps = _asking(quizzes["einsum_es"], "Trampas del broadcasting")
    assert any("pred de forma (N, 1) y target de forma (N,)" in c for c in traps.concepts), traps.concepts
    # (allreduce_es's "El problema: sincronizar gradientes" is asked of its whole slide now, issue 26 keep26, and
    # its definition of data parallelism takes the slide's place at -n 16: the bracket is pinned by einsum_es)


def test_no_lone_generic_word_beside_phrases_on_decks_it_was_not_written_on(quizzes):
    """bayesian_es (r7): "fracción" beside "AUROC usando la incertidumbre como score"; activaciones_es (r6):
    "lambda" beside "lambda ~ 1.0507". The parts of an equation are names, each a concept: "runtime" of
    "CUDA = extensión de C/C++ + runtime + driver" (cudaprog_es, r6) stays."""
    evaluate = _asking(quizzes["bayesian_es"], "Evaluar la incertidumbre")
    assert "fracción" not in evaluate.concepts and len(evaluate.concepts) >= 2, evaluate.concepts
    selu = _asking(quizzes["activaciones_es"], "SELU y redes auto-normalizantes")
    assert "lambda" not in selu.concepts and selu.concepts, selu.concepts
    singles = [(q.prompt, c) for qs in quizzes.values() for q in qs if q.type == "short" and q.origin != "equation"
               for c in q.concepts if c.isalpha() and c.islower() and any(len(o.split()) >= 3 for o in q.concepts)]
    assert not singles, singles  # (a code name may stand alone: "nn.GaussianNLLLoss")
    parts = next(q for q in quizzes["cudaprog_es"] if "partes se compone CUDA" in q.prompt)
    assert "runtime" in parts.concepts, parts.concepts


def test_kb_eval_quiz_reports_an_unusable_concept_a_quiz_still_holds():
    """A quiz written elsewhere (or before) with a quoted error message as its concept: advisory, so the
    writers' registry does not turn it down, but ``kb eval quiz`` says it."""
    answer = ('Erro: "tf.function only supports singleton tf.Variables created on the first call"; '
              "Padrão correto: criar variáveis fora ou apenas na primeira chamada")
    q = Question(type="short", prompt="Em tf.function e grafos, o que acontece ao criar uma tf.Variable a cada "
                 "chamada?", answer=answer, lang="pt", origin="plain",
                 concepts=('"tf.function only supports singleton tf.Variables created on the first call"',
                           "criar variáveis fora ou apenas na primeira chamada"),
                 citations=(Citation("deck.pdf", "p. 15", "c1", answer),))
    ctx = CheckContext(answer)
    assert "unusable-concept" in question_defects(q, ctx)
    assert "unusable-concept" not in run_checks(q, ctx)


def test_a_tool_or_acronym_is_no_generic_word():
    """A one-word concept that names a thing (a hyphen, a digit or inner capitals: nvidia-smi, fp16, cuDNN) is a
    term a grader marks with, beside phrases too; an everyday word ("tensor") is not (the LLM writer's
    "nvidia-smi" was turned into the answer's first phrases)."""
    from kb.writing.concept_use import unusable_concept

    answer = "Com o nvidia-smi, que mostra quanta memória da GPU cada processo ocupa, em fp16 com cuDNN e um tensor."
    others = ("memória da GPU cada processo", "nvidia-smi")
    for term in ("nvidia-smi", "fp16", "cuDNN", "GPU"):
        assert unusable_concept(term, answer, others) is None, term
    assert unusable_concept("tensor", answer, others) == "generic-word"
