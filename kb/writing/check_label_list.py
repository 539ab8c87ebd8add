"""A stem that pastes a slide's labels and asks what each means, where the labels are no terms (issue 26, item 5).

"¿Qué significa cada uno de estos elementos de «Diagnóstico de lentitud»: Paso 1; Paso 2; Paso 3?",
"… de «El problema con torch.save»: Opção ingênua 1; Opção ingênua 2; DCP resolve os dois?": the labels are
the slide's scaffolding (numbered steps, ordinary words the deck says only as a label, whole sentences), which
a student who never saw the slide cannot read as a question. ``labels-not-terms`` flags such a stem when at
least half its labels are scaffolding (:data:`SCAFFOLD_SHARE`).

On eval/real_heldout_r8–r12 the rule flags 40 of the 51 DROP ratings of label-list stems, 134 of the 258 FIX
and 4 of the 33 KEEP: a form teachers mostly edit, so the check is advisory (``kb eval quiz`` reports it, the
writers do not drop on it; kb's offline writer no longer writes these stems, :mod:`kb.writing.pattern_topic`).
"""

from __future__ import annotations

import re

from ..quiz import Question
from ..text import words
from .deck_term import deck_term

SCAFFOLD_SHARE = 0.5  # share of a stem's labels that are scaffolding (hand-set on r8–r12: 0.34 and 0.5 flag the
# same DROPs; 0.67 halves them)
SENTENCE_WORDS = 5  # a label of this many words or more is a sentence of the slide, not a name
# "what does each of these elements of «T» mean: A; B?"
_LABEL_LIST = re.compile(r"(?i)(?:cada uno de estos elementos|cada um destes elementos|"
                         r"each of these (?:elements|items)) (?:de|of) «[^«»]+»\s*(?:means?|significa)?\s*:\s*"
                         r"(?P<labels>[^?]+)\??\s*$")
# a numbered step or option: "Paso 1", "Opção ingênua 2", "Rama 1", "Step 3"
_NUMBERED = re.compile(r"(?i)^(?:paso|passo|step|opci[oó]n|op[cç][aã]o|option|rama|ramo|branch|parte|part|fase|"
                       r"phase|etapa|stage)\b.*\d")


def scaffolding(label: str, source_text: str, lang: str) -> bool:
    """``label`` is a slide's scaffolding, not a term: a numbered step or option, a sentence, or an ordinary word
    the deck says only as a label (:func:`kb.writing.deck_term.deck_term`)."""
    return bool(_NUMBERED.match(label)) or len(words(label)) >= SENTENCE_WORDS \
        or not deck_term(label, source_text, lang)


def labels_not_terms(q: Question, source_text: str) -> list[str]:
    """["labels-not-terms"] for a short question asking what each label of a slide means, at least half of them
    scaffolding of the deck whose headings and passages are ``source_text`` (nothing without it)."""
    m = _LABEL_LIST.search(q.prompt) if q.type == "short" and source_text else None
    if m is None:
        return []
    labels = [x.strip() for x in m.group("labels").split(";") if x.strip()]
    bad = sum(scaffolding(x, source_text, q.lang) for x in labels)
    return ["labels-not-terms"] if labels and bad >= SCAFFOLD_SHARE * len(labels) else []
