"""Which page answers (issue 30, round 9): the page whose heading *is* the question, before the line that shares
the most words with it.

The answerer scores each unit (a line, a labelled list) by its words, its meaning and its heading's share of the
question's subject; a line on another slide that holds many of the question's words ("Los gradientes deben ser
set_to_none antes de capturar…") then beats the slide titled with the question ("Por qué el warmup" for "¿Por qué
hay que hacer unas iteraciones de warmup antes de capturar el grafo?"). Here each page read is matched as a
reader scans slides: by its title (the heading's last part) and its first line against the question's subject —
how much of the title the question asks about (a title of other things is about them) and how much of the subject
the title and first line hold — and by the kind its title announces ("Por qué …" for a why, "A vs B" for a
difference, "X: definición" for a what). When another page of the best unit's deck matches clearly better than the
best unit's own, its best unit answers (when none of its units was among those scored, the best unit stays). Not
for a "how": its answer is the code or the steps, which a title seldom names.

And a "what" answered by one line of the slide titled with the question is read from that slide's top
(:func:`titled_opening`).

Pure functions of kb.answering's question (``q``: its read pages, terms and shares); no import of the answerer.
"""

from __future__ import annotations

import re
from typing import Any

from . import answer_kinds as kinds

# A page's title and first line match the question this much (F-measure of the title's share asked about and
# the subject's share held) before its best unit answers instead of another page's
MIN_PAGE_MATCH = 0.6
# …and by this much more than the best unit's page
PAGE_MATCH_MARGIN = 0.2
# A title announcing the kind of answer asked for ("Por qué …" for a why question) adds this to the match
KIND_CUE = 0.2
_GLOSS = re.compile(r"\([^)]*\)")
_BULLET = re.compile(r"^\s*[•◦▪\-*]\s+")


def _first_line(text: str) -> str:
    for line in text.split("\n"):
        if line.strip():
            return _BULLET.sub("", line)
    return ""


def announces(kind: str, title: str) -> bool:
    """Whether a slide's title announces the kind of answer a question asks for."""
    if kind == "why":
        return kinds.asks_why(title)
    if kind == "difference":
        return kinds.compares(title)
    if kind == "what":
        return kinds.defines(title)
    return False


def _announces(q: Any, title: str) -> bool:
    """:func:`announces`, and for a list question a title naming the noun listed ("Categorias de triplas" for
    "Quais são as categorias de triplas…?")."""
    listed = [t for t in q.listed if not t.startswith("=")]
    return announces(q.kind, title) or q.kind == "list" and bool(listed) and set(listed) <= q.text_terms(title)


def _asked_share(q: Any, title: str) -> float:
    """The share of a title's terms that the question holds."""
    named = [t for t in q.text_terms(title) if not t.startswith("=")]
    return sum(t in q.text_terms(q.text) for t in named) / len(named) if named else 0.0


def page_match(q: Any, n: int) -> float:
    """How well page ``n`` read is the answer to the question by its title and first line (0 for a deck's title
    slide, a window of talk, or a summary slide: they name topics, another slide explains them)."""
    chunk = q.read[n][0].chunk
    if chunk.kind == "transcript" or chunk.locator.page in (None, 1) or n in q.summaries:
        return 0.0
    title = (chunk.locator.heading or "").split(" > ")[-1]
    # of the title, what the question asks about: a gloss in parentheses restates it ("Ventana deslizante (sliding
    # window)"), the words announcing the kind asked say what is said of it ("ALiBi: definição" for a what)
    precision = _asked_share(q, kinds.without_cue(_GLOSS.sub(" ", title), q.kind))
    recall = min(1.0, q.share(q.subject, q.terms(title) | q.terms(_first_line(chunk.text))))
    if precision + recall == 0:
        return 0.0
    return 2 * precision * recall / (precision + recall) + (KIND_CUE if _announces(q, title) else 0.0)


def answering_page(q: Any, best: Any, scored: list) -> Any:
    """The best unit of the page whose title and first line match the question clearly better than the best
    unit's page does (:func:`page_match`); else ``best``."""
    if q.kind == "how":  # its answer is the code or the steps, which a title seldom names
        return best
    deck = q.read[best.unit.page][0].chunk.source  # another deck's slide is another course's answer
    match = {n: page_match(q, n) if q.read[n][0].chunk.source == deck else 0.0 for n in range(len(q.read))}
    top = max(match, key=lambda n: (match[n], -n))  # a page none of whose units was scored: nothing to quote
    if top == best.unit.page or all(s.unit.page != top for s in scored) \
            or match[top] < max(MIN_PAGE_MATCH, match[best.unit.page] + PAGE_MATCH_MARGIN):
        return best
    return max((s for s in scored if s.unit.page == top), key=lambda s: s.score)


# A page whose title and first line are the question this much (:func:`page_match`) is read from the top
TITLED_MATCH = 0.9
# …its opening units quoted when the best unit is among them: what the slide says first of what it is titled
OPENING_UNITS = 3


def titled_opening(q: Any, picked: list, all_units: list, as_scored: Any) -> list:
    """For a "what" answered by one line of the slide titled with the question ("Escaneo
    paralelo (parallel scan)" for "¿Qué es el escaneo paralelo…?"), the slide's opening units, in
    order, when that line is one of them: a title that is the question is answered by the slide from the top, not
    by the one line that shares the most words. ``as_scored`` turns a unit into the answerer's scored unit."""
    if q.kind != "what" or len(picked) != 1 or picked[0].unit.is_code:
        return picked
    best = picked[0].unit
    if page_match(q, best.page) < TITLED_MATCH:
        return picked
    opening = sorted((u for u in all_units if u.page == best.page and not u.is_code), key=lambda u: u.start)
    opening = opening[:OPENING_UNITS]
    return [as_scored(u) for u in opening] if best in opening else picked
