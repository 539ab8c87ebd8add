"""kb ask offline (issue 30, session 17): a deck's summary slide ("Resumo") restates each topic in a line; the
slide on the topic explains it, so the summary answers only when nothing else of its deck does — on a deck written
here (pt) rendered to a real PDF and ingested with the sample course."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..conftest import course_with_decks, text_deck
from .helpers import ask, cited_pages

DECK = """\
=== Compressão de modelos
• Aula 11: modelos menores que imitam modelos grandes

=== Destilação de conhecimento na prática
• Um modelo pequeno (aluno) aprende a imitar as saídas de um modelo grande (professor)
• A perda combina os rótulos verdadeiros e as probabilidades suavizadas do professor
• Temperatura T > 1 suaviza as probabilidades e revela semelhanças entre classes

=== Poda de pesos
• Remove os pesos de menor magnitude e re-treina por algumas épocas
• Poda estruturada remove canais inteiros: acelera de verdade na GPU

=== Resumo
• Destilação de conhecimento: aluno imita professor
• Poda: remove pesos pequenos
• Quantização: menos bits por peso
"""


@pytest.fixture(scope="module")
def course(tmp_path_factory, course_template) -> Path:
    """The sample course with the deck above as corpora/compressao_pt.pdf (page = slide), ingested."""
    return course_with_decks(tmp_path_factory.mktemp("summary"), text_deck("compressao_pt", DECK),
                             course_template / ".kb")


def test_the_slide_on_the_topic_answers_rather_than_the_summary(course):
    a = ask(course, "O que é a destilação de conhecimento?")
    assert cited_pages(a) == {("compressao_pt.pdf", 2)}, a["answer"]
    assert "aluno imita professor" not in a["answer"], a["answer"]
