"""A code or practice slide's title (kb.writing.pattern_topic, the languages' DEMO_TAILS) asks how its topic is
implemented or applied with the verb in the topic's number ("¿cómo se implementan los callbacks?", not "¿cómo se
implementa los callbacks?"), and a title whose topic names nothing ("Ejemplo en código") asks nothing of the kind."""

import pytest

from kb.writing.pattern_topic import topic_stems


@pytest.mark.parametrize("title, lang, stem", [
    ("Callbacks en código", "es", "En {s}, ¿cómo se implementan los callbacks?"),
    ("Las capas convolucionales en código", "es", "En {s}, ¿cómo se implementan las capas convolucionales?"),
    ("Embeddings en la práctica", "es", "En {s}, ¿cómo se aplican los embeddings en la práctica?"),
    ("Hooks em código", "pt", "Em {s}, como se implementam os hooks?"),
    ("Callbacks na prática", "pt", "Em {s}, como se aplicam os callbacks na prática?"),
    ("Fine-tuning em código", "pt", "Em {s}, como se implementa o fine-tuning?"),  # (singular, as before)
    ("Data loaders in practice", "en", "In {s}, how do you apply data loaders in practice?"),
])
def test_the_verb_takes_the_topics_number(title, lang, stem):
    assert topic_stems(title, lang, "title", lambda x: True)[0] == ("task", stem)


@pytest.mark.parametrize("title, lang", [("Ejemplo en código", "es"), ("Exemplos na prática", "pt"),
                                         ("Example in code", "en")])
def test_a_generic_topic_is_not_asked_how_it_is_implemented(title, lang):
    assert not any(cls == "task" and ("implement" in s or "aplic" in s or "apply" in s)
                   for cls, s in topic_stems(title, lang, "title", lambda x: True))
