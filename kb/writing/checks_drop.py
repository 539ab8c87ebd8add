"""Checks for what fresh teachers DROP that the other checks let through (eval/real_heldout_r8).

Each names a class of text a check can see, whoever wrote the question:

- ``slide-label-answer``: the answer (or an element a "what each element means" stem asks) is a slide's
  aside or role label, not knowledge: "Moraleja", "Também reportar", "Ojo; Alternativa", "Coste";
- ``garbled-stem``: a stem with a bracket PDF extraction left unpaired ("…; theta) · (R - b); Coste?");
- ``number-trivia``: a short answer whose every key concept is a quantity ("~1,28 milhão de JPEGs");
- ``name-trivia``: a short answer over several items whose every key concept is a bare name
  ("DARTS; NAS-Bench-101"): tool and benchmark names recalled, nothing understood;
- ``literal-blank``: a cloze whose blank is a string literal or a file name (``torch.save(…, "_____")`` → w.pt);
- ``abbreviation-giveaway``: a "which term" description whose code name opens the answer
  («… lidos com tf.data» → TFRecord (TensorFlow));
- ``empty-definition``: a "what is X" answered "X es el mismo …", "X são comuns: …": the predicate is an
  evaluative word, not what X is ("¿qué es el algoritmo?" → "El algoritmo es el mismo; …").

What a check cannot see is left to the teacher: a wrong claim about a library, a peripheral construct the
slide itself sets aside ("target … en DL se usa CUDA/Triton"), a pipeline stage named from its plain
description ("extrair texto de PDF" → Ingestão), a blank the sentence around it makes obvious to a reader
("não precisa da classe _____" → Python). Measured with ``python eval/real_heldout_r8/flag_drops.py``.
"""

from __future__ import annotations

import re

from ..lang import ASIDES
from ..quiz import Question
from ..text import fold
from .asked_term import asked_term

# a slide's asides and role labels (kb.lang.ASIDES: "Moraleja", "Também", "Ojo", "Coste"). Written on the
# R8A/R8B half of round 8 (flashattn "Moraleja", continual "Também reportar") plus the role labels kb.lang's
# DISCOURSE tables already list; checked on the R8C/R8D half ("Ojo", "Alternativa").
_WHICH_TERM = re.compile(r"(?:qué término corresponde|qual termo corresponde|which term)", re.I)
_ELEMENTS = re.compile(r"(?:cada uno de estos elementos|cada um destes elementos|each of these)[^:]*:\s*(?P<e>[^?]+)\?",
                       re.I)


def _aside(label: str) -> bool:
    ws = [fold(w) for w in re.findall(r"[^\W\d_]+", label)]
    return bool(ws) and ws[0] in ASIDES and len(ws) <= 2 and not re.search(r"[A-Z]{2}|\d|[._(]", label[1:])


def elements(prompt: str) -> list[str]:
    """The items a "what does each of these elements of «T» mean: A; B; C?" stem asks ([] for any other)."""
    m = _ELEMENTS.search(prompt)
    return [e.strip() for e in m.group("e").split(";") if e.strip()] if m else []


def slide_label_answer(q: Question) -> str | None:
    """"slide-label-answer" for a "which term" whose answer is a slide's aside ("Moraleja", "Também reportar")
    or a stem asking what such a label means ("… elementos de «Diagnóstico»: Ojo; Alternativa?")."""
    if q.type == "mcq" and _WHICH_TERM.search(q.prompt) and _aside(q.correct_text):
        return "slide-label-answer"
    if q.type == "short" and any(_aside(e) for e in elements(q.prompt)):
        return "slide-label-answer"
    return None


_PAIRS = (("(", ")"), ("[", "]"), ("{", "}"))


def garbled_stem(q: Question) -> str | None:
    """"garbled-stem" for a stem with an unpaired bracket: a formula or aside cut by the PDF's lines."""
    p = re.sub(r"«[^»]*»", lambda m: m.group(0) if m.group(0).count("(") == m.group(0).count(")") else " ( ", q.prompt)
    return "garbled-stem" if any(p.count(a) != p.count(b) for a, b in _PAIRS) else None


_QUANTITY = re.compile(r"^[~≈<>±]?\s*\d[\d.,]*\s*(?:%|[^\W\d_]+)?")


