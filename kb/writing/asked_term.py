"""The term a definition question asks, and whether it is one: a clean noun phrase, not a clause.

"¿Qué es Ray Tune determina …?" asks a "term" that swallowed the verb of the slide's sentence; the
offline writer does not make such a term (:func:`garbled_term` in its definition pattern) and the
registry's ``garbled-term`` check flags it in any writer's question. Stdlib only, besides the word lists.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..lang import VERBS
from ..text import STOPWORDS, fold, words

# "¿Qué es X?", "En PyTorch, ¿qué son los X?", "O que é X?", "What is X?", "¿Qué significa «X»?", "¿En qué consiste X?"
_ASKED = re.compile(
    r"^(?:(?:En|Em|In)\s+[^,?]+,\s+)?¿?\s*(?:qu[eé] (?:es|son|significa)|o que (?:é|são|significa)|"
    r"what (?:is|are|does)|en qu[eé] consiste|em que consiste)\s+(?:«(?P<q>[^»]+)»|(?P<t>[^?«»]+?))"
    r"(?:\s+mean)?\s*\?$", re.I)
_ARTICLE = re.compile(r"^(?:el|la|los|las|o|a|os|as|the)\s+(?=\S)", re.I)
_CLAUSE = frozenset("que which that who qui cuyo cuya cujo cuja donde onde where cuando quando when".split())


def asked_term(prompt: str) -> str:
    """The term a "what is" question asks ("" for any other question)."""
    m = _ASKED.match(prompt.strip())
    term = (m.group("q") or m.group("t") or "").strip() if m else ""
    return _ARTICLE.sub("", term) if m and m.group("t") else term  # ("¿qué es el warmup lineal?": "warmup lineal")


# a subordinating conjunction: a term never opens on one ("SE block" keeps its capitals)
_OPENS_CLAUSE = frozenset({"si", "se", "cuando", "quando", "porque", "aunque", "embora", "if", "when", "because"})


def garbled_term(term: str, verb_like: Callable[[str], bool] | None = None) -> bool:
    """The term swallowed a clause: a lower-case word after its first that is a verb (the slides'
    usual third-person verbs, or what the course's own verb test says is one) or opens a clause
    ("que", "which"), or more than seven words. A name keeps its capitals ("Ray Tune", "Data Loader")."""
    ws = words(re.sub(r"\([^)]*\)", " ", term))
    if len(ws) > 7:
        return True
    if len(ws) >= 2 and not ws[0].isupper() and fold(ws[0]) in _OPENS_CLAUSE:
        return True  # "Si la pérdida": a condition's shard (a cloze turned down on it came back as "¿qué es …?")
    for w in ws[1:]:
        fw = fold(w)
        if not w.islower() or fw in STOPWORDS and fw not in _CLAUSE:
            continue
        if fw in VERBS or fw in _CLAUSE or verb_like is not None and len(fw) >= 5 and verb_like(fw):
            return True
    return False
