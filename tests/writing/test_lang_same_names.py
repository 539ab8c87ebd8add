"""The per-language word lists (kb/lang/es.py, pt.py, en.py) hold the same names, each of the same type: a reader
that takes a language's list by name (``_words(lang).FEMININE_ENDS``) finds it in every language, and the joined
lists of kb.lang read a title or stem in any of them."""

from __future__ import annotations

import re

from kb import lang
from kb.lang import en, es, pt


def _tables(module) -> dict[str, type]:
    return {k: type(v) for k, v in vars(module).items() if k.isupper()}


def test_each_language_has_the_same_names_of_the_same_type():
    es_names = _tables(es)
    assert len(es_names) >= 40
    assert _tables(pt) == es_names
    assert _tables(en) == es_names


def test_the_stems_words_are_read_in_each_language():
    what_is = re.compile(rf"(?:{lang.alternation(lang.WHAT_IS_ASKS, capital=True)})\s")
    for stem in ("¿Qué es MPS?", "¿que son los hooks?", "O que é DTensor?", "o que sao os shards?", "What is MPS?"):
        assert what_is.match(stem.lstrip("¿")), stem
    assert not what_is.match("Qual é MPS?")
    assert lang.NEGATIONS == {"no", "nao", "not"} and "y" in lang.AND_WORDS and "and" in lang.AND_WORDS
