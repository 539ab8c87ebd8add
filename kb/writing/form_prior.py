"""A learned, coarse prior over question forms: how often teachers kept a question of each form as written.

A form is a question's type and, for a short answer, the kind of its stem after the deck's setting ("En RNN, …"):
the slide's lead-in to complete (:data:`kb.writing.lead_stem.LEAD`), "explica X", "¿cómo …?", "¿qué es X?",
"¿qué significa «X»?", a comparison, "¿cuándo conviene …?" … (:func:`form_of`; pt, es and en wordings). Fresh
raters of the held-out rounds kept these at very different rates (rounds 10-13: the lead-in 0 of 18, "explica X"
17 %, a comparison 24 %: ``python eval/form_keep.py``), and the ordering held on the rounds after.
``eval/fit_form_prior.py`` fits each form's smoothed KEEP rate on the rounds it names and writes ``form_prior.json``
beside this module (with what it was fitted on and how it ranked the held-out rounds).

Selection uses it (:func:`weigh`): a draft's priority gains ``WEIGHT`` x (prior - mean), so among drafts of near
priority the form teachers keep wins; and an idea's plain forms are tried in the order of their prior
(:func:`order_forms`), a form whose prior is under ``LAST_RESORT`` only as a last resort (``Draft.fallback``:
asked only when no other question fills the quiz). Pure Python; the file is read once, at first use.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence, TypeVar

from ..text import fold
from .lead_stem import LEAD_ASK

PRIOR_FILE = Path(__file__).with_name("form_prior.json")
# priority per unit of KEEP rate above the mean: the fitted priors span 0.07 .. 0.40 (mean 0.20), so a form moves a
# draft by at most ~0.1, a tie-breaker beside a planned idea's bonus (plan.PLAN_BONUS = 1.0) and below a course
# teacher's own decisions (kb.teacher: 2.0 x +-0.5 per pattern), which must win over the raters of other decks (at
# 0.7 they did not in tests/writing/test_review.py). On the dev rounds r14-r15 weights 0.3 .. 3.0 chose the same
# questions (their decks hold few more drafts than -n 12 asks): the form order (:func:`order_forms`) made the change.
WEIGHT = 0.3
LAST_RESORT = 0.1  # a form kept under half as often as the mean (0.20) is a last resort (the lead-in to complete:
# 0 of 18 ratings, rounds 10-13, smoothed to 0.07; the next lowest, "¿qué significa «X»?", 0.14)

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


def form_of(qtype: str, prompt: str) -> str:
    """A question's form: its type, and a short answer's stem kind ("short:explain", "mcq")."""
    return f"short:{stem_form(prompt)}" if qtype == "short" else qtype


@lru_cache(maxsize=2)
def load_prior(path: str = str(PRIOR_FILE)) -> dict[str, Any]:
    """The fitted prior (``form_prior.json`` beside this module unless ``path``); an empty one when absent."""
    p = Path(path)
    if not p.exists():
        return {"rates": {}, "mean": 0.0}
    return json.loads(p.read_text(encoding="utf-8"))


def prior(qtype: str, prompt: str, model: dict[str, Any] | None = None) -> float:
    """The smoothed KEEP rate of a question's form; a form the fit never saw gets the fit's mean."""
    m = model if model is not None else load_prior()
    return float(m.get("rates", {}).get(form_of(qtype, prompt), m.get("mean", 0.0)))


def weigh(drafts: Sequence[Any], weight: float = WEIGHT, model: dict[str, Any] | None = None) -> None:
    """Each draft's priority moved by ``weight`` x (its form's prior - the fit's mean), in place."""
    m = model if model is not None else load_prior()
    mean = float(m.get("mean", 0.0))
    if not m.get("rates") or not weight:
        return
    for d in drafts:
        d.priority += weight * (prior(d.question.type, d.question.prompt, m) - mean)


F = TypeVar("F", bound=tuple)


def order_forms(forms: Sequence[F], model: dict[str, Any] | None = None) -> list[F]:
    """A plain question's (prompt, answer, last resort) forms, the ones teachers keep first (stable for equal
    priors) and every last resort after the others whatever its prior; a form under :data:`LAST_RESORT` is marked
    a last resort (its third field set True)."""
    m = model if model is not None else load_prior()
    if not m.get("rates"):
        return list(forms)
    scored = []
    for i, f in enumerate(forms):
        p = prior("short", f[0], m)
        if p < LAST_RESORT and len(f) >= 3:
            f = type(f)((*f[:2], True, *f[3:]))
        scored.append((bool(len(f) >= 3 and f[2]), -p, i, f))
    return [s[3] for s in sorted(scored, key=lambda s: s[:3])]
