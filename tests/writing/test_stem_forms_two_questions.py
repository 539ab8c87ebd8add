"""A stem of two questions ("what is X and what is it for?") is asked as written: kb.writing.stem_forms rewrites a
"what is X" alone; read as part of X, the second question stayed after the new form ("¿Cómo se pone en marcha MPS y
para qué sirve?")."""

from __future__ import annotations

import pytest

from kb.quiz import Question
from kb.writing.stem_forms import kind_stem, what_is_not_defined


@pytest.mark.parametrize(("prompt", "answer", "lang"), [
    ("Al compartir GPUs, ¿qué es MPS y para qué sirve?", "sudo nvidia-smi -i 0 -c EXCLUSIVE_PROCESS", "es"),
    ("Em ZeRO, o que é o estágio 3 e quando usá-lo?",
     "Evitar em modelos pequenos: o custo de comunicação domina o ganho de memória", "pt"),
    ("In DDP, what is find_unused_parameters and how does it slow training?",
     "Never turn it on unless some parameters get no gradient: it walks the graph once more", "en"),
])
def test_a_stem_of_two_questions_is_not_rewritten_nor_flagged(prompt, answer, lang):
    assert kind_stem(prompt, answer, lang) is None
    q = Question(type="short", prompt=prompt, answer=answer, lang=lang, citations=(), concepts=("x",))
    assert what_is_not_defined(q) is None


def test_the_same_what_is_alone_is_still_asked_by_its_answer():
    assert kind_stem("Al compartir GPUs, ¿qué es MPS?", "sudo nvidia-smi -i 0 -c EXCLUSIVE_PROCESS", "es") \
        == "Al compartir GPUs, ¿cómo se pone en marcha MPS?"
    assert kind_stem("Em ZeRO, o que é o estágio 3?",
                     "Evitar em modelos pequenos: o custo de comunicação domina o ganho de memória", "pt") \
        == "Em ZeRO, que cuidados tomar ao usar o estágio 3?"
