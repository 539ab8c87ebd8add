"""Checks on objective questions that ask a slide's label, not a term, or whose description gives it away.

- ``label-answer``: a multiple choice that names a term ("which term matches this description", options of a
  few words each) whose right option is a slide's label, or a true/false that says what such a label means
  ("«Requisito» significa: vmap, grad, …"): an ordinary word of the deck's language its running text never says
  (:func:`kb.writing.deck_term.deck_term`: "Moraleja", "Variantes", "Geométricos", "Ingestão").
- ``answer-in-description``: the description the stem quotes lists examples of the answer's category
  ("fn.resize, fn.crop, fn.rotate" → Geométricos; "IPO, KTO, ORPO, …" → Variantes: the student sorts examples
  into a slide's category) or says the answer itself ("solo si PyTorch se compiló con MPI" → mpi).

- ``label-option`` (reported as ``label-answer`` when it is the right option, ``implausible-distractor`` when not):
  a multiple choice with an option that is a slide's catch-all or role label, never a term a student picks:
  "Outros", "Ex.", "Obs.", "Ponto-chave", "Vantagens" (a role, facet or generic title word of the deck's language in
  :mod:`kb.lang`, or an abbreviation of at most four letters with its full stop). Read on rounds 25–27's drops (21
  ratings: KEEP 0 %, DROP 81 %, against 30 % / 47 % for the other multiple choices), checked on rounds 8–24 (7
  ratings: KEEP 0 %, DROP 43 %, against 40 % / 22 %).

- ``subject-answer`` (reported as ``giveaway``): a multiple choice whose right option is the subject the stem's
  setting names ("Em PPO, qual termo …? PPO").

Fresh raters dropped these (eval/real_heldout_r8–r10, type mcq/tf); both run in the one registry
(:mod:`kb.writing.checklist`), so the writers never keep such a question and ``kb eval quiz`` flags it
whoever wrote it.
"""

from __future__ import annotations

import re

from ..quiz import Question
from ..text import fold, words
from .deck_term import deck_term

NAMING_WORDS = 4  # most words of each option (gloss in brackets aside) of a multiple choice that names a term
# ("Estimación del rendimiento", "Map-style + arquivos soltos"; an option that is a sentence is no term's name)

# the description a "which term" stem quotes: its last «…»
_QUOTED = re.compile(r"«([^«»]+)»[^«»]*$")
# a true/false statement's term: "«Reformer» significa: …", "«Perdas customizadas» é …"
_STATEMENT_TERM = re.compile(r"«(?P<t>[^«»]+)»\s+(?:significa|means|consiste|consists|es|é|is)\b")
# one example a description lists: a code name ("fn.resize", "jax.lax.psum", "f()"), an option ("--master-port"),
# an acronym ("KTO", "GPU") or a CamelCase name ("DataFrame")
_NAME = re.compile(r"(?:--?[a-z][\w-]*|[A-Za-z_]\w*(?:[._]\w+)+(?:\(\))?|\w+\(\)|[A-Z]{2,}[0-9]*s?|"
                   r"[A-Z][a-z]+(?:[A-Z][a-z0-9]*)+)")
EXAMPLE_WORDS = 5  # most words of the first listed example ("GPU NVIDIA com Tensor Cores")


def _bare(text: str) -> str:
    return re.sub(r"\s*\([^()]*\)", "", text).strip()


# a stem that asks to name something: "¿qué término corresponde a …?", "¿cómo se llama …?", "which term …"
_ASKS_NAME = re.compile(r"(?i)\b(?:t[ée]rminos?|termos?|terms?|se llama|se chama|is called|what is the name|"
                        r"qu[ée] nombre|que nome)\b")


def naming_choice(q: Question) -> str:
    """The right option of a multiple choice that asks to name a term (:data:`_ASKS_NAME`) and whose options
    are names (each of at most :data:`NAMING_WORDS` words): the term it asks; "" for any other question
    ("¿Qué efecto tiene …?" → "Reduce la memoria" is an ordinary phrase, and rightly so)."""
    if q.type != "mcq" or not isinstance(q.correct, int) or not 0 <= q.correct < len(q.choices) \
            or not _ASKS_NAME.search(q.prompt):
        return ""
    if any(len(words(_bare(c))) > NAMING_WORDS or not words(_bare(c)) for c in q.choices):
        return ""
    return q.choices[q.correct]


def lists_examples(description: str) -> bool:
    """The description is a list of examples: its first two items (split at commas, semicolons and slashes,
    brackets aside) each open on a name (:data:`_NAME`), the first a short one ("fn.resize, fn.crop, …";
    "IPO, KTO (sem pares), ORPO, …"; "fn.random.coin_flip, fn.random.uniform como argumentos …")."""
    items = [x.strip() for x in re.split(r"[,;]|\s/\s|(?<=\w)/(?=-|\w)", _bare(description)) if x.strip()]
    if len(items) < 2 or len(words(items[0])) > EXAMPLE_WORDS:
        return False
    return all(_NAME.fullmatch(x.split()[0].rstrip(":")) for x in items[:2])


