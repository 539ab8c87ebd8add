"""A deck's title (kb.writing.subject.deck_title) where its first page has no heading: the page's first line only when
a heading could be that line (not an index or divider, a date, a file's name); and the session's topic after the
course's name whatever the session is called ("Aula", "Sesión 3", "Lesson 2", "Módulo 4": a chapter's words)."""

import pytest

from kb.records import Chunk, Locator
from kb.writing.course import CourseTerms
from kb.writing.subject import deck_title

SRC = "decks/x_es.pdf"


def _title(heading: str | None, text: str) -> str:
    pages = [(1, heading, text), (2, "Redes", "• La red aprende filtros."), (3, "Pooling", "• Reduce el mapa.")]
    chunks = [Chunk(SRC, "pdf", t, Locator(page=p, heading=h), "es", p, f"h{p}", 3) for p, h, t in pages]
    return deck_title(CourseTerms(chunks, None), SRC)


@pytest.mark.parametrize("first_line", ["Agenda", "Contenidos del curso", "2024", "000_018776c44678bcbb"])
def test_a_first_line_that_names_no_subject_is_no_title(first_line):
    assert _title(None, f"{first_line}\n• Redes convolucionales") == ""


def test_a_title_line_the_reader_took_no_heading_of_is_the_title():
    assert _title(None, "Redes convolucionales para visión\n• Curso: Deep Learning") == \
        "Redes convolucionales para visión"


@pytest.mark.parametrize("label", ["Aula", "Sesión 3", "Lesson 2", "Módulo 4", "Semana 5", "Unidad II", "Class 7"])
def test_the_sessions_topic_follows_the_courses_name_whatever_the_session_is_called(label):
    assert _title(f"Frameworks de Deep Learning - {label}: redes convolucionales", "• x") == "redes convolucionales"
