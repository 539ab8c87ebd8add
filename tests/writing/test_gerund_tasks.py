"""A title that opens on a gerund names a task, one rule for the topic stems and the deck's setting
(kb.writing.infinitive.from_gerund): "Exportando modelos" is asked "¿cómo se puede exportar …?" and sets a deck
"Al exportar …"; "Cuando usar X" is no gerund."""

from __future__ import annotations

import pytest

from kb.writing.infinitive import from_gerund
from kb.writing.pattern_topic import topic_form


@pytest.mark.parametrize(("word", "lang", "verb"), [
    ("Exportando", "es", "exportar"), ("Servindo", "pt", "servir"), ("Compondo", "pt", "compor"),
    ("Aprendiendo", "es", ""),  # (es "-iendo" is -er or -ir: not sure)
    ("Cuando", "es", ""), ("Quando", "pt", ""), ("Fundo", "pt", ""), ("Exporting", "en", ""),
])
def test_a_gerund_gives_its_infinitive(word, lang, verb):
    assert from_gerund(word, lang) == verb


def test_a_gerund_title_is_asked_how_the_task_is_done():
    assert topic_form("Mitigando reward hacking", "pt", "title", lambda _: False) == \
        "Em {s}, como se pode mitigar reward hacking?"
