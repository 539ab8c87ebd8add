"""A draft turned down for its form is asked in a form that fits, and a model answer never opens on what a code block
left behind, so a deck that has the ideas gets its questions (issue 26; round 12 went from 10 to 8 decks with >= 10
questions of -n 12 after the stem and self-check rounds).

- "o que é a validação do modelo?" answered by what to keep in mind about it (``not-a-definition``, and no kind of
  answer to ask it by) is asked "o que se deve ter em conta sobre a validação do modelo?" (kb/writing/form_retry.py);
- a lone ")" after a slide's code block, a line that opens a block ("plan = {") or an entry of one
  ('"attn.wq": ColwiseParallel(),') is no sentence of a model answer ("). Retorna GradSampleModule …" was turned
  down as ``code-answer`` and opacus_pt lost its question on Opacus);
- a title that goes from one thing to another ("Do FLOP ao tempo", a top idea of flops_pt) is asked how one leads to
  the other (kb/writing/pattern_topic.py), not left with no stem.

Written on round 12's decks (opacus_pt, dtensor_es, reproducibilidad_es, flops_pt), rendered as eval/deck_pdf.py
renders them, through the public API.
"""

from __future__ import annotations

import re

import pytest

from kb.writing.form_retry import retry_form
from kb.writing.slide_bullets import slide_answer
from kb.writing.stem_forms import about_stem

from ..conftest import deck_quizzes, heldout_decks

DECKS = ("opacus_pt", "dtensor_es", "reproducibilidad_es", "flops_pt")


@pytest.mark.parametrize(("prompt", "lang", "stem"), [
    ("Em privacidade diferencial no treino, o que é a validação do modelo?", "pt",
     "Em privacidade diferencial no treino, o que se deve ter em conta sobre a validação do modelo?"),
    ("En reproducibilidad y determinismo, ¿qué es DataLoader?", "es",
     "En reproducibilidad y determinismo, ¿qué hay que tener en cuenta sobre DataLoader?"),
    ("¿Qué significa «Memory pool»?", "es", "¿Qué hay que tener en cuenta sobre «Memory pool»?"),
    ("In PyTorch, what is gradient clipping?", "en", "In PyTorch, what must you keep in mind about gradient clipping?"),
    ("En PyTorch, ¿cómo se registra un hook?", "es", None),
])
def test_a_what_is_turned_down_for_its_form_is_asked_what_to_keep_in_mind(prompt, lang, stem):
    assert about_stem(prompt, lang) == stem


def test_only_a_form_check_gets_another_stem():
    prompt = "Em DP, o que é a validação do modelo?"
    assert retry_form(prompt, ["not-a-definition"], "pt")
    assert retry_form(prompt, ["not-a-definition", "code-answer"], "pt") is None  # (the answer would fail again)
    assert retry_form(prompt, ["giveaway"], "pt") is None


def test_a_code_block_s_remainder_is_no_sentence_of_the_answer():
    passage = ("model, optimizer, loader = engine.make_private(\n    module=model,\n)\n"
               "• Retorna GradSampleModule, DPOptimizer e DPDataLoader\n• O laço de treino continua igual\n")
    assert slide_answer(passage).startswith("Retorna GradSampleModule")
    block = 'plan = {\n    "attn.wq": ColwiseParallel(),\n}\n• Las claves del plan son nombres\n• Otra frase aquí\n'
    assert slide_answer(block).startswith("Las claves del plan")
    cpp = ("torch::Tensor f(torch::Tensor a) {\n  TORCH_CHECK(a.is_cuda(), \"a deve ser CUDA\");\n  return a;\n}\n"
           "TORCH_LIBRARY_IMPL(my_ops, CUDA, m) { m.impl(\"f\", &f); }\n"
           "• TORCH_CHECK lança uma exceção que chega ao Python\n"
           "• torch::Tensor (at::Tensor): o mesmo objeto do Python\n")
    assert slide_answer(cpp) == ("TORCH_CHECK lança uma exceção que chega ao Python. "
                                 "torch::Tensor (at::Tensor): o mesmo objeto do Python.")


@pytest.fixture(scope="module")
def quizzes(tmp_path_factory, model_cache):
    return deck_quizzes(tmp_path_factory.mktemp("form_retry"), heldout_decks(DECKS), DECKS, model_cache)


def test_round_12_decks_get_their_questions(quizzes):
    opacus = quizzes["opacus_pt"]
    assert len(opacus) >= 10  # (9 when "o que é Opacus?" opened on ")." and was turned down; its answer, one line,
    # is now a last resort the deck does not need: kb.writing.form_prior; slide_answer above pins the answer itself)
    for qs in quizzes.values():
        for q in qs:
            assert not re.match(r"[)\]}.,;:]", q.answer.strip()), (q.prompt, q.answer)
            assert "ColwiseParallel()," not in q.answer and "plan = {" not in q.answer, (q.prompt, q.answer)


def test_a_deck_s_what_is_turned_down_for_its_form_is_asked_in_the_form_that_fits(roomy):
    # (a last resort: at -n 12 the deck's other last resorts, kept more often, fill the quiz first: form_prior.worth)
    kept = [q.prompt for q in roomy["reproducibilidad_es"]]
    assert "En reproducibilidad y determinismo, ¿qué hay que tener en cuenta sobre DataLoader?" in kept


@pytest.fixture(scope="module")
def roomy(tmp_path_factory, model_cache):
    return deck_quizzes(tmp_path_factory.mktemp("form_retry20"), heldout_decks(DECKS), ("reproducibilidad_es",),
                        model_cache, n=20)


def test_a_slide_that_goes_from_one_thing_to_another_is_asked_how(quizzes):
    flops = quizzes["flops_pt"]
    assert len(flops) >= 10  # (9 when "Do FLOP ao tempo" and "Do tempo ao custo" fit no class)
    going = [q for q in flops if "como se passa do FLOP ao tempo?" in q.prompt]
    assert going and going[0].answer.startswith("tempo = C / (n_gpus x pico x MFU)")
