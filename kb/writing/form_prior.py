"""A learned, coarse prior over question forms: how often teachers kept a question of each form as written.

A form is a question's type and, for a short answer, the kind of its stem after the deck's setting ("En RNN, …"):
the slide's lead-in to complete (:data:`kb.writing.plan._LEAD`), "explica X", "¿cómo …?", "¿qué es X?",
"¿qué significa «X»?", a comparison, "¿cuándo conviene …?" … (:func:`form_of`; pt, es and en wordings). Fresh
raters of the held-out rounds kept these at very different rates (rounds 10-13: the lead-in 0 of 18, "explica X"
17 %, a comparison 24 %: ``python eval/form_keep.py``), and the ordering held on the rounds after.
``eval/fit_form_prior.py`` fits each form's smoothed KEEP rate on the rounds it names and writes ``form_prior.json``
beside this module (with what it was fitted on and how it ranked the held-out rounds).

On top of it, a small logistic model of P(KEEP) (:func:`p_keep`): the form's prior, the share of the stem's words
its answer says, and whether the stem picks out its own slide among the deck's (BM25, :class:`Pages`), fitted on
rounds 10-13 by the same script (``keep_model``; held out on rounds 14-16: AUC 0.64 against the form prior's 0.62).

Selection uses it (:func:`weigh`): a draft's priority gains ``WEIGHT`` x (P(KEEP) - mean), so among drafts of near
priority the question teachers keep wins; and an idea's plain forms are tried in the order of their P(KEEP), a form
whose stem does not pick out its own slide after one that does (:func:`order_forms`), a form whose prior is under
``LAST_RESORT`` only as a last resort (``Draft.fallback``: asked only when no other question fills the quiz).
Pure Python; the file is read once, at first use.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, Sequence, TypeVar

from ..text import fold

PRIOR_FILE = Path(__file__).with_name("form_prior.json")
# priority per unit of KEEP rate above the mean: the fitted priors span 0.07 .. 0.40 (mean 0.20), so a form moves a
# draft by at most ~0.1, a tie-breaker beside a planned idea's bonus (plan.PLAN_BONUS = 1.0) and below a course
# teacher's own decisions (kb.teacher: 2.0 x +-0.5 per pattern), which must win over the raters of other decks (at
# 0.7 they did not in tests/writing/test_review.py). On the dev rounds r14-r15 weights 0.3 .. 3.0 chose the same
# questions (their decks hold few more drafts than -n 12 asks): the form order (:func:`order_forms`) made the change.
WEIGHT = 0.3
LAST_RESORT = 0.1  # a form kept under half as often as the mean (0.20) is a last resort (the lead-in to complete:
# 0 of 18 ratings, rounds 10-13, smoothed to 0.07; the next lowest, "¿qué significa «X»?", 0.14)

# the stem forms, first match wins (folded text: no accents, lower case; "¿" dropped)
_FORMS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((name, re.compile(rx)) for name, rx in (
    ("lead", r"completa esta idea|complete esta ideia|complete this point"),
    ("compare", r"\bdiferencia|\bdiferenca|\bdifference|\bdifere|\bdiffer|\bcompar|\bfrente a\b|\bversus\b|\bvs\b"),
    ("when", r"\bcuando\b|\bquando\b|\bwhen\b"),
    ("means", r"\bsignifica\b|\bmean\b|\bse entiende por\b|\bse entende por\b"),
    ("explain", r"\bexplica\b|\bexplique\b|\bexplain\b|\bdescrib|\bdescreva\b"),
    ("how", r"\bcomo\b|\bhow\b"),
    ("why", r"\bpor que\b|\bporque\b|\bwhy\b|\bpara que\b|\bwhat for\b|\bpurpose\b|\bproposito\b"),
    ("does", r"\bque hacen?\b|\bo que faz(?:em)?\b|\bwhat does\b|\bwhat do\b|\bque hace cada\b"),
    ("what_is", r"\bque es\b|\bque son\b|\bo que e\b|\bo que sao\b|\bwhat is\b|\bwhat are\b|\bque caracteriza"),
    ("which", r"\bcuales?\b|\bquais?\b|\bwhich\b|\bque (?:\w+ )?(?:hay|se recomienda|precauciones|problema)"),
))
FORMS = tuple(n for n, _ in _FORMS) + ("other",)


def stem_form(prompt: str) -> str:
    """The kind of a short answer's stem (module doc): one of :data:`FORMS`."""
    text = fold(prompt).replace("¿", " ").replace("?", " ")
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
    rates = m.get("rates", {})
    form = form_of(qtype, prompt)
    if form in rates:
        return float(rates[form])
    return float(rates.get(qtype, m.get("mean", 0.0)) if qtype != "short" else m.get("mean", 0.0))


