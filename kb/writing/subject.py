"""The deck's subject a stem is set in ("En TensorFlow, …", "Em computação distribuída, …"): one answer
for every offline pattern (:meth:`kb.writing.writer_core.WriterCore._set_in_subject`) and for the plan's
plain questions (:mod:`kb.writing.plan`), so that a question on a top idea is set as the writer's own are.

A deck's title is its first page's heading; a source without pages (a text export, notes) has its
outline's title instead, unless that is an index or divider ("Agenda", "Contenidos del curso") or the
file's own name ("000_018776c44678bcbb"): those say nothing of what it teaches. The subject is, in this
order, what the title says the deck is about (:func:`~kb.writing.wording.deck_topic`, after a chapter
label: "Capítulo 12: …" is about what follows), the one library the title names, the library the
source's code uses most, the title itself when it is short.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..lang import divider_title
from ..text import fold, words
from .concepts import _deck_title, _source_frameworks
from .wording import deck_topic, listing, lower_first, name_uses

if TYPE_CHECKING:
    from .course import CourseTerms

_INDEX = frozenset("indice index agenda contenidos contenido conteudo conteudos sumario contents outline temario "
                   "roteiro".split())
# the words of a course's index title besides the index word: "Contenidos del curso", "Conteúdo da aula"
_INDEX_FILLER = frozenset("del de da do la el o a the of this curso course aula clase class tema".split())


def index_title(title: str) -> bool:
    """An index page's title ("Agenda", "Contenidos del curso", "Conteúdo"): no subject."""
    ws = [fold(w) for w in words(title)]
    return bool(ws) and ws[0] in _INDEX and all(w in _INDEX_FILLER for w in ws[1:])


def _file_name(title: str) -> bool:
    return " " not in title.strip() and bool(re.search(r"[\d_]", title))  # "000_018776c44678bcbb", "aula3"


def deck_title(course: CourseTerms, source: str) -> str:
    """The deck's title: its first page's heading, else (a source without pages) its outline's title
    when that names a subject; "" when none does."""
    title = _deck_title(course, source)
    if title:
        return title
    outline = getattr(course, "outlines", {}).get(source)
    title = outline.title if outline is not None else ""
    if not title or index_title(title) or divider_title(title) or _file_name(title):
        return ""
    return title


def whole_text(course: CourseTerms, source: str) -> str:
    """The source's whole text, titles included, once per source and course (the writer's too)."""
    cache = course.__dict__.setdefault("_whole", {})
    if source not in cache:
        cache[source] = "\n".join(f"{c.locator.heading or ''}\n{c.text}" for c in course.by_source.get(source, []))
    return cache[source]


def topic_of(course: CourseTerms, source: str) -> str:
    """What the deck's title says it is about (:func:`~kb.writing.wording.deck_topic`), once per source."""
    cache = course.__dict__.setdefault("_deck_topic", {})
    if source not in cache:
        title = deck_title(course, source)
        # the title's own capitals are no evidence ("Formatos e Carregamento de Dados", said nowhere
        # else, was "Em formatos e Carregamento de dados, …": split AB)
        text = whole_text(course, source).replace(title, " ") if title else whole_text(course, source)

        def is_name(w: str) -> bool:  # written with its capital inside sentences more often than without
            inside, low = name_uses(w, text)
            return inside > low

        cache[source] = deck_topic(title, is_name=is_name)
    return cache[source]


def library_of(course: CourseTerms, source: str) -> str:
    """The one library a deck's title names ("Processamento paralelo de dados com Dask" → Dask), of
    those its code uses; "" where the title names none or two ("… en Keras y PyTorch")."""
    cache = course.__dict__.setdefault("_deck_library", {})
    if source not in cache:
        title = deck_title(course, source)
        named = [n for n, _ in _source_frameworks(course, source)
                 if re.search(rf"\b{re.escape(n)}\b(?!\s+[A-Z])", title)]  # not "PyTorch Geometric"
        cache[source] = named[0] if len(named) == 1 else ""
    return cache[source]


LIBRARY_SPAN = 1 / 3  # share of a source's passages that must name the library its code uses most for it to
# be the deck's subject: on the sample course TensorFlow is named in 43–100 % of the TensorFlow texts' passages,
# Hadoop in 24 % of a text on parallelism in general ("Em Hadoop, o que significa «Criação de uma thread»?")


def _spans(course: CourseTerms, source: str, name: str, code: str) -> bool:
    """The library is named (or its code used: "tf.", "import torch") in LIBRARY_SPAN of the source's passages."""
    passages = course.by_source.get(source, [])
    said = re.compile(rf"\b{re.escape(name)}\b|\b{re.escape(code)}\.|\bimport {re.escape(code)}\b", re.I)
    hits = sum(1 for c in passages if said.search(f"{c.locator.heading or ''}\n{c.text}"))
    return bool(passages) and hits >= LIBRARY_SPAN * len(passages)


def deck_subject(course: CourseTerms, source: str, *, any_library: bool = False) -> str:
    """The setting of a stem that names nothing of the deck: its title's topic, else the library its
    title names, else the library its code uses most where the deck names it throughout
    (:data:`LIBRARY_SPAN`; with ``any_library``, wherever it names it: the pattern stems' older rule), else
    its title when short (2–6 words); "" when there is none. The title is :func:`deck_title`'s (a text
    source's from its outline, never an index page or the file name), which changed the writer's own stems
    on text sources too (sample course: "Em TensorFlow, o que é MapReduce?" on a Databricks tutorial)."""
    title = deck_title(course, source)
    if listing(title) and not topic_of(course, source):
        # a title that lists more things than a setting can say names no subject, and the library its code
        # uses is not it either ("En PyTorch, ¿qué ventaja tiene el parameter server?"): the one library the
        # title names, or none
        return library_of(course, source)
    used = next(((n, code) for n, code in _source_frameworks(course, source)), None)
    return topic_of(course, source) or library_of(course, source) \
        or (used[0] if used and (any_library or _spans(course, source, *used)) else "") \
        or (lower_first(title) if 2 <= len(words(title)) <= 6 else "")
