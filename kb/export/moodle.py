"""Moodle XML, for Question bank → Import → Moodle XML format.

Type mapping: short → ``essay`` (graded by the teacher; the model answer, key concepts and
source go in the grader information), mcq → ``multichoice`` (one answer, shuffled, feedback on
every choice), tf → ``truefalse``, cloze → ``shortanswer`` (the answer and every accepted
alternative at 100 %, case-insensitive). A ``category`` question first puts everything in a
category named after the quiz. Each question's name starts with kb's stable id, which is also
its ``idnumber``; the citation is the general feedback; tags carry type, difficulty, language.

Texts are HTML-escaped (``<``, ``&``, code) and then XML-escaped by the serializer, so the file
parses with any XML parser and Moodle shows exactly the quiz's text.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ..quiz import Question, Quiz
from ._common import citation_text, labels, tf_answer, to_html

PENALTY = {"mcq": "0.3333333", "tf": "1", "cloze": "0.3333333", "short": "0"}
MOODLE_TYPE = {"short": "essay", "mcq": "multichoice", "tf": "truefalse", "cloze": "shortanswer"}


def category_path(title: str) -> str:
    """``$course$/top/<title>``: Moodle splits category paths at ``/``, and reads ``//`` as a
    slash inside a name."""
    return "$course$/top/" + (title.strip().replace("/", "//") or "kb")


def question_name(q: Question, width: int = 60) -> str:
    """The question's id and its prompt cut to ``width`` characters."""
    prompt = " ".join(q.prompt.split())
    short = prompt if len(prompt) <= width else prompt[: width - 1].rstrip() + "…"
    return f"{q.id} · {short}"


def shortanswer_text(answer: str) -> str:
    """An accepted reply as Moodle's shortanswer matches it: ``*`` is its wildcard."""
    return " ".join(answer.split()).replace("*", "\\*")


class MoodleXmlExporter:
    """The whole quiz as one Moodle XML file (answers are always in it: Moodle grades with them;
    ``answers`` changes nothing)."""

    extension = "xml"
    binary = False

    def render(self, quiz: Quiz, answers: bool = False) -> str:
        """The quiz as Moodle XML under a category named after the quiz."""
        root = ET.Element("quiz")
        cat = ET.SubElement(root, "question", type="category")
        _text(ET.SubElement(cat, "category"), category_path(quiz.title))
        _text(ET.SubElement(cat, "info", format="html"), "")
        for q in quiz.questions:
            root.append(self._question(q))
        ET.indent(root, space="  ")
        xml = ET.tostring(root, encoding="unicode", short_empty_elements=False)
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + xml + "\n"

    def _question(self, q: Question) -> ET.Element:
        lab = labels(q)
        el = ET.Element("question", type=MOODLE_TYPE[q.type])
        _text(ET.SubElement(el, "name"), question_name(q))
        _text(ET.SubElement(el, "questiontext", format="html"), to_html(q.prompt))
        _text(ET.SubElement(el, "generalfeedback", format="html"), _general_feedback(q))
        ET.SubElement(el, "defaultgrade").text = "1.0000000"
        ET.SubElement(el, "penalty").text = PENALTY[q.type]
        ET.SubElement(el, "hidden").text = "0"
        ET.SubElement(el, "idnumber").text = q.id
        if q.type == "short":
            ET.SubElement(el, "responseformat").text = "editor"
            ET.SubElement(el, "responserequired").text = "1"
            ET.SubElement(el, "responsefieldlines").text = "10"
            ET.SubElement(el, "attachments").text = "0"
            ET.SubElement(el, "attachmentsrequired").text = "0"
            ET.SubElement(el, "maxbytes").text = "0"
            _text(ET.SubElement(el, "graderinfo", format="html"), _grader_info(q))
            _text(ET.SubElement(el, "responsetemplate", format="html"), "")
        elif q.type == "mcq":
            ET.SubElement(el, "single").text = "true"
            ET.SubElement(el, "shuffleanswers").text = "true"
            ET.SubElement(el, "answernumbering").text = "abc"
            ET.SubElement(el, "showstandardinstruction").text = "0"
            _text(ET.SubElement(el, "correctfeedback", format="html"), lab["right"])
            _text(ET.SubElement(el, "partiallycorrectfeedback", format="html"), "")
            _text(ET.SubElement(el, "incorrectfeedback", format="html"), lab["wrong"])
            for i, choice in enumerate(q.choices):
                right = i == q.correct
                _answer(el, "100" if right else "0", to_html(choice), "html",
                        lab["right"] if right else f"{lab['wrong']} {lab['correct']}: {to_html(q.correct_text)}")
        elif q.type == "tf":
            for word, value in (("true", True), ("false", False)):
                right = q.correct is value
                _answer(el, "100" if right else "0", word, "moodle_auto_format",
                        lab["right"] if right else f"{lab['wrong']} {to_html(tf_answer(q))}")
        else:  # cloze (and any future exact type): shortanswer with every accepted reply
            ET.SubElement(el, "usecase").text = "0"
            seen: list[str] = []
            for reply in (q.answer, *q.accepted):
                text = shortanswer_text(reply)
                if text and text not in seen:
                    seen.append(text)
                    _answer(el, "100", text, "moodle_auto_format", "")
        tags = ET.SubElement(el, "tags")
        for tag in ("kb", f"kb-{q.type}", f"kb-{q.difficulty}", f"kb-{q.lang}"):
            _text(ET.SubElement(tags, "tag"), tag)
        return el


def _text(parent: ET.Element, value: str) -> ET.Element:
    ET.SubElement(parent, "text").text = value
    return parent


def _answer(parent: ET.Element, fraction: str, text: str, fmt: str, feedback: str) -> None:
    a = ET.SubElement(parent, "answer", fraction=fraction, format=fmt)
    ET.SubElement(a, "text").text = text
    _text(ET.SubElement(a, "feedback", format="html"), feedback)


def _general_feedback(q: Question) -> str:
    """After the attempt: the model answer (cloze) and where it comes from. An essay's (short) model
    answer is in the grader information only: students see it after submitting, before the teacher
    grades, and the replies still to come would copy it."""
    lab = labels(q)
    lines = []
    if q.type == "cloze":
        lines.append(f"<p><strong>{lab['model']}:</strong> {to_html(q.answer)}</p>")
    lines += [f"<p><strong>{lab['source']}:</strong> {to_html(citation_text(c))}</p>" for c in q.citations]
    return "\n".join(lines)


def _grader_info(q: Question) -> str:
    lab = labels(q)
    lines = [f"<p><strong>{lab['model']}:</strong> {to_html(q.answer)}</p>"]
    if q.accepted:
        lines.append(f"<p><strong>{lab['also']}:</strong> {to_html('; '.join(q.accepted))}</p>")
    if q.concepts:
        lines.append(f"<p><strong>{lab['concepts']}:</strong> {to_html('; '.join(q.concepts))}</p>")
    lines += [f"<p><strong>{lab['source']}:</strong> {to_html(citation_text(c))}</p>" for c in q.citations]
    return "\n".join(lines)

