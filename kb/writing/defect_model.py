"""An advisory drop-risk score for a question, learned from teachers' ratings (issue 26).

The check registry (:mod:`kb.writing.checklist`) holds rules a writer enforces, so it can never flag
the writer's own questions: it drops them before writing. This module is the other half of the
self-check: a logistic regression over features any writer's question has (its type, the stem's and
answer's shape, the concepts' shape, and the registry's form checks, which need no passage) fitted on
the KEEP/FIX/DROP ratings in ``eval/`` (``eval/fit_defect_model.py`` refits it and records the files
it was fitted on in ``defect_model.json``). ``kb eval quiz`` reports it beside the checks; the writers
do not use it to drop questions: it is a score over the ratings of other decks and other writer
versions whose threshold is set for the checks and it together (fitted on rounds 1–24, they flag 85 % of the DROPs
of rounds 8–24's newest writers, leave one round out: the JSON's ``cv``), and a rule that drops on it
would hide the writer's mistakes from the very measure meant to show them.

Scoring is pure Python (no numpy): the model is a few dozen weights.
"""

from __future__ import annotations

import json
import math
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..quiz import Question
from ..text import fold, words

MODEL_FILE = Path(__file__).with_name("defect_model.json")

# the registry's checks that read only the question (no passage, no deck, no embedder): features
FORM_CHECKS = (
    "giveaway", "duplicate-choices", "dangling-reference", "subjective", "restates-question", "no-context",
    "vague-answer", "partial-answer", "named-in-stem", "garbled-term", "concept-in-stem", "bare-attribute",
    "trivial-blank", "answer-language", "stem-setting", "ill-posed-compare", "not-a-definition",
    "meaning-not-defined", "pasted-answer", "acronym-in-stem", "group-pronoun", "subjectless-statement",
    "counted-blank", "answer-in-description", "code-answer",
)
ADVISORY_CHECKS = ("vague-stem", "unusable-concept")

_CODE = re.compile(r"(?<![\w.])(?:[A-Za-z_][\w.]*\(\)|__\w+__|[A-Za-z_]+(?:[._][A-Za-z0-9_]+)+)|[{}=<>`]|->")
_SETTING = re.compile(r"^(?:¿\s*)?(?:En|Em|No|Na|Nos|Nas|In)\s+([^,¿?]{2,60}),")
_LABELS = re.compile(r":\s*[^;?\s][^;?]*(?:;\s*[^;?\s][^;?]*)+\??\s*$")  # (each item opens on a non-space: linear)
_TRAILING = re.compile(r"\b(?:y|e|o|ou|de|del|do|da|con|com|que|para|por|en|em|a|el|la|los|las|and|or|of)\s*$", re.I)


def _balanced(text: str) -> bool:
    return all(text.count(a) == text.count(b) for a, b in ("()", "[]", "{}"))


def _fragment(concept: str) -> bool:
    """A concept a teacher would not call a key term: it starts lowercase mid-phrase, ends on a
    conjunction or preposition, or is a shard of code (unbalanced brackets, a lone symbol)."""
    c = concept.strip()
    return bool(c) and (not _balanced(c) or bool(_TRAILING.search(c)) or bool(re.fullmatch(r"[\W\d_]+", c))
                        or (len(words(c)) >= 4 and c[0].islower()))


def form_flags(q: Question) -> list[str]:
    """The registry's checks that read only the question (:data:`FORM_CHECKS`, :data:`ADVISORY_CHECKS`)."""
    from .checklist import ADVISORY, CHECKS, CheckContext

    ctx = CheckContext(passage=q.prompt + "\n" + q.answer)
    out: list[str] = []
    for name in FORM_CHECKS:
        if CHECKS[name](q, ctx):
            out.append(name)
    for name in ADVISORY_CHECKS:
        if ADVISORY[name](q, ctx):
            out.append(name)
    return out


# the registry's checks that read the cited page and the deck (lexical: no embedder): features when both are known
PAGE_CHECKS = ("cut-off", "unsupported", "glued-words", "several-right", "trivia", "copied-true", "trivial-term")


def page_flags(q: Question, page: str, deck: str) -> list[str]:
    """The registry's :data:`PAGE_CHECKS` on the cited ``page`` within ``deck`` (no embedder), plus the
    deck's own code and options (``source``)."""
    from .checklist import CHECKS, CheckContext
    from .checks import vocabulary

    ctx = CheckContext(passage=page, source_text=deck, vocab=vocabulary(deck))
    found = [name for name in PAGE_CHECKS if CHECKS[name](q, ctx)]
    return found + (["source"] if CHECKS["source"](q, ctx) else [])


