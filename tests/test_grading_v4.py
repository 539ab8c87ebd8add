"""Grading v4 (tried and dropped from the default level, README "Measured"): counterfactual model
answers — the model answer with its compared terms swapped, a direction word flipped or its main verb
negated — and the margin by which a reply is nearer a counterfactual than its source (use-m3)."""

from __future__ import annotations

import pytest

from kb.embeddings import get_embedder
from kb.grading.base import Task
from kb.grading.counterfactual import counterfactual_pairs, counterfactuals, flip_directions, negate, swap_terms
from kb.grading.offline import CALIBRATION, OfflineGrader
from kb.quiz import Question

MAP_Q = "O que fazem as funções Map e Reduce?"
MAP_A = "O Map gera os pares chave-valor a partir da entrada, e o Reduce soma os valores de cada chave."
SYNC_Q = "Qual a diferença entre atualizações síncronas e assíncronas?"
SYNC_A = ("Nas síncronas todas as réplicas esperam umas pelas outras; nas assíncronas cada réplica atualiza os "
          "parâmetros sem esperar as outras.")


def test_swap_terms_exchanges_the_two_compared_terms_as_written():
    assert swap_terms(MAP_A, "map", "reduc") == (
        "O Reduce gera os pares chave-valor a partir da entrada, e o Map soma os valores de cada chave.")
    assert swap_terms(MAP_A, "map", "threa") == MAP_A  # one term absent: nothing to swap


def test_flip_directions_gives_one_variant_per_direction_word():
    assert flip_directions("The forward pass runs before the backward pass.") == [
        "The backward pass runs before the backward pass.",
        "The forward pass runs after the backward pass.",
        "The forward pass runs before the forward pass.",
    ]
    assert "Nas assincronas todas" in flip_directions(SYNC_A)[0]
    assert flip_directions("O GIL é uma trava.") == []


def test_negate_removes_a_negation_or_puts_one_before_the_first_verb():
    assert negate("Threads share memory.", "en") == "Threads not share memory."
    assert negate("Threads do not share memory.", "en") == "Threads do share memory."
    assert negate("O TensorFlow aloca toda a memória.", "pt") == "O TensorFlow não aloca toda a memória."
    # Portuguese "no" is "in the", not a negation
    assert negate("Roda no processo principal.", "pt") == "Não roda no processo principal."


def test_counterfactuals_are_labelled_distinct_and_never_the_source():
    got = counterfactuals(MAP_Q, MAP_A, "pt")
    assert ("swap", "O Reduce gera os pares chave-valor a partir da entrada, e o Map soma os valores de cada "
                    "chave.") in got
    assert all(v != MAP_A for _, v in got) and len(set(got)) == len(got)
    pairs = counterfactual_pairs(SYNC_Q, (SYNC_A,), "pt")
    assert {k for k, _, _ in pairs} >= {"swap", "direction", "negation"}
    assert {src for _, src, _ in pairs} == {SYNC_A}  # one sentence: the model answer is the only source


@pytest.fixture(scope="module")
def embedder():
    return get_embedder("use-m3")


def _task(reply: str) -> Task:
    return Task(Question("short", MAP_Q, MAP_A, (), concepts=("Map", "pares chave-valor", "Reduce", "soma"), lang="pt"),
                reply)


def test_the_default_level_embeds_no_counterfactual(embedder):
    f = OfflineGrader(embedder).features([_task("O Map gera pares chave-valor e o Reduce soma os valores.")])[0]
    assert not any(k.startswith("cf_") for k in f.values)


def test_the_guard_zeroes_a_reply_nearer_a_counterfactual_and_says_why(embedder):
    grader = OfflineGrader(embedder, {**CALIBRATION, "counterfactual_guard": ["margin", 0.03]})
    right = "O Map gera os pares chave-valor da entrada, e o Reduce soma os valores de cada chave."
    negated = "O Map não gera os pares chave-valor a partir da entrada, e o Reduce soma os valores de cada chave."
    f_right, f_neg = grader.features([_task(right), _task(negated)])
    # the margin: the reply's cosine with a counterfactual minus its cosine with that counterfactual's source
    assert f_right.values["cf_margin"] < 0.03 <= f_neg.values["cf_negation"]
    g_right, g_neg = grader.grade([_task(right), _task(negated)])
    assert g_right.points >= 2 and "counterfactual" not in g_right.flags
    assert g_neg.points == 0 and "counterfactual" in g_neg.flags
    assert "diz o contrário da resposta modelo" in g_neg.feedback


def test_use_m3_does_not_tell_a_swap_from_the_right_answer_across_languages(embedder):
    """Why the idea was dropped: the swapped model answer is ~0.99 cosine of the original, and an
    English reply to a Portuguese model answer is as near one as the other."""
    grader = OfflineGrader(embedder, counterfactuals=True)
    right = "The Map produces the key-value pairs from the input, and the Reduce adds up the values of each key."
    swapped = "The Reduce produces the key-value pairs from the input, and the Map adds up the values of each key."
    f_right, f_swapped = grader.features([_task(right), _task(swapped)])
    assert f_right.crosslingual and f_swapped.crosslingual
    assert abs(f_right.values["cf_swap"] - f_swapped.values["cf_swap"]) < 0.02
