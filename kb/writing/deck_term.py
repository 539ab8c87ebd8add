"""Is a label a term of the course, or a slide's word for one of its parts?

An objective question asks the student to pick or judge a TERM ("firstprivate", "ReduceLROnPlateau",
"Driver", "Semi-hard", "in_dims"). A labelled list also labels its lines with ordinary words of the deck's
language ("Moraleja", "Flexibilidad", "Variantes", "Geométricos", "Aleatoriedad", "Ingestão",
"Também reportar", "Requisito"): a slide's category or section, which a student never learnt as a name.
Fresh raters dropped every multiple choice whose answer was such a word (eval/real_heldout_r8–r10: 16 of
the 20 distinct DROPs of "which term matches this description" and its true/false sibling).

A label is a term of the deck (:func:`deck_term`) when it is not an ordinary phrase of the deck's language
(:func:`ordinary_phrase`: a name, code, an acronym, CamelCase, an English term in a Spanish or Portuguese
deck), or when the deck's own running text says it other than as its own label (:func:`uses`): "Produto
interno" and "Estimación del rendimiento" are ordinary words, said again in the deck's sentences; "Moraleja"
is said only as the label of its line. The sibling pattern (:mod:`kb.writing.pattern_siblings`) and the
registry's ``label-answer`` check (:mod:`kb.writing.check_label_answer`) both ask this one test.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from ..text import STOPWORDS, fold, words
from .checks import _zipf, everyday_word

NAMED_LINES = 3  # distinct lines of a deck that must name a which-term multiple choice's answer, and all its options
# but one, for the question to ask among the deck's terms (:func:`unnamed_choices`). The ones that fail it
# (``mcq:unnamed``, kb.writing.form_prior) were kept 37 / 18 / 33 % and dropped 30 / 50 / 40 % on rounds 14-25 / 26-31 /
# 32-36, the other multiple choices kept 53 / 45 / 43 % and dropped 16 / 22 / 21 % (python eval/form_keep.py 14-25
# 26-31 32-36). Those that pass at 2 lines and fail at 3 (form_keep with this set to 2) were kept 43 / 17 / 33 % and
# dropped 32 / 51 / 47 %: as often dropped as the rarer ones, though on 14-25 kept nearly as often as the named.
# Chosen among 2, 3 and 4 on those rounds (session 27). Round 37, held out, told them apart by less: mcq:unnamed kept
# 16 % and dropped 61 %, the others 18 % and 53 % (python eval/form_keep.py 37)
MIN_USES = 1  # lines of the deck's running text that must say an ordinary phrase for it to be a term (hand-set
# on rounds 8–9: the DROPs' answers are said 0 times but as their label; the KEEPs' ordinary answers 1–3 times)


def common_word(word: str) -> bool:
    """``word`` is a word, not a name: Spanish or Portuguese text uses it at least as often as English
    text ("cuantización", "paralelismo"), or English text says it often (Zipf >= 3: "streams",
    "expert"); "Numba", "Kubernetes", "Triton" are names."""
    native = max(_zipf(word, "es"), _zipf(word, "pt"))
    english = _zipf(word, "en")
    return native > 0 and native >= english or english >= 3


def ordinary_phrase(label: str, lang: str) -> bool:
    """``label`` is ordinary words of the deck's language ``lang``, no name: each of its words (but function
    words) a word of ``lang`` (:func:`_native`) with no capital inside,
    digit, underscore or dot ("Uso", "truco", "Memoria", "Flujo típico", "Proporções típicas"; not "PReLU",
    "__global__", "DGL-KE", "Wave quantization", nor "mode" or "patience" in a Portuguese deck: English)."""
    ws = [w for w in words(re.sub(r"\s*\([^)]*\)", "", label)) if fold(w) not in STOPWORDS]
    return bool(ws) and not re.search(r"[_.\d/]", label) and all(
        w.isalpha() and w[1:] == w[1:].lower() and _native(w.lower(), lang) for w in ws)


def _native(word: str, lang: str) -> bool:
    """``word`` is a word of ``lang`` (es/pt: its text says it at least as often as English text does;
    en: :func:`common_word`), not an English term borrowed into a Spanish or Portuguese deck."""
    if lang not in ("es", "pt"):
        return common_word(word)
    native = _zipf(word, lang)
    return everyday_word(word, lang) or native > 0 and native >= _zipf(word, "en")


@functools.lru_cache(maxsize=16)
def _lines(text: str) -> tuple[str, ...]:
    """A deck's distinct lines, folded, bullets stripped (once per deck text)."""
    return tuple(sorted({fold(ln.strip(" •-*·")) for ln in text.split("\n") if ln.strip()}))


def uses(label: str, text: str) -> int:
    """How many distinct lines of ``text`` (a deck's headings and passages) say ``label`` (its words, not its
    gloss in brackets) other than as a label: a line that is the label alone (a title, a table's row) or
    opens on it and a colon or a bracket ("Moraleja: en GPU moderna …") is the label, not a use."""
    bare = fold(re.sub(r"\s*\([^)]*\)", "", label).strip())
    if not bare:
        return 0
    said = re.compile(rf"(?<!\w){re.escape(bare)}(?!\w)")
    own = re.compile(rf"{re.escape(bare)}\s*(?:[(:]|$)")
    return sum(1 for ln in _lines(text) if said.search(ln) and not own.match(ln))


def deck_term(label: str, text: str, lang: str) -> bool:
    """``label`` is a term of the deck whose headings and passages are ``text`` (in ``lang``): a name or an
    English term in a Spanish or Portuguese deck (not :func:`ordinary_phrase`), a word written in lower case
    as code and arguments are ("single", "patience": a slide capitalises its own labels), or an ordinary
    phrase the deck's running text says (:func:`uses`) — not an ordinary word of its language used only as
    a label ("Moraleja", "Variantes", "Geométricos", "Ingestão"), whatever the slide. In a deck in English
    (or another language) no label is judged: its everyday words are its terms too ("Attention", "Loss",
    "Layer": everyday English text says them as often as "Overview"), and no rated deck was in English."""
    bare = label.strip(" \"'“”«»")
    if lang not in ("es", "pt") or not bare or bare[:1].islower() or not ordinary_phrase(bare, lang):
        return True
    return bool(text) and uses(bare, text) >= MIN_USES


@functools.lru_cache(maxsize=4096)
def named_lines(label: str, text: str) -> int:
    """How many distinct lines of ``text`` (a deck's headings and passages) name ``label`` (its words, not its gloss
    in brackets), its own label lines included."""
    bare = fold(re.sub(r"\s*\([^)]*\)", "", label).strip())
    if not bare:
        return 0
    said = re.compile(rf"(?<!\w){re.escape(bare)}(?!\w)")
    return sum(1 for ln in _lines(text) if said.search(ln))


def unnamed_choices(answer: str, choices: Sequence[str], text: str) -> bool:
    """A which-term multiple choice asks among words the deck ``text`` seldom says: its ``answer``, or two of its
    ``choices``, named in fewer than :data:`NAMED_LINES` of the deck's lines — a slide's labels ("Caso típico",
    "Salida", "Otras aproximaciones clásicas") beside its terms, matched to a description by their wording, not by
    what the course teaches. A term the deck names across its slides ("Per-tensor", "Adafactor", "FFN") is what
    such a question is for."""
    if not text:
        return False
    rare = [c for c in choices if named_lines(c, text) < NAMED_LINES]
    return answer in rare or len(rare) >= 2
