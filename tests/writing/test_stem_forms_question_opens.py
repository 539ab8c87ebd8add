"""A "what is X" is the stem's own question only where the question opens on it — the stem's start, a "¿", the comma
after its setting, a sentence's end — never the same words inside a clause ("¿por qué el proceso que es cliente de
MPS …?", "o que é" of "por que o que é particionado …?"): kb.writing.stem_forms read such a clause's tail as the X
of a what-is, rewrote it by the answer's kind in the middle of the stem ("¿por qué el proceso ¿cómo se pone en marcha
cliente de MPS …?") and flagged it 'not-a-definition'."""

from __future__ import annotations

import pytest

from kb.quiz import Question
from kb.writing.stem_forms import kind_stem, what_is_not_defined

COMMANDS = "sudo nvidia-smi -i 0 -c EXCLUSIVE_PROCESS; nvidia-cuda-mps-control -d"
CAUTIONS_PT = "Evitar em modelos pequenos: o custo de comunicação domina o ganho de memória"
CAUTIONS_EN = "Never turn it on unless some parameters get no gradient: it walks the graph once more"


@pytest.mark.parametrize(("prompt", "answer", "lang"), [
    ("Al compartir GPUs, ¿por qué el proceso que es cliente de MPS necesita el daemon?", COMMANDS, "es"),
    ("¿Qué ocurre cuando el proceso que es cliente de MPS arranca?", COMMANDS, "es"),
    ("Em ZeRO, por que o que é particionado no estágio 3 economiza memória?", CAUTIONS_PT, "pt"),
    ("Em ZeRO, explique o que significa «estágio 3»?", CAUTIONS_PT, "pt"),
    ("In DDP, why does what is left unused slow training?", CAUTIONS_EN, "en"),
])
def test_a_what_is_inside_a_clause_is_not_rewritten_nor_flagged(prompt, answer, lang):
    assert kind_stem(prompt, answer, lang) is None
    q = Question(type="short", prompt=prompt, answer=answer, lang=lang, citations=(), concepts=("x",))
    assert what_is_not_defined(q) is None


@pytest.mark.parametrize(("prompt", "answer", "lang", "stem"), [
    ("Al compartir GPUs, ¿qué es MPS?", COMMANDS, "es", "Al compartir GPUs, ¿cómo se pone en marcha MPS?"),
    ("¿Qué es MPS?", COMMANDS, "es", "¿Cómo se pone en marcha MPS?"),
    ("Em ZeRO, o que é o estágio 3?", CAUTIONS_PT, "pt", "Em ZeRO, que cuidados tomar ao usar o estágio 3?"),
    ("Em ZeRO, o que significa «estágio 3»?", CAUTIONS_PT, "pt", "Em ZeRO, que cuidados tomar ao usar estágio 3?"),
])
def test_the_stems_own_what_is_is_still_asked_by_its_answer(prompt, answer, lang, stem):
    assert kind_stem(prompt, answer, lang) == stem
    q = Question(type="short", prompt=prompt, answer=answer, lang=lang, citations=(), concepts=("x",))
    assert what_is_not_defined(q) == "not-a-definition"
