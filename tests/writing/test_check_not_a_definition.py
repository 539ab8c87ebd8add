"""A "what is X" answered by what follows from X (a slide's arrow), not by what X is
(``not-a-definition``)."""

from __future__ import annotations

from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, run_checks

PASSAGE = ("Tokenização: detalhes que importam. Tokenizer e modelo são um par -> sempre carregar do mesmo "
           "checkpoint. O tokenizer converte o texto em ids de tokens do vocabulário do modelo.")


def _def(answer: str) -> Question:
    return Question(type="short", prompt="Em embeddings de texto, o que é o tokenizer?", answer=answer, lang="pt",
                    citations=(Citation("embed.pdf", "p. 6", "c1", answer),), origin="definition")


def test_an_arrow_after_the_copula_is_a_consequence():
    q = _def("O tokenizer e o modelo são um par -> sempre carregar do mesmo checkpoint.")
    assert "not-a-definition" in run_checks(q, CheckContext(PASSAGE))


def test_a_definition_says_what_it_is():
    q = _def("O tokenizer é o componente que converte o texto em ids de tokens do vocabulário do modelo.")
    assert "not-a-definition" not in run_checks(q, CheckContext(PASSAGE))
