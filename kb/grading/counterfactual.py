"""Counterfactual model answers: the model answer rewritten to say the opposite — its two compared
terms swapped, a direction word turned into its antonym, its main verb negated (or un-negated) — so
that a reply can be compared with what the model answer says and with what it does not say."""

from __future__ import annotations

import re
from functools import lru_cache

from ..text import fold, fold_word, sentences
from .roles import _aliases, contrast_pairs
from .signals import _close, stem

# Direction words of the course (pt/es/en), each with its opposite. Accent-free, lower case; a word
# is replaced whole, keeping its first letter's case.
_ANTONYMS_BASE: tuple[tuple[str, str], ...] = (
    ("sincrono", "assincrono"), ("sincronas", "assincronas"), ("sincronos", "assincronos"),
    ("sincrona", "assincrona"), ("asincrono", "sincrono"), ("asincrona", "sincrona"),
    ("asincronas", "sincronas"), ("asincronos", "sincronos"),
    ("synchronous", "asynchronous"), ("synchronously", "asynchronously"),
    ("antes", "depois"), ("before", "after"), ("forward", "backward"),
    ("mais", "menos"), ("mas", "menos"), ("more", "less"), ("maior", "menor"), ("mayor", "menor"),
    ("larger", "smaller"), ("faster", "slower"), ("rapido", "lento"), ("rapida", "lenta"),
    ("aumenta", "diminui"), ("aumentam", "diminuem"), ("increases", "decreases"),
    ("pode", "nao pode"), ("podem", "nao podem"), ("puede", "no puede"), ("pueden", "no pueden"),
    ("can", "cannot"), ("sempre", "nunca"), ("siempre", "nunca"), ("always", "never"),
    ("compartilham", "nao compartilham"), ("comparten", "no comparten"), ("share", "do not share"),
    ("mesma", "diferente"), ("mesmo", "diferente"), ("misma", "distinta"), ("mismo", "distinto"),
    ("same", "different"), ("todos", "nenhum"), ("all", "no"), ("liga", "desliga"), ("activa", "desactiva"),
    ("enables", "disables"), ("on", "off"), ("dentro", "fora"), ("centralizado", "descentralizado"),
    ("central", "distribuido"), ("espera", "nao espera"), ("esperam", "nao esperam"), ("waits", "does not wait"),
)
ANTONYMS: dict[str, str] = {}
for _a, _b in _ANTONYMS_BASE:
    ANTONYMS.setdefault(_a, _b)
    if " " not in _b:
        ANTONYMS.setdefault(_b, _a)

_NEG = {"pt": "não", "es": "no", "en": "not"}
_NEGATION_WORDS = re.compile(r"\b(não|nao|no|not|never|nunca|jamais)\s+", re.IGNORECASE)
# finite verbs that open most model-answer claims: the negation goes before the first of them
_VERBS = frozenset({
    "e", "sao", "esta", "estao", "foi", "pode", "podem", "deve", "devem", "tem", "permite", "permitem", "deixa",
    "usa", "usam", "guarda", "gera", "executa", "executam", "roda", "rodam", "aloca", "compartilham", "espera",
    "esperam", "divide", "replica", "define", "cria", "es", "son", "estan", "puede", "pueden", "tiene",
    "envia", "envian", "ejecuta", "crea", "obliga", "is", "are", "was", "can", "has",
    "have", "runs", "run", "uses", "use", "keeps", "splits", "gives", "creates", "computes", "turns", "stores",
    "lets", "allows", "shares", "share", "waits", "wait"})


def _case_like(src: str, new: str) -> str:
    return new[:1].upper() + new[1:] if src[:1].isupper() else new


def swap_terms(text: str, a: str, b: str, alias: dict[str, str] | None = None) -> str:
    """``text`` with every word whose stem is ``a`` written as the first ``b`` word and the reverse
    ("O Map gera…, e o Reduce soma…" → "O Reduce gera…, e o Map soma…"). Unchanged when one is absent."""
    alias = alias or {}
    spans: list[tuple[int, int, str]] = []
    first: dict[str, str] = {}
    for m in re.finditer(r"[0-9A-Za-zÀ-ÖØ-öø-ÿ_]+(?:[\-'][0-9A-Za-zÀ-ÖØ-öø-ÿ_]+)*", text):
        s = stem(fold_word(m.group()))
        s = alias.get(s, s)
        for t in (a, b):
            if _close(s, t):
                spans.append((m.start(), m.end(), t))
                first.setdefault(t, m.group())
                break
    if a not in first or b not in first:
        return text
    out, last = [], 0
    for start, end, t in spans:
        other = first[b] if t == a else first[a]
        out += [text[last:start], _case_like(text[start:end], other.lower() if not other.isupper() else other)]
        last = end
    return "".join(out + [text[last:]])


def flip_directions(text: str) -> list[str]:
    """One variant per direction word of ``text`` that has an antonym, that word replaced."""
    out = []
    for m in re.finditer(r"[0-9A-Za-zÀ-ÖØ-öø-ÿ_]+", text):
        f = fold(m.group()).lower()
        if f in ANTONYMS:
            out.append(text[:m.start()] + _case_like(m.group(), ANTONYMS[f]) + text[m.end():])
    return out


def negate(text: str, lang: str) -> str:
    """The negation removed where the text has one, else put before its first common finite verb."""
    if _NEGATION_WORDS.search(text) and not (lang == "pt" and re.search(r"\bno\s", text, re.I)
                                              and not re.search(r"\b(não|nao)\s", text, re.I)):
        return _NEGATION_WORDS.sub("", text, count=1)
    for m in re.finditer(r"[0-9A-Za-zÀ-ÖØ-öø-ÿ_]+", text):
        if fold(m.group()).lower() in _VERBS:
            verb = m.group() if m.start() else m.group()[:1].lower() + m.group()[1:]
            return text[:m.start()] + _case_like(m.group(), _NEG.get(lang, "not")) + " " + verb + text[m.end():]
    return text


KINDS = ("swap", "direction", "negation")


def counterfactuals(question: str, reference: str, lang: str) -> list[tuple[str, str]]:
    """(kind, variant) of ``reference`` that contradict it: compared terms swapped ("swap"), a direction
    word flipped ("direction"), the main verb negated ("negation"). Only variants that differ from the
    reference; no duplicates."""
    alias = {**_aliases(reference), **_aliases(question)}
    out = [("swap", swap_terms(reference, a, b, alias)) for a, b in contrast_pairs(question, alias, lang)]
    out += [("direction", v) for v in flip_directions(reference)]
    out.append(("negation", negate(reference, lang)))
    return [(k, v) for k, v in dict.fromkeys(out) if v != reference]


@lru_cache(maxsize=4096)
def counterfactual_pairs(question: str, references: tuple[str, ...], lang: str) -> tuple[tuple[str, str, str], ...]:
    """(kind, source, variant) for each model answer and, when it has several, each of its sentences
    (a reply often states one claim of it): the variant differs from its source by one change, so a
    reply's cosine with the variant minus its cosine with the source measures that change alone."""
    out: list[tuple[str, str, str]] = []
    for ref in references:
        parts = sentences(ref)
        for src in [ref] + (parts if len(parts) > 1 else []):
            out += [(k, src, v) for k, v in counterfactuals(question, src, lang)]
    return tuple(dict.fromkeys(out))
