"""Where a stem sets its question: the deck's subject, never a slide's label.

Students see the question, not the slide: "Completa el espacio en blanco (El router): …", "En
«Estructura de un modelo», …", "En concepto, …", "En uso, …" set a question by a label only the
slide shows, and "¿Qué es una secuencia?" or "Oversampling consiste en …" by nothing. A stem is
*set* when it opens on "En X," ("Em X,", "In X,") with X no slide label, or names the deck's subject
itself: a word of the deck's title, one of its top terms (:mod:`kb.outline`), or a name written as
code ("torch.hub", "DTensor", "MNIST") that says where it belongs. The checks of
:mod:`kb.writing.checklist` flag the other stems (``slide-label-context``, ``missing-context``), and
:func:`kb.writing.writer_core.WriterCore._set_in_subject` rewrites the offline writer's stems by the same
test before they are checked. Stdlib only, besides the word lists.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..lang import divider_title, en, es, pt
from ..text import STOPWORDS, fold, words
from .checks import everyday_word, generic_title, stems

if TYPE_CHECKING:
    from ..outline import Outline


def _heads() -> list[str]:
    """The fixed openings of the statement templates ("¿Verdadero o falso? ", "Complete a lacuna")."""
    out: set[str] = set()
    for mod in (es, pt, en):
        for key in ("tf", "cloze", "complete"):
            t = mod.TEMPLATES[key]
            out.add(t[:min(i for i in (t.find("{c}"), t.find("{s}")) if i >= 0)])
    return sorted(out, key=len, reverse=True)


# a template's opening, the slide label in brackets it may carry, its colon and the quote mark of a sentence
_HEAD = re.compile(r"^(?P<head>" + "|".join(re.escape(h) for h in _heads()) + r")"
                   r"(?P<label>\s*\((?:[^()]|\([^()]*\))*\))?(?:(?P<colon>:\s*)(?P<quote>«)?)?")
# "En X, …" / "¿En X, …" / "No capítulo 12, …" / "Al medir X, …" (a task's: kb.writing.subject.deck_setting): the
# setting a stem opens on
_LEAD = re.compile(r"^(?P<q>¿\s*)?(?P<lead>En|Em|In|No|Na|Nos|Nas|Al|Ao)\s+(?P<x>«[^»]+»|[^,¿?«»:;]{1,80}?),\s+")
# a name written as code or as a name says where it belongs: "torch.hub", "DTensor", "MNIST", "f()", "max_bin"
_NAME = re.compile(r"[A-Za-z_]\w*\.[A-Za-z_]\w*|\w+\(\)|\b\w+_\w+\b|\b[a-z]+[A-Z]\w*|\b[A-Z][a-z0-9]+[A-Z]\w*|"
                   r"\b[A-Z]{2,}[A-Za-z0-9-]*\b")

# names every deck of the course writes, that situate nothing: "GPU", "CPU", "API"
GENERIC_NAMES = frozenset("GPU GPUs CPU CPUs RAM API APIs ML AI IA IO OK PDF URL HTTP GB MB TB".split())


def split_stem(prompt: str) -> tuple[str, str, str]:
    """(the template's opening with its colon, the slide label in brackets or "", the statement or question)."""
    m = _HEAD.match(prompt)
    if not m:
        return "", "", prompt
    head = m.group("head") + (m.group("colon") or "") + (m.group("quote") or "")
    return head, (m.group("label") or "").strip(), prompt[m.end():]


def setting_of(body: str) -> str:
    """The X of the "En X," a stem or statement opens on ("" when none)."""
    m = _LEAD.match(body)
    return m.group("x").strip() if m else ""


LEAST_LETTERS = 3  # letters or digits a setting needs to name anything ("FP8", "JAX"; "Em -DP": "(ε, δ)-DP" with
# its symbols lost)


def lost_symbol(x: str) -> bool:
    """A setting that is a fragment of a name whose symbols were lost: it opens on punctuation ("-DP" of
    "(epsilon, delta)-DP") or holds fewer than :data:`LEAST_LETTERS` letters and digits (issue 26, r12 raters) — but
    for a name of two capitals or a capital and a digit ("T5", "C4", "RL"; not "ML", "IA": :data:`GENERIC_NAMES`),
    which is whole: round 26's T5 deck was set in "En T5," everywhere and wrote 1 question of 12."""
    if re.fullmatch(r"[A-Z][A-Z0-9]", x) and x not in GENERIC_NAMES:
        return False
    if re.match(r"\((?:[^\W\d_]{2,}\d*)\)", x):  # a name that opens on its own brackets ("(IA)^3"), not on brackets
        return sum(ch.isalnum() for ch in x) < LEAST_LETTERS  # whose symbols were lost ("(, )-DP")
    return not x[:1].isalnum() and x[:1] not in "«¿" or sum(ch.isalnum() for ch in x) < LEAST_LETTERS


def slide_label(x: str, lang: str, outline: Outline | None = None) -> bool:
    """A setting only a slide shows: a title in «quotes», a divider or generic title ("Introducción",
    "Consideraciones adicionales"), one everyday word in lower case ("uso", "concepto"), a fragment with a lost
    symbol (:func:`lost_symbol`), and, with the deck's ``outline``, one lower-case word of the deck's own language
    that its title does not say ("Em compatibilidade", "En discretización": a slide's label, r11-r12 raters)."""
    if x.startswith("«") or divider_title(x) or generic_title(x) or lost_symbol(x):
        return True
    ws = words(x)
    if len(ws) == 1 and not _NAME.search(x):
        w = fold(ws[0])
        if x[:1].islower() and any(everyday_word(w, la) for la in (lang, "en")):
            return True  # "En uso, …", "En concepto, …"
        if x[:1].islower() and outline is not None and _native(w, lang) and not stems(x) & title_stems(outline):
            return True
    return False


def _native(word: str, lang: str) -> bool:
    """A word of ``lang``'s own, said by its text more than by English ("compatibilidade"; not "logging")."""
    from .checks import _zipf

    return lang in ("es", "pt") and _zipf(word, lang) > _zipf(word, "en")


def _title_stems(outline: Outline) -> set[str]:
    """The stems of the title's words that are no everyday words ("Conjuntos de datos y cargadores de
    datos" → cargadores: "datos" in a sentence says nothing of the deck)."""
    return {s for w in words(outline.title) if fold(w) not in STOPWORDS
            and not any(everyday_word(fold(w), la) for la in ("es", "pt", "en")) for s in stems(w)}


_PER_OUTLINE: dict[int, tuple[Outline, list[str], set[str] | None]] = {}  # id → (outline, top terms, title stems)


def _of_outline(outline: Outline, *, stems_too: bool = True) -> tuple[list[str], set[str]]:
    """The outline's top terms and title stems, worked out once per outline (every draft asks). The
    title stems load wordfreq's lists for three languages (~0.4 s, more on a loaded machine): worked out
    only when asked (``stems_too``), so that the LLM writer's first request, which needs only the top
    terms, is not kept waiting for them (bench/llm_parallel.py)."""
    hit = _PER_OUTLINE.get(id(outline))
    if hit is None or hit[0] is not outline:
        if len(_PER_OUTLINE) > 64:
            _PER_OUTLINE.clear()
        terms = [fold(i.name) for i in outline.top(10) if 1 <= len(words(i.name)) <= 3]
        hit = _PER_OUTLINE[id(outline)] = (outline, terms, None)
    if stems_too and hit[2] is None:
        hit = _PER_OUTLINE[id(outline)] = (outline, hit[1], _title_stems(outline))
    return hit[1], hit[2] or set()


def top_terms(outline: Outline) -> list[str]:
    """The deck's top terms as a stem may name them: its 10 most central ideas' names of up to three words."""
    return _of_outline(outline, stems_too=False)[0]


def title_stems(outline: Outline) -> set[str]:
    """The stems of the deck's title that name what it is about (see :func:`_title_stems`), worked out once."""
    return _of_outline(outline)[1]


def names_subject(text: str, outline: Outline | None) -> bool:
    """The text names what the deck is about: a word of its title, one of its top terms, or a name
    written as code (without the deck's outline, only the last is known)."""
    text = re.sub(r"_{3,}", " ", text)  # (a blank is no name)
    # a description in quotes to match a term to is the slide's text, not the question's setting
    text = re.sub(r"«[^»]*»", lambda m: m.group(0) if len(words(m.group(0))) <= 4 else " ", text)
    if any(n not in GENERIC_NAMES for n in _NAME.findall(text)):
        return True
    if outline is None:
        return False
    if stems(text) & _of_outline(outline)[1]:
        return True
    folded = f" {' '.join(fold(w) for w in words(text))} "
    return any(f" {t} " in folded for t in top_terms(outline))


def stem_setting(prompt: str, lang: str, outline: Outline | None) -> str | None:
    """``slide-label-context`` for a stem set by a slide's label, ``missing-context`` (only with the
    deck's outline) for one set by nothing that names nothing of the deck's subject; else None."""
    _, label, body = split_stem(prompt)
    if label:
        return "slide-label-context"
    x = setting_of(body)
    if x:
        return "slide-label-context" if slide_label(x, lang, outline) else None
    if outline is None or names_subject(body, outline):
        return None
    return "missing-context"


def unset(template: str) -> str:
    """A stem template without its setting "En {s}, " (any language's lead), capitalised as a sentence opens
    ("En {s}, ¿qué es «{t}»?" → "¿Qué es «{t}»?", "Em {s}, quais são …" → "Quais são …"); a template with no
    ``{s}, `` as it is (a stem that names its own topic: "¿Qué es NVIDIA DALI?"). The one rule every pattern and
    the plan use where a deck has no subject to set a stem in."""
    if "{s}, " not in template:
        return template
    rest = template.split("{s}, ", 1)[1]
    if rest.startswith("¿"):
        return "¿" + rest[1:2].upper() + rest[2:]
    return rest[:1].upper() + rest[1:]


def unrepeated(prompt: str) -> str:
    """A short question's stem without its "En X, " where the question itself names X ("Em AWQ, quando usar AWQ?"
    → "Quando usar AWQ?", "En ring Attention, ¿qué es Ring Attention?" → "¿Qué es Ring Attention?"): the setting
    only repeats it (raters FIXed such stems as clumsy: 46 ratings over rounds 19-25, kept 22 %). Any other stem as
    it is."""
    m = _LEAD.match(prompt)
    if not m or m.group("q") or m.group("lead") not in ("En", "Em", "In") or m.group("x").startswith("«"):
        return prompt
    rest = prompt[m.end():]
    x = fold(m.group("x").strip())
    if lost_symbol(m.group("x").strip()) or not re.search(rf"(?<!\w){re.escape(x)}(?!\w)", fold(rest)):
        return prompt
    if rest.startswith("¿"):
        return "¿" + rest[1:2].upper() + rest[2:]
    return rest[:1].upper() + rest[1:]


_PT_IN_ARTICLE = re.compile(r"(?<![\w-])([Ee])m (o|a|os|as) (?=\w)")
_ES_ARTICLE = re.compile(r"(?<![\w-])([Dd]e|[Aa]) el (?=\w)")


def contracted(prompt: str, lang: str) -> str:
    """A stem with its preposition and article contracted as the language writes them, where a setting that opens on
    its article follows "Em"/"de" ("Em a biblioteca Thrust, …" → "Na biblioteca Thrust, …"; Spanish "de el" → "del",
    "a el" → "al"); any other stem as it is."""
    if lang == "pt":
        joined = pt.IN_ARTICLES  # ("a": "na")
        return _PT_IN_ARTICLE.sub(lambda m: (joined[m.group(2)].capitalize() if m.group(1) == "E"
                                             else joined[m.group(2)]) + " ", prompt)
    if lang == "es":
        return _ES_ARTICLE.sub(lambda m: ("Del" if m.group(1) == "De" else "del" if m.group(1) == "de"
                                          else "Al" if m.group(1) == "A" else "al") + " ", prompt)
    return prompt
