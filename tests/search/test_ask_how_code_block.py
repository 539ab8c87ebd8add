"""kb ask offline (issue 30, round 10): a "how" is answered by the slide's code block, whole and in order, from the
slide with the procedure — on a deck written here (pt) rendered to a real PDF and ingested with the sample course.

The PDF reader takes a call continued over indented lines for a line of text, so the slide's code block reaches the
store as a text chunk that opens with the call and a code chunk with the rest; the answer must quote the call too,
not the block's tail alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..conftest import course_with_decks, text_deck
from .helpers import ask, cited_pages

DECK = """\
=== Privacidade diferencial com o Lumen
• Aula 7: treinar com garantias de privacidade

=== Lumen: ruído e orçamento
• O Lumen calibra o ruído dos gradientes para um orçamento epsilon alvo antes de treinar
• O orçamento gasto cresce com o número de épocas treinadas

=== Orçamento fixo no Lumen
    modelo, otimizador, carregador = motor_lumen.privatizar_com_orcamento(
        modulo=modelo, otimizador=otimizador, carregador=carregador,
        epsilon_alvo=8.0, delta_alvo=1e-5, epocas=20, norma_maxima=1.0,
    )
    gasto = motor_lumen.epsilon_gasto(delta=1e-5)
• O Lumen procura o ruído que gasta exatamente o orçamento nas épocas declaradas
• Treinar mais épocas do que as declaradas ultrapassa o epsilon alvo

=== Carregador do Lumen: workers e sementes
• Com workers > 0 cada worker é um processo à parte com a sua própria cópia dos geradores
• O Lumen semeia cada worker com semente_base + id_do_worker; a semente base sai do gerador principal do carregador
• Bibliotecas externas dentro do worker têm geradores próprios: semeie-as em init_fn
• Os lotes chegam em ordem de índice mesmo quando os workers terminam fora de ordem

=== Receita para o carregador do Lumen
    def seed_worker(i):
        s = lumen.initial_seed() % 2**32
        random.seed(s)
    g = lumen.Generator()
    g.manual_seed(0)
    loader = lumen.Loader(data, batch_size=64, shuffle=True, n=4, init_fn=seed_worker, generator=g)
• Dentro do worker, initial_seed() devolve a semente própria daquele worker
• generator=g fixa o embaralhamento e as sementes base, independentemente do resto do programa
"""


@pytest.fixture(scope="module")
def course(tmp_path_factory, course_template) -> Path:
    """The sample course with the deck above as corpora/lumen_pt.pdf (page = slide), ingested."""
    return course_with_decks(tmp_path_factory.mktemp("howcode"), text_deck("lumen_pt", DECK), course_template / ".kb")


def test_the_code_block_is_quoted_whole_with_the_call_read_as_text(course):
    a = ask(course, "Como treinar com o Lumen gastando exatamente o orçamento nas épocas declaradas?")
    assert ("lumen_pt.pdf", 3) in cited_pages(a), a["answer"]
    assert "privatizar_com_orcamento(" in a["answer"], a["answer"]  # the call the reader took for text
    assert a["answer"].index("privatizar_com_orcamento(") < a["answer"].index("epsilon_gasto("), a["answer"]


def test_the_slide_with_the_code_answers_a_how_not_a_line_that_shares_its_words(course):
    a = ask(course, "Como configuro o carregador do Lumen com vários workers para que seja reprodutível?")
    assert ("lumen_pt.pdf", 5) in cited_pages(a), a["answer"]
    answer = a["answer"] + "\n"
    # the recipe's code answers first; the line of the other slide, if quoted at all, after it
    assert answer.index("init_fn=seed_worker") < (answer + "semente_base").index("semente_base"), a["answer"]
