"""``no-subject``: a statement to judge or complete whose subject is elsewhere (a parent bullet, the slide title),
on a slide the student does not see. One rule, registered once (:data:`kb.writing.checklist.CHECKS`), in two
forms of the sentence:

- it opens on a conjugated verb ("Distribuye (shards) la copia al _____ …", "Permite distribuir …"): a
  capitalised word with a verb ending that the source never writes after an article or determiner (so never as
  a noun), and no instruction to the reader ("Utiliza la opción _____ …", :data:`IMPERATIVE`);
- a sentence to complete that opens, after the deck's setting ("En cuDNN, "), on "se" and a plural verb ("se
  fijan": what is fixed?), "se puede/pode" or "también se" (written on the objective DROP ratings of rounds
  14-16, eval/real_heldout_r14..16; "se recomienda un periodo" has its own subject).

(:func:`kb.writing.checks_form.subjectless_statement` reads a sentence that opens, with no setting, on "Se", a
verb and no noun; :func:`kb.writing.checklist.bare_attribute` a short question asking an attribute of nothing:
both report ``no-subject`` too.) Stdlib only.
"""

from __future__ import annotations

import re
from collections import Counter

from ..quiz import Question
from ..text import STOPWORDS, fold, words
from .statement import statement, which_term

_BLANK = re.compile(r"_{3,}")

# instructions a slide gives (imperative → infinitive): a statement opening on one has its subject: you
IMPERATIVE = {
    "es": {"Utiliza": "utilizar", "Usa": "usar", "Ajusta": "ajustar", "Congela": "congelar", "Reemplaza": "reemplazar",
           "Entrena": "entrenar", "Verifica": "verificar", "Analiza": "analizar", "Visualiza": "visualizar",
           "Aplica": "aplicar", "Combina": "combinar", "Almacena": "almacenar", "Guarda": "guardar", "Itera": "iterar",
           "Realiza": "realizar", "Configura": "configurar", "Divide": "dividir", "Define": "definir"},
    "pt": {"Use": "usar", "Utilize": "utilizar", "Ajuste": "ajustar", "Congele": "congelar", "Substitua": "substituir",
           "Treine": "treinar", "Verifique": "verificar", "Aplique": "aplicar", "Combine": "combinar",
           "Armazene": "armazenar", "Salve": "salvar", "Configure": "configurar", "Divida": "dividir",
           "Defina": "definir"},
    "en": {"Use": "use", "Adjust": "adjust", "Freeze": "freeze", "Replace": "replace", "Train": "train",
           "Apply": "apply", "Combine": "combine", "Store": "store", "Save": "save", "Configure": "configure"},
}


_VERB_END = re.compile(r"(a|e|an|en|ye|yen|am|em)$")
_DETERMINERS = ("el", "la", "los", "las", "un", "una", "o", "a", "os", "as", "um", "uma", "del", "al", "do", "da",
                "the", "su", "sus", "este", "esta", "nuestro", "nuestra")


_LIBRARY_LEAD = re.compile(r"^(?:En|Em|In)\s+[A-Z][\w.]*,\s+")


# the sentence after the deck's setting ("En cuDNN, ") opens on "se" and a plural verb ("se fijan": what is
# fixed?), "se puede/pode" or "también se": its subject is elsewhere ("se recomienda un periodo" has its own)
_SE_OPENING = re.compile(r"^(?:(?:En|Em|In)\s[^,]+,\s*)?(?:(?:tambi[eé]n|tamb[eé]m)\s+se\s"
                         r"|se\s+(?:puede|pode|[^\W\d_]{3,}[ae][nm])\s)", re.I)


def no_subject(q: Question, vocab: Counter) -> str | None:
    """'no-subject' for a statement to judge or complete whose subject is in a bullet or title the question does
    not show: it opens on a conjugated verb (:func:`opens_on_verb`), or it is a sentence to complete opening,
    after its setting, on "se" (:func:`opens_on_se`). ``vocab``: the word counts of the source."""
    return "no-subject" if opens_on_verb(q, vocab) or opens_on_se(q) else None


def opens_on_verb(q: Question, vocab: Counter) -> bool:
    """A statement to judge or complete that opens on a conjugated verb ("Distribuye (shards)
    la copia al _____ …", "Permite distribuir …"). A verb here is a capitalised word with a verb
    ending that the source (``vocab``) never writes after an article or determiner (so never as a noun)."""
    if q.type not in ("tf", "cloze", "mcq") or q.lang not in ("es", "pt") or not vocab or which_term(q):
        return False  # (a description quoted to name its term: its subject is the term asked, "«escolhe o token …»")
    # "En PyTorch, distribuye …": the library a writer situates a sentence in is not its subject
    ws = words(_BLANK.sub(" ", _LIBRARY_LEAD.sub("", statement(q))))
    if not ws:
        return False
    w = ws[0][:1].upper() + ws[0][1:]
    fw = fold(w)
    if not w[:1].isupper() or w.isupper() or fw in STOPWORDS or len(fw) < 5 or not _VERB_END.search(fw) \
            or re.search(r"[._\d]|[a-z][A-Z]", w):
        return False
    if any(vocab.get(f"{d} {fw}", 0) for d in _DETERMINERS):
        return False  # "la data", "el modelo": a noun
    # "Utiliza la opción _____ …": an instruction to the reader
    return w not in IMPERATIVE.get(q.lang, {})


def opens_on_se(q: Question) -> bool:
    """A sentence to complete (past the instruction's colon) that opens, after its setting, on "se" and a plural
    verb, "se puede/pode" or "también se" ("En cuDNN, se fijan una vez al inicio del _____."): what is set, done
    or passed is on a slide the student does not see."""
    if q.type != "cloze":
        return False
    # (past the instruction and its parenthesised context, whatever colons that holds: "Completa el espacio en
    # blanco (cuDNN: Semillas): se fijan …")
    return bool(_SE_OPENING.match(statement(q).strip()))
