"""The sentence a question asks about, without the instruction around it, and whether a multiple choice
asks which term a description is. Read by the checks (:mod:`kb.writing.checks`,
:mod:`kb.writing.check_subject`, :mod:`kb.writing.checks_form`, :mod:`kb.writing.trivia`). Stdlib only."""

from __future__ import annotations

import re

from ..quiz import Question


def statement(q: Question) -> str:
    """The sentence a tf/cloze/mcq prompt asks about, without the instruction around it."""
    p = q.prompt
    m = re.search(r"[«“\"](.+)[»”\"]\s*\??$", p)
    if m:
        return m.group(1)
    if "? " in p:
        return p.split("? ", 1)[1]
    # "Completa el espacio en blanco (DTENSORS: Creación): Distribuye …": past the instruction
    # and its parenthesised context, whatever colons the context holds
    m = re.match(r"^[^:(]*(?:\((?:[^()]|\([^()]*\))*\))?\s*:\s+(.+)$", p)
    if m:
        return m.group(1)
    return p.split(": ", 1)[1] if ": " in p else p


# the stem of a multiple choice that quotes a description and asks which term it is (pt/es/en templates: kb.lang)
WHICH_TERM = re.compile(r"corresponde a esta descri|matches this description")


def which_term(q: Question) -> bool:
    """A multiple choice that quotes a description and asks which term it is ("¿qué término corresponde a esta
    descripción: «…»?"): its options are the deck's terms, its subject the term asked."""
    return q.type == "mcq" and bool(WHICH_TERM.search(q.prompt))
