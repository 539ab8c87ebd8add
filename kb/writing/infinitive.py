"""An infinitive of a Spanish or Portuguese deck ("Guardar", "Medir", "Tokenizar", "Pré-treinar"), told from an
English word ("Docker", "Trainer") and from a noun of an infinitive's form ("Taller", "Primer"): a title opening on
one names a task (:func:`kb.writing.plan.task_title`), a step of a sequence holding one is a clause
(:func:`kb.writing.checks_form.not_a_definition`)."""

from __future__ import annotations

import re

from ..text import fold

_INFINITIVE = re.compile(r"^(?:[A-ZÁÉÍÓÚ]?[a-zé]{2,4}-)?[A-ZÁÉÍÓÚ]?[a-záéíóúñç]{2,}(?:ar|er|ir|ér)$")  # es/pt:
# "Guardar", "Medir", "Fazer", "Pré-treinar"
# nouns of es/pt with an infinitive's ending, as common as a verb ("Taller práctico", "Poder computacional",
# "Primer ejemplo")
_NOT_VERBS = frozenset("""taller poder lugar hogar deber mujer placer militar collar dolar pilar radar altar primer
    mulher colher""".split())
# a technical verb no word list knows ("Tokenizar", "Cuantizar", "Paralelizar"): a verb's suffix, or a prefix
# on a known verb ("Reentrenar", "Retreinar", "Pré-treinar", "Submuestrear")
_VERB_SUFFIX = {"es": re.compile(r"..(?:izar|ear|ificar)$"), "pt": re.compile(r"..(?:izar|ear)$")}
_VERB_PREFIX = re.compile(r"^(?:re|pre|pré|sobre|sub)-?(?P<verb>.{4,})$")
# an adjective after the first word: a noun it qualifies ("Sampler distribuido", "Tokenizer rápido"), no
# verb's object
_ADJECTIVE = re.compile(r"(?:al|ales|ico|ica|icos|icas|ido|ida|idos|idas|ivo|iva|ivos|ivas|oso|osa|ble|bles)$")
VERB_MARGIN = 1.0  # Zipf points the deck's language must say the word by more than English does (hand-set:
# "Mover" 4.3 vs 3.2 in Spanish; "Taller" 4.5 vs 3.7, "Cluster" 2.8 vs 4.0)


def infinitive(word: str, lang: str, after: str = "") -> bool:
    """``word`` is an infinitive of the deck's language ``lang`` (es/pt: "Guardar", "Medir", "monitorar"): of an
    infinitive's form, said by ``lang``'s text more than by English ("Docker", "Trainer", "Encoder", "Cluster",
    "Popular": English words or nouns), no known noun ("Taller", "Poder"), nor followed (``after``) by an adjective
    ("Poder computacional")."""
    from .checks import _zipf

    if lang not in ("es", "pt") or not _INFINITIVE.match(word) or fold(word) in _NOT_VERBS:
        return False
    if after and _ADJECTIVE.search(fold(after)):
        return False
    native, english = _zipf(word, lang), _zipf(word, "en")
    if native == 0 and english == 0:  # (a word no list knows: a verb by its form only)
        low = word.lower()
        prefixed = _VERB_PREFIX.match(low)
        return bool(_VERB_SUFFIX[lang].search(low) or (prefixed and infinitive(prefixed["verb"], lang)))
    return native > 0 and native >= english + VERB_MARGIN


# a gerund's endings and its infinitive's, per language (es: only "-ando" is sure, "-iendo" is -er or -ir;
# pt: "-ondo" is pôr's family: "compondo" → "compor")
_GERUNDS = {"es": (("ando", "ar"),), "pt": (("ando", "ar"), ("endo", "er"), ("indo", "ir"), ("ondo", "or"))}


def from_gerund(word: str, lang: str) -> str:
    """The infinitive of a gerund of ``lang`` in lower case ("Exportando" → "exportar", "Servindo" → "servir",
    "Mitigando" → "mitigar"); "" for any other word. Titles that name a task this way are asked how it is done
    (:func:`kb.writing.pattern_topic.topic_stem`) and set a deck's stems "Al exportar …"
    (:func:`kb.writing.subject.task_of`)."""
    low = word.lower()
    if not re.fullmatch(r"[a-záéíóúç]{5,}", low) or low in ("cuando", "quando"):  # (the question word "when")
        return ""
    return next((low[: -len(end)] + to for end, to in _GERUNDS.get(lang, ()) if low.endswith(end)), "")
