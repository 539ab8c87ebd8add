"""What a model answer says of the thing a stem asks about, so that the stem asks what the answer says.

A "what is X" / "what does «X» mean" is a teacher's question only where the answer says what X is. Fresh raters of
rounds 11-12 (eval/real_heldout_r11 b, r12 c) fixed the stems whose answer says something else: "¿qué es MPS?"
answered by the commands that start it, "o que é async_save?" / "o que é Resharding?" by precautions, "o que
significa «LSTM/RNN»?" by what to do with them, "¿qué significa «torch.compile»?" by a problem of hooks with it,
"¿qué es redistribute?" by a table of which collective each change of placement makes. The answer's kind, read from
its opening (after the label "X:" the slide wrote it under), is one of:

- ``commands``: it opens on a command line ("sudo nvidia-smi …", "pip install …", "export NCCL_DEBUG=INFO") →
  "¿Cómo se pone en marcha X?";
- ``cautions``: an instruction (below) whose first clause holds a caution word, or an opening on one ("Evitar …",
  "Nunca …", "No registrar …"; not "No todas las activaciones …") → "¿Qué precauciones hay que tener al usar X?";
- ``instructions``: an imperative with its pronoun ("Llamarla al principio") or an infinitive of handling a thing
  ("LSTM/RNN: usar opacus.layers.DPLSTM", "BatchNorm: convertir con …") → "¿Qué hay que hacer con X?" (any other
  infinitive may say what a technique does: "Trocar a divergência JS pela distância de Wasserstein-1",
  "Membership inference: descobrir se …");
- ``consequence``: a clause about something else that may happen ("los hooks pueden provocar graph breaks …") →
  "¿Qué problema tiene que ver con X?", "… y cómo se resuelve?" where an instruction follows ("…; regístralos antes
  de compilar"); neutral, as X may cause the problem or be its remedy ("Los gradientes pueden explotar…" of clipping);
- ``mapping``: a table of "A -> B: C" rows ("Shard(d) -> Replicate(): all-gather. Partial() -> …") → "¿Qué hace
  X en cada caso?";
- ``""``: anything else, a definition among them: the stem stays as it is.

:func:`kind_stem` rewrites a what-is stem by that kind (the writers call it before the checks), and
:func:`what_is_not_defined` is the registry's check (:data:`kb.writing.checklist.CHECKS`) for the stems it cannot
rewrite, whoever wrote them. The word lists are per language (``kb.lang.*``: ``ANSWER_KIND_STEMS``,
``CAUTION_WORDS``, ``HANDLING_VERBS``, ``MODALS``; the stem's wording: ``WHAT_IS_ASKS``, ``MEANS_ASKS``,
``FOLLOW_UP_QUESTIONS``, ``ARTICLE_WORDS``, ``NEGATIONS``, ``ONLY_WORDS``).

Why this is not :func:`kb.writing.checks_form.meaning_kind`, the other reader of what the text after X says (both
feed ``not-a-definition``): they sort different things and never agree on a text either sorts. Over the 306 what-is
and means stems of eval/ and of the r12-r13 quizzes (house19, 2026-11-28), :func:`answer_kind` names a kind for 10
(commands, instructions, consequences, tables: how to rewrite the stem) and ``meaning_kind`` for 35 (an infinitive
in the deck's own words, a property, a circumstance, a comparison: whether "what «X» means" is askable at all, for
the planner too), none the same. Either calling the other changes which stems are rewritten or turned down, so
the two stay apart; a change to one is measured on the rated rounds before it borrows a rule of the other.
"""

from __future__ import annotations

import re
from types import ModuleType

from ..lang import (
    AND_WORDS,
    ARTICLE_WORDS,
    FOLLOW_UP_QUESTIONS,
    MEANS_ASK_ENDS,
    MEANS_ASKS,
    NEGATIONS,
    NEUTER_ARTICLES,
    ONLY_WORDS,
    WHAT_IS_ASKS,
    alternation,
    en,
    es,
    pt,
)
from ..quiz import Question
from ..text import fold, words

_LANGS: dict[str, ModuleType] = {"es": es, "pt": pt, "en": en}

