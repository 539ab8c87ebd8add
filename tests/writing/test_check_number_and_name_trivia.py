"""Short answers whose concepts are only quantities or only bare names are flagged as trivia (eval/real_heldout_r8)."""

from __future__ import annotations

from kb.quiz import Citation, Question
from kb.writing.checklist import CheckContext, run_checks

_CITE = (Citation("deck.pdf", "p. 3", "", ""),)


def test_a_short_answer_whose_every_concept_is_a_quantity_is_flagged():
    answer = "ImageNet-1k: ~1,28 milhão de JPEGs; LAION-5B: bilhões de pares imagem-texto"
    q = Question("short", "Em carregamento de dados, o que significa «ImageNet-1k»?", answer, _CITE, lang="pt",
                 concepts=("~1,28 milhão de JPEGs",), origin="definition")
    assert "number-trivia" in run_checks(q, CheckContext(answer))
    point = Question("short", "Em carregamento de dados, por que milhões de arquivos pequenos são um problema?",
                     answer, _CITE, lang="pt", concepts=("sobrecarregam os metadados do sistema de arquivos",),
                     origin="idea")
    assert "number-trivia" not in run_checks(point, CheckContext(answer))


def test_elements_whose_concepts_are_bare_names_are_name_trivia():
    prompt = ("En NAS, ¿qué significa cada uno de estos elementos de «Herramientas»: NNI (Microsoft); "
              "Benchmarks tabulares?")
    answer = "NNI (Microsoft): DARTS, ENAS, evolución; Benchmarks tabulares: NAS-Bench-101, NAS-Bench-201"
    names = Question("short", prompt, answer, _CITE, lang="es", concepts=("DARTS", "NAS-Bench-101"), origin="labels")
    assert "name-trivia" in run_checks(names, CheckContext(answer))
    ideas = Question("short", prompt, answer, _CITE, lang="es",
                     concepts=("búsqueda de arquitecturas en PyTorch", "resultados precalculados"), origin="labels")
    assert "name-trivia" not in run_checks(ideas, CheckContext(answer))
