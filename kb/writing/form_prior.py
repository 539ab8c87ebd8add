"""A learned, coarse prior over question forms: how often teachers kept a question of each form as written.

A form is a question's type and, for a short answer, the kind of its stem after the deck's setting ("En RNN, …"):
the slide's lead-in to complete (:data:`kb.writing.lead_stem.LEAD`), "explica X", "¿cómo …?", "¿qué es X?",
"¿qué significa «X»?", a comparison, "¿cuándo conviene …?" … (:func:`form_of`; pt, es and en wordings); and, given
the model answer and the options, its shape: a short answer of one line (``…:brief``), a cloze on a code entity
(``cloze:code``), a multiple choice of three options (``mcq:few``) or among words its deck seldom says
(``mcq:unnamed``, read against the whole deck).
Fresh raters of the held-out rounds kept these at very different rates (``python eval/form_keep.py 14-20 21-24``).
``eval/fit_form_prior.py`` fits each form's smoothed KEEP and DROP rates on the rounds it names and writes
``form_prior.json`` beside this module (with what it was fitted on and how it ranked the held-out rounds).

Selection uses it (:func:`weigh`): a draft's priority gains ``WEIGHT`` x (prior - mean), so among drafts of near
priority the form teachers keep wins; a form teachers keep far less often than the mean question, or drop more
often than they keep, is a last resort (:func:`last_resort`, ``Draft.fallback``: asked only when no other question
fills the quiz); and an idea's plain forms are tried in the order of their prior (:func:`order_forms`). Pure Python;
the file is read once, at first use.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from ..text import fold
from .check_objective_kind import CODE_BLANK, notation_symbol
from .deck_term import unnamed_choices
from .lead_stem import LEAD_ASK
from .statement import WHICH_TERM

PRIOR_FILE = Path(__file__).with_name("form_prior.json")
# priority per unit of KEEP rate above the mean: the fitted priors span 0.07 .. 0.40 (mean 0.20), so a form moves a
# draft by at most ~0.1, a tie-breaker beside a planned idea's bonus (plan.PLAN_BONUS = 1.0) and below a course
# teacher's own decisions (kb.teacher: 2.0 x +-0.5 per pattern), which must win over the raters of other decks (at
# 0.7 they did not in tests/writing/test_review.py). On the dev rounds r14-r15 weights 0.3 .. 3.0 chose the same
# questions (their decks hold few more drafts than -n 12 asks): the form order (:func:`order_forms`) made the change.
WEIGHT = 0.3
BRIEF_WORDS = 25  # a short answer's model answer this short is one line: "¿qué es X?" answered so was kept 24 % of the
# time over rounds 17-20 and 5 % over 21-24, against 52 % / 37 % above 45 words (python eval/form_keep.py 17-20 21-24)
# a cloze's blank that is a code entity (CODE_BLANK, the registry's prose-blank pattern): kept 41 % / 25 %
# over rounds 14-18 / 19-24 against 34 % / 11 % for a blank on a prose word, dropped 12 % / 23 % against 29 % / 42 %
LAST_RESORT = 0.7  # a form kept under 0.7 x as often as the fit's mean question is a last resort (Draft.fallback).
# Fitted on rounds 14-20, the forms under it or dropped more often than kept (the lead-in to complete; "what is",
# "explain", "how", "which" answered in one line; a cloze on a prose word; three options) were kept 11 % of the time
# on rounds 21-24 and dropped 23 %, against 33 % / 9 % for all questions; every other form was kept >= 0.8 x the mean
# there (python eval/fit_form_prior.py --fit 14-20 --test 21-24 --dry)

# where a question opens (folded text): the stem's start after its setting, a "¿", or a follow-up question after
# "y"/"e"/"and" ("¿Qué es X y cuándo conviene usarlo?"); a preposition may lead its question word ("em quais casos").
# A question word elsewhere is a conjunction or relative inside a clause, not what the stem asks: "¿qué ocurre
# cuando …?" / "o que acontece quando …?" ask what happens, "X como regularizador" says "as", "porque" says "because"
_OPENS = r"(?:^|¿\s*|\b(?:y|e|and)\s+)(?:(?:en|em|in|de|da|do|of|para|por|con|com|with|on|a)\s+)?"
# the stem forms, first match wins (folded text: no accents, lower case): a form named by a question word or a
# verb ("when", "means", "how", "why", "which") counts only where a question opens on it (_OPENS); a form named by
# what the stem does ("explica", a comparison, "what is") wherever it says so. English "mean" is the verb of
# "what does «X» mean" (or "what is meant by"), not the noun or adjective ("the mean of the gradients")
_FORMS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((name, re.compile(rx)) for name, rx in (
    ("lead", "|".join(re.escape(fold(w)) for w in LEAD_ASK.values())),  # (the words plan's lead-in stem says)
    ("compare", r"\bdiferencia|\bdiferenca|\bdifference|\bdifere|\bdiffer|\bcompar|\bfrente a\b|\bversus\b|\bvs\b"),
    ("when", rf"{_OPENS}(?:cuando|quando|when)\b"),
    ("means", rf"{_OPENS}(?:(?:o )?que (?:significa|se entiende por|se entende por)|what is meant by"
              rf"|what (?:does|do)\b[^?]*\bmean)\b"),
    ("explain", r"\bexplica\b|\bexplique\b|\bexplain\b|\bdescrib|\bdescreva\b"),
    ("how", rf"{_OPENS}(?:como|how)\b"),
    ("why", rf"{_OPENS}(?:por que|porque|para que|why|what for)\b|\bpurpose\b|\bproposito\b"),
    ("does", r"\bque hacen?\b|\bo que faz(?:em)?\b|\bwhat does\b|\bwhat do\b|\bque hace cada\b"),
    ("what_is", r"\bque es\b|\bque son\b|\bo que e\b|\bo que sao\b|\bwhat is\b|\bwhat are\b|\bque caracteriza"),
    ("which", rf"{_OPENS}(?:cuales?|quais?|which|(?:o )?que (?:\w+ )?(?:hay|se recomienda|precauciones|problema))\b"),
))
FORMS = tuple(n for n, _ in _FORMS) + ("other",)


def stem_form(prompt: str) -> str:
    """The kind of a short answer's stem (module doc): one of :data:`FORMS`."""
    text = fold(prompt).replace("?", " ").strip()
    # after the setting "En X, " / "Em X, " (a setting holds no question word; the stem follows its comma)
    m = re.match(r"^(?:en|em|in|na|no|nos|nas|al|ao|a la)\b[^,]{0,80},\s*", text)
    if m and any(rx.search(text[m.end():]) for _, rx in _FORMS):
        text = text[m.end():]
    for name, rx in _FORMS:
        if rx.search(text):
            return name
    return "other"