# a what-is stem, after any setting ("En DTensor, "): "¿qué es X?", "o que são os X?", "¿qué significa «X»?"
# (the words: kb.lang's WHAT_IS_ASKS, MEANS_ASKS and MEANS_ASK_ENDS, each phrase's first letter in either case),
# where the question opens: the stem's start, a "¿", the comma that ends its setting or a sentence's end; the same
# words inside a clause ("¿por qué el proceso que es cliente de MPS …?", "o que acontece quando o que é …") ask no
# "what is"
_OPENS = r"(?:^|(?<=,\s)|(?<=[.:;]\s)|(?=¿))"
_WHAT_IS = re.compile(rf"{_OPENS}(?P<q>¿\s*)?(?P<ask>{alternation(WHAT_IS_ASKS, capital=True)})\s+(?P<x>[^?«»]+?)"
                      rf"\?\s*$")
_MEANS = re.compile(rf"{_OPENS}(?P<q>¿\s*)?(?P<ask>{alternation(MEANS_ASKS, capital=True)})\s+«(?P<x>[^»]+)»"
                    rf"(?:\s+(?:{alternation(MEANS_ASK_ENDS)}))?\?\s*$")
_ARTICLE = re.compile(rf"^(?:{alternation(ARTICLE_WORDS | NEUTER_ARTICLES)})\s+", re.I)
# the opening of a command line: a shell's prompt, a command a slide shows, an environment variable set
_COMMAND = re.compile(r"^(?:\$\s|#!|(?:sudo|pip3?|conda|docker|podman|apt(?:-get)?|export|nvidia-smi|kubectl|"
                      r"torchrun|git|make|cmake|srun|sbatch|module)\s|python3?\s+-)")
_ARROW = re.compile(r"->|→|=>")
# an imperative with its pronoun: "Llamarla", "regístralos", "usá-lo", "chamá-la"
_CLITIC = re.compile(r"^[a-záéíóúâêôãõç]{3,}(?:(?:ar|er|ir)(?:lo|la|los|las|le|les|se)|"
                     r"[áéíó](?:-?(?:lo|la|los|las))|[a-z]*[áéíó][a-zñ]*[ae](?:lo|la|los|las|le|les))$", re.I)
MAPPING_ROWS = 2  # rows "A -> B: C" an answer needs to be a table (hand-set: redistribute's has 5, a definition 0-1)
CONSEQUENCE_WORDS = 4  # words of the opening a possibility's verb must stand within ("los hooks pueden provocar")


def _words_of(lang: str) -> ModuleType:
    return _LANGS.get(lang, en)


def _body(answer: str, name: str) -> str:
    """The answer after the label it opens on ("torch.compile: los hooks …" → "los hooks …")."""
    a = answer.strip()
    for label in (name, _ARTICLE.sub("", name)):
        if label and fold(a[:len(label)]) == fold(label) and a[len(label):len(label) + 1] in (":", " ", "="):
            return a[len(label):].lstrip(" :=")
    return a


def _instruction(ws: list[str], lang: str) -> bool:
    from .infinitive import infinitive

    return bool(ws) and (infinitive(ws[0], lang, ws[1] if len(ws) > 1 else "") or bool(_CLITIC.match(ws[0])))


def _named(name: str) -> bool:
    """A name of code or an acronym ("LSTM/RNN", "seed_everything", "async_save"), not a technique's words."""
    from .pattern_topic import name_word

    return any(name_word(w) for w in name.split())


