"""One question on a slide's topic from a labelled list whose labels are discourse words: the roles a slide
gives its bullets ("Problema: …; Solución: …", "Ventaja: …; Problema: …"), not terms.

Asked what each such label means ("¿qué significa cada uno de estos elementos de «Length penalty…»:
Problema; Solución?") fresh teachers kept 0 of 76 (eval/real_heldout_r6, r7); their own fixes ask the
slide's topic for each role at once ("¿Por qué beam search sin normalización favorece secuencias cortas y
cómo se corrige?"). This pattern writes that stem from the deck language's table of roles
(:data:`kb.lang.es.DISCOURSE` and its pt/en peers): «En {subject}, en «{topic}», ¿qué problema hay y cuál
es la solución?», answered by the list's items with their labels; the concepts are the descriptions' key
phrases, never the labels (:func:`kb.writing.plan._concepts`). Two or three roles only: more is a slide to
recite. A list whose labels are neither terms nor roles ("Hay que promediarlos", "En PyTorch",
"B << B_noise") gets no question here. The candidate goes through the one registry of checks like every
plain question (:func:`kb.writing.plan._plain_draft`); this module only writes it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..lang import en, es, pt
from ..text import fold
from .setting import unset

if TYPE_CHECKING:
    from ..outline import Idea

_LANGS = {"es": es, "pt": pt, "en": en}
ROLES = (2, 3)  # fewest and most roles one stem asks (issue 26: more roles is a slide to recite, no question)


def _label(part: str) -> str:
    """An item's label, folded, without a trailing number ("Solución 2" → "solucion")."""
    return re.sub(r"\s*\d+$", "", fold(part.split(":", 1)[0].strip()))


def roles(labels: list[str], lang: str) -> list[str]:
    """What a question asks of each discourse label of a list, in the list's order (the deck language's
    :data:`DISCOURSE` table), when the list is one topic's roles: two or three distinct roles, the first item
    one of them, and at most as many other items (sub-points of a role: "Problema: k fijo …; distribución
    plana: …"); [] otherwise."""
    table = _LANGS.get(lang, en).DISCOURSE
    folded = [re.sub(r"\s*\d+$", "", fold(x.strip())) for x in labels]
    asked = [table[x] for x in folded if x in table]
    if not folded or folded[0] not in table or len(set(asked)) != len(asked) \
            or not ROLES[0] <= len(asked) <= ROLES[1] or len(folded) - len(asked) > len(asked):
        return []
    return asked


def role_items(idea: Idea, lang: str) -> str:
    """The items of a discourse list that its stem asks (those labelled with a role), joined as the idea's text
    is: what a reply must say (the others — "Con DDP: …", a role's sub-points — are in the model answer only)."""
    table = _LANGS.get(lang, en).DISCOURSE
    return "; ".join(p for p in idea.text.split("; ") if _label(p) in table)


def topic(title: str, lang: str) -> str:
    """A slide title without the kind of slide it adds ("All-reduce: definición" → "All-reduce",
    "Top-k — ejemplo" → "Top-k")."""
    kinds = _LANGS.get(lang, en).SLIDE_KINDS
    m = re.match(r"^(?P<t>.+?)\s*(?::|—|–|\s-)\s*(?P<k>[^:—–]+)$", title.strip())
    kind = _ARTICLE.sub("", fold(m.group("k").strip())) if m else ""
    return m.group("t").strip() if m and kind in kinds else title.strip()


_ARTICLE = re.compile(r"^(?:el|la|los|las|o|a|os|as|the|an?)\s+")  # ("Gradient accumulation: la idea")


def list_labels(text: str) -> list[str]:
    """The labels of a labelled list idea's text ("A: …; B: …"): a part with no label of its own goes on the one
    before it ("En CUDA: se usa CUDA IPC; exige método spawn o forkserver" holds one label), as the stem lists them
    (:func:`kb.writing.plan.plain_forms`), the term test (:func:`kb.writing.plan._term_labels`) and the roles
    read them."""
    return [p.split(":", 1)[0].strip() for n, p in enumerate(text.split("; ")) if not n or ":" in p]


def discourse_form(idea: Idea, subject: str, lang: str) -> tuple[str, str] | None:
    """The (prompt, answer) of a labelled list idea whose labels are discourse words (:func:`roles`): each
    role asked of the slide's topic in one stem, set in the deck's ``subject`` (unset where there is none or
    it is the topic itself), answered by the items with their labels; None for any other idea."""
    if idea.kind != "list":
        return None
    asked = roles(list_labels(idea.text), lang)
    if not asked:
        return None
    words = _LANGS.get(lang, en)
    q = ", ".join(asked[:-1]) + words.DISCOURSE_AND + asked[-1]
    t = topic(idea.name, lang)
    if fold(t) in words.DISCOURSE:
        return None  # ("Motivação: Benefícios …; Custo …": a slide named by a role has no topic to ask of)
    stem = words.DISCOURSE_STEM
    if not subject or fold(subject) == fold(t):
        stem = unset(stem)
    return stem.replace("{s}", subject).replace("{t}", t).replace("{q}", q), idea.text