def form_of(qtype: str, prompt: str, answer: str = "", options: int = 0, source_text: str = "",
            choices: Sequence[str] = ()) -> str:
    """A question's form: its type, and a short answer's stem kind ("short:explain", "mcq"); given the model answer,
    also its shape: a short answer of at most :data:`BRIEF_WORDS` words is ``…:brief`` ("¿qué es X?" answered by
    one line), a cloze whose blank is a code entity ``cloze:code`` (``all_gather``, ``torch.compile``, ``DataLoader``;
    a formula's symbol, ``alpha_t``, is ``cloze:symbol``)
    — and, given its number of ``options``, a multiple choice of fewer than four ``mcq:few`` (kept 19 % / 26 % over
    rounds 14-20 / 21-24 against 44 % / 45 % with four); given its ``choices`` and the whole deck as ``source_text``,
    a which-term multiple choice among words the deck seldom says ``mcq:unnamed``
    (:func:`~kb.writing.deck_term.unnamed_choices`) — each a sub-form whose rate the fit draws toward its parent's
    (:func:`parent`)."""
    if qtype == "short":
        form = f"short:{stem_form(prompt)}"
        return f"{form}:brief" if answer and len(answer.split()) <= BRIEF_WORDS else form
    if qtype == "cloze" and answer and notation_symbol(answer, source_text):
        return "cloze:symbol"  # (a formula's symbol the deck, ``source_text``, does not write as code: the registry
        # turns it down, notation-answer; fitted apart so that it does not weigh on the code entities' rate)
    if qtype == "cloze" and answer and CODE_BLANK.search(answer):
        return "cloze:code"
    if qtype == "mcq" and 0 < options < 4:
        return "mcq:few"
    if qtype == "mcq" and choices and source_text and WHICH_TERM.search(prompt) \
            and unnamed_choices(answer, choices, source_text):
        return "mcq:unnamed"  # (which term a description is, among words the deck seldom says: deck_term)
    return qtype


def parent(form: str) -> str:
    """The form a sub-form refines ("short:what_is:brief" → "short:what_is", "cloze:code" → "cloze"); "" for a
    question type or a stem kind's form the fit draws toward the mean."""
    head, sep, _ = form.rpartition(":")
    return head if sep and head not in ("short", "") else ""


@lru_cache(maxsize=2)
def load_prior(path: str = str(PRIOR_FILE)) -> dict[str, Any]:
    """The fitted prior (``form_prior.json`` beside this module unless ``path``); an empty one when absent."""
    p = Path(path)
    if not p.exists():
        return {"rates": {}, "mean": 0.0}
    return json.loads(p.read_text(encoding="utf-8"))


def rated_form(form: str, rates: dict[str, Any]) -> str:
    """The form whose rate a question of ``form`` gets: itself, else its parent's; "" for the mean."""
    while form and form not in rates:
        form = parent(form)
    return form