def features(q: Question, page: str = "", deck: str = "") -> dict[str, float]:
    """The model's inputs for one question: every value a plain number, the same for any writer. With the
    cited ``page``'s text and the whole ``deck``'s (as ``kb eval quiz`` has them from the store), also
    how much of the answer the page says, whether the stem's setting is the deck's, and the checks that
    read them (0 without)."""
    from .checks import everyday_word

    stem, answer = q.prompt, q.answer
    sw, aw = words(stem), words(answer)
    f: dict[str, float] = {f"type:{t}": float(q.type == t) for t in ("short", "mcq", "cloze", "tf")}
    f["stem words (log)"] = math.log1p(len(sw))
    f["answer words (log)"] = math.log1p(len(aw))
    f["stem quotes a title"] = float("«" in stem)
    f["stem lists labels"] = float(bool(_LABELS.search(stem)))
    f["stem opens with a setting"] = float(bool(_SETTING.match(stem)))
    f["answer is code"] = float(bool(_CODE.search(answer)))
    f["answer brackets unbalanced"] = float(not _balanced(answer))
    blank = answer.strip()
    f["blank is an everyday word"] = float(q.type == "cloze" and bool(re.fullmatch(r"[^\W\d_]+", blank))
                                           and everyday_word(blank.lower(), q.lang))
    f["blank is a code token"] = float(q.type == "cloze" and bool(_CODE.search(blank)))
    if q.type == "mcq" and q.choices:
        lens = [len(words(c)) or 1 for c in q.choices]
        mean = sum(lens) / len(lens)
        f["options differ in length"] = (sum((x - mean) ** 2 for x in lens) / len(lens)) ** 0.5 / mean
        stem_words = {fold(w) for w in sw if len(w) > 3}
        ans = [fold(w) for w in words(answer) if len(w) > 3]
        f["answer's words in the stem"] = sum(w in stem_words for w in ans) / max(1, len(ans))
        f["options mix code and prose"] = float(0 < sum(bool(_CODE.search(c)) for c in q.choices) < len(q.choices))
    else:
        f["options differ in length"] = f["answer's words in the stem"] = f["options mix code and prose"] = 0.0
    concepts = [c for c in q.concepts if c.strip()]
    f["concepts (count)"] = float(len(concepts))
    f["concept fragments (share)"] = sum(_fragment(c) for c in concepts) / max(1, len(concepts))
    stem_folded = " " + " ".join(fold(w) for w in sw) + " "
    f["concepts the stem says (share)"] = sum(
        f" {' '.join(fold(w) for w in words(c))} " in stem_folded for c in concepts if words(c)) / max(1, len(concepts))
    flags = form_flags(q)
    f["form checks (count)"] = float(len(flags))
    for name in (*FORM_CHECKS, *ADVISORY_CHECKS):
        f[f"check:{name}"] = float(name in flags)
    on_page = {fold(w) for w in words(page)}
    said = [fold(w) for w in words(q.correct_text if q.type != "tf" else "") if len(w) > 3]
    # (no page known, or nothing to look for: as if the page said it, the usual case in the ratings)
    f["answer's words on the cited page (share)"] = sum(w in on_page for w in said) / len(said) if page and said \
        else 1.0
    setting = _SETTING.match(stem)
    in_deck = _deck_words(deck)
    f["stem's setting not in the deck"] = float(bool(deck and setting) and not all(
        fold(w) in in_deck for w in words(setting.group(1) if setting else "") if len(w) > 3))
    found = page_flags(q, page, deck) if page and deck else []
    for name in (*PAGE_CHECKS, "source"):
        f[f"check:{name}"] = float(name in found)
    return f


@lru_cache(maxsize=4)
def _deck_words(deck: str) -> frozenset[str]:
    """A deck's folded words, once per deck (every question of a quiz asks of the same deck)."""
    return frozenset(fold(w) for w in words(deck))


@lru_cache(maxsize=2)
def load_model(path: str = str(MODEL_FILE)) -> dict[str, Any]:
    """The fitted model (``defect_model.json`` in the package unless ``path``)."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def _score(model: dict[str, Any], x: dict[str, float]) -> tuple[float, list[tuple[str, float]]]:
    """P(label) and each feature's pull on the logit (weight × standardised value), largest first."""
    pulls = []
    z = float(model["intercept"])
    for name, w in model["weights"].items():
        mean, std = model["scale"][name]
        pull = float(w) * (x.get(name, 0.0) - mean) / (std or 1.0)
        z += pull
        pulls.append((name, pull))
    pulls.sort(key=lambda p: -p[1])
    return 1.0 / (1.0 + math.exp(-z)), pulls


# the writers whose questions the model was not learned from: it was fitted on ratings of the offline writer's
# questions, and on round 38 it called 70 of the 121 a model wrote likely dropped, where raters dropped 11 of 363
# ratings (it flagged 57 % of their KEEPs): for them ``likely`` is never set and ``fitted`` is False
UNFITTED_ORIGINS = frozenset({"llm"})


def drop_risk(q: Question, page: str = "", deck: str = "", model: dict[str, Any] | None = None) -> dict[str, Any]:
    """The advisory score of one question: ``p`` (the chance a teacher drops it), ``p_edit`` (drops or
    edits it; ``page`` and ``deck`` as :func:`features`), ``likely`` (p at or above the model's
    threshold) and ``why`` (the two features that push p up most: ``{"feature": name, "high": above
    the training mean}``; :func:`kb.ui.risk_words` says them in words)."""
    m = model or load_model()
    x = features(q, page, deck)
    p, pulls = _score(m["drop"], x)
    if q.origin in UNFITTED_ORIGINS:  # a score, but no verdict: the model never saw such questions
        return {"p": round(p, 3), "p_edit": round(_score(m["drop_or_fix"], x)[0], 3), "likely": False, "why": [],
                "fitted": False}
    p_edit, _ = _score(m["drop_or_fix"], x)
    scale = m["drop"]["scale"]
    why: list[dict[str, Any]] = []
    for name, pull in pulls:
        high = x.get(name, 0.0) > scale[name][0]
        if pull <= 0 or len(why) == 2:
            break
        # a yes/no feature explains only by being there; an mcq-only one only on an mcq
        if high or name in _BOTH_WAYS and (q.type == "mcq" or name not in _MCQ_ONLY):
            why.append({"feature": name, "high": high})
    return {"p": round(p, 3), "p_edit": round(p_edit, 3), "likely": p >= m["drop"]["threshold"], "why": why}


# the features whose low side also says something ("a short answer"), for the explanation
_BOTH_WAYS = frozenset({"stem words (log)", "answer words (log)", "options differ in length",
                        "answer's words in the stem", "concepts (count)"})
_MCQ_ONLY = frozenset({"options differ in length", "answer's words in the stem"})
