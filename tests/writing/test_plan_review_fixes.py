"""Review fixes to the plain and fill questions of :mod:`kb.writing.plan`: an English word or a noun read as an
infinitive ("¿cómo se puede docker compose?"), a formula dropped from a model answer as code, a question filtered by
one slide's language instead of its deck's, and a slide's English wording ("Next steps") asked as a term."""

from __future__ import annotations

from kb.outline import Idea, build_outline
from kb.records import Chunk, Locator
from kb.writing.generate import CourseTerms
from kb.writing.plan import asked_as_term, fill_questions, plain_forms, plain_questions, task_title
from kb.writing.slide_bullets import slide_answer

SRC = "slides/metrics.pdf"


def _chunk(page: int, title: str, text: str, lang: str = "es") -> Chunk:
    return Chunk(SRC, "pdf", text, Locator(page=page, heading=title), lang, page, "h", 4)


def test_a_task_title_opens_on_an_infinitive_of_the_deck_not_an_english_word_nor_a_noun():
    for title in ("Docker compose", "Trainer API", "Encoder y decoder", "Cluster Kubernetes", "Tokenizer rápido",
                  "Sampler distribuido", "Taller práctico", "Poder computacional", "Popular frameworks"):
        assert task_title(title, "es") == "", title
        assert task_title(title, "pt") == "", title
    assert task_title("Guardar y cargar modelos en la nube", "es") == "guardar y cargar modelos en la nube"
    assert task_title("Mover tensores a la GPU", "es") == "mover tensores a la GPU"
    assert task_title("Fazer checkpoint do modelo", "pt") == "fazer checkpoint do modelo"


def test_a_recap_line_opening_on_an_english_word_is_no_list_of_actions():
    def idea(text: str) -> Idea:
        return Idea("definition", text.split(":")[0], text, "Resumo", "p. 9 · Resumo", ("c",))

    serving = idea("Serving: Docker compose levanta o servidor de inferência e o banco de dados com um só arquivo")
    assert any("«Serving»" in p for p, _ in plain_forms(serving, "", "pt"))
    actions = idea("Codebook collapse: monitorar utilização e perplexidade do codebook durante todo o treino")
    assert plain_forms(actions, "", "pt") == []


METRICS = ("• Precisión = TP / (TP + FP)\n"
           "• Recall = TP / (TP + FN)\n"
           "• F1 combina ambas en una media armónica\n"
           "x_data = torch.tensor(data)\n"
           "lr = 0.01\n"
           "loss = criterion(out, y)")


def test_a_formula_stays_in_a_model_answer_and_code_does_not():
    answer = slide_answer(METRICS)
    assert answer == ("Precisión = TP / (TP + FP). Recall = TP / (TP + FN). "
                      "F1 combina ambas en una media armónica.")
    steps = slide_answer("• Ejecutar train()\n• Evaluar el modelo con los datos de validación\nmodel.eval()")
    assert steps == "Ejecutar train(). Evaluar el modelo con los datos de validación."


def _deck() -> list[Chunk]:
    return [_chunk(1, "Regularización", "Curso de aprendizaje profundo\nAutores"),
            _chunk(2, "Técnica DropConnect",
                   "• DropConnect: apaga al azar una fracción de los pesos en cada paso de entrenamiento"),
            _chunk(3, "Técnica BatchNorm",  # (one slide read as Portuguese in a Spanish deck)
                   "• BatchNorm: normaliza as ativações de cada camada com a média e a variância do lote", "pt"),
            _chunk(4, "Técnica LayerNorm",
                   "• LayerNorm: normaliza las activaciones de cada ejemplo sobre sus rasgos y no sobre el lote")]


def test_the_lang_filter_goes_by_the_decks_language_not_a_slides():
    chunks = _deck()
    o = build_outline(chunks, SRC, bookmarks=[])
    by_id, course = {c.id: c for c in chunks}, CourseTerms(chunks, None)
    for k in (10, 0):  # (plain questions on the planned ideas; the fill on further ones)
        plain, _ = plain_questions({SRC: o}, [], by_id, course, k=k, lang="pt")
        assert plain == []
        assert fill_questions({SRC: o}, [], by_id, course, k=k, lang="pt") == []
    plain, _ = plain_questions({SRC: o}, [], by_id, course, k=10, lang="es")
    assert any("«BatchNorm»" in d.question.prompt for d in plain)
    assert all(d.question.lang == "es" for d in plain)
    filled = fill_questions({SRC: o}, [], by_id, course, k=0, lang="es")
    assert any("«BatchNorm»" in d.question.prompt for d in filled)


def test_a_slides_english_wording_is_no_term_unless_the_deck_says_it_again():
    once, again = (lambda phrase: 1), (lambda phrase: 3)
    for lang in ("es", "pt", "en"):
        for label in ("Next steps", "Other signals", "Overview"):
            assert not asked_as_term(label, once, lang), (label, lang)
    assert asked_as_term("Next steps", again, "es")
    for term in ("Registered model", "Activation checkpointing", "default_collate"):
        assert asked_as_term(term, once, "es"), term
    # an English term stands out only in a Spanish or Portuguese deck
    assert not asked_as_term("Registered model", once, "en")
    assert asked_as_term("default_collate", once, "en")


def test_the_fill_takes_no_question_a_chosen_one_already_asks():
    from dataclasses import replace

    from kb.writing.generate import _fill  # (where the quiz service takes fill questions; no public seam)

    chunks = _deck()
    o = build_outline(chunks, SRC, bookmarks=[])
    plain, _ = plain_questions({SRC: o}, [], {c.id: c for c in chunks}, CourseTerms(chunks, None), k=10, lang="es")
    first = plain[0]
    again = replace(first, key="idea:other", item="", idea="other")  # (the same question on another passage)
    assert _fill([first], [again, *plain[1:]], n=10) == sorted([first, *plain[1:]], key=lambda d: d.chunk.ordinal)


def test_a_technical_verb_no_word_list_knows_opens_a_task_and_a_common_noun_does_not():
    for title, lang in (("Tokenizar el texto", "es"), ("Cuantizar modelos", "es"), ("Reentrenar el modelo", "es"),
                        ("Preentrenar un transformer", "es"), ("Binarizar etiquetas", "es"),
                        ("Submuestrear clases", "es"), ("Quantizar modelos", "pt"), ("Retreinar o modelo", "pt"),
                        ("Paralelizar o treino", "pt"), ("Pré-treinar um transformer", "pt")):
        assert task_title(title, lang) == title[0].lower() + title[1:], title
    for title, lang in (("Primer ejemplo con PyTorch", "es"), ("Mulher cientista", "pt"), ("Docker compose", "es")):
        assert task_title(title, lang) == "", title


def test_an_english_compound_with_a_word_slides_use_is_still_a_term():
    def once(phrase: str) -> int:
        return 1

    for term in ("Step size", "Unit tests", "Class imbalance", "Next token"):
        assert asked_as_term(term, once, "es"), term
    for label in ("Next steps", "Typical scenario", "Other signals"):
        assert not asked_as_term(label, once, "es"), label
