"""Opposite claims: a reply that says, with the model answer's own words, the opposite of what it
says — a negation the model answer does not make ("os dados não podem ser recriados" where it says
"podem ser recriados"; "sin construir ningún grafo" where it "genera un grafo"), or a word's opposite
said of the same thing ("adiantando a sua avaliação" where it says "adiar a avaliação", "the backward
pass" where it says "the forward pass").

Word overlap and sentence embeddings cannot see these: every key term is there, and USE-m3 puts
"podem" and "não podem" side by side. What the reply negates, or which of two opposites it uses
next to the same words, can be read off the words — but not who or what it is said of: on course
replies written after this module, about 4 in 10 of the replies it finds were contradictions ("os
pesos do modelo original, que não são treinados" is about another subject than the model answer's
"treinados"). So the offline grader does not grade with it; it lists the reply for the teacher
(``Grade.check``, "Replies to check" in grades.md). A contradiction in other words ("os dados ficam
gravados em disco" for "na memória") needs a model that reads meaning (an LLM behind ``KB_LLM_MODEL``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from ..text import STOPWORDS, detect_language, fold_word, words
from .roles import CLAUSE, NEGATORS, aliases, contrast_pairs, spans
from .signals import content_stems, stem, stems_close

# Opposites a course states and a student swaps: each pair's words in pt / es / en, inflections
# included where the 5-letter stem differs. A pair fires only with a shared neighbouring word (see
# ``NEIGHBOURHOOD``), so "a mesma placa" does not oppose "GPUs diferentes". Relations whose sense turns
# with the order of their terms are left out: "optimizer.step() antes" says what "después
# scheduler.step()" says (blind set 2), and so do "A más que B" and "B menos que A".
OPPOSITES: tuple[tuple[str, str], ...] = (
    ("síncrono síncrona síncronos síncronas sincrónico sincrónica synchronous synchronously",
     "assíncrono assíncrona assíncronos assíncronas asíncrono asíncrona asíncronos asíncronas asincrónico "
     "asincrónica asynchronous asynchronously"),
    ("forward", "backward"),
    ("aumenta aumentam aumentar aumento aumentan increase increases", "diminui diminuem diminuir disminuye "
     "disminuyen disminuir reduz reduzem reduce reduces decrease decreases"),
    ("rápido rápida rápidos rápidas fast faster quick quicker", "lento lenta lentos lentas slow slower"),
    ("mesmo mesma mesmos mesmas mismo misma mismos mismas same", "diferente diferentes distinto distinta "
     "distintos distintas different"),
    ("compartilham compartilhada compartilhadas compartilhar comparten compartida compartidas compartir share "
     "shared", "própria próprias propia propias isolada isoladas aislada aisladas own isolated"),
    ("adiar adia adiam postergar posterga delay delays defer defers",
     "adiantar adianta adiantam adiantando adelantar adelanta anticipar antecipar advance advances"),
    ("leitura lectura read reads reading", "escrita escritura write writes writing"),
    ("treino treinamento entrenamiento training", "inferência inferencia inference"),
    ("encoder codificador", "decoder decodificador"),
    ("gerador generador generator", "discriminador discriminator"),
    ("estático estática estáticos static", "dinâmico dinâmica dinámico dinámica dynamic"),
    ("centralizado centralizada centralized", "descentralizado descentralizada decentralized"),
    ("overfitting sobreajuste", "underfitting subajuste"),
    ("entrada entradas input inputs", "saída saídas salida salidas output outputs"),
    ("alta alto altas altos high higher", "baixa baixo baixas baixos baja bajo bajas bajos low lower"),
    ("permite permitem permiten allows allow", "impede impedem impide impiden prevents prevent"),
)
_PAIRS: tuple[tuple[frozenset[str], frozenset[str]], ...] = tuple(
    (frozenset(stem(w) for w in a.split()), frozenset(stem(w) for w in b.split()))
    for a, b in OPPOSITES)
_OPPOSITE_STEMS = frozenset().union(*[a | b for a, b in _PAIRS])
NEIGHBOURHOOD = 3  # content words either side of an opposite that must share a word with the other's
# Words a negation passes over to reach what it negates: "não podem ser recriados" negates "recriados".
_PASS = frozenset(stem(w) for w in (
    "pode podem puede pueden can could é são es son is are ser estar fica ficam queda quedan stay stays "
    "tem têm tiene tienen has have do does did will deve devem debe deben should must consegue conseguem "
    "logra logran hay há existe existem").split())
# Verbs that deny what follows in other words: "limita o paralelismo" says about what "no parallelism"
# says, so the next words are neither plainly said nor negated.
_DENYING = frozenset(stem(w) for w in (
    "limita limitam limitar limits limit limitan impede impedem impedir impide impiden prevents prevent "
    "evita evitam evitar evitan avoids avoid perde perdem pierde pierden loses lose falta faltam faltan lacks "
    "lack bloqueia bloqueiam bloquea bloquean blocks block elimina eliminam eliminan eliminates eliminate "
    "removes remove remueve dispensa dispensan").split())


@dataclass(frozen=True)
class Opposition:
    """What the reply says (``said``) where the model answer says the opposite (``instead``)."""

    said: str
    instead: str
    negation: bool = False  # a negated word, not a word's opposite


_BOUND = frozenset({"mais", "mas", "menos", "more", "less", "fewer", "alem", "beyond", "over", "under"})
_PURPOSE = frozenset({"para", "pra", "so", "as", "to", "fin"})
Token = tuple[str, bool | None, str]  # stem, negated (None: denied in other words), surface


def _tokens(text: str, lang: str, alias: dict[str, str]) -> list[Token]:
    """(stem, negated, surface) of the content words in order. A negation ("não", "sin", "not")
    marks the next content word, and the one after it when that one is an auxiliary ("não podem
    ser recriados"); "no" negates only outside Portuguese, where it is "in the". The two words after
    a denying verb ("limita", "evita"), a negated aim ("para que no se sature") or a negated bound
    ("nunca mais que p") are marked None: neither said nor negated."""
    out: list[Token] = []
    for clause in CLAUSE.split(text):
        left, denied, prev = 0, 0, ("", "")
        for w in words(clause):
            f = fold_word(w)
            if f in NEGATORS or (f == "no" and lang != "pt") or f.endswith("n't"):
                left = 1
                # "para que no se sature", "para não perder", "so as not to": an aim, said in other words
                denied = 2 if prev[1] in _PURPOSE or (prev[1] == "que" and prev[0] in _PURPOSE) else denied
                continue
            prev = (prev[1], f)
            if left and f in _BOUND:  # "nunca tem mais que p micro-batches" is "no máximo p": a bound
                left, denied = 0, 2
                continue
            if f in STOPWORDS or (len(f) < 2 and not f.isdigit()):
                continue
            s = stem(w)
            out.append((alias.get(s, s), None if denied else left > 0, w))
            left = left if left and s in _PASS else 0
            denied = 2 if s in _DENYING else max(0, denied - 1)
    return out


def _near(toks: Sequence[Token], hit: int) -> set[str]:
    lo, hi = max(0, hit - NEIGHBOURHOOD), hit + NEIGHBOURHOOD + 1
    return {t for t, _, _ in toks[lo:hi] if t not in _OPPOSITE_STEMS and t not in _PASS}


def _shares(a: set[str], b: set[str]) -> bool:
    return any(stems_close(x, y) for x in a for y in b)


def _phrase(toks: Sequence[Token], i: int, lang: str) -> str:
    neg = {"pt": "não", "es": "no"}.get(lang, "not")
    t, n, w = toks[i]
    return f"{neg} {w}" if n else w


def _opposed(ref: Sequence[Token], reply: Sequence[Token], skip: set[str],
             ref_lang: str, reply_lang: str) -> Opposition | None:
    """The first clear opposition between one model answer's words and the reply's (same unit)."""
    for a, b in _PAIRS:
        for x, y in ((a, b), (b, a)):
            said = [i for i, (t, n, _) in enumerate(reply) if t in x and not n]
            there = [j for j, (t, n, _) in enumerate(ref) if t in y and not n]
            if not said or not there or any(t in y for t, _, _ in reply) or any(t in x for t, _, _ in ref):
                continue
            for i in said:
                j = next((j for j in there if _shares(_near(reply, i), _near(ref, j))), None)
                if j is not None:
                    return Opposition(reply[i][2], ref[j][2])
    if reply_lang != ref_lang:  # stems do not cross languages: pt "precisa" is not es "precisión"
        return None
    plain = {t for t, n, _ in ref if n is False}
    negated = {t for t, n, _ in ref if n}
    for i, (t, n, _) in enumerate(reply):
        if t in skip or t in _PASS or n is None:
            continue
        if (n and t in plain and t not in negated) or (not n and t in negated and t not in plain):
            there = [j for j, (u, m, _) in enumerate(ref) if u == t and m is (not n)]
            return Opposition(_phrase(reply, i, reply_lang), _phrase(ref, there[0], ref_lang), negation=True)
    return None


@lru_cache(maxsize=2048)
def _reference(question: str, ref: str, lang: str
               ) -> tuple[dict[str, str], tuple[Token, ...], tuple[tuple[str, str], ...]]:
    alias = {**aliases(ref), **aliases(question)}
    return alias, tuple(_tokens(ref, lang, alias)), tuple(contrast_pairs(question, alias, lang))


def opposite_claim(question: str, refs: Sequence[str], reply: str, lang: str) -> Opposition | None:
    """Where the reply says the opposite of every model answer, the first such place; None when it
    agrees with any of them (or none can be judged). On a question that compares two terms, what the
    reply says of each is checked against what the model answer says of the same one, and the terms
    themselves are not evidence ("o assíncrono não espera" is no negation of "o síncrono espera");
    nor is a negated word of the question ("o que não existe nas células animais" to a question on
    cells)."""
    if not refs or not words(reply):
        return None
    reply_lang = detect_language(reply, lang) if len(words(reply)) >= 4 else lang
    found: Opposition | None = None
    for ref in refs:
        alias, ref_toks, pairs = _reference(question, ref, lang)
        rep_toks = _tokens(reply, reply_lang, alias)
        units: list[tuple[list[Token], list[Token]]] = []
        skip: set[str] = set()
        for a, b in pairs:
            r, p = spans(ref_toks, a, b), spans(rep_toks, a, b)
            skip |= {a, b}
            if r and p:
                units = [(r[a], p[a]), (r[b], p[b])]
                break
        units = units or [(list(ref_toks), rep_toks)]
        skip |= {alias.get(s, s) for s in content_stems(question)}  # the topic, not a claim about it
        here = next((o for o in (_opposed(r, p, skip, lang, reply_lang) for r, p in units) if o), None)
        if here is None:
            return None
        found = found or here
    return found

