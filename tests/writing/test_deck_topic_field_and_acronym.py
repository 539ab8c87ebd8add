"""A deck's topic from its title (kb.writing.wording.deck_topic) where the title says the whole field it is done
with ("… con deep learning") or names its topic by a plural acronym ("(PINNs)"): without a topic, the stems of such a
deck had no setting but a library its code happens to use ("En PyTorch, …" on a medical-segmentation deck, which then
got 6 of 12 questions)."""

import pytest

from kb.writing.wording import deck_topic


@pytest.mark.parametrize("title, topic", [
    ("Segmentación de imágenes médicas con deep learning", "segmentación de imágenes médicas"),
    ("Reconhecimento óptico de texto com deep learning", "reconhecimento óptico de texto"),
    ("Detección de objetos con deep learning", "detección de objetos"),
    ("Clasificación de audio con redes neuronales profundas", "clasificación de audio"),
    ("Sistemas de recomendação com deep learning em larga escala", "sistemas de recomendação"),
])
def test_the_whole_field_a_title_is_done_with_is_no_part_of_its_topic(title, topic):
    assert deck_topic(title) == topic


def test_a_title_named_by_a_plural_acronym_too_long_to_set_a_stem_is_set_in_the_acronym():
    assert deck_topic("Redes neuronales informadas por la física (PINNs)") == "PINNs"
    assert deck_topic("Redes neurais em grafos (GNNs)") == "Redes neurais em grafos (GNNs)"  # short: whole, as written


@pytest.mark.parametrize("title, topic", [
    ("Deep learning para sensoriamento remoto", "deep learning para sensoriamento remoto"),  # the field opens it
    ("Mixture of Experts (MoE) y paralelismo de expertos", "Mixture of Experts (MoE)"),
    ("Redes neuronales profundas", ""),  # the whole field alone narrows nothing
])
def test_titles_outside_the_class_keep_their_topic(title, topic):
    assert deck_topic(title) == topic


def test_a_long_title_glossed_in_brackets_is_set_in_its_own_words():
    assert deck_topic("Ataques de inferência de pertinência (Membership Inference)") == \
        "ataques de inferência de pertinência"


def test_a_long_title_that_opens_on_a_name_and_more_is_set_in_the_name():
    assert deck_topic("GRPO y aprendizaje por refuerzo con recompensas verificables") == "GRPO"
    assert deck_topic("Mixup y CutMix") == "mixup y CutMix"  # (short: the whole title)


def _page(page: int, heading: str | None, text: str):
    from kb.records import Chunk, Locator

    return Chunk("decks/x_pt.pdf", "pdf", text, Locator(page=page, heading=heading), "pt", page, "h", 3)


@pytest.mark.parametrize("heading, text, title", [
    # a title line too long for the reader's headings: the page's first line, the course's name before the session
    (None, "Frameworks de Deep Learning e Computação Paralela - Aula: modelos de espaço de estados para visão\n"
           "• Curso: Frameworks de Deep Learning (mestrado)", "modelos de espaço de estados para visão"),
    ("Frameworks de Deep Learning y Computación Paralela - Sesión 3: planificación de trabajos de GPU", "• Curso: …",
     "planificación de trabajos de GPU"),
    ("PagedAttention e o gerenciamento de memória do vLLM", "• Mestrado",
     "PagedAttention e o gerenciamento de memória do vLLM"),
    (None, "• Curso: Frameworks (mestrado)\n• Material: notebook", ""),  # (a bullet is no title)
])
def test_a_decks_title_is_its_sessions_topic(heading, text, title):
    from kb.writing.course import CourseTerms
    from kb.writing.subject import deck_title

    chunks = [_page(1, heading, text), _page(2, "Agenda", "• Revisão\n• SSMs"), _page(3, "SSMs", "• A recorrência.")]
    assert deck_title(CourseTerms(chunks, None), "decks/x_pt.pdf") == title


@pytest.mark.parametrize("title, topic", [
    ("PagedAttention e o gerenciamento de memória do vLLM", "PagedAttention"),  # a name, then more
    ("modelos de espaço de estados para visão", "modelos de espaço de estados"),  # too long: what, not what for
])
def test_a_long_title_is_set_in_its_first_subject(title, topic):
    assert deck_topic(title) == topic


@pytest.mark.parametrize("title, topic", [
    ("Token Merging (ToMe) e redução de tokens em ViTs", "Token Merging (ToMe)"),  # its capitals are the initials
    ("Hiperredes (HyperNetworks)", "hiperredes (HyperNetworks)"),  # a gloss, no acronym
    ("Autoencoders na prática (PyTorch)", "autoencoders na prática (PyTorch)"),  # a tool
])
def test_a_mixed_case_acronym_is_a_name_only_when_it_spells_the_words_before_it(title, topic):
    assert deck_topic(title) == topic
