"""The registry's ``trivial-blank`` check (kb.writing.checklist.trivial_blank) on blanks of any text."""

from kb.quiz import Citation, Question
from kb.writing.checklist import trivial_blank

CITE = (Citation("d.pdf", "p. 2", "", ""),)


def test_a_blank_whose_words_open_on_brackets_is_checked_without_error():
    q = Question("cloze", "Complete a lacuna: a chamada _____ devolve o tensor.", "(x) [y] (z", CITE, lang="pt")
    assert trivial_blank(q) == []  # (the answer's initials "([(" were a regex: re.error on a rated quiz)


def test_a_blank_a_name_in_the_stem_abbreviates_is_trivial():
    q = Question("cloze", "Complete a lacuna: AOT significa _____ no AOTAutograd.", "ahead-of-time", CITE, lang="pt")
    assert trivial_blank(q) == ["trivial-blank"]
