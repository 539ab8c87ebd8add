"""Where the correct option of each multiple-choice question sits: rotated so no position dominates.
"""

from __future__ import annotations

from ..quiz import Question
from ..records import content_hash


def balance_positions(questions: list[Question]) -> list[Question]:
    """Place each multiple choice's correct option so positions rotate through a, b, c, d
    (deterministic: the rotation starts where the first question's hash says)."""
    out: list[Question] = []
    mcqs = [q for q in questions if q.type == "mcq"]
    start = int(content_hash(*(q.prompt for q in mcqs)), 16) % 4 if mcqs else 0
    i = 0
    for q in questions:
        if q.type != "mcq" or not isinstance(q.correct, int):
            out.append(q)
            continue
        right = q.choices[q.correct]
        others = sorted((c for j, c in enumerate(q.choices) if j != q.correct), key=lambda c: content_hash(q.prompt, c))
        pos = (start + i) % len(q.choices)
        i += 1
        choices = others[:pos] + [right] + others[pos:]
        out.append(Question(type=q.type, prompt=q.prompt, answer=right, citations=q.citations, concepts=q.concepts,
                            difficulty=q.difficulty, lang=q.lang, choices=tuple(choices), correct=pos,
                            accepted=q.accepted, origin=q.origin))
    return out
