"""Guards that hold across grading cultures (issue 28, item 4): each names a class of text that a
guard read wrongly on another culture's data, with the real use-m3 embedder and the offline grader."""

from __future__ import annotations

import pytest

from kb.embeddings import get_embedder
from kb.grading.base import Task
from kb.grading.offline import OfflineGrader, reply_language
from kb.grading.signals import is_keyword_list, quotes_a_text
from kb.quiz import Question


@pytest.fixture(scope="module")
def grader():
    return OfflineGrader(get_embedder("use-m3"))


def _one(grader, q: Question, reply: str):
    return grader.grade([Task(q, reply)])[0]


def test_off_topic_still_zeroes_a_reply_about_something_else(grader):
    q = Question("short", "¿Por qué el protagonista desconfía de sus vecinos en el cuento?",
                 "Porque los vecinos le ocultaron la muerte del perro y desde entonces cree que mienten.", (),
                 lang="es", id="cuento")
    off = _one(grader, q, "Receta de bolo de cenoura com cobertura de chocolate.")
    assert "off_topic" in off.flags and off.points == 0


def test_a_reply_explaining_the_text_a_question_quotes_is_not_a_copy_of_the_question(grader):
    """When the question quotes the text the answer must explain, a reply in that text's words explains it."""
    assert quotes_a_text('O que o autor quis dizer com "o meio é a mensagem"?')
    assert quotes_a_text("Explique: «no toda persona que está a tu lado es tu amigo».")
    assert not quotes_a_text('O que faz a flag "-j"?')  # a quoted word or two is a name, not a text
    q = Question("short", "Explique a frase do autor: «o meio é a mensagem, não o conteúdo».",
                 "O canal pelo qual algo é transmitido molda a percepção mais do que aquilo que é dito.", (),
                 lang="pt", id="meio")
    g = _one(grader, q, "O meio importa, não o conteúdo: o meio é a mensagem.")
    assert "copies_question" not in g.flags
    # a question that quotes nothing is still copied by a restatement
    q2 = Question("short", "O que é o GIL no Python e qual o seu efeito em programas com threads?",
                  "Uma trava do interpretador que deixa só uma thread executar bytecode por vez.", (), lang="pt")
    copy = _one(grader, q2, "O que é o GIL no Python e qual o seu efeito em programas com threads")
    assert "copies_question" in copy.flags and copy.points == 0


def test_a_keyword_list_is_still_capped_where_no_list_is_asked(grader):
    assert is_keyword_list("trava, thread, bytecode, CPU")
    assert not is_keyword_list("Só uma thread executa bytecode por vez")  # function words: a sentence
    q = Question("short", "O que é o GIL no Python e qual o seu efeito em programas com threads?",
                 "O GIL (Global Interpreter Lock) é uma trava do interpretador que permite que apenas uma thread "
                 "execute bytecode Python por vez, o que limita o paralelismo de threads em tarefas de CPU.", (),
                 lang="pt", concepts=("trava", "uma thread por vez", "paralelismo"))
    g = _one(grader, q, "trava, interpretador, thread, bytecode, paralelismo, CPU")
    assert g.points <= 1 and not g.feedback.startswith("Correto")


def test_a_short_spanish_reply_gets_its_feedback_in_spanish(grader):
    """'No toda persona que está a tu lado…' tied Spanish and Portuguese on kb.text's markers ('está' is both)
    and was answered in Portuguese; words only Spanish writes ('tu', 'la', 'en') tell it."""
    pt = Question("short", "O que quer dizer o ditado sobre as aparências?",
                  "Que as aparências enganam: algo que parece valioso pode não ser.", (), lang="pt", id="ditado")
    assert reply_language("No toda persona que está a tu lado es tu amigo", pt) == "es"
    assert reply_language("No toda persona que está a tu lado", pt) == "es"  # tied 1-1 before
    assert reply_language("En la GPU 0 solo", pt) == "es"
    assert reply_language("Na GPU 0, com a sua cópia", pt) == "pt"
    assert reply_language("isso está pero", pt) == "pt"  # a tie is no evidence: the question's language stands
    g = _one(grader, pt, "No toda persona que está a tu lado es tu amigo, las apariencias engañan")
    assert g.feedback.split(".")[0] in {"Correcto", "Parcialmente correcto (2/3)", "Poco completo (1/3)",
                                        "Incorrecto (0/3)"}, g.feedback


def test_a_bare_right_answer_is_judged_on_what_it_says(grader):
    """'Sim.' to a yes/no question and the words of a model answer of a few words ('GIL.' to 'The GIL')
    are answers, not 0 for their length; a bare word of the question is not."""
    yes = Question("short", "Uma variável fixada na /gpu:0 pode ser usada por operações posicionadas na /gpu:1?",
                   "Sim, o TensorFlow transfere automaticamente o valor da variável entre os dispositivos.", (),
                   lang="pt")
    g = _one(grader, yes, "Sim.")
    assert g.points == 1 and "bare_answer" in g.flags
    assert _one(grader, yes, "Não.").points == 0  # the opposite yes/no stays wrong
    bare = Question("short", "Which mechanism keeps CPython threads from running bytecode in parallel?", "The GIL",
                    (), lang="en")
    g = _one(grader, bare, "GIL.")
    assert g.points == 3 and "bare_answer" in g.flags
    assert "bare_answer" not in _one(grader, bare, "threads").flags  # the question's own word
    many = Question("short", "How many constructors can a class have?", "Unlimited number", (), lang="en")
    assert _one(grader, many, "unlimited").points >= 1
