"""Questions from a slide of common mistakes ("Errores comunes", "Erros comuns", "Common mistakes") whose
bullets read "cause -> consequence": each such bullet asked as a short question on its consequence.

Class of text: 14 of the 16 r6/r7 dev decks end on such a slide (5–8 bullets, most of them "A -> B"); the
outline reads it as one title idea that no pattern fit, so it went unasked ("no question pattern fits it")
and quizzes stopped short of ``-n``. A teacher's question on it asks what the mistake causes, answered by
the bullet's right side: «En decodificación, ¿qué consecuencia tiene este error frecuente: «Usar beam search
para chat abierto»?» → «respuestas genéricas y repetitivas». Where the right side is a remedy, not a
consequence (it opens on an infinitive: "Credenciais no código -> usar variáveis de ambiente"), the stem
asks what to do instead. A bullet "mistake: explanation" (most bullets of such slides, :func:`explained`) is asked
why it is a mistake, answered by the explanation (or, a remedy, what to do instead). A bullet with neither states
nothing to ask and is skipped.

Written on the r7 decks (decoding_es, posenc_pt, dvc_pt, allreduce_es…), checked on r6's (tracking_pt,
cudaprog_es, dataloader_es…). At most :data:`PER_SLIDE` questions per slide: the slide is one passage, and
a quiz that is half one slide's mistakes covers less of the deck. Each candidate goes through the one
registry of checks like every plain question (:func:`kb.writing.plan.error_drafts`); this module only
writes the (prompt, answer) pairs. The per-language titles and stems are ``ERROR_*`` in ``kb/lang``.
"""

from __future__ import annotations

import re

from ..lang import en, es, mistakes_title, pt
from ..text import fold, words
from .infinitive import infinitive
from .setting import unset

_LANGS = {"es": es, "pt": pt, "en": en}
PER_SLIDE = 3  # questions one mistakes slide may give a quiz (2, hand-set, until session 22: its questions were kept
# 77-81 % of the time when a mistake's consequence, 47 % when why it is one, against 22-36 % for all, rounds 21-26;
# they come through the fill, after the deck's planned ideas: a third takes a further idea's or a last resort's place)
MIN_WORDS = (3, 2)  # fewest words of a cause and of its consequence (hand-set: "GELU -> lento" asks nothing)
_ARROW = re.compile(r"\s+(?:->|→|=>)\s+")
_BULLET = re.compile(r"^\s*[•\-*–]\s*")
_DETERMINERS = frozenset("el la los las lo un una o a os as um uma the".split())  # lower case: a clause


def errors_slide(title: str, lang: str) -> bool:
    """``title`` names a slide of common mistakes (:func:`kb.lang.mistakes_title`, in any language: ``lang`` is the
    deck's, kept for the callers)."""
    return mistakes_title(title)


def consequences(passage: str) -> list[tuple[str, str]]:
    """The (cause, consequence) of each bullet of ``passage`` that reads "A -> B", in the slide's order: one
    arrow only (a chain "A -> B -> C" is no one consequence), each side long enough to ask and to answer."""
    out = []
    for line in passage.split("\n"):
        parts = _ARROW.split(_BULLET.sub("", line).strip())
        if len(parts) != 2:
            continue
        cause, effect = (p.strip(" .;") for p in parts)
        if not words(cause) or cause.split()[0] in _DETERMINERS:
            continue  # (a sub-bullet that goes on its parent: "el refcount toca cada objeto -> copy-on-write …")
        if len(words(cause)) >= MIN_WORDS[0] and len(words(effect)) >= MIN_WORDS[1]:
            out.append((cause, effect))
    return out


