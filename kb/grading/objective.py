"""Exact grading of objective questions (mcq, tf, cloze) after normalisation, with feedback in the
question's language."""

from __future__ import annotations

import re
from typing import Sequence

from ..quiz import Question
from ..text import fold, words
from .base import Grade, make_grade
from .signals import (
    stems_close,
)

_LETTER = re.compile(r"^\(?([a-h])[\).:]?$|^\(?([a-h])[\).:]\s", re.IGNORECASE)
_TRUE = frozenset({"v", "t", "true", "verdadeiro", "verdadeira", "verdadero", "verdadera", "cierto", "certo",
                   "sim", "si", "yes", "y", "s", "1", "correto", "correcto"})
_FALSE = frozenset({"f", "false", "falso", "falsa", "nao", "no", "n", "0", "errado", "incorreto", "incorrecto"})


def _norm(text: str) -> str:
    """Folded words, hyphens and dots as spaces: 'All-Reduce' → 'all reduce'."""
    return " ".join(p for w in words(text) for p in re.split(r"[.\-']", fold(w)) if p)


def _choice_index(q: Question, reply: str) -> int | None:
    r = reply.strip()
    m = _LETTER.match(r)
    if m:
        i = ord((m.group(1) or m.group(2)).lower()) - ord("a")
        return i if i < len(q.choices) else None
    if r.isdigit() and 1 <= int(r) <= len(q.choices):
        return int(r) - 1
    nr = _norm(r)
    if not nr:
        return None
    exact = [i for i, c in enumerate(q.choices) if _norm(c) == nr]
    if exact:
        return exact[0]
    inside = [i for i, c in enumerate(q.choices) if _norm(c) and f" {_norm(c)} " in f" {nr} "]
    return inside[0] if len(inside) == 1 else None


def parse_tf(reply: str) -> bool | None:
    """True or False from the reply's first word (yes/true/verdadeiro …), None when it says neither."""
    ws = [fold(w) for w in words(reply)]
    if not ws:
        return None
    if ws[0] in _TRUE:
        return True
    if ws[0] in _FALSE:
        return False
    return None


def _same_word(x: str, y: str) -> bool:
    """Equal folded words, a plural ('cpu'/'cpus', 'red'/'redes') or a one-letter typo in a long word."""
    if x == y:
        return True
    a, b = (x, y) if len(x) <= len(y) else (y, x)
    if len(a) >= 2 and (b == a + "s" or (len(a) >= 3 and b == a + "es")):
        return True
    return len(b) >= 5 and stems_close(x, y)


def _cloze_match(reply: str, answers: Sequence[str]) -> bool:
    nr = _norm(reply)
    for a in answers:
        na = _norm(a)
        if not na:
            continue
        if nr == na or nr.replace(" ", "") == na.replace(" ", "") or \
                f" {na} " in f" {nr} " and len(nr.split()) <= len(na.split()) + 3:
            return True
        cr, ca = nr.replace(" ", ""), na.replace(" ", "")
        if len(ca) >= 6 and stems_close(cr, ca):
            return True  # one-letter typo in a long term
        rw, aw = nr.split(), na.split()
        if len(rw) == len(aw) and all(_same_word(x, y) for x, y in zip(rw, aw, strict=True)):
            return True  # singular/plural or a one-letter typo per word
    return False


OBJECTIVE_FEEDBACK = {
    "pt": {"correct": "Correto.", "empty": "Sem resposta. A resposta é {}.",
           "unreadable_choice": "Não foi possível ler uma opção em '{}': responda com uma letra. A resposta é {}.",
           "wrong_choice": "({}) está errada. A resposta é {}.",
           "unreadable_tf": "Não foi possível ler verdadeiro/falso em '{}'. A afirmação é {}.",
           "statement": "A afirmação é {}.", "missing_term": "O termo que falta é '{}'.",
           "true": "verdadeira", "false": "falsa"},
    "es": {"correct": "Correcto.", "empty": "Sin respuesta. La respuesta es {}.",
           "unreadable_choice": "No se pudo leer una opción en '{}': responde con una letra. La respuesta es {}.",
           "wrong_choice": "({}) es incorrecta. La respuesta es {}.",
           "unreadable_tf": "No se pudo leer verdadero/falso en '{}'. La afirmación es {}.",
           "statement": "La afirmación es {}.", "missing_term": "El término que falta es '{}'.",
           "true": "verdadera", "false": "falsa"},
    "en": {"correct": "Correct.", "empty": "No answer given. The answer is {}.",
           "unreadable_choice": "Could not read a choice in '{}': answer with a letter. The answer is {}.",
           "wrong_choice": "({}) is wrong. The answer is {}.",
           "unreadable_tf": "Could not read true/false in '{}'. The statement is {}.",
           "statement": "The statement is {}.", "missing_term": "The missing term is '{}'.",
           "true": "true", "false": "false"},
}
CORRECT_FEEDBACK = frozenset(m["correct"] for m in OBJECTIVE_FEEDBACK.values())  # nothing more to say


def grade_objective(q: Question, reply: str) -> Grade | None:
    """Exact grading for mcq/tf/cloze, with feedback in the question's language; None for
    free-text questions."""
    m = OBJECTIVE_FEEDBACK.get(q.lang, OBJECTIVE_FEEDBACK["en"])
    r = reply.strip()
    if q.type == "mcq":
        right = q.correct if isinstance(q.correct, int) else None
        label = f"({chr(ord('A') + right)}) {q.correct_text}" if right is not None else q.correct_text
        if not r:
            return make_grade(q, 0, m["empty"].format(label), flags=("empty",), grader="exact")
        got = _choice_index(q, r)
        if got is None:
            return make_grade(q, 0, m["unreadable_choice"].format(r[:40], label), flags=("unreadable",),
                              grader="exact")
        if got == right:
            return make_grade(q, 3, m["correct"], grader="exact")
        return make_grade(q, 0, m["wrong_choice"].format(chr(ord("A") + got), label), grader="exact")
    if q.type == "tf":
        truth = bool(q.correct) if q.correct is not None else parse_tf(q.answer)
        got = parse_tf(r)
        word = m["true"] if truth else m["false"]
        if got is None:
            return make_grade(q, 0, m["unreadable_tf"].format(r[:40], word),
                              flags=("empty",) if not r else ("unreadable",), grader="exact")
        if got == truth:
            return make_grade(q, 3, m["correct"], grader="exact")
        return make_grade(q, 0, m["statement"].format(word), grader="exact")
    if q.type == "cloze":
        answers = [q.answer, *q.accepted]
        if r and _cloze_match(r, answers):
            return make_grade(q, 3, m["correct"], grader="exact")
        return make_grade(q, 0, m["missing_term"].format(q.answer), flags=("empty",) if not r else (),
                          grader="exact")
    return None
