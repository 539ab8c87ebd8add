"""kb ask offline (issue 30, round 7): two classes of text left on eval/ask_r8.jsonl's test half, checked on a deck
written here (data drift, pt) rendered to a real PDF and ingested with the sample course: a difference whose two
sides are two lists of one slide, each labelled with one side ("Drift de covariáveis (covariate shift)" / "Drift
de conceito (concept drift)"), quotes both lists; a "why" answered on a slide headed as the motivation or the
problem ("Motivação: …", "O problema: …") quotes its opening reasons, not the one line that shares the most words;
a list question answered by the units of one slide that each open with the noun it asks for ("Estratégia de
dados: …") quotes them in order; a line that states what goes wrong ("se cada serviço calcular o PSI sozinho -> …")
is quoted with the line after it labelled as the pattern ("Padrão: um único job…")."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..conftest import course_with_decks, text_deck
from .helpers import ask, cited_pages

DECK = """\
=== Drift de dados em produção
• Frameworks de Deep Learning e Computação Paralela - Mestrado
• Aula: drift de covariáveis, drift de conceito, monitoramento
• Pré-requisitos: avaliação de modelos, estatística básica

=== Motivação: o modelo envelhece em produção
• O modelo foi treinado com uma foto dos dados de um momento
• A acurácia medida na validação não vale para sempre: os dados de produção mudam
• Um modelo de fraude de 2023 erra padrões novos de 2025 sem nenhum aviso
• Exemplos de aplicação
  • recomendação: gostos mudam com as estações
  • crédito: a economia muda o perfil dos clientes

=== Tipos de drift de dados
• Drift de covariáveis (covariate shift)
  • muda a distribuição das entradas p(x)
  • a relação p(y | x) continua a mesma
  • detectável sem rótulos
• Drift de conceito (concept drift)
  • muda a relação p(y | x) entre entrada e rótulo
  • exige rótulos novos para ser detectado
• Drift total = mudanças em p(x) e em p(y | x) ao mesmo tempo

=== Três estratégias de resposta
• Estratégia de dados: coletar e rotular exemplos recentes
  • janelas deslizantes, amostragem ativa
• Estratégia de modelo: re-treinar ou ajustar com os dados novos
  • fine-tuning periódico, aprendizado contínuo
• Estratégia de decisão: mudar o limiar ou rejeitar entradas suspeitas
  • abstenção, revisão humana
• Começar pela mais barata e medir

=== Resposta ao drift em treino distribuído
• Re-treinar com drift exige re-amostrar os dados novos em todos os ranks
• Opções de resposta ao drift
  • sampler com pesos por data: exemplos recentes pesam mais
  • janela móvel de dados: descartar o que ficou velho
• Métricas de drift: agregar os histogramas de todos os ranks antes do PSI

=== Monitoramento de drift
• Comparar a distribuição de cada feature com a do treino (teste KS, PSI)
• PSI > 0,2: drift relevante
• Acompanhar a acurácia com rótulos atrasados
• Alertas por feature e por janela de tempo

=== Drift com vários modelos em produção
• Com vários modelos: se cada serviço calcular o PSI sozinho -> alertas duplicados e limiares diferentes
• Padrão: um único job de monitoramento calcula o PSI de todos os modelos
• Dashboards por modelo e alertas por equipe
"""


@pytest.fixture(scope="module")
def course(tmp_path_factory, course_template) -> Path:
    """The sample course with the deck above as corpora/drift_pt.pdf (page = slide), ingested."""
    return course_with_decks(tmp_path_factory.mktemp("sides"), text_deck("drift_pt", DECK), course_template / ".kb")


def test_a_difference_between_two_labelled_lists_of_one_slide_quotes_both(course):
    a = ask(course, "Qual a diferença entre covariate shift e concept drift?")
    assert cited_pages(a) == {("drift_pt.pdf", 3)}, a["answer"]
    assert "muda a distribuição das entradas p(x)" in a["answer"], a["answer"]
    assert "muda a relação p(y | x) entre entrada e rótulo" in a["answer"], a["answer"]


def test_a_why_on_a_motivation_slide_quotes_its_opening_reasons(course):
    a = ask(course, "Por que a acurácia da validação não vale para sempre em produção?")
    assert cited_pages(a) == {("drift_pt.pdf", 2)}, a["answer"]
    for reason in ("treinado com uma foto dos dados", "os dados de produção mudam", "erra padrões novos de 2025"):
        assert reason in a["answer"], a["answer"]
    assert "recomendação" not in a["answer"], a["answer"]


def test_a_list_of_the_units_that_open_with_the_noun_asked_for(course):
    a = ask(course, "Quais são as estratégias de resposta ao drift?")
    assert cited_pages(a) == {("drift_pt.pdf", 4)}, a["answer"]
    items = ["Estratégia de dados: coletar", "Estratégia de modelo: re-treinar", "Estratégia de decisão: mudar"]
    at = [a["answer"].find(s) for s in items]
    assert all(i >= 0 for i in at) and at == sorted(at), a["answer"]


def test_what_goes_wrong_is_quoted_with_the_pattern_that_follows_it(course):
    a = ask(course, "Qual serviço deve calcular o PSI com vários modelos em produção?")
    assert cited_pages(a) == {("drift_pt.pdf", 7)}, a["answer"]
    assert "Padrão: um único job de monitoramento" in a["answer"], a["answer"]
