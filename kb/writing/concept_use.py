"""Key concepts a grader cannot mark with, and the short question without them.

Fresh raters of rounds 8–9 (``eval/real_heldout_r8`` version b, ``r9`` version c) fixed the concepts of
short answers more than anything else: a piece of code cut out of its expression ("x.mean" of
``x = (x - x.mean(0)) / x.std(0)``), a call a student would have to copy to the letter
("LinearLR(optimizer, start_factor=0.01, end_factor=1.0, total_iters=N)"), an error or warning message
quoted verbatim, a phrase cut before its object ("convertir con"), a lone generic word beside the
answer's phrases ("tensor", "Process"). A reply that says the idea misses every one of them; one that
echoes a word of the slide hits the last. :func:`unusable_concept` says which of these a concept is;
:func:`usable_concepts` leaves them out of a short question when a usable one remains.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..quiz import Question
from ..text import fold, words
from .concept_faults import NAMED_ORIGINS, question_concept_fault
from .ideas import dangling

# a code token: a dotted or snake_case name, a call, a CamelCase or ALLCAPS name
_CODE_TOKEN = re.compile(r"[._()\[\]=]|[a-z][A-Z]|^[A-Z]{2}")
# a quoted message: four words or more between quotes (a scare-quoted word, "prende", is no message)
_QUOTED = re.compile(r"\"[^\"\s]+(?:\s+[^\"\s]+){3,}\"|“[^”\s]+(?:\s+[^”\s]+){3,}”")  # (no single quotes: f'(x))
# a single word that names a thing rather than an everyday word: a hyphen or a digit inside it (nvidia-smi, fp16,
# ResNet-50), or capitals past its first letter (GPU, cuDNN); "tensor", "Process", "varianza" have none
_NAME_MARK = re.compile(r"\w-\w|\d|\w[A-Z]")
_CUT_END = frozenset("con sin com sem mediante según segun via vía".split())  # (not in ideas.dangling's words)
EXACT_CALL_KEYWORDS = 2  # keyword arguments from which a call is an example to copy, not an idea
# (LinearLR(optimizer, start_factor=0.01, end_factor=1.0, total_iters=N) has 3; "model.compile(...,
# run_eagerly=True)", which raters of r9 kept as a concept, has 1)
PHRASE_WORDS = 3  # words of a phrase beside which a lone word is a generic one (hand-set on r9: "tensor; Se a
# condição for Python, o Python executa no tracing; Ver o código gerado")


def _spaced(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def unusable_concept(concept: str, answer: str, others: Sequence[str] = ()) -> str | None:
    """Why a grader cannot mark with ``concept`` of a model ``answer`` (``others``: the question's
    other concepts), or None: "verbatim" (a quoted message, or words inside one), "exact-call" (a call
    with its keyword arguments), "code-fragment" (a name cut from a longer expression of the answer),
    "cut-phrase" (ends on a preposition or article), "generic-word" (one plain word beside phrases).
    A concept whose cut bracket held what it says is repaired by :func:`with_brackets`, not turned down."""
    c = _spaced(concept)
    if not c:
        return "cut-phrase"
    if any(len(c) >= 6 and fold(c.strip("\"“”'")) in fold(m.group()) for m in _QUOTED.finditer(answer)):
        return "verbatim"
    if shard := _shard(c, answer):
        return shard
    if len(re.findall(r"\w\s*=\s*[^=\s]", c)) >= EXACT_CALL_KEYWORDS and "(" in c:
        return "exact-call"
    if " " not in c and _CODE_TOKEN.search(c):
        name = re.escape(c.removesuffix("()"))
        at = [m for m in re.finditer(rf"(?<![\w]){name}", answer)]
        # every place the answer writes it, it goes on: an argument list, an attribute, or it follows one
        if at and all(re.match(r"\((?!\))|\.\w|\w", answer[m.end():]) or answer[max(0, m.start() - 1):m.start()] == "."
                      for m in at):
            return "code-fragment"
        return None
    if dangling(c) or fold(words(c)[-1] if words(c) else "") in _CUT_END:
        return "cut-phrase"
    if len(words(c)) == 1 and not _CODE_TOKEN.search(c) and not _NAME_MARK.search(c) and \
            any(len(words(o)) >= PHRASE_WORDS for o in others if _spaced(o) != c):
        return "generic-word"
    return None


LABEL_WORDS = 5  # most words of a bullet's label (hand-set on r9-r11 ratings: "Coste típico en la CPU" a label,
# "Cada secuencia tiene una block table: …" a statement raters kept)
_PAIRS = (("(", ")"), ("[", "]"), ("{", "}"), ("«", "»"), ("“", "”"))
# a version or date a tool has a feature since: trivia, no idea ("Disponible desde CUDA 10", r11 raters)
_SINCE = re.compile(r"\b(?i:desde|since|a partir d[aeo])\s+(?:(?i:la|a|o|el|the)\s+)?"
                    r"(?:(?i:versi[oó]n|vers[aã]o|version)\s+|v|[A-Z][\w.+-]*\s+)\d")  # (not "solo desde rank 0")


def _shard(c: str, answer: str) -> str | None:
    """"unbalanced" (a bracket or quote cut open: 'sched, "monitor"', "A_bar =^-1"), "code-shard" (an assignment or
    a call cut from code: "kept = set(), []"), "bare-number" (a number with one word at most: "32 capas"),
    "trivia" (a version since which: "Disponible desde CUDA 10"), "label" (a bullet's label, the answer's text
    before its colon: "Passo relativo entre vizinhos"); None for any other (r11 raters' FIX reasons)."""
    if any(c.count(a) != c.count(b) for a, b in _PAIRS) or c.count('"') % 2:
        return "unbalanced"
    if (re.search(r"\w\s*=\s*(?:[\^\[{(]|\w+\()|=\^|=\s*$|=\s*/|^\s*=|\s#\s", c) or c.count("=") >= 2
            or re.search(r"\w\(\)|\[\]", c) and " " in c):
        return "code-shard"
    ws = c.split()
    if len(ws) <= 3 and "," in c and re.search(r"[\"'“]", c):
        return "code-shard"  # ('sched, "monitor"': arguments cut from a call)
    if len(ws) == 2 and any(re.fullmatch(r"[\d.,]+%?", w) for w in ws) and not all(re.search(r"\d", w) for w in ws):
        return "bare-number"
    if _SINCE.search(c) or re.search(r"\b(?:19|20)\d\d\b", c):  # (a year: "Popularizado por Baidu (2017)")
        return "trivia"
    if 2 <= len(ws) <= LABEL_WORDS and re.search(rf"(?:^|[.;]\s*|\n\s*){re.escape(c)}\s*:", answer):
        return "label"
    return None


# a bracket that holds what the phrase says: a comparison ("<= 1 MB"), a shape ("N, 1", "N,"), a term of a
# formula ("1 - eps", "1/N"); not an aside ("~8k en ResNet-50", "p. ej. GPT-4", "padrão 3")
_HELD = re.compile(r"\s*(?:[<>=≤≥]|[A-Z\d]+(?:,\s*[A-Z\d]*)*,?\s*$|\d+\s*[-+*/]\s*\w+\s*$)")


def with_brackets(concept: str, answer: str) -> str:
    """``concept`` as the answer writes it when a cut bracket held its content: "pred de forma (N, 1) y
    target de forma (N,)" for "pred de forma y target de forma", "bloques pequeños (<= 1 MB, …) y grandes
    (> 1 MB)" for "bloques pequeños  y grandes" (a bracket with a comparison, a shape or a formula's
    term is what the phrase says, not an aside); ``concept`` as it is otherwise."""
    ws = _spaced(concept).split(" ")
    if len(ws) < 2 or fold(_spaced(concept)) in fold(_spaced(answer)):
        return concept
    gap = r"(?:\s*\([^()]*\))?\s+"
    # (also before a word's comma, which a gist writes for the answer's ";": "target de forma (N,); MSELoss …")
    bracket = r"(?:\s*\([^()]*\))?"
    m = re.search(gap.join(re.escape(w.rstrip(",;:")) + bracket + ("[,;:]" if w[-1] in ",;:" else "")
                           for w in ws), answer, re.I)
    if not m or not any(_HELD.match(b) for b in re.findall(r"\(([^()]*)\)", m.group())):
        return concept
    # (only the brackets that hold what it says: "gradiente conjugado (CG)", not the aside "(Martens, 2010)"; a
    # bracket right after a word is a call's or a formula's, never an aside: "O(c^3)", "det(W)", "GAE(gamma, lambda)")
    text = m.group()
    return re.sub(r"\s*\(([^()]*)\)", lambda b: b.group() if _call(text, b) or _HELD.match(b.group(1))
                  and not re.fullmatch(r"\s*(?:19|20)\d\d\s*", b.group(1)) else "", text)  # (nor a year)


def _call(text: str, b: re.Match[str]) -> bool:
    """The bracket ``b`` of ``text`` opens right after a word or a bracket: a call's or a formula's ("O(c^3)")."""
    return b.group()[0] == "(" and b.start() > 0 and (text[b.start() - 1].isalnum() or text[b.start() - 1] in "_)]")


def unusable_concepts(q: Question) -> str | None:
    """'unusable-concept' when a short question's concepts hold one a grader cannot mark with."""
    if q.type != "short" or q.origin == "harvested":
        return None
    others = () if q.origin in NAMED_ORIGINS else q.concepts  # (no word is generic among names)
    return "unusable-concept" if any(unusable_concept(x, q.answer, others) for x in q.concepts) else None


def usable_concepts(q: Question) -> Question:
    """``q`` without the concepts a grader cannot mark with (:func:`unusable_concept`) or a teacher would not keep
    (:func:`kb.writing.concept_faults.concept_fault`: a fragment, worked numbers, trivia), or with its
    concepts as they are when none would be left; whitespace runs (a bracket cut out) made single."""
    from dataclasses import replace

    if q.type != "short" or q.origin == "harvested" or not q.concepts:
        return q
    others = () if q.origin in NAMED_ORIGINS else q.concepts  # (no word is generic among names)

    def kept_one(x: str) -> bool:  # (a name is no fragment among names: "all-gather", "dtype" of a list's items)
        return not unusable_concept(x, q.answer, others) and not question_concept_fault(x, q)

    kept = tuple(_spaced(with_brackets(x, q.answer)) for x in q.concepts if kept_one(x))
    if not kept:
        kept = tuple(_spaced(with_brackets(x, q.answer)) for x in q.concepts)
    return q if kept == tuple(q.concepts) else replace(q, concepts=kept)
