"""Questions a teacher drops as trivial, whoever wrote them (registry checks of :mod:`kb.writing.checklist`).

The classes were read off the DROP reasons of one half of the rated decks (``eval/flag_ratings.py
--half write``) and are measured on the other half (README, "Checks and teachers"):

- ``trivia``: the answer is a detail, not an idea — a step's number ("Paso 5"), a number, year,
  version or file extension (".pth", "2017"), or a name the deck says once and never in a title
  ("ColorJitter" in a list of transforms, a column label in a command);
- ``copied-true``: a *true* statement that is a definition copied from the slide ("TensorBoard es un
  conjunto de herramientas de visualización para ML"): judged at a glance, it tests nothing;
- ``trivial-term``: what an everyday word of the question's language means ("¿qué significa
  «arquitectura»?", "«Entrenamiento»"): common sense, not the course.
"""

from __future__ import annotations

import re

from ..quiz import Question
from ..text import fold, words
from .asked_term import asked_term
from .checks import contained, everyday_word, statement

_STEP = re.compile(r"^(?:paso|passo|step|fase|etapa|phase)\s*\d+\b", re.I)
# a number, a year, a version, a size, a file extension: "2017", "v2.1", "1.000", "16 GB", ".pth"
_NUMBER = re.compile(r"^(?:\.[A-Za-z0-9]{1,5}|[~≈]?\d[\d.,]*\s*(?:%|[KMGT]B|[kKMB]|ms|s|x)?|v?\d+(?:\.\d+)+)$")
_COPULA = re.compile(r"^(?P<t>.{2,60}?)\s+(?:es|son|é|são|is|are)\s+(?:una?|um|uma|an?|the|el|la|o|a)\s", re.I)


def _says(text: str, name: str) -> int:
    """How many times ``text`` writes ``name`` as a whole word (case-insensitive)."""
    return len(re.findall(rf"(?<![\w.]){re.escape(name)}(?![\w])", text, re.I))


def trivia(q: Question, source_text: str = "", titles: str = "") -> str | None:
    """"trivia" for an answer that is a detail (:mod:`kb.writing.trivia`). ``source_text`` is the whole
    deck, ``titles`` its slide titles and top ideas' names; without them only the shape is judged."""
    if q.type not in ("mcq", "cloze", "short"):
        return None
    a = q.correct_text.strip().rstrip(".")
    if not a or q.type == "short" and len(words(a)) > 2:
        return None  # a short answer that explains is no detail
    if _STEP.match(a) or _NUMBER.match(a):
        return "trivia"
    if q.type == "short" or not source_text or len(words(a)) > 3:
        return None
    # a name the deck writes once, in no title: "ColorJitter", "NOME", "SecAgg"
    core = re.sub(r"\s*\([^)]*\)$", "", a).rstrip("()")  # "TorchDynamo (frontend)", "f()"
    named = bool(re.search(r"[A-Z]", core[1:]) or re.search(r"[_.]", core)) or core.isupper()
    if named and _says(source_text, core) <= 1 and not _says(titles, core):
        return "trivia"
    return None


def copied_true(q: Question, passage: str) -> str | None:
    """"copied-true" for a true statement that is a definition the passage writes word for word."""
    if q.type != "tf" or q.correct is not True:
        return None
    s = statement(q)
    return "copied-true" if _COPULA.match(s) and contained(s.rstrip(". "), passage) else None


def trivial_term(q: Question, source_text: str = "") -> str | None:
    """"trivial-term" for what one everyday word of the question's language means; a word the deck
    (``source_text``) writes as a name, with its capital inside sentences ("Adam"), is none."""
    term = asked_term(q.prompt) if q.type == "short" and q.origin != "harvested" else ""
    ws = words(re.sub(r"^(?:el|la|los|las|o|a|os|as|the|un|una|um|uma)\s+", "", term, flags=re.I))
    if len(ws) != 1 or not ws[0].isalpha() or re.search(r"[A-Z]", ws[0][1:]):
        return None
    w = ws[0]
    if w[:1].isupper() and re.search(rf"[a-záéíóúãõç,]\s{re.escape(w)}\b", source_text) \
            and not re.search(rf"\b{re.escape(w.lower())}\b", source_text):
        return None  # "Adam": a name
    if re.search(r"\w\.\w|\w\(\)|\w_\w", q.answer):
        return None  # "O recurso é o step passado a trial.report": the deck gives the word a technical sense
    return "trivial-term" if everyday_word(fold(ws[0]), q.lang) else None