def answer_kind(answer: str, name: str, lang: str) -> str:
    """The kind of what ``answer`` says of ``name`` (module doc): "commands", "cautions", "instructions",
    "consequence", "mapping", or "" (a definition, or nothing sure)."""
    body = _body(answer, name)
    if not body:
        return ""
    first_line = body.splitlines()[0].strip()
    if _COMMAND.match(first_line):
        return "commands"
    rows = re.split(r"(?<=[.;])\s+|\n", body)
    if sum(1 for r in rows if _ARROW.search(r.split(":", 1)[0]) and ":" in r) >= MAPPING_ROWS:
        return "mapping"
    w = _words_of(lang)
    first_clause = re.split(r"[;.:]\s", body + " ")[0]
    ws = words(first_clause)
    folded = [fold(x) for x in ws]
    if not ws:
        return ""
    if _CLITIC.match(ws[0]) or _instruction(ws, lang) and folded[0] in w.HANDLING_VERBS:
        # ("Llamarla al principio", "LSTM/RNN: usar opacus.layers.DPLSTM"): what to do with it; any other
        # infinitive may say what a technique does ("Trocar a divergência JS …", "Dividir la secuencia …")
        return "cautions" if set(folded) & w.CAUTION_WORDS else "instructions"
    if folded and (folded[0] in w.CAUTION_WORDS - NEGATIONS - ONLY_WORDS
                   or folded[0] in NEGATIONS and _instruction(ws[1:], lang)):
        return "cautions"  # ("Evitar …", "Nunca …", "No registrar …"; not "No todas las activaciones …")
    stemmed = set(re.findall(r"\w+", fold(name)))
    head = folded[:CONSEQUENCE_WORDS]
    if head and not stemmed & set(head) and set(head[1:]) & w.MODALS:
        after = words(re.split(r"[;:]\s", body, maxsplit=1)[1]) if re.search(r"[;:]\s", body) else []
        fix = bool(after) and (_instruction(after, lang) or bool(_CLITIC.match(after[0])))
        return "consequence_fix" if fix else "consequence"
    return ""


# a second question after the name ("¿Qué es MPS *y para qué sirve*?", "O que é X *e quando usá-lo*?"): the stem asks
# more than what X is, and a form for X alone would keep the rest ("¿Cómo se pone en marcha MPS y para qué sirve?")
_SECOND = re.compile(rf"\s(?:{alternation(AND_WORDS)})\s+(?:{alternation(FOLLOW_UP_QUESTIONS)})\b", re.I)


def _asked(prompt: str) -> re.Match[str] | None:
    """The what-is of ``prompt`` when it asks only that (no second question after X)."""
    m = _MEANS.search(prompt) or _WHAT_IS.search(prompt)
    return None if m is None or _SECOND.search(m.group("x")) else m


def kind_stem(prompt: str, answer: str, lang: str) -> str | None:
    """A what-is stem asked by what its answer says (module doc): the stem rewritten where the answer's kind has a
    form ("En compartir GPUs, ¿qué es MPS?" → "…, ¿cómo se pone en marcha MPS?"), "" where the language has no
    form for it (no question), None where the stem asks no "what is" or the answer may define."""
    m = _asked(prompt)
    if not m:
        return None
    name = m.group("x").strip()
    kind = answer_kind(answer, name, lang)
    if not kind:
        return None
    form = _words_of(lang).ANSWER_KIND_STEMS.get(kind)
    if not form:
        return ""
    x = name if m.re is _MEANS or _named(name) else _ARTICLE.sub("", name)
    return _in_place(prompt, m, form.format(x=x))


def about_stem(prompt: str, lang: str) -> str | None:
    """``prompt``'s "what is X" / "what does «X» mean" asked as what to keep in mind about X, its setting kept
    ("Em privacidade diferencial no treino, o que é a validação do modelo?" → "…, o que se deve ter em conta sobre a
    validação do modelo?"; :mod:`kb.writing.form_retry`); None for a stem that asks no single "what is"."""
    m = _asked(prompt)
    form = _words_of(lang).ANSWER_KIND_STEMS.get("about")
    if not m or not form:
        return None
    name = m.group("x").strip()
    return _in_place(prompt, m, form.format(x=f"«{name}»" if m.re is _MEANS else name))


def _in_place(prompt: str, m: re.Match[str], stem: str) -> str:
    """``stem`` in place of the what-is ``m`` of ``prompt``, after the setting before it, whose sentence it
    continues in lower case ("En compartir GPUs, ¿cómo se …?")."""
    lead = prompt[:m.start()]
    if lead.strip():
        stem = stem[:2].lower() + stem[2:] if stem.startswith("¿") else stem[:1].lower() + stem[1:]
    return lead + stem


def what_is_not_defined(q: Question) -> str | None:
    """'not-a-definition' for a short "what is X" whose model answer says something else of X (:func:`answer_kind`):
    the writers rewrite such a stem where a form is sure (:func:`kind_stem`), so this flags the rest."""
    if q.type != "short":
        return None
    m = _asked(q.prompt)
    return "not-a-definition" if m and answer_kind(q.answer, m.group("x").strip(), q.lang) else None
