"""kb ask offline (issue 30, session 17): a list question on a slide whose heading names the noun listed ("Erros
frequentes" for "Quais são os erros…?") is answered by the slide, every item in order — on a deck written here
(pt) rendered to a real PDF and ingested with the sample course — not by the one item that shares most words; and a
deck's title slide numbered "Aula 9: …" never answers (as "Aula: …" never did)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..conftest import course_with_decks, text_deck
from .helpers import ask, cited_pages

DECK = """\
=== Gradient clipping na prática
• Aula 9: estabilidade do treino com gradientes grandes

=== Clipping por norma
• clip_grad_norm_(params, max_norm=1.0) reescala todos os gradientes juntos
• Chamar depois do backward e antes do optimizer.step()

=== Erros frequentes
• Chamar clip_grad_norm_ antes do backward: ainda não há gradientes
• Esquecer o unscale_ com GradScaler: o limite vale para gradientes escalados
• Usar max_norm grande demais: o clipping nunca atua
• Clipping por valor quando se queria por norma: muda a direção do gradiente
"""


@pytest.fixture(scope="module")
def course(tmp_path_factory, course_template) -> Path:
    """The sample course with the deck above as corpora/clipping_pt.pdf (page = slide), ingested."""
    return course_with_decks(tmp_path_factory.mktemp("listnoun"), text_deck("clipping_pt", DECK),
                             course_template / ".kb")


def test_a_list_question_on_a_slide_headed_with_the_listed_noun_quotes_the_slide(course):
    a = ask(course, "Quais são os erros mais comuns ao usar o clipping com GradScaler?")
    assert cited_pages(a) == {("clipping_pt.pdf", 3)}, a["answer"]
    items = ["antes do backward: ainda não há", "Esquecer o unscale_", "max_norm grande demais", "Clipping por valor"]
    at = [a["answer"].find(i) for i in items]
    assert all(i >= 0 for i in at) and at == sorted(at), a["answer"]


def test_a_title_slide_numbered_aula_n_never_answers(course):
    a = ask(course, "Quais são os erros mais comuns com gradient clipping?")
    assert ("clipping_pt.pdf", 1) not in cited_pages(a), a["answer"]
    assert "Aula 9" not in a["answer"], a["answer"]
