"""The offline grader (default, deterministic): features, the fitted linear model and cut points
(CALIBRATION), the guards, and feedback in the reply's language."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..quiz import Question
from ..text import detect_language, language_scores, leading_sentences, sentences, words
from .base import MAX_POINTS, Grade, Task, make_grade, needs_judgement
from .feedback import FEEDBACK
from .objective import grade_objective
from .polarity import opposite_claim
from .roles import role_swap
from .signals import (
    _char_grams,
    _cosine_counts,
    _has_stem,
    answer_polarity,
    asks_for_list,
    concept_hits,
    content_stems,
    is_keyword_list,
    leading_polarity,
    quotes_a_text,
    references,
    stem,
)

if TYPE_CHECKING:
    from ..embeddings import Embedder


FEATURES = ("sim", "sim_sentence", "sim_question", "concept_sim", "coverage", "recall", "precision", "chars",
            "log_words", "short")
SEMANTIC = ("sim", "sim_sentence", "sim_question", "concept_sim", "log_words", "short")
# use-m3 cosine of a concept and a reply at or above which the concept is present (course set: 7 % of
# concept–reply pairs in complete replies pass, 0 % in wrong ones; 0.40 named wrong concepts)
CONCEPT_MATCH = 0.45
# A reply that may say the opposite of the model answer in its own words (kb.grading.polarity: a negation of a
# word it states, or a word's opposite next to the same words) is pointed out to the teacher (Grade.check),
# not graded down: on the course-domain sets written after the detector it found a contradiction or a wrong
# reply 14 times in 33 (blind sets 3–5; "os pesos do modelo original, que não são treinados" is about another
# subject), and grading those down cost more agreement than it gained (set 4 QWK 0.670 → 0.635).

# Guards that say a reply is no answer, whatever concepts it names. In any other reply a key concept is worth 1
# (the rubric's "one relevant correct idea"): on the course sets and unseen sets 2–4 teachers gave 1–2 to 11 of the 12
# replies kb graded 0 with one.
_ZEROING = frozenset({"off_topic", "copies_question", "inverted", "swapped_roles"})

# Replies a teacher graded (a quiz's calibration) grade the replies like them: the grade is blended with
# the teacher's grades of the same question's graded replies, each weighed exp(cosine / GRADED_LIKE_TAU)
# (the nearest count most). Chosen on PT_ASAG dev (36–42; tau 0.02–1, weight 0–0.75), reported on 43–50.
# Only from GRADED_LIKE_MIN graded replies of a question on: with 3–5 it cost the course sets 0.1–0.2 QWK
# (their replies are few and deliberately mixed: a contradiction is as near a right paraphrase as
# another right one) and PT_ASAG nothing (k = 5: QWK 0.635 → 0.632).
GRADED_LIKE_TAU = 0.05
GRADED_LIKE_WEIGHT = 0.3
GRADED_LIKE_MIN = 10

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
    """One reply's feature values, with the concepts found present and missing."""

    values: dict[str, float]
    present: list[str]
    missing: list[str]
    flags: list[str] = field(default_factory=list)
    crosslingual: bool = False  # the reply is in another language than the model answer
    graded_like: float | None = None  # the teacher's grade of the replies most like this one (0–3), if any
    named: list[str] = field(default_factory=list)  # the concepts whose own words the reply uses
    # across languages only meaning grades; the concepts found by their words are still in the reply
    seen: list[str] = field(default_factory=list)


