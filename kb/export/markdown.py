"""Markdown: the readable student sheet and answer key."""

from __future__ import annotations

from typing import cast

from ..i18n import in_language
from ..quiz import Question, Quiz
from ._common import LABELS, LETTERS, md_text, quiz_lang, tf_answer


class MarkdownExporter:
    """Student sheet (numbered questions, choices, blanks, space to answer) or, with
    ``answers``, the answer key (model answers with their citations)."""

    extension = "md"
    binary = False

    def render(self, quiz: Quiz, answers: bool = False) -> str:
        """The student sheet, or with ``answers`` the answer key, as Markdown."""
        lab = LABELS[quiz_lang(quiz)]
        title = f"{md_text(quiz.title)} — {lab['key']}" if answers else md_text(quiz.title)
        out = [f"# {title}", ""]
        if not answers:
            out += [f"{lab['name']}: ______________________________    {lab['date']}: ____________", ""]
        for n, q in enumerate(quiz.questions, start=1):
            out += self._question(n, q, answers)
        return "\n".join(out).rstrip() + "\n"

    def _question(self, n: int, q: Question, answers: bool) -> list[str]:
        lab = LABELS.get(q.lang, LABELS["en"])
        lines = [f"## {n}. {md_text(q.prompt)}", ""]
        if q.type == "mcq":
            for i, choice in enumerate(q.choices):
                mark = " ✓" if answers and i == q.correct else ""
                lines.append(f"- {LETTERS[i]}) {md_text(choice)}{mark}")
            lines.append("")
        elif q.type == "tf" and not answers:
            lines += [f"( ) {lab['true']}    ( ) {lab['false']}", ""]
        if not answers:
            if q.type in ("short", "cloze"):
                space = 1 if q.type == "cloze" else 4
                lines += [f"{lab['answer']}:", ""] + ["_" * 72 + "  " for _ in range(space)] + [""]
            return lines
        if q.type == "mcq":  # an mcq's correct is a choice index (checked when the quiz is read)
            lines.append(f"- **{lab['correct']}:** {LETTERS[cast(int, q.correct)]}) {md_text(q.correct_text)}")
        elif q.type == "tf":
            lines.append(f"- **{lab['answer']}:** {md_text(tf_answer(q))}")
        else:
            accepted = f" *(+ {md_text(', '.join(q.accepted))})*" if q.accepted else ""
            lines.append(f"- **{lab['answer']}:** {md_text(q.answer)}{accepted}")
        if q.concepts:
            lines.append(f"- **{lab['concepts']}:** {md_text('; '.join(q.concepts))}")
        for c in q.citations:
            where = f"{c.source} · {c.locator}" if c.locator else c.source
            lines.append(f"- **{lab['source']}:** {md_text(where)}" + (f" — “{md_text(c.quote)}”" if c.quote else ""))
        # the type and difficulty in the key's language (kb's own names, "short", "medium", stay in the JSON)
        lines.append(f"- <sub>{q.id} · {in_language(q.lang, q.type)} · {in_language(q.lang, q.difficulty)}</sub>")
        lines.append("")
        return lines