def _says(description: str, answer: str) -> bool:
    """The description says the answer (its words, gloss aside, as whole words): "… compiló con MPI" → mpi."""
    a = fold(_bare(answer))
    return bool(a) and re.search(rf"(?<![\w.]){re.escape(a)}(?![\w(])", fold(description)) is not None


def label_answer(q: Question, source_text: str) -> list[str]:
    """["label-answer"] for an objective question whose term is a slide's label, not a term of the deck whose
    headings and passages are ``source_text`` (nothing without it: a deck's text tells the two apart)."""
    if not source_text:
        return []
    if q.type == "mcq":
        term = naming_choice(q)
    elif q.type == "tf":
        m = _STATEMENT_TERM.search(q.prompt)
        term = m.group("t") if m else ""
    else:
        return []
    return ["label-answer"] if term and not deck_term(term, source_text, q.lang) else []


def answer_in_description(q: Question) -> list[str]:
    """["answer-in-description"] for a naming multiple choice whose quoted description lists examples of the
    answer's category or says the answer itself."""
    term = naming_choice(q)
    m = _QUOTED.search(q.prompt) if term else None
    if m is None:
        return []
    desc = m.group(1)
    return ["answer-in-description"] if lists_examples(desc) or _says(desc, term) else []


# a slide's catch-all heading among the options ("Outros", "Otros", "Other"), beside kb.lang's role words
_CATCH_ALL = frozenset("outros outras otros otras other others demais resto".split()) | {
    "ponto chave", "pontos chave", "punto clave", "puntos clave", "key point", "key points"}
_ABBREVIATION = re.compile(r"[^\W\d_]{1,4}\.")  # ("Ex.", "Obs.", "Fig.": a bullet's lead-in cut to its label)


def _label_word(option: str, lang: str) -> bool:
    """An option that is a slide's label, not a term: a catch-all, an abbreviation with its full stop, or one role,
    facet or generic title word of the deck's language ``lang`` ("Ponto-chave", "Vantagens", "Consideraciones";
    not an English word in a Portuguese deck: "features" names a thing there); an acronym in capitals ("DATA",
    "AUTO": an enum's values) or a number ("-100") is no label."""
    from ..lang import en, es, pt
    from .checks import generic_title

    o = option.strip()
    if not o or o.isupper() or not re.search(r"[^\W\d_]", o):
        return False
    if _ABBREVIATION.fullmatch(o):
        return True
    words_of = {"es": es, "pt": pt}.get(lang, en)
    folded = fold(o).replace("-", " ").split()
    roles = words_of.ROLE_WORDS | words_of.FACET_WORDS
    return " ".join(folded) in _CATCH_ALL or len(folded) == 1 and folded[0] in roles or generic_title(o)


def label_option(q: Question) -> str | None:
    """"label-answer" for a multiple choice whose right option is a slide's label (:func:`_label_word`),
    "implausible-distractor" for one whose wrong option is; else None."""
    if q.type != "mcq" or not isinstance(q.correct, int) or not 0 <= q.correct < len(q.choices):
        return None
    labels = [i for i, c in enumerate(q.choices) if _label_word(c, q.lang)]
    if not labels:
        return None
    return "label-answer" if q.correct in labels else "implausible-distractor"


def subject_answer(q: Question, subject: str = "") -> str | None:
    """"giveaway" for a multiple choice whose right option is the subject its stem's setting names («Em PPO, qual
    termo corresponde a esta descrição: «clipping de 1ª ordem; …»?» → PPO: round 25, all three raters dropped it);
    and, given the deck's ``subject`` (the setting every stem of its quiz carries), for a multiple choice or cloze
    answered by that subject or one of its words («una primitiva básica: aparece dentro de muchas operaciones» →
    ordenación, in a deck on "ordenación en GPU"). The class is the quiz's own shape, not a rating: every other stem
    of the deck says the subject, so such a question gives itself away beside each of them and selection must turn
    them all down for it (round 30's gpusort_es stopped at 5 of 12). Rated elsewhere: one such question in rounds
    8-31 (round 30's "Dropout" in a deck on "dropout y sus variantes", FIX by all three raters). Else None. (The
    setting as :func:`kb.writing.setting.setting_of` reads it.)"""
    from .setting import setting_of

    if q.type == "mcq" and isinstance(q.correct, int) and 0 <= q.correct < len(q.choices):
        right = fold(q.choices[q.correct]).strip()
        setting = fold(setting_of(q.prompt))
        if setting and right and re.search(rf"(?<!\w){re.escape(right)}(?!\w)", setting):
            return "giveaway"
    elif q.type == "cloze":
        right = fold(q.answer).strip()
    else:
        return None
    subject = fold(subject)
    if len(right) < SUBJECT_WORD or not subject:
        return None
    return "giveaway" if re.search(rf"(?<!\w){re.escape(right)}(?!\w)", subject) else None


SUBJECT_WORD = 4  # fewest letters of an answer read as the deck's subject's word (as answers_elsewhere reads a name
# in another stem: "GPU" in "ordenación en GPU" is no giveaway of the subject, "ordenación" is)
