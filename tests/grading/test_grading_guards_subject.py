"""Guards that hold across grading cultures (issue 28, item 4), the cases the first round left open: a
terse reply on the question's subject is not off-topic, nor is any reply to a model answer too short to
measure against; a list is no keyword list where the question asks for one; a string of bare words is."""

from __future__ import annotations

import pytest

from kb.embeddings import get_embedder
from kb.grading.base import Task
from kb.grading.offline import OfflineGrader
from kb.grading.signals import asks_for_list, is_keyword_list
from kb.quiz import Question


@pytest.fixture(scope="module")
def grader():
    return OfflineGrader(get_embedder("use-m3"))


def _one(grader, q: Question, reply: str):
    return grader.grade([Task(q, reply)])[0]


FED = Question("short", "O que é client drift no aprendizado federado e como o FedProx o mitiga?",
               "É a divergência dos modelos locais em relação ao global quando os dados dos clientes não são iid; "
               "o FedProx acrescenta à perda local um termo proximal que penaliza o afastamento do modelo global.",
               (), lang="pt", id="fed")


def test_a_terse_reply_in_the_model_answers_words_is_not_off_topic(grader):
    # unseen set 6: graded 1 by its author, zeroed as off-topic before (meaning similarity 0.05)
    # (graded by the model from there: a terse reply to a long model answer is not raised to 1 for its words,
    # PT_ASAG dev graders gave such replies 0 — kb.grading.offline.bare_answer)
    g = _one(grader, FED, "termo proximal")
    assert "off_topic" not in g.flags and "não trata do que foi perguntado" not in g.feedback
    # a reply about something else is still off-topic
    off = _one(grader, FED, "Receita de bolo de cenoura com cobertura de chocolate.")
    assert "off_topic" in off.flags and off.points == 0


def test_a_reply_that_shares_the_questions_subject_is_not_off_topic(grader):
    q = Question("short", "Por que o protagonista desconfia dos vizinhos no conto?",
                 "Porque os vizinhos esconderam dele a morte do cachorro e desde então ele acha que mentem.", (),
                 lang="pt", id="conto")
    g = _one(grader, q, "O protagonista desconfia porque os vizinhos são estranhos e ele é sozinho.")
    assert "off_topic" not in g.flags


def test_no_reply_is_off_topic_against_a_model_answer_of_two_words(grader):
    many = Question("short", "How many constructors can a Java class have?", "Unlimited number", (), lang="en")
    g = _one(grader, many, "By default just one, but they may be overloaded as many times as you like.")
    assert "off_topic" not in g.flags and g.points >= 1


def test_a_list_answers_a_question_that_asks_for_one():
    assert asks_for_list("Cite três órgãos do sistema digestório.") and asks_for_list("Cite três funções da pele.")
    assert not asks_for_list("Quais são os órgãos sexuais internos do homem e suas funções?")  # and more
    assert asks_for_list("¿Cuáles son las fases de la mitosis?")
    assert asks_for_list("Name three stable sorting algorithms.")
    assert not asks_for_list("O que é o GIL no Python?")
    assert not asks_for_list("Qual a diferença entre fenótipo e genótipo?")


def test_a_list_is_not_capped_where_the_question_asks_for_a_list(grader):
    q = Question("short", "Cite três partes da pele no corpo humano.",
                 "Proteção contra agentes externos, controle da temperatura corporal e percepção de estímulos.",
                 (), lang="pt", concepts=("proteção", "temperatura", "estímulos"), id="pele")
    g = _one(grader, q, "proteção, controle da temperatura, percepção de estímulos")
    assert "keyword_list" not in g.flags


def test_a_string_of_bare_words_is_a_keyword_list_and_a_sentence_or_a_name_is_not(grader):
    assert is_keyword_list("trava thread bytecode paralelismo CPU")
    assert not is_keyword_list("Global Interpreter Lock")  # three words: a name, judged as a bare answer
    assert not is_keyword_list("A célula vegetal possui parede celular")  # function words: a sentence
    q = Question("short", "O que é o GIL no Python e qual o seu efeito em programas com threads?",
                 "O GIL (Global Interpreter Lock) é uma trava do interpretador que permite que apenas uma thread "
                 "execute bytecode Python por vez, o que limita o paralelismo de threads em tarefas de CPU.", (),
                 lang="pt", concepts=("trava", "uma thread por vez", "paralelismo"))
    g = _one(grader, q, "trava interpretador thread bytecode paralelismo CPU")
    assert g.points <= 1 and not g.feedback.startswith("Correto")