def weigh(drafts: Sequence[Any], weight: float = WEIGHT, model: dict[str, Any] | None = None,
          by_source: Mapping[str, Sequence[Any]] | None = None) -> None:
    """Each draft's priority moved by ``weight`` x (its P(KEEP), :func:`p_keep`, - the fit's mean), in place; with
    ``by_source`` (each source's chunks) a short answer's stem is ranked among its source's pages (:func:`own_rank`)."""
    m = model if model is not None else load_prior()
    mean = float(m.get("mean", 0.0))
    if not m.get("rates") or not weight:
        return
    for d in drafts:
        q = d.question
        rank = own_rank(q.prompt, d.chunk, by_source.get(d.chunk.source, ())) if by_source and q.type == "short" else 0
        d.priority += weight * (p_keep(q.type, q.prompt, q.answer, rank, m) - mean)


F = TypeVar("F", bound=tuple)


def order_forms(forms: Sequence[F], model: dict[str, Any] | None = None, chunk: Any = None,
                chunks: Sequence[Any] = ()) -> list[F]:
    """A plain question's (prompt, answer, last resort) forms, the ones teachers keep first (:func:`p_keep`; stable
    for equal ones); a form whose form prior is under :data:`LAST_RESORT` is marked a last resort (its third field
    set True) and tried after every other. With the idea's ``chunk`` and its source's ``chunks``, a form whose stem
    does not pick out the chunk's page (rank >= :data:`BAD_RANK`) goes after the forms that do, if any does."""
    m = model if model is not None else load_prior()
    if not m.get("rates"):
        return list(forms)
    ranks = [own_rank(f[0], chunk, chunks) if chunk is not None and chunks else 0 for f in forms]
    some_pick = any(0 < r < BAD_RANK for r in ranks)
    scored = []
    for i, (f, rank) in enumerate(zip(forms, ranks, strict=True)):
        p = p_keep("short", f[0], f[1], rank, m)
        never = prior("short", f[0], m) < LAST_RESORT
        if never and len(f) >= 3:
            f = type(f)((*f[:2], True, *f[3:]))
        # (the lead-in quotes its slide, so it always picks it out: it stays after every other form, last resorts too)
        scored.append((bool(len(f) >= 3 and f[2]), never, some_pick and rank >= BAD_RANK, -p, i, f))
    return [s[5] for s in sorted(scored, key=lambda s: s[:5])]


# ----------------------------------------------------------------------------------------------- the stem's fit
# A short question asks what its answer says when its stem shares words with its answer and picks out its own
# slide among the deck's (rounds 14-16: KEEP 27 % with under a third of the stem's words in the answer, 47 % from
# two thirds; 39 % when BM25 over the deck's slides ranks the question's own slide first for its stem, 15 % from
# 4th; rounds 10-13 the same way, more weakly). :func:`p_keep` is a logistic model of P(KEEP) over the form's
# prior (its logit), that share and that rank, fitted by ``eval/fit_form_prior.py`` (``keep_model`` in
# form_prior.json).
_SETTING = re.compile(r"^(?:¿\s*)?(?:en|em|no|na|in)\s+[^,¿?]{2,80},\s*", re.I)
BAD_RANK = 4  # a stem that ranks its own slide 4th or worse does not pick it out (KEEP 15 %, n 98, rounds 14-16)


def stem_words(prompt: str) -> list[str]:
    """A stem's content words (folded, 3 letters or more, no function words), its setting ("En RNN,") left out."""
    from ..text import STOPWORDS, words

    return [w for w in words(fold(_SETTING.sub("", prompt))) if w not in STOPWORDS and len(w) > 2]


def answer_share(prompt: str, answer: str) -> float:
    """The share of the stem's content words (:func:`stem_words`) its answer says; 0 for a stem with none."""
    from ..text import words

    q = stem_words(prompt)
    if not q:
        return 0.0
    said = set(words(fold(answer)))
    return sum(1 for w in q if w in said) / len(q)


