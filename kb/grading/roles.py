"""Swapped roles: a reply that keeps every compared term but says of each what the model answer
says of the other."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence, TypeVar

from ..text import STOPWORDS, detect_language, fold_word, words
from .signals import (
    stem,
    stems_close,
)

# A contradiction that keeps every term: "Nas assíncronas as réplicas esperam umas pelas outras"
# when the model answer says it of the synchronous ones. Overlap of words or meaning cannot see it;
# what each compared term is said to do can. The terms are those the question sets side by side
# ("a diferença entre X e Y", "atualizações síncronas e assíncronas", "Map e Reduce").

NEGATORS = frozenset({"nao", "nunca", "jamais", "sem", "nem", "nenhum", "nenhuma", "sin", "ni", "ningun",
                       "ninguna", "not", "never", "without", "none", "nor", "cannot"})
CLAUSE = re.compile(r"[.;:!?,()\n]|\s[-–]\s")
_ALIAS = re.compile(r"([0-9A-Za-zÀ-ÖØ-öø-ÿ_.\-]+)\s*\(([^()]{1,40})\)")
_CONJUNCTIONS = frozenset({"e", "y", "and", "ou", "or", "vs", "versus"})  # + Spanish "o": in pt it is "the"
SWAP_EVIDENCE = 3  # predicate words that moved to the other term, with none in place, before the guard fires
# ... or this many moved and at least SWAP_OUTWEIGHS times as many as stayed in place: "No all-reduce o
# resultado fica só no processo raiz, e no reduce todos os processos recebem" keeps "soma" and "processos"
# with both terms (blind set 2: 3 contradictions of 5–8 moved words against 1–2 kept; a right partial
# reply had 3 moved against 1).
SWAP_EVIDENCE_MIXED = 5
SWAP_OUTWEIGHS = 3


def _predicate_stems(text: str, lang: str, alias: dict[str, str]) -> list[tuple[str, bool]]:
    """(stem, negated) of the content words in order; a negation ("não", "sin", "not") marks the next
    two content words of its clause, so that "sem esperar" is not "esperar". "no" negates only outside
    Portuguese, where it is "in the"."""
    out: list[tuple[str, bool]] = []
    for clause in CLAUSE.split(text):
        left = 0
        for w in words(clause):
            f = fold_word(w)
            if f in NEGATORS or (f == "no" and lang != "pt") or f.endswith("n't"):
                left = 2
                continue
            if f in STOPWORDS or (len(f) < 2 and not f.isdigit()):
                continue
            s = stem(w)
            out.append((alias.get(s, s), left > 0))
            left = max(0, left - 1)
    return out


def aliases(text: str) -> dict[str, str]:
    """Stems of a short parenthesis → the stem of the word before it: "fixar (pinning)", "GIL (Global…)"."""
    out: dict[str, str] = {}
    for m in _ALIAS.finditer(text):
        head = stem(m.group(1))
        inner = [stem(w) for w in words(m.group(2)) if fold_word(w) not in STOPWORDS]
        if 1 <= len(inner) <= 3 and head not in STOPWORDS:
            for s in inner:
                out.setdefault(s, head)
    return out


def contrast_pairs(question: str, alias: dict[str, str] | None = None, lang: str = "") -> list[tuple[str, str]]:
    """(X, Y) stems of the terms a question compares: Y is the first new content word after a
    conjunction, X one of the last three content words before it in the same clause ("a diferença
    entre uma thread e um processo" → (thread, processo)). ``lang`` "es" adds the conjunction "o"."""
    alias = alias or {}
    conjunctions = _CONJUNCTIONS | ({"o", "u"} if lang == "es" else set())
    pairs: list[tuple[str, str]] = []

    def content(ws: Sequence[str]) -> list[str]:
        return list(dict.fromkeys(alias.get(stem(w), stem(w)) for w in ws if w not in STOPWORDS and len(w) > 1))

    for clause in CLAUSE.split(re.sub(r"\([^()]*\)", " ", question)):
        ws = [fold_word(w) for w in words(clause)]
        for i, w in enumerate(ws):
            if w not in conjunctions:
                continue
            before, after = content(ws[:i]), content(ws[i + 1:])
            y = next((s for s in after if s not in before), None)
            if y:
                pairs += [(x, y) for x in [s for s in before if s not in after][-3:]]
    return list(dict.fromkeys(pairs))


T = TypeVar("T", bound=tuple)


def spans(toks: Sequence[T], a: str, b: str) -> dict[str, list[T]] | None:
    """What is said of each of two compared terms: the tokens (stem first) from each one's first
    mention to the other's, or to the end; None unless both are mentioned."""
    ia = next((i for i, t in enumerate(toks) if stems_close(a, t[0])), None)
    ib = next((i for i, t in enumerate(toks) if stems_close(b, t[0])), None)
    if ia is None or ib is None:
        return None
    lo, hi = list(toks[min(ia, ib):max(ia, ib)]), list(toks[max(ia, ib):])
    return {a: lo, b: hi} if ia < ib else {a: hi, b: lo}


def _segments(toks: Sequence[tuple[str, bool]], a: str, b: str) -> dict[str, set[tuple[str, bool]]] | None:
    """:func:`spans` as sets of (stem, negated), without the two terms themselves."""
    seg = spans(toks, a, b)
    if seg is None:
        return None
    return {k: {(t, n) for t, n in v if not stems_close(t, a) and not stems_close(t, b)} for k, v in seg.items()}


def _overlap(x: set[tuple[str, bool]], y: set[tuple[str, bool]]) -> int:
    return sum(any(n1 == n2 and stems_close(t1, t2) for t2, n2 in y) for t1, n1 in x)


@dataclass(frozen=True)
class RoleSwap:
    """How the reply's predicates of two compared terms match the model answer's: ``kept`` words said
    of the same term as in the model answer, ``swapped`` words said of the other one; ``terms`` are
    the two as the reply writes them."""

    terms: tuple[str, str]
    kept: int
    swapped: int

    @property
    def clear(self) -> bool:
        """Every predicate word that matches sits with the other term, and there are enough of them;
        or many more sit with the other term than with the right one."""
        return (self.kept == 0 and self.swapped >= SWAP_EVIDENCE) or \
            (self.swapped >= SWAP_EVIDENCE_MIXED and self.swapped >= SWAP_OUTWEIGHS * self.kept)


@lru_cache(maxsize=2048)
def _reference_roles(question: str, ref: str, lang: str
                     ) -> tuple[dict[str, str], tuple[tuple[str, bool], ...], tuple[tuple[str, str], ...]]:
    """The model answer's side, the same for every reply (cached): aliases, predicate stems, compared terms."""
    alias = {**aliases(ref), **aliases(question)}
    return alias, tuple(_predicate_stems(ref, lang, alias)), tuple(contrast_pairs(question, alias, lang))


def role_swap(question: str, refs: Sequence[str], reply: str, lang: str) -> RoleSwap | None:
    """The compared terms' predicates in the reply against each model answer; the least swapped
    answer counts, so a reply that keeps the roles of any accepted answer (or that no answer lets us
    judge) is not swapped. None when the question compares nothing or the reply does not name both."""
    reply_lang = detect_language(reply, lang) if len(words(reply)) >= 4 else lang
    found: list[RoleSwap] = []
    for ref in refs:
        alias, ref_toks, pairs = _reference_roles(question, ref, lang)
        if not pairs:
            return None
        rep_toks = _predicate_stems(reply, reply_lang, alias)
        here: tuple[str, str, int, int] | None = None
        for a, b in pairs:
            r, p = _segments(ref_toks, a, b), _segments(rep_toks, a, b)
            if not r or not p:
                continue
            only_a, only_b = r[a] - r[b], r[b] - r[a]  # what the model answer says of one term and not the other
            kept = _overlap(p[a], only_a) + _overlap(p[b], only_b)
            swapped = _overlap(p[a], only_b) + _overlap(p[b], only_a)
            if kept + swapped and (here is None or kept + swapped > here[2] + here[3]):
                here = (a, b, kept, swapped)
        if here is None:
            return None
        surface: dict[str, str] = {}
        for w in words(reply):
            s = stem(w)
            for t in here[:2]:
                if stems_close(alias.get(s, s), t):
                    surface.setdefault(t, w)
        found.append(RoleSwap((surface.get(here[0], here[0]), surface.get(here[1], here[1])), here[2], here[3]))
    return min(found, key=lambda x: x.swapped - x.kept) if found else None