def number_trivia(q: Question) -> str | None:
    """"number-trivia" for a short answer every key concept of which is a quantity ("~1,28 milhão de JPEGs",
    "~800 GPUs durante 28 días"): a figure recalled, not the slide's point."""
    if q.type != "short" or not q.concepts:
        return None
    # (one short figure each: "1 parâmetro, segundos de otimização, zero custo de inferência" lists a cost
    # a teacher kept, eval/ratings.csv)
    short = all(", " not in x and len(x.split()) <= 6 for x in q.concepts)
    return "number-trivia" if short and all(_QUANTITY.match(x.strip()) for x in q.concepts) else None


_NAME = re.compile(r"[A-Za-z][\w.+-]*(?:\s*\([^)]*\))?")


def _bare_name(concept: str) -> bool:
    x = concept.strip()
    return bool(_NAME.fullmatch(x)) and (any(ch.isupper() for ch in x[1:]) or any(ch.isdigit() for ch in x))


def name_trivia(q: Question) -> str | None:
    """"name-trivia" for a short answer on several elements whose key concepts are all bare names
    ("NNI (Microsoft); Benchmarks tabulares" → "DARTS; NAS-Bench-101"): names listed, none explained."""
    if q.type != "short" or len(q.concepts) < 2 or len(elements(q.prompt)) < 2:
        return None
    return "name-trivia" if all(_bare_name(x) for x in q.concepts) else None


_FILE_NAME = re.compile(r"[\w-]+\.(?:pt|pth|pkl|json|csv|txt|py|yaml|yml|tar|zip|ckpt|onnx|bin|npy|h5)")


def literal_blank(q: Question) -> str | None:
    """"literal-blank" for a cloze whose blank is a string literal or a file name ("_____" in quotes, w.pt)."""
    if q.type != "cloze":
        return None
    if re.search(r"[\"'“‘]_{3,}[\"'”’]", q.prompt) or _FILE_NAME.fullmatch(q.answer.strip()):
        return "literal-blank"
    return None


_DESCRIPTION = re.compile(r"«(?P<d>[^»]+)»")
_CODE_TOKEN = re.compile(r"\b(?P<head>[A-Za-z]{2,})[._][A-Za-z_]\w*")


def abbreviation_giveaway(q: Question) -> str | None:
    """"giveaway" for a "which term" whose description names code that opens the answer's name
    («registros protobuf … lidos com tf.data» → TFRecord (TensorFlow)): the description says it."""
    m = _DESCRIPTION.search(q.prompt) if q.type == "mcq" and _WHICH_TERM.search(q.prompt) else None
    if not m:
        return None
    heads = {t.group("head").lower() for t in _CODE_TOKEN.finditer(m.group("d"))}
    answer = [w.lower() for w in re.findall(r"[A-Za-z]\w+", q.correct_text)]
    others = [w.lower() for i, ch in enumerate(q.choices) if i != q.correct for w in re.findall(r"[A-Za-z]\w+", ch)]
    for h in heads:
        if any(w.startswith(h) for w in answer) and not any(w.startswith(h) for w in others):
            return "giveaway"
    return None


# what "X es …" says when it says nothing of what X is: "es el mismo", "são comuns", "es importante"
_EMPTY_PREDICATE = re.compile(
    r"^\s*(?:(?:es|son|é|são|is|are)\s+)(?:el mismo|la misma|lo mismo|los mismos|o mesmo|a mesma|os mesmos|the same|"
    r"comunes|común|comuns|comum|common|importantes?|clave|chave|key|frecuentes?|frequentes?|útil(?:es)?|úteis|"
    r"simples?|necesari[oa]s?|necessári[oa]s?)\b", re.I)


def empty_definition(q: Question) -> str | None:
    """"empty-definition" for a "what is X" answered "X es el mismo …" or "X são comuns: …"."""
    term = asked_term(q.prompt) if q.type == "short" else ""
    if not term:
        return None
    a = q.answer.strip()
    bare = re.sub(r"^(?:el|la|los|las|o|a|os|as|the)\s+", "", term, flags=re.I)
    head = re.match(r"^(?:(?:el|la|los|las|o|a|os|as|the)\s+)?" + re.escape(bare) + r"\b", a, re.I)
    return "empty-definition" if head and _EMPTY_PREDICATE.match(a[head.end():]) else None
