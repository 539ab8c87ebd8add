"""kb ask offline (issue 30, round 11): a difference is answered by the row that names EACH side best — on a deck
written here (pt) rendered to a real PDF and ingested with the sample course.

- "Otimizador Zeta 8-bit" is asked about, and the row "Otimizador Zeta 32-bit" comes first on the slide: the row
  labelled with the side asked answers, not the first that shares most of its words;
- "TQU vs RQU": the line that names both sides ("O mesmo treino pode ter RQU de 50% e TQU de 38%") is an example of
  neither; the rows on each side answer;
- "… e RowMix ao dividir uma camada": what follows "ao" is context, not a part of the second side."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..conftest import course_with_decks, text_deck
from .helpers import ask, cited_pages

DECK = """\
=== Otimizadores econômicos
• Aula 9: memória de estado dos otimizadores

=== Comparação
• Otimizador Zeta 32-bit: 8 bytes por parâmetro de estado; referência de qualidade
• Otimizador Zeta 8-bit: cerca de 2 bytes por parâmetro; qualidade muito próxima
• Fatorado Kappa: quase zero de estado (sem momento); sensível à taxa de aprendizado

=== TQU vs RQU
• RQU (Raw Quota Usage): conta as operações realmente executadas, inclusive a recomputação
• Recalcular o forward no backward executa mais operações por amostra
• O mesmo treino pode ter RQU de 50% e TQU de 38%
• TQU é a métrica honesta para comparar sistemas: recomputação não é trabalho útil

=== Camadas divididas: ColMix e RowMix
• Uma camada linear guarda o peso com forma (saídas, entradas)
• ColMix: o peso é dividido pelas colunas (dividem-se as saídas); a entrada fica replicada
• RowMix: o peso é dividido pelas linhas (dividem-se as entradas); a saída é somada entre as GPUs
"""


@pytest.fixture(scope="module")
def course(tmp_path_factory, course_template) -> Path:
    """The sample course with the deck above as corpora/zeta_pt.pdf (page = slide), ingested."""
    return course_with_decks(tmp_path_factory.mktemp("diffside"), text_deck("zeta_pt", DECK), course_template / ".kb")


def test_the_row_labelled_with_the_side_asked_answers_not_the_first_alike(course):
    a = ask(course, "Qual a diferença entre o Otimizador Zeta 8-bit e o Fatorado Kappa em memória de estado?")
    assert ("zeta_pt.pdf", 2) in cited_pages(a), a["answer"]
    assert "cerca de 2 bytes por parâmetro" in a["answer"], a["answer"]
    assert "quase zero de estado" in a["answer"], a["answer"]


def test_a_line_naming_both_sides_does_not_stand_for_the_pair(course):
    a = ask(course, "Qual a diferença entre TQU e RQU?")
    assert ("zeta_pt.pdf", 3) in cited_pages(a), a["answer"]
    assert "conta as operações realmente executadas" in a["answer"], a["answer"]
    assert "recomputação não é trabalho útil" in a["answer"], a["answer"]


def test_what_follows_ao_is_context_not_the_second_side(course):
    a = ask(course, "Em que se diferenciam ColMix e RowMix ao dividir uma camada linear?")
    assert ("zeta_pt.pdf", 4) in cited_pages(a), a["answer"]
    assert "dividem-se as saídas" in a["answer"], a["answer"]
    assert "dividem-se as entradas" in a["answer"], a["answer"]
