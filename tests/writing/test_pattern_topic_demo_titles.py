"""A slide whose title shows its topic as code or in use ("CutMix en código", "WordPiece na prática") is asked how
the topic is implemented or applied, never what "X en código" is (kb.writing.pattern_topic; rounds 8-22: such stems
kept in 10 % of 87 ratings, dropped in 9 %); a phrase joined by a preposition takes its head's number ("o que é a
consistência entre frames?", not "o que são os consistência entre frames?": rounds 18, 19 and 22)."""

import pytest

from kb.writing.pattern_topic import topic_stems


@pytest.mark.parametrize("title, lang, stem", [
    ("CutMix en código", "es", "En {s}, ¿cómo se implementa CutMix?"),
    ("Fine-tuning em código", "pt", "Em {s}, como se implementa o fine-tuning?"),
    ("Matryoshka em código", "pt", "Em {s}, como se implementa a matryoshka?"),
    ("WordPiece na prática", "pt", "Em {s}, como se aplica WordPiece na prática?"),
    ("FAISS en la práctica", "es", "En {s}, ¿cómo se aplica FAISS en la práctica?"),
    ("Hooks in code", "en", "In {s}, how do you implement hooks?"),
])
def test_a_code_or_practice_slide_is_asked_how_its_topic_is_implemented_or_applied(title, lang, stem):
    assert topic_stems(title, lang, "title", lambda x: True)[0] == ("task", stem)


def test_a_title_that_opens_on_a_preposition_is_still_no_topic():
    assert topic_stems("Da teoria na prática", "pt", "title", lambda x: True) == []


@pytest.mark.parametrize("title, stem", [
    ("Consistência entre frames", "Em {s}, o que é a consistência entre frames?"),
    ("Engenharia de prompts", "Em {s}, o que é a engenharia de prompts?"),
    ("Espaço de features", "Em {s}, o que é o espaço de features?"),
])
def test_a_phrase_joined_by_a_preposition_takes_its_heads_number(title, stem):
    assert topic_stems(title, "pt", "title", lambda x: True)[0] == ("name", stem)


def test_an_english_compound_still_takes_its_last_words_number():
    assert topic_stems("Deep ensembles", "es", "title", lambda x: True)[0] == \
        ("name", "En {s}, ¿qué son los deep ensembles?")
