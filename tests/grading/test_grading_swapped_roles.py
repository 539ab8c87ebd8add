"""Grading v3: replies that keep every term of the model answer but give each term's role to the
other (swapped roles) — the pure detector and the real offline grader with the use-m3 embedder."""

from __future__ import annotations

import pytest

from kb.embeddings import get_embedder
from kb.grading.base import Task
from kb.grading.offline import OfflineGrader
from kb.grading.roles import contrast_pairs, role_swap
from kb.quiz import Question

SYNC_Q = "What is the difference between synchronous and asynchronous updates in data parallelism?"
SYNC_A = ("With synchronous updates every replica waits for the others and the gradients are aggregated before the "
          "parameters are updated; with asynchronous updates each replica updates the parameters without waiting for "
          "the others, which can produce stale gradients.")
SYNC_RIGHT = ("In synchronous updates every replica waits for the others and the gradients are aggregated first; "
              "in asynchronous ones a replica updates the parameters alone, so gradients can be stale.")
SYNC_SWAPPED = ("In asynchronous updates every replica waits for the others and the gradients are aggregated first; "
                "in synchronous ones a replica updates the parameters alone, so gradients can be stale.")

PIN_Q = "Qual a diferença entre fixar (pinning) uma operação em um dispositivo e o posicionamento (placement) dela?"
PIN_A = ("Fixar é a instrução explícita do usuário sobre onde a operação deve rodar, feita com tf.device(); o "
         "posicionamento é a decisão final do TensorFlow sobre em que dispositivo a operação realmente executa.")


def test_contrast_pairs_are_the_terms_the_question_sets_side_by_side():
    assert ("synch", "async") in contrast_pairs(SYNC_Q)
    # a parenthesis is another name for the word before it, not a clause of its own
    assert ("fixar", "posic") in contrast_pairs(PIN_Q)
    assert contrast_pairs("O que faz o decorador @tf.function?") == []


def test_role_swap_sees_predicates_given_to_the_other_term():
    swapped = role_swap(SYNC_Q, [SYNC_A], SYNC_SWAPPED, "en")
    assert swapped is not None and swapped.clear and swapped.kept == 0
    assert [t.lower() for t in swapped.terms] == ["synchronous", "asynchronous"]  # as the reply writes them
    right = role_swap(SYNC_Q, [SYNC_A], SYNC_RIGHT, "en")
    assert right is not None and not right.clear and right.kept > right.swapped
    # the English names in the reply are the question's parentheses: "placement" is "posicionamento"
    pin = role_swap(PIN_Q, [PIN_A], "O placement é o usuário que escolhe com tf.device e o pinning é a decisão "
                                    "automática do TensorFlow.", "pt")
    assert pin is not None and pin.clear
    ok = role_swap(PIN_Q, [PIN_A], "Pinning é quando o usuário diz com tf.device onde a operação deve rodar; "
                                   "placement é a decisão final do TensorFlow.", "pt")
    assert ok is not None and not ok.clear


def test_role_swap_is_none_without_both_terms_or_a_comparison():
    assert role_swap(SYNC_Q, [SYNC_A], "Replicas wait for each other before updating.", "en") is None
    assert role_swap("What does tf.GradientTape do?", ["It records the operations of the forward pass."],
                     "It records the forward pass so gradients can be computed.", "en") is None


def test_role_swap_keeps_a_reply_that_matches_any_accepted_answer():
    other = ("Asynchronous updates: replicas wait for each other and aggregate gradients; synchronous updates: "
             "each replica updates alone.")  # nonsense as an answer, but accepted here: the roles follow it
    assert role_swap(SYNC_Q, [SYNC_A], SYNC_SWAPPED, "en").clear
    assert not role_swap(SYNC_Q, [SYNC_A, other], SYNC_SWAPPED, "en").clear


@pytest.fixture(scope="module")
def grader():
    return OfflineGrader(get_embedder("use-m3"))


def test_a_swapped_reply_is_graded_below_the_correct_one_and_says_why(grader):
    q = Question("short", SYNC_Q, SYNC_A, (), concepts=("replicas wait", "without waiting", "stale gradients"),
                 id="sync", lang="en")
    right, swapped = grader.grade([Task(q, SYNC_RIGHT), Task(q, SYNC_SWAPPED)])
    assert right.points >= 2 and "swapped_roles" not in right.flags
    assert swapped.points == 0 and "swapped_roles" in swapped.flags
    assert "swaps the roles of synchronous and asynchronous" in swapped.feedback.lower()


def test_swapped_roles_feedback_in_the_replys_language(grader):
    q = Question("short", PIN_Q, PIN_A, (), concepts=("pinning", "tf.device", "placement", "decisão do TensorFlow"),
                 id="pin", lang="pt")
    (g,) = grader.grade([Task(q, "O placement é o usuário que escolhe com tf.device e o pinning é a decisão "
                                 "automática do TensorFlow.")])
    assert g.points == 0 and "swapped_roles" in g.flags
    assert "A resposta troca os papéis de pinning e placement" in g.feedback  # as the reply names them


RED_Q = ("Qual é a diferença entre as coletivas reduce e all-reduce, e qual delas é a operação central do paralelismo "
         "de dados?")
RED_A = ("As duas combinam (por exemplo, somam) os buffers de todos os processos, mas no reduce o resultado fica só no "
         "processo raiz, enquanto no all-reduce fica disponível em todos os processos. O all-reduce é a operação "
         "central do data parallel: soma os gradientes de todas as réplicas.")
ACC_Q = ("Na acumulação de gradientes, por que a loss de cada micro-batch é dividida por accum_steps e em que momento "
         "se chamam optimizer.step() e zero_grad()?")
ACC_A = ("Porque o backward() soma os gradientes em .grad a cada micro-batch; dividindo a loss por accum_steps "
         "obtém-se a média, e não um gradiente k vezes maior. O optimizer.step() e o zero_grad() só são chamados a "
         "cada accum_steps micro-batches (na fronteira da acumulação), não a cada micro-batch.")


def test_a_swap_that_keeps_a_few_shared_words_in_place_is_still_a_swap():
    # blind set 2: "soma" and "processos" stay with both terms, six words moved (a teacher's 0)
    s = role_swap(RED_Q, [RED_A], "No all-reduce o resultado da soma fica so no processo raiz, e no reduce todos os "
                                  "processos recebem o resultado; por isso no data parallel usa-se o reduce para "
                                  "somar os gradientes.", "pt")
    assert s is not None and s.kept > 0 and s.clear
    # a right partial reply with three words moved against one kept is not (a teacher's 2)
    p = role_swap(ACC_Q, [ACC_A], "Dividimos pra tirar a média dos gradientes dos micro-batches, e o "
                                  "optimizer.step() é chamado so no fim da acumulação.", "pt")
    assert p is None or not p.clear
