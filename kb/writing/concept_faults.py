"""Key concepts no teacher keeps: a fragment, an example, a version remark, a code shard.

Fresh raters of rounds 11 and 12 (``eval/real_heldout_r11`` version b, ``r12`` version c) fixed the concepts of
short answers more than anything else (56 of their FIX ratings name only the concepts). What they rewrote falls in
a few classes of text, none of them the slide's point:

- a **fragment**: a bullet's opening clause or a phrase cut out of one — it opens on a preposition or an
  adverbial ("Con n capas", "En el backward", "Na prática", "de lanzar kernels"), on a subjectless verb ("Tiene un
  coste"), on a word that needs its referent ("mesmo código"), on a sign ("~ 8d^2 no total"); it ends on a
  pronoun or a verb awaiting its object ("batch o un modelo mayor, lo", "Cambiar la geometría exige", "modelo em
  si"); or it is one plain word ("GPU");
- an **instance**: worked numbers or an example instead of the rule ("C = 6 x 175e9 x 300e9 ~ 3,15e23 FLOPs",
  "h = 8192, s = 128k, b = 1", "modelo de 7B parâmetros", "7 x 1g.5gb", "p. ej. …");
- **trivia**: a version or a date ("Disponible desde CUDA 10", "dependen de la versión"), or who proposed a method
  ("Propuesta por Raissi, Perdikaris y Karniadakis", "Ronneberger et al. para microscopía": rounds 8-20's raters named
  the author in 26 of the 31 FIX reasons of short answers with such a concept, round 21's in 18 of 23);
- a **code shard**: a comment or a piece of a statement ("# RemovableHandle es context manager").

:func:`concept_fault` says which one a concept is, by the per-language word lists of :mod:`kb.lang`; the writers
leave such concepts out (:func:`kb.writing.concept_use.usable_concepts`,
:func:`kb.writing.answer_points.point_concepts`) and the registry's advisory ``fragment-concept``
(:func:`fragment_concepts`) reports those that remain.
"""

from __future__ import annotations

import re

from .. import lang as L
from ..quiz import Question
from ..text import fold, words

# short questions whose concepts are names by construction (a list's parts or steps, an equation's terms:
# "runtime" of "CUDA = extensión de C/C++ + runtime + driver"), as kb.writing.checks.thin_concepts reads them
NAMED_ORIGINS = frozenset({"parts", "steps", "how", "caveat", "scope", "equation"})
SHORT_PHRASE = 4  # most words of a phrase that a leading preposition makes a fragment (hand-set on r11/r12:
# "de lanzar kernels", "En el backward", "Con n capas", "Na prática"; "sin sincronización con la CPU …" is a rule)
SUBJECTLESS = 3  # most words of a phrase that a leading verb leaves without its subject ("Tiene un coste")

_COPULAS = frozenset(fold(w) for w in L.es.COPULAS | L.pt.COPULAS | L.en.COPULAS) - {"ha", "hay", "es", "is"}
# without a language: what opens a fragment in all of them, but the Portuguese articles ("a janela efetiva")
_ANY_OPENERS = (L.es.PHRASE_OPENERS | L.pt.PHRASE_OPENERS | L.en.PHRASE_OPENERS) - {"a", "o", "as", "os"}

# worked numbers: scientific notation ("175e9"), a product of numbers ("7 x 1g.5gb"), a number set to a
# variable, not a formula's constant ("h = 8192", not "Bytes = 2 x n_layers"), a model's size ("7B", "1.5M")
_INSTANCE = re.compile(r"\d(?:[.,]\d+)?e\d+|\d\s*[x×]\s*\d|(?<![\w.])[A-Za-z_]\w*\s*=\s*\d[\d.,]*[kKMGB]?\s*(?:,|$)"
                       r"|\b\d+(?:[.,]\d+)?[BM]\b")
_BIG_NUMBER = re.compile(r"(?<![\w.,^])\d{2,}(?![\w.,^])")  # ("16 GPUs", "32 capas"; not "O(t^2)", "fp16")
_RANGE = re.compile(r"\d\s*[-–]\s*\d|[<>≤≥~≈]")  # a rule's bound or range ("5-20 µs", "<= 1 MB")
# a version remark: a release since which, "recent versions", "depends on the version", a year
_VERSION = re.compile(r"\b(?i:versiones\s+recientes|vers[oõ]es\s+recentes|recent\s+versions|depende[nm]?\s+d[ea]\s+"
                      r"(?:la\s+|a\s+)?versi[oó]n|depende[m]?\s+da\s+vers[aã]o|depends?\s+on\s+the\s+version)\b"
                      r"|\b(?:19|20)\d\d\b|\b(?i:desde|since|a partir d[aeo])\s+(?:[A-Z][\w.+-]*\s+)?v?\d")
# an attribution: who proposed, introduced or created it ("Propuesta por Raissi …", "Ronneberger et al.", "proposed by")
# as the concept itself or an aside to it (at its start, after a comma or a bracket: "Transformer, propuesto por
# Vaswani"), never a participle that says what a thing does ("los actores creados por Ray", "el ruido introducido
# por Dropout": a library's name is capitalised as a surname is; every such concept of the rated rounds opens on it)
_ATTRIBUTION = re.compile(r"\bet al\b|(?:^|[,(]\s*)(?i:propuest[oa]s?|propost[oa]s?|proposed|introducid[oa]s?|"
                          r"introduzid[oa]s?|introduced|cread[oa]s?|criad[oa]s?|created|desarrollad[oa]s?|"
                          r"desenvolvid[oa]s?|developed)\s+(?i:por|by)\s+[A-Z][a-zà-ÿ]+\b")  # (a surname)