def _rates(qtype: str, prompt: str, answer: str, options: int, m: dict[str, Any],
           source_text: str = "", choices: Sequence[str] = ()) -> tuple[float, float] | None:
    """(KEEP rate, DROP rate) of a question's form in the fit ``m``; None where the fit has no rate for it."""
    form = rated_form(form_of(qtype, prompt, answer, options, source_text, choices), m.get("rates", {}))
    return (float(m["rates"][form]), float(m.get("drops", {}).get(form, 0.0))) if form else None


def prior(qtype: str, prompt: str, model: dict[str, Any] | None = None, answer: str = "", options: int = 0,
          source_text: str = "", choices: Sequence[str] = ()) -> float:
    """The smoothed KEEP rate of a question's form (with ``answer``, its sub-form's); a form the fit never saw gets
    its parent's rate, else the fit's mean."""
    m = model if model is not None else load_prior()
    rates = _rates(qtype, prompt, answer, options, m, source_text, choices)
    return rates[0] if rates else float(m.get("mean", 0.0))


def last_resort(qtype: str, prompt: str, answer: str = "", model: dict[str, Any] | None = None,
                options: int = 0, source_text: str = "", choices: Sequence[str] = ()) -> bool:
    """A form teachers keep under :data:`LAST_RESORT` x as often as the fit's mean question, or drop more often than
    they keep (a cloze on a prose word: kept 26 %, dropped 32 % over rounds 14-20; 14 % / 41 % over 21-24)."""
    m = model if model is not None else load_prior()
    return _last(_rates(qtype, prompt, answer, options, m, source_text, choices), m)


def _last(rates: tuple[float, float] | None, m: dict[str, Any]) -> bool:
    """Rates (KEEP, DROP) of a last-resort form in the fit ``m`` (:func:`last_resort`)."""
    if rates is None:
        return False
    keep, drop = rates
    return keep < LAST_RESORT * float(m.get("mean", 0.0)) or drop > keep


def worth(q: Any, model: dict[str, Any] | None = None) -> float:
    """A question's form's KEEP rate less its DROP rate: the order last resorts are asked in (a one-line answer,
    seldom kept but seldom dropped, before a cloze on a prose word, dropped more often than kept)."""
    m = model if model is not None else load_prior()
    rates = _rates(q.type, q.prompt, q.answer, len(q.choices), m)
    return rates[0] - rates[1] if rates else float(m.get("mean", 0.0))


def weigh(drafts: Sequence[Any], weight: float = WEIGHT, model: dict[str, Any] | None = None,
          last_resorts: bool = False, deck_text: Callable[[str], str] | None = None) -> None:
    """Each draft's priority moved by ``weight`` x (its form's prior - the fit's mean), in place; with
    ``last_resorts`` (the offline writer, whose questions the prior was fitted on), a draft of a last-resort form
    (:func:`last_resort`) is marked so (``Draft.fallback``: asked only to fill the quiz once the other forms are
    used). ``deck_text(source)``: a draft's whole deck, what its form is read against (a which-term multiple choice
    among words the deck seldom says, ``mcq:unnamed``); without it, the draft's passage."""
    m = model if model is not None else load_prior()
    mean = float(m.get("mean", 0.0))
    if not m.get("rates"):
        return
    for d in drafts:
        q = d.question
        # (a cloze's blank the deck writes as code, "n_fft=400", is no formula's symbol; a which-term multiple
        # choice among words the deck seldom says is mcq:unnamed: form_of. Without the deck, the passage, and the
        # options are not read: a passage seldom names a deck's terms three times)
        chunk = getattr(d, "chunk", None)
        deck = deck_text(chunk.source) if deck_text and chunk is not None else ""
        text, choices = (deck, q.choices) if deck else (getattr(chunk, "text", ""), ())
        rates = _rates(q.type, q.prompt, q.answer, len(q.choices), m, text, choices)
        d.priority += weight * ((rates[0] if rates else mean) - mean)
        if hasattr(d, "worth"):  # (a Draft; the last resorts are asked in its order: generate._fill; as worth())
            d.worth = rates[0] - rates[1] if rates else mean
        if last_resorts and _last(rates, m):
            d.fallback = True


F = TypeVar("F", bound=tuple)


def order_forms(forms: Sequence[F], model: dict[str, Any] | None = None) -> list[F]:
    """A plain question's (prompt, answer, last resort) forms, the ones teachers keep first (stable for equal
    priors) and every last resort after the others whatever its prior; a last-resort form (:func:`last_resort`) is
    marked a last resort (its third field set True)."""
    m = model if model is not None else load_prior()
    if not m.get("rates"):
        return list(forms)
    scored = []
    for i, f in enumerate(forms):
        answer = f[1] if len(f) >= 2 and isinstance(f[1], str) else ""
        p = prior("short", f[0], m, answer)
        if len(f) >= 3 and last_resort("short", f[0], answer, m):
            f = type(f)((*f[:2], True, *f[3:]))
        scored.append((bool(len(f) >= 3 and f[2]), -p, i, f))
    return [s[3] for s in sorted(scored, key=lambda s: s[:3])]
