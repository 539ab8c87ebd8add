"""The grader: how correct is a reply, and why.

Objective questions (mcq, tf, cloze) are graded exactly, after normalisation. Free-text
(short) replies go to a grader behind one seam, :class:`Grader`:

- :class:`OfflineGrader` (default, deterministic): meaning similarity to the model answer with
  the course embedder (cross-lingual), coverage of the question's key concepts (accent- and
  inflection-tolerant), lexical and character overlap, combined by a linear model whose
  weights and 0–3 cut points were fitted on the pt_asag_2018 dev questions (36–42) by
  ``bench/calibrate_grader.py``; then guards for the known failures of those signals: empty or
  "não sei" replies, copies of the question, bare keyword lists, inverted yes/no answers and
  off-topic replies.
- :class:`kb.llm.LLMGrader`: a rubric prompt to any OpenAI-compatible endpoint.

Every grade has points (0–3), a 0–1 score, a verdict and feedback naming the concepts
present and missing.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol, Sequence

from .quiz import Question
from .text import STOPWORDS, detect_language, fold, fold_word, sentences, words

if TYPE_CHECKING:
    from .embeddings import Embedder

MAX_POINTS = 3


@dataclass(frozen=True)
class Grade:
    question_id: str
    points: int  # 0–3
    score: float  # 0–1, partial credit
    verdict: str  # incorrect | partial | correct
    feedback: str
    present: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()  # guards that fired: empty, dont_know, copies_question, ...
    grader: str = "offline"

    def to_json(self) -> dict[str, Any]:
        """The grade as a JSON object."""
        return {"question_id": self.question_id, "points": self.points, "score": round(self.score, 3),
                "verdict": self.verdict, "feedback": self.feedback, "present": list(self.present),
                "missing": list(self.missing), "flags": list(self.flags), "grader": self.grader}


def verdict_for(points: int) -> str:
    """correct (full points), incorrect (0) or partial."""
    return "correct" if points >= MAX_POINTS else "incorrect" if points <= 0 else "partial"


def make_grade(question: Question, points: float, feedback: str, *, score: float | None = None,
               present: Sequence[str] = (), missing: Sequence[str] = (), flags: Sequence[str] = (),
               grader: str = "offline") -> Grade:
    """A Grade with points rounded half up and clipped to 0..MAX_POINTS."""
    p = int(min(MAX_POINTS, max(0, math.floor(points + 0.5))))
    s = p / MAX_POINTS if score is None else min(1.0, max(0.0, score))
    return Grade(question.id, p, s, verdict_for(p), feedback, tuple(present), tuple(missing), tuple(flags), grader)


@dataclass(frozen=True)
class Task:
    """One reply to one question."""

    question: Question
    reply: str
    student: str = ""


class Grader(Protocol):
    name: str

    def grade(self, tasks: Sequence[Task]) -> list[Grade]:
        """One grade per task, in order."""


# --------------------------------------------------------------------------- text helpers

_DONT_KNOW = re.compile(
    r"^\W*(n[aã]o\s+(sei|lembro|tenho\s+ideia|fa[cç]o\s+ideia)|no\s+(s[eé]|lo\s+s[eé]|recuerdo|tengo\s+idea)|"
    r"i\s+(don'?t|do\s+not)\s+know|no\s+idea|sei\s+l[aá]|n/?a|-+|\?+|\.+|x+)\W*$",
    re.IGNORECASE,
)
_YES = frozenset({"sim", "si", "sí", "yes", "verdadeiro", "verdadero", "true", "correto", "cierto"})
_NO = frozenset({"nao", "não", "no", "not", "falso", "false", "incorreto", "errado"})


def needs_judgement(task: Task) -> bool:
    """A free-text reply with something in it: what a grader must judge (the rest is exact)."""
    reply = task.reply.strip()
    return task.question.type == "short" and bool(reply) and not _DONT_KNOW.match(reply)


def stem(word: str) -> str:
    """Accent-free prefix stem: inflections of pt/es/en words share their first 5 letters."""
    f = fold(word).strip(".-'")
    return f[:5] if len(f) > 5 else f


@lru_cache(maxsize=50_000)
def content_stems(text: str) -> tuple[str, ...]:
    """Stems of the words that carry meaning (model answers repeat: cached)."""
    out = []
    for w in words(text):
        f = fold_word(w)
        if f in STOPWORDS or (len(f) < 2 and not f.isdigit()):
            continue
        out.append(stem(f))
    return tuple(out)


@lru_cache(maxsize=500_000)
def _close(a: str, b: str) -> bool:
    """Stems equal, or one edit apart when long enough (typos: 'memoria'/'memroia'): optimal string
    alignment distance ≤ 1, so a swap of two adjacent letters counts once but 'comer'/'comte' do not match."""
    if a == b:
        return True
    if min(len(a), len(b)) < 5 or abs(len(a) - len(b)) > 1:
        return False
    from rapidfuzz.distance import OSA

    return OSA.distance(a, b, score_cutoff=1) <= 1


def _has_stem(s: str, bag: set[str]) -> bool:
    return s in bag or any(_close(s, b) for b in bag)


_CONCEPT_WORD_SHARE = 0.6  # "most" of a concept's words: 1 of 1, 2 of 2 or 3, 3 of 4 or 5


def concept_hits(concepts: Sequence[str], reply: str) -> tuple[list[str], list[str]]:
    """(present, missing): a concept is present when most of its content words appear in the
    reply, inflected, without accents or with a one-letter typo. A concept "A / B" names
    alternatives: either one present is enough ("named_modules() / named_parameters()")."""
    bag = set(content_stems(reply))
    present: list[str] = []
    missing: list[str] = []
    for c in concepts:
        alts = [cs for cs in (content_stems(a) for a in re.split(r"\s/\s", c)) if cs]
        if not alts:
            continue
        hit = any(sum(_has_stem(s, bag) for s in cs) >= math.ceil(_CONCEPT_WORD_SHARE * len(cs)) for cs in alts)
        (present if hit else missing).append(c)
    return present, missing


@lru_cache(maxsize=20_000)
def _char_grams(text: str) -> Counter:  # cached: do not mutate
    t = " " + re.sub(r"\s+", " ", fold(text)).strip() + " "
    return Counter(t[i : i + n] for n in (3, 4, 5) for i in range(len(t) - n + 1))


def _cosine_counts(a: Counter, b: Counter) -> float:
    if not a or not b:
        return 0.0
    dot = sum(v * b.get(k, 0) for k, v in a.items())
    return dot / math.sqrt(sum(v * v for v in a.values()) * sum(v * v for v in b.values()))


def references(q: Question) -> list[str]:
    """The model answer and any other accepted answers (a reference cell may hold several, one per line)."""
    refs = [r.strip() for r in q.answer.split("\n") if r.strip()]
    refs += [a for a in q.accepted if a.strip()]
    return refs or [q.answer]


_YES_SI = re.compile(r"^\W*(s[ií])\b\s*([,.;:!]|$)?", re.IGNORECASE)


def _leading_polarity(text: str) -> str | None:
    """'yes' / 'no' when the reply opens with one ('Sim, …', 'No, …'). Spanish 'si' without an
    accent is 'if' ('Si la GPU…'): it means yes only when written 'sí' or followed by a comma or full stop."""
    ws = [fold(w) for w in words(text)[:2]]
    if not ws:
        return None
    if ws[0] == "si":
        m = _YES_SI.match(text)
        return "yes" if m and (m.group(1).lower() == "sí" or m.group(2) is not None) else None
    if ws[0] in {fold(w) for w in _YES}:
        return "yes"
    if ws[0] in _NO and not (len(ws) > 1 and ws[1] in {"so", "solo", "apenas", "only"}):
        return "no"
    return None


def is_keyword_list(reply: str) -> bool:
    """Comma/line-separated short items with (almost) no function words: keywords, not an answer."""
    items = [p.strip() for p in re.split(r"[,;\n/]+|\s+-\s+", reply) if p.strip()]
    ws = words(reply)
    if len(items) < 3 or not ws:
        return False
    function = sum(fold(w) in STOPWORDS for w in ws)
    return all(len(words(p)) <= 3 for p in items) and function <= 1


# --------------------------------------------------------------------------- swapped roles
# A contradiction that keeps every term: "Nas assíncronas as réplicas esperam umas pelas outras"
# when the model answer says it of the synchronous ones. Overlap of words or meaning cannot see it;
# what each compared term is said to do can. The terms are those the question sets side by side
# ("a diferença entre X e Y", "atualizações síncronas e assíncronas", "Map e Reduce").

_NEGATORS = frozenset({"nao", "nunca", "jamais", "sem", "nem", "nenhum", "nenhuma", "sin", "ni", "ningun",
                       "ninguna", "not", "never", "without", "none", "nor", "cannot"})
_CLAUSE = re.compile(r"[.;:!?,()\n]|\s[-–]\s")
_ALIAS = re.compile(r"([0-9A-Za-zÀ-ÖØ-öø-ÿ_.\-]+)\s*\(([^()]{1,40})\)")
_CONJUNCTIONS = frozenset({"e", "y", "and", "ou", "or", "vs", "versus"})  # + Spanish "o": in pt it is "the"
SWAP_EVIDENCE = 3  # predicate words that moved to the other term, with none in place, before the guard fires


def _predicate_stems(text: str, lang: str, alias: dict[str, str]) -> list[tuple[str, bool]]:
    """(stem, negated) of the content words in order; a negation ("não", "sin", "not") marks the next
    two content words of its clause, so that "sem esperar" is not "esperar". "no" negates only outside
    Portuguese, where it is "in the"."""
    out: list[tuple[str, bool]] = []
    for clause in _CLAUSE.split(text):
        left = 0
        for w in words(clause):
            f = fold_word(w)
            if f in _NEGATORS or (f == "no" and lang != "pt") or f.endswith("n't"):
                left = 2
                continue
            if f in STOPWORDS or (len(f) < 2 and not f.isdigit()):
                continue
            s = stem(f)
            out.append((alias.get(s, s), left > 0))
            left = max(0, left - 1)
    return out


def _aliases(text: str) -> dict[str, str]:
    """Stems of a short parenthesis → the stem of the word before it: "fixar (pinning)", "GIL (Global…)"."""
    out: dict[str, str] = {}
    for m in _ALIAS.finditer(text):
        head = stem(fold(m.group(1)))
        inner = [stem(fold_word(w)) for w in words(m.group(2)) if fold_word(w) not in STOPWORDS]
        if 1 <= len(inner) <= 3 and head not in STOPWORDS:
            for s in inner:
                out.setdefault(s, head)
    return out


def contrast_pairs(question: str, alias: dict[str, str] | None = None, lang: str = "") -> list[tuple[str, str]]:
    """(X, Y) stems of the terms a question compares: Y is the first new content word after a
    conjunction, X one of the last three content words before it in the same clause ("a diferença
    entre uma thread e um processo" → (thread, processo)). ``lang`` "es" adds the conjunction "o"."""
    alias = alias or {}
    conjunctions = _CONJUNCTIONS | ({"o", "u"} if lang == "es" else set())
    pairs: list[tuple[str, str]] = []

    def content(ws: Sequence[str]) -> list[str]:
        return list(dict.fromkeys(alias.get(stem(w), stem(w)) for w in ws if w not in STOPWORDS and len(w) > 1))

    for clause in _CLAUSE.split(re.sub(r"\([^()]*\)", " ", question)):
        ws = [fold_word(w) for w in words(clause)]
        for i, w in enumerate(ws):
            if w not in conjunctions:
                continue
            before, after = content(ws[:i]), content(ws[i + 1:])
            y = next((s for s in after if s not in before), None)
            if y:
                pairs += [(x, y) for x in [s for s in before if s not in after][-3:]]
    return list(dict.fromkeys(pairs))


def _first(s: str, toks: Sequence[tuple[str, bool]]) -> int | None:
    return next((i for i, (t, _) in enumerate(toks) if _close(s, t)), None)


def _segments(toks: Sequence[tuple[str, bool]], a: str, b: str) -> dict[str, set[tuple[str, bool]]] | None:
    """What is said of a and of b: the words from each one's first mention to the other's (or the end)."""
    ia, ib = _first(a, toks), _first(b, toks)
    if ia is None or ib is None:
        return None
    lo, hi = toks[min(ia, ib):max(ia, ib)], toks[max(ia, ib):]
    seg = {a: lo, b: hi} if ia < ib else {a: hi, b: lo}
    return {k: {(t, n) for t, n in v if not _close(t, a) and not _close(t, b)} for k, v in seg.items()}


def _overlap(x: set[tuple[str, bool]], y: set[tuple[str, bool]]) -> int:
    return sum(any(n1 == n2 and _close(t1, t2) for t2, n2 in y) for t1, n1 in x)


@dataclass(frozen=True)
class RoleSwap:
    """How the reply's predicates of two compared terms match the model answer's: ``kept`` words said
    of the same term as in the model answer, ``swapped`` words said of the other one; ``terms`` are
    the two as the reply writes them."""

    terms: tuple[str, str]
    kept: int
    swapped: int

    @property
    def clear(self) -> bool:
        """Every predicate word that matches sits with the other term, and there are enough of them."""
        return self.kept == 0 and self.swapped >= SWAP_EVIDENCE


@lru_cache(maxsize=2048)
def _reference_roles(question: str, ref: str, lang: str
                     ) -> tuple[dict[str, str], tuple[tuple[str, bool], ...], tuple[tuple[str, str], ...]]:
    """The model answer's side, the same for every reply (cached): aliases, predicate stems, compared terms."""
    alias = {**_aliases(ref), **_aliases(question)}
    return alias, tuple(_predicate_stems(ref, lang, alias)), tuple(contrast_pairs(question, alias, lang))


def role_swap(question: str, refs: Sequence[str], reply: str, lang: str) -> RoleSwap | None:
    """The compared terms' predicates in the reply against each model answer; the least swapped
    answer counts, so a reply that keeps the roles of any accepted answer (or that no answer lets us
    judge) is not swapped. None when the question compares nothing or the reply does not name both."""
    reply_lang = detect_language(reply, lang) if len(words(reply)) >= 4 else lang
    found: list[RoleSwap] = []
    for ref in refs:
        alias, ref_toks, pairs = _reference_roles(question, ref, lang)
        if not pairs:
            return None
        rep_toks = _predicate_stems(reply, reply_lang, alias)
        here: tuple[str, str, int, int] | None = None
        for a, b in pairs:
            r, p = _segments(ref_toks, a, b), _segments(rep_toks, a, b)
            if not r or not p:
                continue
            only_a, only_b = r[a] - r[b], r[b] - r[a]  # what the model answer says of one term and not the other
            kept = _overlap(p[a], only_a) + _overlap(p[b], only_b)
            swapped = _overlap(p[a], only_b) + _overlap(p[b], only_a)
            if kept + swapped and (here is None or kept + swapped > here[2] + here[3]):
                here = (a, b, kept, swapped)
        if here is None:
            return None
        surface: dict[str, str] = {}
        for w in words(reply):
            s = stem(fold_word(w))
            for t in here[:2]:
                if _close(alias.get(s, s), t):
                    surface.setdefault(t, w)
        found.append(RoleSwap((surface.get(here[0], here[0]), surface.get(here[1], here[1])), here[2], here[3]))
    return min(found, key=lambda x: x.swapped - x.kept) if found else None


# --------------------------------------------------------------------------- offline grader

FEATURES = ("sim", "sim_sentence", "sim_question", "concept_sim", "coverage", "recall", "precision", "chars",
            "log_words", "short")
SEMANTIC = ("sim", "sim_sentence", "sim_question", "concept_sim", "log_words", "short")
# use-m3 cosine of a concept and a reply at or above which the concept is present (course set: 7 % of
# concept–reply pairs in complete replies pass, 0 % in wrong ones; 0.40 named wrong concepts)
CONCEPT_MATCH = 0.45

# Fitted by ``python bench/calibrate_grader.py`` on two grading cultures, each weighing the same: pt_asag_2018
# questions 36–42 (dev) and the course-domain set eval/grading_course.csv, with the use-m3 embedder. Held out:
# pt_asag_2018 questions 43–50 (never fitted); the course set is reported by leave-one-question-out (README).
# Rerun it after changing FEATURES.
CALIBRATION: dict[str, Any] = {
    "embedder": "use-m3",
    "weights": {
        "sim": 4.3102, "sim_sentence": -2.8949, "sim_question": -1.8486, "concept_sim": 1.8665, "coverage": -0.2668,
        "recall": 0.7132, "precision": 0.471, "chars": 0.0044, "log_words": 0.5106, "short": -0.0421},
    "bias": -0.799,
    "weights_crosslingual": {
        "sim": 4.7341, "sim_sentence": -2.8445, "sim_question": -1.7193, "concept_sim": 2.0204, "log_words": 0.4671,
        "short": -0.1253},
    "bias_crosslingual": -0.6114,
    "cuts": [0.7, 1.3, 2.0],  # raw points → 0 | 1 | 2 | 3, chosen for quadratic weighted kappa
    "off_topic": 0.1,  # below this similarity (and < 20 % of the answer's words) the reply is off-topic
}


def qwk(human_points, predicted_points, k: int = MAX_POINTS + 1) -> float:
    """Quadratic weighted kappa of two whole-point gradings (1 = perfect agreement, 0 = chance)."""
    import numpy as np

    a, b = np.asarray(human_points, int), np.asarray(predicted_points, int)
    o = np.bincount(a * k + b, minlength=k * k).reshape(k, k).astype(float)
    i = np.arange(k)
    w = (i[:, None] - i[None, :]) ** 2 / (k - 1) ** 2
    e = np.outer(o.sum(1), o.sum(0)) / max(1.0, o.sum())
    den = (w * e).sum()
    return float(1 - (w * o).sum() / den) if den else 1.0


def fit_cuts(sets: Sequence[tuple[Any, Any]], prior: Sequence[float] | None = None,
             grid: Sequence[float] | None = None) -> tuple[float, float, float]:
    """The three cut points (raw points → 0 | 1 | 2 | 3) that maximise the mean quadratic weighted
    kappa over ``sets`` of (raw points, human 0–3 scores), each set weighing the same. Ties (common
    with a handful of teacher-graded replies) go to the cuts nearest ``prior``."""
    import itertools

    import numpy as np

    g = np.round(np.arange(0.2, 2.91, 0.1), 2) if grid is None else np.asarray(grid, float)
    prior_a = np.asarray(prior if prior is not None else (0.5, 1.5, 2.5), float)
    binned = [(np.searchsorted(g, np.asarray(raw, float), side="right"),
               np.clip(np.rint(np.asarray(h, float)), 0, MAX_POINTS).astype(int)) for raw, h in sets]
    best, best_key = (float(prior_a[0]), float(prior_a[1]), float(prior_a[2])), (-2.0, 0.0)
    for i, j, k in itertools.combinations(range(len(g)), 3):
        score = float(np.mean([qwk(hp, (b > i).astype(int) + (b > j) + (b > k)) for b, hp in binned]))
        key = (round(score, 6), -float(np.abs(g[[i, j, k]] - prior_a).sum()))
        if key > best_key:
            best_key, best = key, (float(g[i]), float(g[j]), float(g[k]))
    return best


@dataclass
class Features:
    values: dict[str, float]
    present: list[str]
    missing: list[str]
    flags: list[str] = field(default_factory=list)
    crosslingual: bool = False  # the reply is in another language than the model answer


class OfflineGrader:
    """Deterministic grader for free-text replies; exact grading for objective types."""

    def __init__(self, embedder: Embedder, calibration: dict[str, Any] | None = None,
                 adjust: dict[str, tuple[Sequence[float], float]] | None = None) -> None:
        self.embedder = embedder
        self.cal = calibration or CALIBRATION
        # per question id: (cut points, raw-point offset) fitted on a teacher's own grades (kb.calibration)
        self.adjust = dict(adjust or {})
        self.name = "offline"

    # one batch: every distinct text is embedded once
    def features(self, tasks: Sequence[Task]) -> list[Features]:
        """The similarity and coverage features of each reply against its references."""
        import numpy as np

        texts: dict[str, int] = {}

        def idx(t: str) -> int:
            return texts.setdefault(t, len(texts))

        plan = []
        for t in tasks:
            refs = references(t.question)
            ref_sents = [s for r in refs for s in sentences(r)] or refs
            plan.append((refs, idx(t.reply.strip() or "-"), [idx(r) for r in refs], [idx(s) for s in ref_sents],
                         idx(t.question.prompt), [idx(c) for c in t.question.concepts if c.strip()]))
        order = list(texts)
        vecs = self.embedder.embed_documents(order) if order else np.zeros((0, 1), dtype=np.float32)
        norms = np.linalg.norm(vecs, axis=1, keepdims=True)
        vecs = vecs / np.where(norms == 0, 1, norms)
        out = []
        for t, (refs, ri, refi, senti, qi, ci) in zip(tasks, plan, strict=True):
            r = vecs[ri]
            csims = [float(x) for x in vecs[ci] @ r] if ci else []
            v = {
                "sim": float(max(vecs[refi] @ r)),
                "sim_sentence": float(max(vecs[senti] @ r)),
                "sim_question": float(vecs[qi] @ r),
                "concept_sim": sum(csims) / len(csims) if csims else float(max(vecs[senti] @ r)),
            }
            out.append(self._lexical(t, refs, v, csims, self.cal.get("concept_match", CONCEPT_MATCH)))
        return out

    @staticmethod
    def _lexical(t: Task, refs: list[str], v: dict[str, float], concept_sims: Sequence[float] = (),
                 concept_match: float = 1.0) -> Features:
        reply = t.reply.strip()
        rs = content_stems(reply)
        bag = set(rs)
        ref_bags = [set(content_stems(r)) for r in refs]
        recall = max((sum(_has_stem(s, bag) for s in rb) / len(rb) for rb in ref_bags if rb), default=0.0)
        allref = set().union(*ref_bags) | set(content_stems(t.question.prompt))
        precision = sum(_has_stem(s, allref) for s in bag) / len(bag) if bag else 0.0
        concepts = [c for c in t.question.concepts if c.strip()]
        present, _ = concept_hits(concepts, reply)
        # a concept is there when its words are (inflected, typos) or its meaning is (synonyms, other
        # languages): cosine of the concept and the reply ≥ concept_match, measured on the course set
        sims = dict(zip(concepts, concept_sims, strict=False))
        present = [c for c in concepts if c in present or sims.get(c, 0.0) >= concept_match]
        missing = [c for c in concepts if c not in present]
        coverage = len(present) / (len(present) + len(missing)) if (present or missing) else recall
        g = _char_grams(reply)
        n = len(words(reply))
        v.update({
            "coverage": coverage, "recall": recall, "precision": precision,
            "chars": max(_cosine_counts(g, _char_grams(r)) for r in refs),
            "log_words": math.log1p(n), "short": 1.0 if n < 4 else 0.0,
        })
        reply_lang = detect_language(reply, "") if n >= 4 else ""
        ref_lang = detect_language(" ".join(refs) + " " + t.question.prompt, t.question.lang) if reply_lang else ""
        cross = bool(reply_lang) and bool(ref_lang) and reply_lang != ref_lang
        if cross:  # word overlap means nothing across languages: grade on meaning; concepts by meaning only
            sem = [c for c in concepts if sims.get(c, 0.0) >= concept_match]
            return Features(v, sem, [c for c in concepts if c not in sem], ["other_language"], crosslingual=True)
        return Features(v, present, missing)

    def raw_points(self, f: Features) -> float:
        """Unrounded points: the calibrated linear model of the features."""
        if f.crosslingual and "weights_crosslingual" in self.cal:
            w, b = self.cal["weights_crosslingual"], self.cal["bias_crosslingual"]
        else:
            w, b = self.cal["weights"], self.cal["bias"]
        return b + sum(w.get(k, 0.0) * f.values[k] for k in FEATURES)

    def scaled(self, raw: float, cuts: Sequence[float] | None = None) -> float:
        """Raw points → 0–3 through the cut points, so that round(score × 3) is the points."""
        c = list(cuts or self.cal["cuts"])
        xs, ys = [0.0, c[0], c[1], c[2], float(MAX_POINTS)], [0.0, 0.5, 1.5, 2.5, 3.0]
        if raw <= xs[0]:
            return 0.0
        # consecutive knots: the pairs and the pairs shifted by one (one fewer) — truncation intended
        for (x0, y0), (x1, y1) in zip(zip(xs, ys, strict=True), zip(xs[1:], ys[1:], strict=True), strict=False):
            if raw <= x1:
                return y0 + (y1 - y0) * (raw - x0) / (x1 - x0) if x1 > x0 else y1
        return 3.0

    def grade(self, tasks: Sequence[Task]) -> list[Grade]:
        """Objective types by rule, empty and don't-know replies as 0, short answers by the model."""
        out: list[Grade | None] = [None] * len(tasks)
        free: list[int] = []
        for i, t in enumerate(tasks):
            if needs_judgement(t):
                free.append(i)
            elif t.question.type != "short":
                out[i] = grade_objective(t.question, t.reply)
            else:
                out[i] = make_grade(t.question, 0, compose_feedback(reply_language("", t.question), 0, (), (),
                                                                    ["empty"], references(t.question)[0]),
                                    missing=t.question.concepts,
                                    flags=("empty" if not t.reply.strip() else "dont_know",))
        feats = self.features([tasks[i] for i in free])
        for i, f in zip(free, feats, strict=True):
            out[i] = self._judge(tasks[i], f)
        return [g for g in out if g is not None]

    def _judge(self, task: Task, f: Features) -> Grade:
        """Linear score, then the guards (each measured on the dev questions; see the README)."""
        q, reply = task.question, task.reply.strip()
        cuts, offset = self.adjust.get(q.id, (None, 0.0))
        x = self.scaled(self.raw_points(f) + offset, cuts)
        reasons: list[str] = []
        flags = list(f.flags)
        if f.crosslingual:
            reasons.append("other_language")
        if f.values["sim"] < self.cal["off_topic"] and (f.crosslingual or f.values["recall"] < 0.2):
            flags.append("off_topic")
            reasons.append("off_topic")
            x = 0.0
        pol_ref, pol_reply = _leading_polarity(references(q)[0]), _leading_polarity(reply)
        if copies_question(q, reply, f) and not pol_reply:
            flags.append("copies_question")
            reasons.append("copies_question")
            x = min(x, 0.49)
        if pol_ref and pol_reply and pol_ref != pol_reply:
            flags.append("inverted")
            reasons.append("inverted_" + pol_ref)
            x = 0.0
        swap = None if f.crosslingual or x == 0 else role_swap(q.prompt, references(q), reply, q.lang or "pt")
        if swap is not None and swap.clear:
            flags.append("swapped_roles")
            reasons.append("swapped_roles")
            x = 0.0
        if x >= 1.5 and is_keyword_list(reply):
            flags.append("keyword_list")
            reasons.append("keyword_list")
            x = min(x, 1.49)
        g = make_grade(q, x, "", score=x / MAX_POINTS, present=f.present, missing=f.missing, flags=flags,
                       grader=self.name)
        lang = reply_language(reply, q)
        return replace(g, feedback=compose_feedback(lang, g.points, f.present, f.missing, reasons, references(q)[0],
                                                    swap.terms if swap is not None else ("", "")))


def copies_question(q: Question, reply: str, f: Features) -> bool:
    """The reply only restates the question: (almost) every content word comes from the prompt,
    little of the model answer is there, and it is nearer in meaning to the question than to the
    answer. A yes/no reply built from the question's words ('Não, cada variável só pode ser usada no
    dispositivo…') answers it and is not a copy (the caller checks the leading yes/no)."""
    reply_stems = content_stems(reply)
    if not reply_stems or f.crosslingual:
        return False
    q_bag = set(content_stems(q.prompt))
    new = [s for s in reply_stems if not _has_stem(s, q_bag)]
    # a restatement, not a short reply that reuses a term or two of the question ('map e reduce')
    restates = len(set(reply_stems)) >= max(3, 0.4 * len(q_bag))
    return restates and len(new) <= max(1, len(reply_stems) // 5) and f.values["recall"] < 0.5 \
        and f.values["sim_question"] >= f.values["sim"]


def reply_language(reply: str, q: Question) -> str:
    """The language feedback is written in: the reply's when it can be told (≥ 4 words), else the question's."""
    fallback = q.lang if q.lang in FEEDBACK else detect_language(q.prompt + " " + q.answer, "en")
    return detect_language(reply, fallback) if len(words(reply)) >= 4 else fallback


# Feedback a student can act on, in the reply's language: the verdict and why, what was right, what
# is missing or wrong, and — when the grade is not full — the model answer's gist to compare with.
FEEDBACK: dict[str, dict[str, str]] = {
    "pt": {
        "3": "Correto.", "2": "Parcialmente correto (2/3).", "1": "Pouco completo (1/3).", "0": "Incorreto (0/3).",
        "right": "Está certo: {}.", "missing": "Faltou: {}.", "all_present": "Os conceitos-chave estão lá",
        "but_far": "mas a explicação não diz o mesmo que a resposta modelo.",
        "no_concepts_far": "A resposta diz pouco do que a resposta modelo diz.",
        "same_meaning": "A resposta diz o mesmo que a resposta modelo.",
        "other_language": "Avaliada pelo sentido: está em outra língua que a resposta modelo.",
        "off_topic": "A resposta não trata do que foi perguntado.",
        "copies_question": "A resposta repete a pergunta em vez de respondê-la.",
        "inverted_yes": "A resposta modelo diz que sim; a resposta diz o contrário.",
        "inverted_no": "A resposta modelo diz que não; a resposta diz o contrário.",
        "keyword_list": "Só palavras-chave: explique como elas se relacionam.",
        "swapped_roles": "A resposta troca os papéis de {} e {}: o que diz de um, a resposta modelo diz do outro.",
        "expected": "Esperado: «{}»",
        "empty": "Sem resposta.",
    },
    "es": {
        "3": "Correcto.", "2": "Parcialmente correcto (2/3).", "1": "Poco completo (1/3).", "0": "Incorrecto (0/3).",
        "right": "Está bien: {}.", "missing": "Falta: {}.", "all_present": "Los conceptos clave están",
        "but_far": "pero la explicación no dice lo mismo que la respuesta modelo.",
        "no_concepts_far": "La respuesta dice poco de lo que dice la respuesta modelo.",
        "same_meaning": "La respuesta dice lo mismo que la respuesta modelo.",
        "other_language": "Evaluada por el sentido: está en otro idioma que la respuesta modelo.",
        "off_topic": "La respuesta no trata de lo que se pregunta.",
        "copies_question": "La respuesta repite la pregunta en lugar de responderla.",
        "inverted_yes": "La respuesta modelo dice que sí; la respuesta dice lo contrario.",
        "inverted_no": "La respuesta modelo dice que no; la respuesta dice lo contrario.",
        "keyword_list": "Solo palabras clave: explica cómo se relacionan.",
        "swapped_roles": "La respuesta intercambia los papeles de {} y {}: lo que dice de uno, la respuesta modelo "
                         "lo dice del otro.",
        "expected": "Se esperaba: «{}»",
        "empty": "Sin respuesta.",
    },
    "en": {
        "3": "Correct.", "2": "Partly correct (2/3).", "1": "Incomplete (1/3).", "0": "Incorrect (0/3).",
        "right": "Right: {}.", "missing": "Missing: {}.", "all_present": "The key concepts are there",
        "but_far": "but the explanation does not say what the model answer says.",
        "no_concepts_far": "The reply says little of what the model answer says.",
        "same_meaning": "The reply says what the model answer says.",
        "other_language": "Graded on meaning: the reply is in another language than the model answer.",
        "off_topic": "The reply does not address the question.",
        "copies_question": "The reply repeats the question instead of answering it.",
        "inverted_yes": "The model answer says yes; the reply says the opposite.",
        "inverted_no": "The model answer says no; the reply says the opposite.",
        "keyword_list": "Only keywords: explain how they relate.",
        "swapped_roles": "The reply swaps the roles of {} and {}: what it says of one, the model answer says of "
                         "the other.",
        "expected": "Expected: «{}»",
        "empty": "No answer given.",
    },
}


def compose_feedback(lang: str, points: int, present: Sequence[str], missing: Sequence[str],
                     reasons: Sequence[str], reference: str, swapped: Sequence[str] = ("", "")) -> str:
    """The verdict, the guards' reasons, what was right and missing, and why a grade is partial
    (``swapped``: the two terms whose roles the reply exchanges, for that reason)."""
    m = FEEDBACK.get(lang, FEEDBACK["en"])
    parts = [m[str(points)]] + [m[r].format(*swapped) if r == "swapped_roles" else m[r] for r in reasons if r in m]
    guarded = any(r != "other_language" for r in reasons)
    if present and not (guarded and points == 0):
        parts.append(m["right"].format(", ".join(present)))
    if missing and points < MAX_POINTS:
        parts.append(m["missing"].format(", ".join(missing)))
    if not guarded:
        if points < MAX_POINTS and present and not missing:
            parts.append(m["all_present"] + ", " + m["but_far"])  # why partial with every concept present
        elif points < MAX_POINTS and not present and not missing:
            parts.append(m["no_concepts_far"])
        elif points == MAX_POINTS and not present:
            parts.append(m["same_meaning"])
    if points < MAX_POINTS:
        gist = sentences(reference)[0] if sentences(reference) else reference
        parts.append(m["expected"].format(gist if len(gist) <= 220 else gist[:219].rstrip() + "…"))
    return " ".join(parts)


# --------------------------------------------------------------------------- objective types

_LETTER = re.compile(r"^\(?([a-h])[\).:]?$|^\(?([a-h])[\).:]\s", re.IGNORECASE)
_TRUE = frozenset({"v", "t", "true", "verdadeiro", "verdadeira", "verdadero", "verdadera", "cierto", "certo",
                   "sim", "si", "yes", "y", "s", "1", "correto", "correcto"})
_FALSE = frozenset({"f", "false", "falso", "falsa", "nao", "no", "n", "0", "errado", "incorreto", "incorrecto"})


def _norm(text: str) -> str:
    """Folded words, hyphens and dots as spaces: 'All-Reduce' → 'all reduce'."""
    return " ".join(p for w in words(text) for p in re.split(r"[.\-']", fold(w)) if p)


def _choice_index(q: Question, reply: str) -> int | None:
    r = reply.strip()
    m = _LETTER.match(r)
    if m:
        i = ord((m.group(1) or m.group(2)).lower()) - ord("a")
        return i if i < len(q.choices) else None
    if r.isdigit() and 1 <= int(r) <= len(q.choices):
        return int(r) - 1
    nr = _norm(r)
    if not nr:
        return None
    exact = [i for i, c in enumerate(q.choices) if _norm(c) == nr]
    if exact:
        return exact[0]
    inside = [i for i, c in enumerate(q.choices) if _norm(c) and f" {_norm(c)} " in f" {nr} "]
    return inside[0] if len(inside) == 1 else None


def parse_tf(reply: str) -> bool | None:
    """True or False from the reply's first word (yes/true/verdadeiro …), None when it says neither."""
    ws = [fold(w) for w in words(reply)]
    if not ws:
        return None
    if ws[0] in _TRUE:
        return True
    if ws[0] in _FALSE:
        return False
    return None


def _same_word(x: str, y: str) -> bool:
    """Equal folded words, a plural ('cpu'/'cpus', 'red'/'redes') or a one-letter typo in a long word."""
    if x == y:
        return True
    a, b = (x, y) if len(x) <= len(y) else (y, x)
    if len(a) >= 2 and (b == a + "s" or (len(a) >= 3 and b == a + "es")):
        return True
    return len(b) >= 5 and _close(x, y)


def _cloze_match(reply: str, answers: Sequence[str]) -> bool:
    nr = _norm(reply)
    for a in answers:
        na = _norm(a)
        if not na:
            continue
        if nr == na or nr.replace(" ", "") == na.replace(" ", "") or \
                f" {na} " in f" {nr} " and len(nr.split()) <= len(na.split()) + 3:
            return True
        cr, ca = nr.replace(" ", ""), na.replace(" ", "")
        if len(ca) >= 6 and _close(cr, ca):
            return True  # one-letter typo in a long term
        rw, aw = nr.split(), na.split()
        if len(rw) == len(aw) and all(_same_word(x, y) for x, y in zip(rw, aw, strict=True)):
            return True  # singular/plural or a one-letter typo per word
    return False


OBJECTIVE_FEEDBACK = {
    "pt": {"correct": "Correto.", "empty": "Sem resposta. A resposta é {}.",
           "unreadable_choice": "Não foi possível ler uma opção em '{}': responda com uma letra. A resposta é {}.",
           "wrong_choice": "({}) está errada. A resposta é {}.",
           "unreadable_tf": "Não foi possível ler verdadeiro/falso em '{}'. A afirmação é {}.",
           "statement": "A afirmação é {}.", "missing_term": "O termo que falta é '{}'.",
           "true": "verdadeira", "false": "falsa"},
    "es": {"correct": "Correcto.", "empty": "Sin respuesta. La respuesta es {}.",
           "unreadable_choice": "No se pudo leer una opción en '{}': responde con una letra. La respuesta es {}.",
           "wrong_choice": "({}) es incorrecta. La respuesta es {}.",
           "unreadable_tf": "No se pudo leer verdadero/falso en '{}'. La afirmación es {}.",
           "statement": "La afirmación es {}.", "missing_term": "El término que falta es '{}'.",
           "true": "verdadera", "false": "falsa"},
    "en": {"correct": "Correct.", "empty": "No answer given. The answer is {}.",
           "unreadable_choice": "Could not read a choice in '{}': answer with a letter. The answer is {}.",
           "wrong_choice": "({}) is wrong. The answer is {}.",
           "unreadable_tf": "Could not read true/false in '{}'. The statement is {}.",
           "statement": "The statement is {}.", "missing_term": "The missing term is '{}'.",
           "true": "true", "false": "false"},
}
CORRECT_FEEDBACK = frozenset(m["correct"] for m in OBJECTIVE_FEEDBACK.values())  # nothing more to say


def grade_objective(q: Question, reply: str) -> Grade | None:
    """Exact grading for mcq/tf/cloze, with feedback in the question's language; None for
    free-text questions."""
    m = OBJECTIVE_FEEDBACK.get(q.lang, OBJECTIVE_FEEDBACK["en"])
    r = reply.strip()
    if q.type == "mcq":
        right = q.correct if isinstance(q.correct, int) else None
        label = f"({chr(ord('A') + right)}) {q.correct_text}" if right is not None else q.correct_text
        if not r:
            return make_grade(q, 0, m["empty"].format(label), flags=("empty",), grader="exact")
        got = _choice_index(q, r)
        if got is None:
            return make_grade(q, 0, m["unreadable_choice"].format(r[:40], label), flags=("unreadable",),
                              grader="exact")
        if got == right:
            return make_grade(q, 3, m["correct"], grader="exact")
        return make_grade(q, 0, m["wrong_choice"].format(chr(ord("A") + got), label), grader="exact")
    if q.type == "tf":
        truth = bool(q.correct) if q.correct is not None else parse_tf(q.answer)
        got = parse_tf(r)
        word = m["true"] if truth else m["false"]
        if got is None:
            return make_grade(q, 0, m["unreadable_tf"].format(r[:40], word),
                              flags=("empty",) if not r else ("unreadable",), grader="exact")
        if got == truth:
            return make_grade(q, 3, m["correct"], grader="exact")
        return make_grade(q, 0, m["statement"].format(word), grader="exact")
    if q.type == "cloze":
        answers = [q.answer, *q.accepted]
        if r and _cloze_match(r, answers):
            return make_grade(q, 3, m["correct"], grader="exact")
        return make_grade(q, 0, m["missing_term"].format(q.answer), flags=("empty",) if not r else (),
                          grader="exact")
    return None


def with_override(grade: Grade, points: int, note: str = "") -> Grade:
    """An instructor's (or student's) override: the points are theirs, the feedback stays."""
    p = int(min(MAX_POINTS, max(0, points)))
    base = re.sub(r" \[overridden: [^\]]*\]$", "", grade.feedback)  # overriding an override: one marker
    fb = f"{base} [overridden: {note}]" if note else base
    return replace(grade, points=p, score=p / MAX_POINTS, verdict=verdict_for(p), feedback=fb, grader="override")