def explained(passage: str) -> list[tuple[str, str]]:
    """The (mistake, explanation) of each bullet of ``passage`` that reads "A: B" with no arrow, in the slide's order:
    the mistake long enough to be one (:data:`MIN_WORDS`: "Memoria: …" is a label), the explanation long enough to
    answer with. On a common-mistakes slide most bullets read so (299 of the 658 bullets of rounds 19-24's 100 such
    slides, 20 "A -> B"): "Escrever forward(self, h, t): o torchdiffeq chama func(t, y), nesta ordem"."""
    out = []
    for line in passage.split("\n"):
        text = _BULLET.sub("", line).strip()
        at = _colon(text)
        if _ARROW.search(text) or at < 0:
            continue
        cause, effect = text[:at].strip(" .;"), text[at + 2:].strip(" .;")
        if "?" in cause or not words(cause) or not words(effect) or re.search(r"\d\s*$", cause):
            continue  # (a numbered label, "Error típico 1: olvidar …", holds the mistake on its right)
        if len(words(cause)) >= MIN_WORDS[0] and len(words(effect)) >= MIN_WORDS[0]:
            out.append((cause, effect))
    return out


def _colon(text: str) -> int:
    """Where the first ": " outside brackets, quotes and backticks is in ``text`` (-1: none; the balance test of
    :mod:`kb.writing.answer_points`): "Usar mean/std do ImageNet (ex: CLIP)" is one mistake, not a mistake and its
    explanation; nor is "Escribir `if x: return`" or "Usar lambda x: x + 1 …" (code)."""
    from .answer_points import balanced

    for m in re.finditer(r": ", text):
        head = text[:m.start()]
        if balanced(head) and head.count("`") % 2 == 0 and not _LAMBDA.search(head):
            return m.start()
    return -1


_LAMBDA = re.compile(r"\blambda(?:\s+\w+(?:\s*,\s*\w+)*)?\s*$")  # "lambda x, y" before its colon


def _remedy(effect: str, lang: str) -> bool:
    """The right side of a bullet says what to do (an infinitive first), not what happens."""
    first = effect.split()[0]
    return infinitive(first, lang) or (lang == "en" and fold(first) in _EN_FIX)


def _set(stem: str, subject: str) -> str:
    """A stem set in the deck's subject, or without its "En {s}, " where there is none."""
    return unset(stem) if not subject else stem.replace("{s}", subject)


def error_forms(title: str, passage: str, subject: str, lang: str) -> list[tuple[str, str]]:
    """The (prompt, answer) of each "cause -> consequence" bullet of a common-mistakes slide titled ``title``
    (:func:`errors_slide`), in the slide's order, set in the deck's ``subject``; [] for any other slide."""
    if not errors_slide(title, lang):
        return []
    table = _LANGS.get(lang, en)
    out = []
    for cause, effect in consequences(passage):
        stem = table.ERROR_FIX_STEM if _remedy(effect, lang) else table.ERROR_STEM
        out.append((_set(stem, subject).replace("{c}", cause), effect[0].upper() + effect[1:] + "."))
    for cause, effect in explained(passage):  # (after the arrows: options() numbers those first)
        stem = table.ERROR_FIX_STEM if _remedy(effect, lang) else table.ERROR_WHY_STEM
        out.append((_set(stem, subject).replace("{c}", cause), effect[0].upper() + effect[1:] + "."))
    return out


def options(passage: str, lang: str) -> dict[int, tuple[str, ...]]:
    """For a bullet of :func:`error_forms` (by its index) whose right side is a consequence, the options of its
    multiple-choice form: its consequence first, then up to three other bullets' consequences of the same slide
    (siblings of one kind, as :mod:`kb.writing.pattern_siblings` offers a list's labels), the next ones first."""
    pairs = consequences(passage)
    real = [i for i, (_, e) in enumerate(pairs) if not _remedy(e, lang)]
    if len(real) < 3:
        return {}
    out = {}
    for n, i in enumerate(real):
        others = [pairs[real[(n + k) % len(real)]][1] for k in range(1, len(real))][:3]
        out[i] = tuple(x[0].upper() + x[1:] for x in (pairs[i][1], *others))
    return out


_EN_FIX = frozenset("use set call add keep put pass wrap move store".split())  # an English remedy's first verb
