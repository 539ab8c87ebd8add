"""A deck's language and the checks' context for its questions, as the plain questions of
:mod:`kb.writing.plan` and the objective forms of :mod:`kb.writing.objective_forms` both read them."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .checklist import CheckContext
from .checks import vocabulary

if TYPE_CHECKING:
    from ..outline import Outline
    from .course import CourseTerms


def deck_language(course: CourseTerms, src: str, default: str) -> str:
    """A deck's language: most of its passages' (not one slide's: "Uso: pf = …" reads as en); ``default`` for a
    deck the course does not hold. A plain question's stem and the ``--lang`` filter both go by it."""
    langs = Counter(c.lang for c in course.by_source.get(src, ()))
    return langs.most_common(1)[0][0] if langs else default


def deck_context(src: str, o: Outline, course: CourseTerms) -> CheckContext:
    """The checks' context for a source's plain questions (its passage is set per idea)."""
    from .subject import deck_subject, whole_text

    text = "\n" + whole_text(course, src)

    return CheckContext("", text, vocabulary(text), verb_like=course.verb_like, outline=o,
                        subject=deck_subject(course, src), meaning=course.embedder)