_CLAIM_AFTER_LABEL = re.compile(r":\s*\S+(?:\s+\S+){2,}")  # a claim of three words or more after a label's colon
_CODE_MARK = re.compile(r"[_.()\[\]/]|\w-\w|\d|[a-z][A-Z]")  # a name, not a plain word ("max_seq_len", "all-reduce")


def attribution(text: str) -> bool:
    """``text`` says who proposed, introduced or created something ("Propuesta por Raissi …", "Lin et al.")."""
    return bool(_ATTRIBUTION.search(text))


def concept_fault(concept: str, lang: str = "") -> str | None:
    """Why a teacher would not keep ``concept`` as a key concept of a short answer: "fragment", "instance",
    "trivia" or "code-shard" (the classes of this module's docstring), or None. ``lang``: the question's language,
    whose function words are read ("" reads those of every language but the Portuguese articles)."""
    c = re.sub(r"\s+", " ", concept).strip()
    ws = words(c)
    if not ws:
        return "fragment"
    if c.startswith("#") or re.search(r"\s#\s", c):
        return "code-shard"  # ("# RemovableHandle es context manager")
    if _VERSION.search(c) or attribution(c) and not _labelled_claim(c):
        return "trivia"
    if _instance(c, ws):
        return "instance"
    return "fragment" if _fragment(c, ws, lang) else None


def _labelled_claim(c: str) -> bool:
    """An attribution that only labels its claim ("Ulyanov et al.: sustituir Batch Norm por …", "Escalado lineal: el
    lr crece … (Goyal et al.)": a citation in brackets is an aside), not one that says who proposed or did it
    ("Propuesta por Raissi …", "Gradual por épocas: Goyal et al. usan 5 épocas …"). A colon inside a quoted title
    ('Power et al., "Grokking: …"') is no label's."""
    label, colon, claim = c.partition(": ")
    if not colon or label.count('"') % 2 or label.count("“") != label.count("”"):
        return False
    return bool(_CLAIM_AFTER_LABEL.search(c)) and not attribution(re.sub(r"\s*\([^()]*\)", "", claim))


def _instance(c: str, ws: list[str]) -> bool:
    """Worked numbers or an example, not the rule (:data:`_INSTANCE`, an example's mark, a short phrase around a
    number, a list of sizes)."""
    if any(m in c.lower() for m in L.EXAMPLE_MARKS) or _INSTANCE.search(c):
        return True
    if len(ws) <= SHORT_PHRASE and _BIG_NUMBER.search(c) and not _RANGE.search(c):
        return True  # ("Salvou com 16 GPUs", "32 capas")
    tokens = [t for t in c.split() if re.search(r"\w", t)]
    sizes = [t for t in tokens if re.search(r"\d", t) and "(" not in t]  # (not a function: "log2(N)")
    return len(sizes) >= 2 and 2 * len(sizes) >= len(tokens)  # a list of sizes ("4g.20gb + 2g.10gb + 1g.5gb")


def _fragment(c: str, ws: list[str], lang: str) -> bool:
    """A phrase cut from its clause, by the function words of ``lang`` (the module's docstring)."""
    if c[0] in "~≈+*=-–" and c[1:2] == " " or c[0] == "(":
        return True  # a sign or a bracket cut from an expression ("~ 8d^2 no total")
    first, last = fold(ws[0]), fold(ws[-1])
    if len(ws) == 1:  # a plain word ("GPU", "tensor"), not a name ("max_seq_len", "all-reduce", "Dropout")
        return not (_CODE_MARK.search(c) or (c[:1].isupper() and not c.isupper()))
    if first in L.PHRASE_OPENERS.get(lang, _ANY_OPENERS) and len(ws) <= SHORT_PHRASE:
        return True  # ("Con n capas", "Na prática")
    if first in (L.REFERRING.get(lang) or frozenset().union(*L.REFERRING.values())) and len(ws) <= SUBJECTLESS:
        return True  # ("mesmo código")
    if first in _COPULAS and len(ws) <= SUBJECTLESS:
        return True  # ("Tiene un coste": whose?)
    ends = L.PRONOUN_ENDS.get(lang) or frozenset().union(*L.PRONOUN_ENDS.values())
    awaiting = L.OBJECT_VERBS.get(lang) or frozenset().union(*L.OBJECT_VERBS.values())
    # ("batch o un modelo mayor, lo", "Cambiar la geometría exige", "modelo em si")
    return last in ends or (last in awaiting and not c.rstrip().endswith((")", "]")))


def question_concept_fault(concept: str, q: Question) -> str | None:
    """:func:`concept_fault` of one of ``q``'s concepts, but a single word that is a name by construction: a concept
    of a question whose concepts are names (a list's parts, an equation's terms) or an item the answer lists
    ("dtype", "shape" of "metadados: dtype, shape, strides e flags")."""
    fault = concept_fault(concept, q.lang)
    if fault and len(words(concept)) == 1:
        w = re.escape(concept.strip())
        if q.origin in NAMED_ORIGINS or re.search(rf",\s*{w}(?!\w)|(?<!\w){w}\s*,", q.answer):
            return None
    return fault


def fragment_concepts(q: Question) -> str | None:
    """'fragment-concept' when a short question's key concepts hold one no teacher keeps
    (:func:`question_concept_fault`)."""
    if q.type != "short" or q.origin == "harvested":
        return None
    return "fragment-concept" if any(question_concept_fault(x, q) for x in q.concepts) else None
