"""Points of a model answer that are asides, not a concept, when the answer has other points (issue 26, gist30).

Raters of rounds 14–16 FIXed short answers whose concepts held, instead of the answer's claim, a remark a reader
skips (eval/real_heldout_r14…r16, the concepts of FIXed short answers; checked on r10–r13, see
``eval/gist_phrases.py``). Three classes, each by its form, in every language of :mod:`kb.lang`:

- a **typical value**: a value or range said to be the usual one ("alpha típico 0.2-0.4 en ImageNet, 1.0 en
  CIFAR", "Habitual: T_warmup = 1-10% de los pasos", "ganancias típicas del 5-30% en CNNs");
- a **library pointer**: where a library implements it ("torchvision.ops.sigmoid_focal_loss: versión binaria /
  multi-etiqueta", "implementado en timm como …");
- a **"standard in X" remark**: where it is used ("estándar en transformers de traducción e ImageNet", "Padrão
  de fato do benchmark RobustBench");
- a **provenance or notation note**: where the content comes from or what its symbols stand for ("Referência:
  post … (blog da NVIDIA)", "Notação: DF x DF: tamanho espacial …", "Introduzido no Python 3.2 (PEP 3148)", "Origem:
  …"): rounds 14–24 kept such concepts 3 of 20 times, rounds 25–27 0 of 21 (35 % and 22 % for all short answers);
- a **question** the slide puts to the class ("Pergunta: duas moléculas diferentes podem receber o mesmo
  embedding?"): what a reply answers, not what it must say (round 18's raters FIXed it as a concept).

:func:`aside_kind` says which one a point is; :func:`kb.writing.answer_points.point_concepts` leaves such points
out when another point of the answer is a concept (an answer that is only a typical value keeps it: it is what
the question asks).
"""

from __future__ import annotations

import re

from ..text import words

TYPICAL_LEAD = 4  # the word that says "typical" is within a point's first words: the point is about the value
# (hand-set on r14–16: "alpha típico 0.99 a 0.999", "después, ganancias típicas del 5-30%"; a claim with a typical
# value at its end, "X hace Y; valores típicos 0.2", is the claim's)

_TYPICAL = re.compile(r"(?i)^(?:t[íi]pic[oa]s?|typical(?:ly)?|habitual(?:es|mente)?|usual(?:es|ly|mente)?"
                      r"|comun(?:es|mente)?|común|comum|comuns|default|por\s+defecto|por\s+padr[ãa]o)$")
# a value: a range ("0.2-0.4", "1-10%", "0.99 a 0.999"), a share ("5%"), a decimal ("0.2"), a value set ("= 8/255")
_VALUE = re.compile(r"\d(?:[.,]\d+)?\s*(?:%|[-–]\s*\d|(?:a|to|e|y|and|ou|o|or)\s+\d)|\d[.,]\d|=\s*\d")
# a dotted path into a library: two dots or more ("torchvision.ops.sigmoid_focal_loss", "timm.scheduler.X")
_LIBRARY_PATH = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*){2,}(?:\(\))?$")
_LIBRARY_SAYS = re.compile(r"(?i)^(?:(?:est[áa]|is|é)\s+)?(?:implementad[oa]s?|implemented|dispon[íi]ble|"
                           r"dispon[íi]vel|available)\s+(?:en|em|in|como|as)\s")
_STANDARD = re.compile(r"(?i)^(?:(?:es|é|is)\s+)?(?:(?:el|o|the)\s+)?(?:est[áa]ndar|standard|padr[ãa]o|"
                       r"de\s+facto|de\s+fato)(?:\s+de\s+fa(?:c)?to)?\s+(?:en|em|in|do|da|del|de|of)\s")


# a point that says where its content comes from or what its symbols mean (module doc)
_PROVENANCE = re.compile(r"(?i)^(?:refer[êe]ncias?|references?|nota[çc][ãa]o|notaci[óo]n|notation|origem|origen|origin"
                         r")\s*:|^(?:introduzid[oa]s?|introducid[oa]s?|introduced)\s+(?:no|na|en|in)\s")


def aside_kind(label: str, text: str) -> str | None:
    """"typical-value", "library", "standard-in", "provenance" or "question" when the point ``label``: ``text`` (""
    for no label) is such an aside (this module's docstring), else None."""
    whole = f"{label}: {text}" if label else text
    lead = [w.strip(",.:;") for w in whole.split()[:TYPICAL_LEAD]]
    lead += [" ".join(lead[i:i + 2]) for i in range(len(lead) - 1)]  # ("por defecto", "por padrão")
    if any(_TYPICAL.match(w) for w in lead) and _VALUE.search(whole):
        return "typical-value"
    if (label and _LIBRARY_PATH.match(label.strip()) and len(words(text)) <= 6) or _LIBRARY_SAYS.match(whole):
        return "library"
    if _STANDARD.match(whole):
        return "standard-in"
    if _PROVENANCE.match(whole):
        return "provenance"
    if whole.rstrip().endswith("?"):  # a slide's question to the class ("Pergunta: … o mesmo embedding?"), round 18
        return "question"
    return None
