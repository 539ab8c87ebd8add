"""What every grader returns and takes: Grade (points 0–3, score, verdict, feedback), Task (a
question and a reply), the Grader seam, and an instructor's override."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from typing import Any, Protocol, Sequence

from ..quiz import Question
from .feedback import FEEDBACK

MAX_POINTS = 3
# a reply is graded on its first 5,000 characters (about 800 words; a short answer is far shorter): a 1 MB
# reply took 113 s and 3.6 GB to grade whole, 3-8 s and 140 MB capped (loaded 2-core machine, 2026-11-28;
# bench/grade_huge_reply.py)
MAX_REPLY_CHARS = 5000


@dataclass(frozen=True)
class Grade:
    """A reply's grade: points 0–3, a 0–1 score, a verdict, feedback, the concepts present and
    missing, the guards that fired, which grader gave it, and what the teacher should check."""

    question_id: str
    points: int  # 0–3
    score: float  # 0–1, partial credit
    verdict: str  # incorrect | partial | correct
    feedback: str
    present: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()  # guards that fired: empty, dont_know, copies_question, ...
    grader: str = "offline"
    # for the teacher, not the student: why this grade deserves a second look (a possible contradiction
    # that the points do not count); empty for most grades
    check: str = ""

    def to_json(self) -> dict[str, Any]:
        """The grade as a JSON object (``check`` only when there is one)."""
        out = {"question_id": self.question_id, "points": self.points, "score": round(self.score, 3),
               "verdict": self.verdict, "feedback": self.feedback, "present": list(self.present),
               "missing": list(self.missing), "flags": list(self.flags), "grader": self.grader}
        return {**out, "check": self.check} if self.check else out


def verdict_for(points: int) -> str:
    """correct (full points), incorrect (0) or partial."""
    return "correct" if points >= MAX_POINTS else "incorrect" if points <= 0 else "partial"


def make_grade(question: Question, points: float, feedback: str, *, score: float | None = None,
               present: Sequence[str] = (), missing: Sequence[str] = (), flags: Sequence[str] = (),
               grader: str = "offline") -> Grade:
    """A Grade with points rounded half up and clipped to 0..MAX_POINTS (``check``: set it with
    ``dataclasses.replace``)."""
    p = int(min(MAX_POINTS, max(0, math.floor(points + 0.5))))
    s = p / MAX_POINTS if score is None else min(1.0, max(0.0, score))
    return Grade(question.id, p, s, verdict_for(p), feedback, tuple(present), tuple(missing), tuple(flags), grader)


@dataclass(frozen=True)
class Task:
    """One reply to grade: the question, the reply's text and who wrote it."""

    question: Question
    reply: str
    student: str = ""


class Grader(Protocol):
    """The grading seam: the offline grader and the LLM grader both take tasks and return grades."""

    name: str

    def grade(self, tasks: Sequence[Task]) -> list[Grade]:
        """One grade per task, in order."""


# "não sei", "no me acuerdo de eso", "I don't remember this part", "ni idea, no llegué a estudiar esto": a
# reply that says only that the student does not know (its tail names what, never an answer)
_DONT_KNOW = re.compile(
    r"^\W*(n[aã]o\s+(sei|lembro|me\s+lembro|recordo|tenho\s+(a\s+menor\s+)?ideia|fa[cç]o\s+(a\s+menor\s+)?ideia|"
    r"estudei)|no\s+(s[eé]|lo\s+s[eé]|recuerdo|me\s+acuerdo|tengo\s+(ni\s+)?idea|estudi[eé])|ni\s+idea|"
    r"i\s+(don'?t|do\s+not)\s+(know|remember)|no\s+idea|sei\s+l[aá]|n/?a|-+|\?+|\.+|x+)"
    r"(\W+(d?[ea]ss[ae]|d?est[ae]|disso|isso|de|eso|esto|esa|esta|this|that|it|about|part[e]?|mat[eé]ria|pergunta|"
    r"pregunta|question|resposta|respuesta|answer|la|o|el|the|no|n[aã]o|llegu[eé]|cheguei|a|estudiar|estudar|"
    r"explicar|explain|responder|to|study|studied|sorry|desculp[ae]|perd[oó]n|professor[a]?|profe)){0,8}\W*$",
    re.IGNORECASE,
)


def needs_judgement(task: Task) -> bool:
    """A free-text reply with something in it: what a grader must judge (the rest is exact)."""
    reply = task.reply.strip()
    return task.question.type == "short" and bool(reply) and not _DONT_KNOW.match(reply)



def with_override(grade: Grade, points: int, note: str = "") -> Grade:
    """An instructor's (or student's) override: the points are theirs; the feedback stays, its
    opening verdict ("Parcialmente correto (2/3).") replaced by the new points' one."""
    p = int(min(MAX_POINTS, max(0, points)))
    base = re.sub(r" \[overridden: [^\]]*\]$", "", grade.feedback)  # overriding an override: one marker
    for words in FEEDBACK.values():  # the verdict that opens the feedback says the new points, not the old
        old = next((words[k] for k in "0123" if base.startswith(words[k])), None)
        if old is not None:
            base = words[str(p)] + base[len(old):]
            break
    fb = f"{base} [overridden: {note}]" if note else base
    return replace(grade, points=p, score=p / MAX_POINTS, verdict=verdict_for(p), feedback=fb, grader="override")


def points_cell(value: str) -> int | None:
    """A teacher's 0–3 typed in a sheet cell ("2", "2,5" rounds to 3), or None when it is not one."""
    try:
        p = float(value.replace(",", "."))
    except ValueError:
        return None
    return int(p + 0.5) if 0 <= p <= MAX_POINTS else None