class OfflineGrader:
    """Deterministic grader for free-text replies; exact grading for objective types."""

    def __init__(self, embedder: Embedder, calibration: dict[str, Any] | None = None,
                 adjust: dict[str, tuple[Sequence[float], float]] | None = None,
                 examples: dict[str, list[tuple[str, int]]] | None = None) -> None:
        self.embedder = embedder
        self.cal = calibration or CALIBRATION
        # per question id: (cut points, raw-point offset) fitted on a teacher's own grades (kb.calibration)
        self.adjust = dict(adjust or {})
        # per question id: replies the teacher graded, (reply, points); a reply like them is graded like them
        self.examples = dict(examples or {})
        self.name = "offline"
        # per student: the language evidence of every reply graded so far (kb.text.language_scores), so
        # that a reply with no language markers gets feedback in the language the student writes
        self.said: dict[str, Counter[str]] = {}

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
            graded = [(idx(r.strip()), p) for r, p in self.examples.get(t.question.id, ()) if r.strip()]
            plan.append((refs, idx(t.reply.strip() or "-"), [idx(r) for r in refs], [idx(s) for s in ref_sents],
                         idx(t.question.prompt), [idx(c) for c in t.question.concepts if c.strip()], graded))
        order = list(texts)
        vecs = self.embedder.embed_documents(order) if order else np.zeros((0, 1), dtype=np.float32)
        norms = np.linalg.norm(vecs, axis=1, keepdims=True)
        vecs = vecs / np.where(norms == 0, 1, norms)
        out = []
        for t, (refs, ri, refi, senti, qi, ci, graded) in zip(tasks, plan, strict=True):
            r = vecs[ri]
            csims = [float(x) for x in vecs[ci] @ r] if ci else []
            v = {
                "sim": float(max(vecs[refi] @ r)),
                "sim_sentence": float(max(vecs[senti] @ r)),
                "sim_question": float(vecs[qi] @ r),
                "concept_sim": sum(csims) / len(csims) if csims else float(max(vecs[senti] @ r)),
            }
            f = self._lexical(t, refs, v, csims, self.cal.get("concept_match", CONCEPT_MATCH))
            if len(graded) >= GRADED_LIKE_MIN:
                f.graded_like = graded_like(vecs[[i for i, _ in graded]] @ r, [p for _, p in graded])
            out.append(f)
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
        # named: the reply uses a concept's own words beyond the question's ('Throughput vs latência.')
        q_bag = set(content_stems(t.question.prompt))
        named, _ = concept_hits(concepts, " ".join(w for w in words(reply) if not _has_stem_of(w, q_bag)))
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
            return Features(v, sem, [c for c in concepts if c not in sem], ["other_language"], crosslingual=True,
                            seen=present)
        return Features(v, present, missing, named=named)

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
        for t in tasks:
            self.said.setdefault(t.student, Counter()).update(language_scores(t.reply))
        for i, t in enumerate(tasks):
            if needs_judgement(t):
                free.append(i)
            elif t.question.type != "short":
                out[i] = grade_objective(t.question, t.reply)
            else:
                lang = reply_language("", t.question, self.said.get(t.student))
                out[i] = make_grade(t.question, 0, compose_feedback(lang, 0, (), (),
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
        if f.graded_like is not None:
            x = (1 - GRADED_LIKE_WEIGHT) * x + GRADED_LIKE_WEIGHT * f.graded_like
        reasons: list[str] = []
        flags = list(f.flags)
        if f.crosslingual:
            reasons.append("other_language")
        if f.values["sim"] < self.cal["off_topic"] and (f.crosslingual or f.values["recall"] < 0.2) and not f.named \
                and not on_the_subject(q, reply, f):
            flags.append("off_topic")
            reasons.append("off_topic")
            x = 0.0
        # a reply of four words or more speaks its own language (detected only if it opens on "no")
        pol_ref = answer_polarity(q.prompt, references(q)[0], q.lang)
        pol_reply = leading_polarity(reply, "" if len(words(reply)) >= 4 else q.lang)
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
        opp = None if x < 0.5 or "swapped_roles" in flags else \
            opposite_claim(q.prompt, references(q), reply, q.lang or "pt")
        if opp is not None:
            flags.append("may_contradict")
        if x >= 1.5 and is_keyword_list(reply) and not asks_for_list(q.prompt):
            flags.append("keyword_list")
            reasons.append("keyword_list")
            x = min(x, 1.49)
        bare = bare_answer(q, reply, pol_ref, pol_reply)
        if bare and not _ZEROING & set(flags):
            flags.append("bare_answer")
            x = max(x, bare)
        if x < 0.5 and f.present and not _ZEROING & set(flags):
            x = 0.5  # a key concept right, and no guard says it is no answer: "one relevant correct idea" is 1
        present = f.present + [c for c in f.seen if c not in f.present]  # what the student reads
        missing = [c for c in f.missing if c not in present]
        g = make_grade(q, x, "", score=x / MAX_POINTS, present=present, missing=missing, flags=flags,
                       grader=self.name)
        lang = reply_language(reply, q, self.said.get(task.student))
        detail = swap.terms if swap is not None and swap.clear else ("", "")
        check = FEEDBACK.get(q.lang, FEEDBACK["en"])["may_contradict"].format(opp.said, opp.instead) if opp else ""
        return replace(g, feedback=compose_feedback(lang, g.points, present, missing, reasons, references(q)[0],
                                                    detail), check=check)


# A reply whose words are mostly the model answer's or the question's (precision), or that shares two of the
# question's own words, is on the subject whatever its meaning similarity; and a model answer of under three
# content words ("Unlimited number") is too short for a similarity to it to say a reply is off the subject. On
# the unseen course sets 6-7 the guard zeroed 4 terse right replies ("mais epocas locais", "termo proximal";
# graded 1-2); on PT_ASAG dev 12 replies graded 0 by the graders lose the guard (kb then grades them 0-1).
ON_SUBJECT_PRECISION = 0.5
ON_SUBJECT_SHARED = 2
SHORT_REFERENCE = 3


def on_the_subject(q: Question, reply: str, f: Features) -> bool:
    """The reply is about the question's subject, or the model answer is too short to tell: the
    off-topic guard must not zero it."""
    if f.values["precision"] >= ON_SUBJECT_PRECISION and not f.crosslingual:
        return True
    if len(set(content_stems(reply)) & set(content_stems(q.prompt))) >= ON_SUBJECT_SHARED:
        return True
    return max((len(content_stems(r)) for r in references(q)), default=0) < SHORT_REFERENCE


def graded_like(sims: Any, points: Sequence[float]) -> float:
    """The teacher's grade of the graded replies nearest a reply: their points weighed by
    exp(cosine / GRADED_LIKE_TAU), so that a reply much like one graded reply takes its grade and one
    equally far from all takes their mean."""
    import numpy as np

    s = np.asarray(sims, float)
    w = np.exp((s - s.max()) / GRADED_LIKE_TAU)
    return float((w * np.asarray(points, float)).sum() / w.sum())


def copies_question(q: Question, reply: str, f: Features) -> bool:
    """The reply only restates the question: (almost) every content word comes from the prompt,
    little of the model answer is there, and it is nearer in meaning to the question than to the
    answer. A yes/no reply built from the question's words ('Não, cada variável só pode ser usada no
    dispositivo…') answers it and is not a copy (the caller checks the leading yes/no)."""
    reply_stems = content_stems(reply)
    if not reply_stems or f.crosslingual or quotes_a_text(q.prompt):
        return False
    q_bag = set(content_stems(q.prompt))
    new = [s for s in reply_stems if not _has_stem(s, q_bag)]
    # a word of the model answer the question does not have is an answer ('taint = nó, toleration = pod')
    answer_bag = set(content_stems(" ".join([*references(q), *q.concepts])))
    if any(_has_stem(s, answer_bag) for s in new):
        return False
    # a restatement, not a short reply that reuses a term or two of the question ('map e reduce')
    restates = len(set(reply_stems)) >= max(3, 0.4 * len(q_bag))
    return restates and len(new) <= max(1, len(reply_stems) // 5) and f.values["recall"] < 0.5 \
        and f.values["sim_question"] >= f.values["sim"]


# A model answer of this many words or fewer ("Unlimited number", "The GIL") is all a bare answer can say.
# (Sparing replies to such a model answer from the off-topic guard was tried and dropped: on PT_ASAG dev it
# gave back a point to a recipe and to "prefiro não falar"; sparing replies that use two of the question's
# content words gave 3 points to a pasted song page on 43–50.)
SHORT_REFERENCE_WORDS = 4


# Bare answers: a reply of BARE_WORDS words or fewer that is the model answer's yes/no, or whose content
# words are all those of a model answer of a few words and not all the question's ("Sim.", "GIL." to "The
# GIL", "Mitose."), is judged on what it says, not on its length: the linear model reads a word or two as
# far from any model answer.
BARE_WORDS = 3


def bare_answer(q: Question, reply: str, pol_ref: str | None, pol_reply: str | None) -> float:
    """The least a bare right answer is worth (0 when the reply is not one): a short model answer's
    every content word, or its bare yes/no when it is just that, is full marks (2.5 and up); some of a
    short model answer's words, or a yes/no that opens a longer one, one relevant correct idea (0.5: 1 point)."""
    n = len(words(reply))
    if not n or n > BARE_WORDS:
        return 0.0
    refs = references(q)
    stems = set(content_stems(reply)) - {stem(w) for w in _YES_NO_WORDS}
    short_ref = [r for r in refs if len(words(r)) <= SHORT_REFERENCE_WORDS]
    if not stems:  # a bare yes or no
        if not (pol_ref and pol_reply == pol_ref):
            return 0.0
        return 2.5 if any(len(content_stems(r)) <= 1 for r in refs) else 0.5
    q_bag = set(content_stems(q.prompt))
    for r in short_ref:  # a longer model answer explains: PT_ASAG dev graders gave "pele" and "Respiração
        r_bag = set(content_stems(r))  # celular." 0 against one, and this rule 1
        if r_bag and all(_has_stem(s, r_bag) for s in stems) and not all(_has_stem(s, q_bag) for s in stems):
            return 2.5 if all(_has_stem(s, stems) for s in r_bag) else 0.5
    return 0.0


_YES_NO_WORDS = ("sim", "si", "yes", "nao", "no", "not")


def _has_stem_of(word: str, bag: set[str]) -> bool:
    """Every content stem of the word is in the bag (a function word has none: it is in no bag)."""
    stems = content_stems(word)
    return bool(stems) and all(_has_stem(x, bag) for x in stems)


# Function words one of pt and es writes and the other never does ("tu lado", "en la GPU" / "seu lado", "na GPU"):
# a short reply has few of kb.text's markers, and "está" (both) tied "No toda persona que está a tu lado…"
# with Portuguese, which won the tie. Used for the feedback's language only: the grade's other-language
# fit keeps kb.text's detection (with these words it graded one Spanish reply of unseen set 8 on meaning
# alone, 0.32 → 0.27 of 3, Pearson 0.511 → 0.509).
_ONLY_IN = {"pt": frozenset("um com em na nas seu sua ou".split()),
            "es": frozenset("la las lo un con en su sus tu hay".split())}


def reply_language(reply: str, q: Question, said: Mapping[str, int] | None = None) -> str:
    """The language feedback is written in: the reply's when it can be told (≥ 4 words; a tie between
    languages is no evidence), else the language the student writes in (``said``: the evidence of all
    their replies), else the question's. A student writing Portuguese to Spanish questions reads
    Portuguese on every reply, not only on those with a Portuguese marker word."""
    fallback = q.lang if q.lang in FEEDBACK else detect_language(q.prompt + " " + q.answer, "en")
    if said and max(said.values(), default=0) >= 2:
        top = max(sorted(said), key=lambda k: said[k])
        if sorted(said.values())[-2:] != [said[top], said[top]]:  # a tie tells nothing
            fallback = top
    if len(words(reply)) < 4:
        return fallback
    scores = language_scores(reply)
    for w in words(reply.lower()):
        for lang, only in _ONLY_IN.items():
            scores[lang] += w in only
    best = max(scores, key=lambda k: scores[k])
    tied = sum(v == scores[best] for v in scores.values()) > 1
    return best if scores[best] >= 2 and not tied else fallback


_EXPECTED_MAX_CHARS = 400  # the model answer shown in feedback; longer ones end at a sentence. Set by hand.


def expected_text(reference: str) -> str:
    """The model answer as feedback shows it: whole, on one line ("1. Lê. 2. Grava." stays whole,
    never "1."); past _EXPECTED_MAX_CHARS, the sentences that fit, then "…"."""
    text = " ".join(reference.split())
    if len(text) <= _EXPECTED_MAX_CHARS:
        return text
    kept = leading_sentences(text, _EXPECTED_MAX_CHARS)
    return (kept or text[:_EXPECTED_MAX_CHARS - 1].rstrip()) + " …"


def compose_feedback(lang: str, points: int, present: Sequence[str], missing: Sequence[str],
                     reasons: Sequence[str], reference: str, detail: Sequence[str] = ("", "")) -> str:
    """The verdict, the guards' reasons, what was right and missing, and why a grade is partial
    (``detail``: the two terms whose roles the reply exchanges, for that reason)."""
    m = FEEDBACK.get(lang, FEEDBACK["en"])
    parts = [m[str(points)]] + [m[r].format(*detail) if r == "swapped_roles" else m[r]
                                for r in reasons if r in m]
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
        parts.append(m["expected"].format(expected_text(reference)))
    return " ".join(parts)
