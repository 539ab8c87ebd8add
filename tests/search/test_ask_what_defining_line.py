"""kb ask offline (issue 30, round 11): "what is X" is answered from the slide that DEFINES X, not from one that
only mentions it — on a deck written here (pt) rendered to a real PDF and ingested with the sample course.

- a line "X (também chamado …): …" defines X on a slide whose title does not name it ("Ideia central: …"); a slide
  titled "Checkpointing seletivo: a ideia" mentions X, and its title's cue ("a ideia") must not take the answer away;
- a slide titled "TFU: Tensor FLOPs Utilization" spells out the acronym asked about (an expansion with a word in
  capitals, "FLOPs"); the slide "TFU vs RFU" only mentions TFU."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..conftest import course_with_decks, text_deck
from .helpers import ask, cited_pages

DECK = """\
=== Memória de ativações com o Quark
• Aula 3: quanto custa guardar as ativações do forward

=== Ideia central: recalcular em vez de guardar
• Quark checkpointing (também rematerialização): não guardar as ativações intermediárias, só a entrada
• No backward o forward do bloco é executado de novo para regenerar as suas ativações
• Troca: menos memória de ativações em troca de mais cômputo

=== Checkpointing seletivo: a ideia
• Nem todas as ativações custam o mesmo: umas são caras de recalcular e baratas de guardar
• O checkpointing seletivo decide operação a operação o que se guarda e o que se recalcula num bloco
• Resultado típico: memória intermediária entre nenhum checkpoint e checkpoint completo

=== TFU: Tensor FLOPs Utilization
• TFU = (amostras por segundo x FLOPs por amostra do modelo) / (pico de FLOP/s do acelerador)
• Usa os FLOPs necessários do modelo, independente da implementação

=== TFU vs RFU
• RFU (Raw FLOPs Utilization): conta os FLOPs realmente executados, inclusive a recomputação
• TFU é a métrica honesta para comparar sistemas: recomputação não é trabalho útil
• O mesmo treino pode ter RFU de 50% e TFU de 38%
"""


@pytest.fixture(scope="module")
def course(tmp_path_factory, course_template) -> Path:
    """The sample course with the deck above as corpora/quark_pt.pdf (page = slide), ingested."""
    return course_with_decks(tmp_path_factory.mktemp("whatdef"), text_deck("quark_pt", DECK), course_template / ".kb")


def test_the_line_that_defines_x_answers_over_a_slide_whose_title_mentions_x(course):
    a = ask(course, "O que é o Quark checkpointing e o que se guarda de cada bloco?")
    assert ("quark_pt.pdf", 2) in cited_pages(a), a["answer"]
    assert "não guardar as ativações intermediárias" in a["answer"], a["answer"]
    # what the slide says next of it is quoted with it
    assert "executado de novo" in a["answer"], a["answer"]


def test_the_slide_that_spells_out_the_acronym_answers_over_one_that_mentions_it(course):
    a = ask(course, "O que é TFU e como ele é calculado?")
    assert ("quark_pt.pdf", 4) in cited_pages(a), a["answer"]
    assert "amostras por segundo x FLOPs por amostra" in a["answer"], a["answer"]
