"""GIFT, Moodle's text format, for Question bank → Import → GIFT format.

The same mapping as Moodle XML: short → essay (``{####feedback}``), mcq → multiple choice
(``=right#feedback ~wrong#feedback``), tf → ``{TRUE}``/``{FALSE}`` with feedback, cloze →
short answer with every accepted reply; when the cloze prompt has its blank (``_____``)
inside the sentence, the answers take its place (GIFT's missing-word form, which Moodle shows
as ``_____`` again). Texts are ``[html]`` (escaped like the XML export) and then GIFT-escaped:
``\\ ~ = # { } :`` get a backslash, line breaks become ``\\n``. Titles are ``::id::``; the
citation (and the model answer of short and cloze) is the general feedback after ``####``;
one blank line between questions; a ``$CATEGORY`` named after the quiz first. GIFT cannot
carry a short-answer reply containing ``->`` or starting with ``%50%``: those are left out, and a
cloze left with none becomes an essay (the Moodle XML export has no such limits).
"""

from __future__ import annotations

import re

from ..quiz import Question, Quiz
from ._common import GAP, citation_text, labels, tf_answer, to_html
from .moodle import category_path, shortanswer_text

_SPECIAL = str.maketrans({"\\": "\\\\", "~": "\\~", "=": "\\=", "#": "\\#", "{": "\\{", "}": "\\}", ":": "\\:",
                          "\n": "\\n", "\r": ""})


def gift_escape(text: str) -> str:
    """Escape GIFT's special characters (backslash first: ``\\n`` in a text stays two characters)."""
    return text.translate(_SPECIAL)


def gift_safe_reply(text: str) -> bool:
    """Whether a short-answer reply survives GIFT. It has no escape for ``->`` (an answer list with
    ``=`` and ``->`` is read as a matching question) nor for a leading ``%50%`` (a weight); such
    replies are left out of GIFT (the Moodle XML export keeps them)."""
    return "->" not in text and not re.match(r"%-*\d{1,2}\.?\d*%", text)


def _html_answer(text: str) -> str:
    h = to_html(text)
    # a leading %N% would be read as an answer weight; &#37; is the same % on screen
    return "&#37;" + h[1:] if h.startswith("%") else h


class GiftExporter:
    """The quiz as GIFT text (answers are always in it: Moodle grades with them)."""

    extension = "gift"
    binary = False

    def render(self, quiz: Quiz, answers: bool = False) -> str:
        # $CATEGORY is read raw (no GIFT unescaping), so the title goes in as it is
        """The quiz as Moodle GIFT text under a category named after the quiz."""
        out = [f"// {' '.join(quiz.title.split())} — exported by kb", f"$CATEGORY: {category_path(quiz.title)}", ""]
        for q in quiz.questions:
            out += [self.question(q), ""]
        return "\n".join(out)

    def question(self, q: Question) -> str:
        """One question in GIFT, with its answers and general feedback."""
        lab = labels(q)
        prompt = gift_escape(to_html(q.prompt))
        general = "####" + gift_escape(_general_feedback(q))
        head = f"// {q.id} · {q.type} · {q.difficulty} · {q.lang}\n::{q.id}::[html]"
        if q.type == "short":
            return f"{head}{prompt}{{{general}}}"
        if q.type == "tf":
            right, wrong = gift_escape(lab["right"]), gift_escape(f"{lab['wrong']} {to_html(tf_answer(q))}")
            return f"{head}{prompt}{{{'TRUE' if q.correct else 'FALSE'}#{wrong}#{right}{general}}}"
        if q.type == "mcq":
            lines = []
            for i, choice in enumerate(q.choices):
                if i == q.correct:
                    lines.append(f"\t={gift_escape(_html_answer(choice))}#{gift_escape(lab['right'])}")
                else:
                    feedback = f"{lab['wrong']} {lab['correct']}: {to_html(q.correct_text)}"
                    lines.append(f"\t~{gift_escape(_html_answer(choice))}#{gift_escape(feedback)}")
            block = "{\n" + "\n".join(lines) + f"\n\t{general}\n}}"
            return f"{head}{prompt}{block}"
        replies: list[str] = []
        for reply in (q.answer, *q.accepted):
            text = shortanswer_text(reply)
            if text and text not in replies and gift_safe_reply(text):
                replies.append(text)
        if not replies:  # no reply GIFT can carry: the teacher grades it, the answer in the feedback
            return f"{head}{prompt}{{{general}}}"
        block = "{" + " ".join(f"={gift_escape(r)}" for r in replies) + f" {general}}}"
        gap = prompt.find(GAP)
        if gap >= 0 and prompt[gap + len(GAP):].strip():
            # missing-word form: Moodle puts "_____" back where the answers were
            return f"{head}{prompt[:gap]}{block}{prompt[gap + len(GAP):]}"
        return f"{head}{prompt}{block}"


def _general_feedback(q: Question) -> str:
    lab = labels(q)
    parts = []
    if q.type in ("short", "cloze"):
        parts.append(f"<strong>{lab['model']}:</strong> {to_html(q.answer)}")
        if q.type == "short" and q.concepts:
            parts.append(f"<strong>{lab['concepts']}:</strong> {to_html('; '.join(q.concepts))}")
    parts += [f"<strong>{lab['source']}:</strong> {to_html(citation_text(c))}" for c in q.citations]
    return "<br>".join(parts)