class Pages:
    """A source's passages (one per slide or page) as BM25 documents: which one a stem picks out (:meth:`rank`).
    Pure Python (k1 = 1.2, b = 0.75 as Lucene's; not tuned); built once per deck (:func:`pages_of`)."""

    K1, B = 1.2, 0.75

    def __init__(self, texts: Sequence[str]) -> None:
        from collections import Counter

        from ..text import STOPWORDS, words

        self.docs = [Counter(w for w in words(fold(t)) if w not in STOPWORDS) for t in texts]
        self.lengths = [sum(d.values()) for d in self.docs]
        self.df: Counter[str] = Counter(w for d in self.docs for w in d)
        self.avg = sum(self.lengths) / max(1, len(self.docs)) or 1.0

    def rank(self, prompt: str, own: int) -> int:
        """1 + how many passages score above passage ``own`` for the stem (its setting left out)."""
        import math

        from ..text import STOPWORDS, words

        n = len(self.docs)
        if not 0 <= own < n:
            return 0
        q = [w for w in words(fold(_SETTING.sub("", prompt))) if w not in STOPWORDS]
        scores = []
        for d, ln in zip(self.docs, self.lengths, strict=True):
            s = 0.0
            for w in q:
                tf = d.get(w, 0)
                if tf:
                    idf = math.log(1 + (n - self.df[w] + 0.5) / (self.df[w] + 0.5))
                    s += idf * tf * (self.K1 + 1) / (tf + self.K1 * (1 - self.B + self.B * ln / self.avg))
            scores.append(s)
        return 1 + sum(1 for s in scores if s > scores[own])


_PAGES: dict[tuple[str, ...], tuple[Pages, dict[Any, int]]] = {}


def pages_of(chunks: Sequence[Any]) -> tuple[Pages, dict[Any, int]] | None:
    """A source's chunks joined per page (else per heading) as :class:`Pages`, and each page's index; None when
    the chunks have no pages. Cached by the chunks' ids (a deck's chunks are asked about once per idea)."""
    key = tuple(c.id for c in chunks)
    if key in _PAGES:
        return _PAGES[key]
    texts: dict[Any, list[str]] = {}
    for c in chunks:
        texts.setdefault(_page_key(c), []).append(f"{c.locator.heading or ''}\n{c.text}")
    if len(texts) < 2:
        return None
    if len(_PAGES) > 64:
        _PAGES.clear()
    index = {k: i for i, k in enumerate(texts)}
    _PAGES[key] = (Pages(["\n".join(v) for v in texts.values()]), index)
    return _PAGES[key]


def _page_key(chunk: Any) -> Any:
    loc = chunk.locator
    return loc.page if loc.page is not None else (loc.heading or "").split(" > ")[0]


def own_rank(prompt: str, chunk: Any, chunks: Sequence[Any]) -> int:
    """The rank of ``chunk``'s page among its source's ``chunks`` for the stem ``prompt`` (1 = it picks it out);
    0 when unknown."""
    pages = pages_of(chunks)
    if pages is None:
        return 0
    return pages[0].rank(prompt, pages[1].get(_page_key(chunk), -1))


def features(qtype: str, prompt: str, answer: str, rank: int, model: dict[str, Any]) -> dict[str, float]:
    """The keep model's inputs: the form's prior as a logit, and for a short answer its stem's answer share and
    whether its stem fails to pick out its own passage (rank >= :data:`BAD_RANK`; an unknown rank, 0, takes the
    fit's mean). (Rank 1 against 2-3 is no input: on the fit's rounds 10-13 rank 1 was kept less, 15 % against 24 %.)"""
    import math

    p = min(0.99, max(0.01, prior(qtype, prompt, model)))
    out = {"form": math.log(p / (1 - p)), "short": 0.0, "share": 0.0, "rank4": 0.0}
    if qtype == "short":
        means = model.get("keep_model", {}).get("means", {})
        out.update(short=1.0, share=answer_share(prompt, answer),
                   rank4=float(rank >= BAD_RANK) if rank else float(means.get("rank4", 0.0)))
    return out


def p_keep(qtype: str, prompt: str, answer: str, rank: int = 0, model: dict[str, Any] | None = None) -> float:
    """P(a teacher keeps the question as written) by the fitted keep model; the form's prior when there is none."""
    import math

    m = model if model is not None else load_prior()
    km = m.get("keep_model")
    if not km:
        return prior(qtype, prompt, m)
    x = features(qtype, prompt, answer, rank, m)
    z = float(km["bias"]) + sum(float(w) * x[k] for k, w in km["weights"].items())
    return 1 / (1 + math.exp(-z))
