"""kb ask offline (issue 30, session 17): a difference is answered by a row for EACH side of the slide that holds
them, on a deck written here (pt) rendered to a real PDF and ingested with the sample course. Two slide shapes:
one row labelled with each side ("safetensors: …" / "pickle (torch.save): …"), where the line that names both sides
("Ambos …") or a side in passing must not stand for the pair; and a slide that compares the two attribute by
attribute ("Bloqueio: o síncrono …; o assíncrono …"), quoted row by row rather than two of its rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..conftest import course_with_decks, text_deck
from .helpers import ask, cited_pages, eval_ask

DECK = """\
=== Checkpoints de modelos grandes
• Aula 7: formatos, escrita assíncrona e retomada

=== Formatos de checkpoint
• safetensors: só tensores, sem código executável; abre com mmap, rápido e seguro
• pickle (torch.save): pode executar código arbitrário ao carregar; aceita qualquer objeto Python
• Ambos guardam o state_dict; converter pickle para safetensors leva segundos
• Hubs de modelos preferem safetensors por segurança

=== Escrita síncrona vs assíncrona
• Bloqueio: a síncrona para o treino até o fim; a assíncrona grava em outra thread
• Memória: a assíncrona exige uma cópia dos pesos na CPU, a síncrona não
• Consistência: a síncrona garante o arquivo completo ao retornar; a assíncrona só depois do wait()
• Em clusters grandes a escrita leva minutos: esconder esse tempo compensa

=== Retomar o treino
• Carregar pesos, estado do otimizador e do scheduler
• Restaurar o passo global e a semente do sampler
"""


@pytest.fixture(scope="module")
def course(tmp_path_factory, course_template) -> Path:
    """The sample course with the deck above as corpora/checkpoints_pt.pdf (page = slide), ingested."""
    return course_with_decks(tmp_path_factory.mktemp("rows"), text_deck("checkpoints_pt", DECK),
                             course_template / ".kb")


def test_a_difference_quotes_the_row_labelled_with_each_side(course):
    a = ask(course, "Qual a diferença entre safetensors e pickle?")
    assert cited_pages(a) == {("checkpoints_pt.pdf", 2)}, a["answer"]
    first, second = a["answer"].find("safetensors: só tensores"), a["answer"].find("pickle (torch.save): pode")
    assert 0 <= first < second, a["answer"]
    assert "Ambos guardam" not in a["answer"] and "Hubs de modelos" not in a["answer"], a["answer"]


def test_a_slide_comparing_attribute_by_attribute_is_quoted_row_by_row(course):
    a = ask(course, "Qual a diferença entre a escrita síncrona e a assíncrona?")
    assert cited_pages(a) == {("checkpoints_pt.pdf", 3)}, a["answer"]
    rows = ["Bloqueio: a síncrona", "Memória: a assíncrona", "Consistência: a síncrona"]
    at = [a["answer"].find(r) for r in rows]
    assert all(i >= 0 for i in at) and at == sorted(at), a["answer"]


def test_both_row_answers_quote_their_cited_passage(course, tmp_path):
    items = [("Qual a diferença entre safetensors e pickle?", "checkpoints_pt.pdf", [2],
              ["sem código executável", "pode executar código arbitrário"]),
             ("Qual a diferença entre a escrita síncrona e a assíncrona?", "checkpoints_pt.pdf", [3],
              ["grava em outra thread", "exige uma cópia dos pesos", "garante o arquivo completo"])]
    report = eval_ask(course, tmp_path, items)
    assert report["quoted"] == 1.0 and report["correct"] == 1.0, report
