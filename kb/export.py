"""Exports of a quiz file. The exporter is a seam: a name maps to a class with ``render``;
Markdown is here, Moodle GIFT and Anki slot in beside it."""

from __future__ import annotations

from typing import Protocol

from .errors import UsageError
from .quiz import Question, Quiz

LABELS = {
    "pt": {"name": "Nome", "date": "Data", "answer": "Resposta", "true": "Verdadeiro", "false": "Falso",
           "key": "Gabarito", "source": "Fonte", "concepts": "Conceitos-chave", "correct": "Correta"},
    "es": {"name": "Nombre", "date": "Fecha", "answer": "Respuesta", "true": "Verdadero", "false": "Falso",
           "key": "Solucionario", "source": "Fuente", "concepts": "Conceptos clave", "correct": "Correcta"},
    "en": {"name": "Name", "date": "Date", "answer": "Answer", "true": "True", "false": "False",
           "key": "Answer key", "source": "Source", "concepts": "Key concepts", "correct": "Correct"},
}
LETTERS = "abcdefghij"


class Exporter(Protocol):
    extension: str

    def render(self, quiz: Quiz, answers: bool = False) -> str: ...


def _quiz_lang(quiz: Quiz) -> str:
    langs = [q.lang for q in quiz.questions if q.lang in LABELS]
    return max(set(langs), key=langs.count) if langs else "en"


class MarkdownExporter:
    """Student sheet (numbered questions, choices, blanks, space to answer) or, with
    ``answers``, the answer key (model answers with their citations)."""

    extension = "md"

    def render(self, quiz: Quiz, answers: bool = False) -> str:
        lab = LABELS[_quiz_lang(quiz)]
        title = f"{quiz.title} — {lab['key']}" if answers else quiz.title
        out = [f"# {title}", ""]
        if not answers:
            out += [f"{lab['name']}: ______________________________    {lab['date']}: ____________", ""]
        for n, q in enumerate(quiz.questions, start=1):
            out += self._question(n, q, answers)
        return "\n".join(out).rstrip() + "\n"

    def _question(self, n: int, q: Question, answers: bool) -> list[str]:
        lab = LABELS.get(q.lang, LABELS["en"])
        lines = [f"## {n}. {q.prompt}", ""]
        if q.type == "mcq":
            for i, choice in enumerate(q.choices):
                mark = " ✓" if answers and i == q.correct else ""
                lines.append(f"- {LETTERS[i]}) {choice}{mark}")
            lines.append("")
        elif q.type == "tf" and not answers:
            lines += [f"( ) {lab['true']}    ( ) {lab['false']}", ""]
        if not answers:
            if q.type in ("short", "cloze"):
                space = 1 if q.type == "cloze" else 4
                lines += [f"{lab['answer']}:", ""] + ["_" * 72 + "  " for _ in range(space)] + [""]
            return lines
        if q.type == "mcq":
            lines.append(f"- **{lab['correct']}:** {LETTERS[q.correct]}) {q.correct_text}")
        else:
            accepted = f" *(+ {', '.join(q.accepted)})*" if q.accepted else ""
            lines.append(f"- **{lab['answer']}:** {q.answer}{accepted}")
        if q.concepts:
            lines.append(f"- **{lab['concepts']}:** {'; '.join(q.concepts)}")
        for c in q.citations:
            where = f"{c.source} · {c.locator}" if c.locator else c.source
            lines.append(f"- **{lab['source']}:** {where}" + (f" — “{c.quote}”" if c.quote else ""))
        lines.append(f"- <sub>{q.id} · {q.type} · {q.difficulty}</sub>")
        lines.append("")
        return lines


EXPORTERS: dict[str, type] = {"md": MarkdownExporter}


def get_exporter(name: str) -> Exporter:
    try:
        return EXPORTERS[name]()
    except KeyError:
        raise UsageError(f"--format {name}: unknown export format", f"use one of {', '.join(EXPORTERS)}") from None
