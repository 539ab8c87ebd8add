"""``duplicate-question`` (kb/writing/checks.py: ``duplicate_questions``): two questions of one quiz that ask the
same thing. The class added in round 3's session 23: the difference of the same two sides asked twice, from a deck's
comparison slide and from its closing table, each side's description in other words ("Ramo uniforme (todas as lanes
iguais)" and "Ramo uniforme", warpdiv_pt of round 27: a teacher keeps one)."""

from __future__ import annotations

from kb.quiz import Question
from kb.writing.checks import compared, duplicate_questions


def _short(prompt: str, answer: str) -> Question:
    return Question("short", prompt, answer, (), lang="pt")


def test_the_same_two_sides_compared_twice_is_one_question():
    a = _short("Em divergência de warps, qual é a diferença entre Ramo uniforme (todas as lanes iguais) e Ramo "
               "divergente?", "Ramo uniforme (todas as lanes iguais): custo = só o ramo escolhido, T_if OU T_else. "
               "Ramo divergente: custo ~ T_if + T_else, porque o warp executa os dois.")
    b = _short("Em divergência de warps, qual é a diferença entre Ramo uniforme e Ramo divergente?",
               "Ramo uniforme: todas as lanes no mesmo caminho -> custo só do ramo escolhido; o ideal. "
               "Ramo divergente: lanes em caminhos diferentes -> serialização, custo ~ T_if + T_else.")
    assert compared(a) == compared(b) == frozenset({"ramo uniforme", "ramo divergente"})
    assert duplicate_questions([a, b]) == {b.id}


def test_other_sides_or_other_questions_are_no_duplicate():
    a = _short("Em divergência de warps, qual é a diferença entre Predicação e desvio real?",
               "Predicação: o compilador emite os dois lados. Desvio real: um salto.")
    b = _short("Em divergência de warps, qual é a diferença entre Ramo uniforme e Ramo divergente?",
               "Ramo uniforme: um caminho. Ramo divergente: dois caminhos serializados.")
    c = _short("Em divergência de warps, o que é divergência de warp?",
               "Threads do mesmo warp seguem caminhos distintos.")
    assert duplicate_questions([a, b, c]) == set()
    assert compared(c) == frozenset()
    assert compared(_short("¿Qué diferencia hay entre DDP y FSDP?", "DDP replica; FSDP fragmenta.")) == \
        frozenset({"ddp", "fsdp"})
