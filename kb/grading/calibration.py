"""Per-quiz calibration from the teacher's own grades.

The offline grader's default level was fitted on other people's grading (kb.grading.CALIBRATION).
A teacher who grades a handful of replies — a ``graded.csv`` given to ``kb grade --calibrate``, or
overrides typed into ``grades.csv`` — tells kb where *their* cut points lie. From those examples:

- the quiz's three cut points (raw points → 0 | 1 | 2 | 3) are shifted together by the amount that
  maximises quadratic weighted kappa on the examples (ties go to no shift; three free cut points
  overfit a handful of examples);
- each question with examples gets a raw-point offset, the mean of (teacher − kb) shrunk towards 0
  (``SHRINK`` pseudo-examples), so one question graded more generously moves alone;
- the graded replies themselves are kept: once a question has 10 of them, a reply like one the teacher
  graded is graded partly like it (:func:`kb.grading.offline.graded_like`; PT_ASAG 43–50 with 10 graded
  replies per question: Pearson 0.688 → 0.711, QWK 0.635 → 0.660), and an LLM grader takes the
  nearest as few-shot examples;
- the agreement on the teacher's examples is measured leave-one-out (each example graded by a
  calibration fitted on the others) and stored with the calibration.

The calibration lives beside the quiz (``quizzes/week3.json`` → ``quizzes/week3.calibration``, JSON,
not ``*.json`` so that quiz globs never pick it up) and is used by ``kb grade`` and ``kb study``.
Replies where a guard fired (empty, off-topic, contradiction…) are graded by the guard, not refitted.
"""

from __future__ import annotations

import json
import math
import random
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from ..errors import InputError
from ..i18n import Message
from .base import MAX_POINTS, Task, needs_judgement
from .offline import OfflineGrader, graded_like, qwk
from .replies import _resolve_qid, read_csv, read_text_file

if TYPE_CHECKING:
    from ..quiz import Quiz

SUFFIX = ".calibration"
SHRINK = 3.0  # a question's offset is sum(teacher − kb) / (its examples + SHRINK)
ZEROING_FLAGS = frozenset({"off_topic", "inverted", "swapped_roles", "copies_question", "empty", "dont_know"})


@dataclass(frozen=True)
class Calibration:
    """A teacher's level for one quiz: the shifted cut points, a per-question offset, how many graded
    replies it was fitted on, the leave-one-out agreement with them, and the graded replies."""

    cuts: tuple[float, float, float]
    offsets: dict[str, float] = field(default_factory=dict)  # question id → raw-point shift
    examples: int = 0
    agreement: dict[str, Any] = field(default_factory=dict)  # leave-one-out on the teacher's examples
    graded: dict[str, list[tuple[str, int]]] = field(default_factory=dict)  # question id → (reply, points)

    def adjust(self, question_ids: Sequence[str]) -> dict[str, tuple[Sequence[float], float]]:
        """What :class:`kb.grading.OfflineGrader` takes: per question id, (cuts, offset)."""
        return {q: (self.cuts, self.offsets.get(q, 0.0)) for q in question_ids}

    def grader(self, base: OfflineGrader, question_ids: Sequence[str]) -> OfflineGrader:
        """``base`` grading at this level: its cut points and offsets, and the graded replies."""
        return OfflineGrader(base.embedder, base.cal, self.adjust(question_ids),
                             {q: v for q, v in self.graded.items() if q in set(question_ids)})

    def to_json(self) -> dict[str, Any]:
        """The calibration as a JSON object (schema 2: schema 1 and the graded replies)."""
        return {"schema": 2, "cuts": list(self.cuts), "offsets": self.offsets, "examples": self.examples,
                "agreement": self.agreement,
                "graded": {q: [[r, p] for r, p in v] for q, v in self.graded.items()}}

    @classmethod
    def from_json(cls, d: Any) -> Calibration:
        """Read a calibration file's object; ValueError naming the bad field."""
        cuts = d.get("cuts") if isinstance(d, dict) else None
        # JSON as Python reads it allows NaN and Infinity: a NaN cut point compares false with every
        # score and would grade every reply 0 without a word
        if not (isinstance(cuts, list) and len(cuts) == 3 and all(_finite(c) for c in cuts)
                and cuts == sorted(cuts)):
            raise ValueError("'cuts' must be three increasing finite numbers")
        offsets = d.get("offsets") or {}
        if not isinstance(offsets, dict) or not all(_finite(v) for v in offsets.values()):
            raise ValueError("'offsets' must map question ids to finite numbers")
        graded = d.get("graded") or {}  # absent in schema 1
        if not isinstance(graded, dict) or not all(
                isinstance(v, list) and all(isinstance(x, list) and len(x) == 2 and isinstance(x[0], str)
                                            and isinstance(x[1], int) and 0 <= x[1] <= MAX_POINTS for x in v)
                for v in graded.values()):
            raise ValueError("'graded' must map question ids to [reply, points 0-3] pairs")
        return cls((float(cuts[0]), float(cuts[1]), float(cuts[2])), {str(k): float(v) for k, v in offsets.items()},
                   int(d.get("examples") or 0), dict(d.get("agreement") or {}),
                   {str(q): [(r, p) for r, p in v] for q, v in graded.items()})


def _finite(x: Any) -> bool:
    """A real number (not a bool), neither NaN nor infinite."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def calibration_path(quiz_path: Path) -> Path:
    """The calibration file kept next to the quiz file."""
    return quiz_path.with_name(quiz_path.stem + SUFFIX)


def load_calibration(quiz_path: Path) -> Calibration | None:
    """The calibration stored beside ``quiz_path``, or None. A damaged file is an error naming the fix."""
    path = calibration_path(quiz_path)
    if not path.exists():
        return None
    try:
        return Calibration.from_json(json.loads(path.read_text(encoding="utf-8")))
    except RecursionError:  # nested past Python's recursion limit: not one of ours
        raise InputError("{path}: not a kb calibration (nested too deeply to read)",
                         "delete it, or refit it with kb grade {quiz_path} REPLIES --calibrate graded.csv",
                         path=path, quiz_path=quiz_path) from None
    except (OSError, ValueError) as e:
        raise InputError("{path}: not a kb calibration ({error})",
                         "delete it, or refit it with kb grade {quiz_path} REPLIES --calibrate graded.csv",
                         path=path, error=e, quiz_path=quiz_path) from e


def save_calibration(quiz_path: Path, cal: Calibration) -> Path:
    """Write the calibration next to the quiz (atomically); returns its path."""
    from ..quiz import write_atomic

    path = calibration_path(quiz_path)
    write_atomic(path, json.dumps(cal.to_json(), ensure_ascii=False, indent=2) + "\n")
    return path


# --------------------------------------------------------------------------- fitting

@dataclass
class _Example:
    question_id: str
    raw: float  # the default grader's raw points
    teacher: int
    guarded: bool  # a zeroing guard fired: the guard grades it, not the cut points
    vec: Any = None  # the reply's unit vector, for the graded replies like it


def _examples(grader: OfflineGrader, graded: Sequence[tuple[Task, int]]) -> list[_Example]:
    import numpy as np

    free = [(t, p) for t, p in graded if needs_judgement(t)]  # exact types and empty replies need no level
    base = OfflineGrader(grader.embedder, grader.cal)
    feats = base.features([t for t, _ in free])
    grades = [base._judge(t, f) for (t, _), f in zip(free, feats, strict=True)]
    vecs = [v / (np.linalg.norm(v) or 1.0)
            for v in (grader.embedder.embed_documents([t.reply.strip() for t, _ in free]) if free else ())]
    return [_Example(t.question.id, base.raw_points(f), int(p), bool(ZEROING_FLAGS & set(g.flags)), v)
            for (t, p), f, g, v in zip(free, feats, grades, vecs, strict=True)]


def _fit(exs: Sequence[_Example], default_cuts: Sequence[float]) -> Calibration:
    import numpy as np

    use = [e for e in exs if not e.guarded]
    if not use:
        return Calibration(tuple(default_cuts), {}, len(exs))  # type: ignore[arg-type]
    raw, teacher = np.array([e.raw for e in use]), np.array([e.teacher for e in use])
    # one shift of all three cut points, for quadratic weighted kappa on the examples, then the smallest mean
    # error (kappa is flat when the teacher gave one grade), then no shift: three free cut points overfit a
    # handful of examples (PT_ASAG 43-50, k = 10 per question: QWK 0.634 free vs 0.654 shifted)
    best_key, shift = (-2.0, -9.0, 0.0), 0.0
    for delta in np.round(np.arange(-1.0, 1.001, 0.05), 2):
        pts = (raw[:, None] >= np.asarray(default_cuts) + delta).sum(1)
        key = (round(qwk(teacher, pts), 6), -round(float(np.abs(pts - teacher).mean()), 6), -abs(float(delta)))
        if key > best_key:
            best_key, shift = key, float(delta)
    c0, c1, c2 = (round(float(c) + shift, 3) for c in default_cuts)
    cuts = (c0, c1, c2)
    probe = OfflineGrader.__new__(OfflineGrader)
    resid: dict[str, list[float]] = defaultdict(list)
    for e in use:
        resid[e.question_id].append(e.teacher - OfflineGrader.scaled(probe, e.raw, cuts))
    # a point of grade is about (cut gap) raw points: turn the mean grade gap into a raw shift
    gap = (cuts[2] - cuts[0]) / 2 or 0.5
    offsets = {q: round(sum(r) / (len(r) + SHRINK) * gap, 4) for q, r in resid.items()}
    return Calibration(cuts, {q: o for q, o in offsets.items() if o}, len(exs))


def _predict(cal: Calibration, e: _Example, others: Sequence[_Example] = ()) -> int:
    """``e``'s points at level ``cal``, graded partly like ``others`` of its question (as OfflineGrader does)."""
    import numpy as np

    from .offline import GRADED_LIKE_MIN, GRADED_LIKE_WEIGHT

    if e.guarded:
        return 0
    probe = OfflineGrader.__new__(OfflineGrader)
    x = OfflineGrader.scaled(probe, e.raw + cal.offsets.get(e.question_id, 0.0), cal.cuts)
    like = [o for o in others if o.question_id == e.question_id]
    if len(like) >= GRADED_LIKE_MIN and e.vec is not None:
        near = graded_like(np.array([o.vec for o in like]) @ e.vec, [o.teacher for o in like])
        x = (1 - GRADED_LIKE_WEIGHT) * x + GRADED_LIKE_WEIGHT * near
    return int(min(MAX_POINTS, max(0, math.floor(x + 0.5))))


def _agreement(teacher: Sequence[int], kb: Sequence[int]) -> dict[str, Any]:
    import numpy as np

    t, k = np.asarray(teacher, float), np.asarray(kb, float)
    pearson = float(np.corrcoef(t, k)[0, 1]) if len(t) > 1 and t.std() and k.std() else 0.0
    return {"n": len(t), "teacher_mean": round(float(t.mean()), 3) if len(t) else None,
            "kb_mean": round(float(k.mean()), 3) if len(k) else None, "pearson": round(pearson, 3),
            "qwk": round(qwk(t.astype(int), k.astype(int)), 3) if len(t) else None,
            "exact": round(float((t == k).mean()), 3) if len(t) else None}


def fit_calibration(grader: OfflineGrader, graded: Sequence[tuple[Task, int]], *,
                    leave_one_out: bool = True) -> Calibration:
    """A calibration from teacher-graded replies, with its leave-one-out agreement (and that of the
    default level on the same examples, for comparison)."""
    if not graded:
        raise InputError("no teacher-graded replies to calibrate on",
                         "give a CSV with question_id, answer and points (0-3) for a few replies per question")
    exs = _examples(grader, graded)
    default = tuple(grader.cal["cuts"])
    cal = _fit(exs, default)
    agreement: dict[str, Any] = {}
    if leave_one_out and exs:
        loo = [_predict(_fit(exs[:i] + exs[i + 1:], default), e, exs[:i] + exs[i + 1:]) for i, e in enumerate(exs)]
        agreement = {"leave_one_out": _agreement([e.teacher for e in exs], loo),
                     "default": _agreement([e.teacher for e in exs],
                                           [_predict(Calibration(default), e) for e in exs])}
    kept: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for t, p in graded:
        if needs_judgement(t):  # the replies a level grades; exact types and empty ones are graded by rule
            kept[t.question.id].append((t.reply.strip(), int(p)))
    return Calibration(cal.cuts, cal.offsets, len(graded), agreement, dict(kept))


def sample_per_question(keys: Sequence[str], k: int, seed: int = 0) -> list[int]:
    """Indices of ``k`` rows per question key (seeded, so a measurement can be rerun)."""
    by: dict[str, list[int]] = defaultdict(list)
    for i, key in enumerate(keys):
        by[key].append(i)
    out: list[int] = []
    for key in sorted(by):
        idx = by[key][:]
        # one generator per question: a shared seed would pick the same positions in every question of the
        # same size, and the same kinds of reply where files list them in the same order
        random.Random(f"{seed}:{key}").shuffle(idx)
        out += idx[:k]
    return sorted(out)


# --------------------------------------------------------------------------- the teacher's file

def read_graded(path: Path, quiz: Quiz) -> tuple[list[tuple[str, str, int]], list[str]]:
    """(question id, answer, points) rows of a teacher-graded CSV: columns ``question_id``,
    ``answer`` and ``points`` (0–3; ``score`` or ``grade`` also read), ``student`` optional.
    Bad rows are notes naming the line, not fatal."""
    text, _ = read_text_file(path)
    header = text.split("\n", 1)[0].lower()
    col = next((c for c in ("points", "score", "grade") if c in header), "points")
    rows, notes = read_csv(path, required=("question_id", "answer", col))
    out = []
    for r in rows:
        where = f"{path}:{r['_line']}"
        qid = _resolve_qid(quiz, r["question_id"])
        if qid is None:
            notes.append(Message("{where}: unknown question id '{qid}' — row skipped; use an id from the quiz or its "
                                 "number 1–{n}", where=where, qid=r["question_id"].strip(), n=len(quiz.questions)))
            continue
        try:
            p = float(r[col].strip().replace(",", "."))
            if not 0 <= p <= MAX_POINTS:
                raise ValueError
        except ValueError:
            notes.append(Message("{where}: {column} '{value}' is not 0–3 — row skipped; write 0, 1, 2 or 3",
                                 where=where, column=col, value=r[col].strip()))
            continue
        out.append((qid, r["answer"], int(p + 0.5)))
    return out, notes


# --------------------------------------------------------------------------- kb grade / kb study

MIN_OVERRIDES = 5  # overrides in grades.csv refit the quiz's calibration from this many on


def use(grader: Any, adjust: dict[str, tuple[Sequence[float], float]],
        graded: dict[str, list[tuple[str, int]]] | None = None) -> None:
    """Make ``grader`` (offline, or an LLM grader's offline fallback) grade with ``adjust`` and the
    teacher's ``graded`` replies (an LLM grader also takes them as few-shot examples)."""
    target = grader if isinstance(grader, OfflineGrader) else getattr(grader, "offline", None)
    if isinstance(target, OfflineGrader):
        target.adjust.update(adjust)
        target.examples.update(graded or {})
    shots = getattr(grader, "examples", None)
    if shots is not None and shots is not getattr(target, "examples", None):
        for qid, pairs in (graded or {}).items():
            have = shots.setdefault(qid, [])
            have.extend(x for x in pairs if x not in have)


@dataclass
class QuizCalibration:
    """What `kb grade` used for a quiz: the calibration (or none), where it is stored, whether this run
    refitted it and notes to show."""

    calibration: Calibration | None
    path: Path
    refitted: bool = False  # fitted on this run (else loaded, or none)
    notes: list[str] = field(default_factory=list)


def calibrate_quiz(quiz_path: Path, quiz: Quiz, grader: OfflineGrader, graded: Path | None = None,
                   overridden: Sequence[tuple[str, str, int]] = ()) -> QuizCalibration:
    """The calibration ``kb grade`` uses for ``quiz``: refitted from ``graded`` (a teacher-graded CSV)
    plus the ``overridden`` (question id, reply, points) of grades.csv — from the overrides alone when
    there are at least MIN_OVERRIDES of them — and stored beside the quiz; else the stored one."""
    rows, notes = read_graded(graded, quiz) if graded is not None else ([], [])
    examples = list(rows) + list(overridden)
    path = calibration_path(quiz_path)
    if graded is not None and not rows:
        raise InputError("{graded}: no usable teacher-graded row",
                         "each row needs a question_id from the quiz, the answer and points 0-3",
                         graded=graded)
    if graded is not None or len(overridden) >= MIN_OVERRIDES:
        tasks = [(Task(quiz.question(qid), reply), pts) for qid, reply, pts in examples]  # type: ignore[arg-type]
        cal = fit_calibration(grader, tasks)
        save_calibration(quiz_path, cal)
        return QuizCalibration(cal, path, True, notes)
    return QuizCalibration(load_calibration(quiz_path), path, False, notes)


def calibrate_grader(grader: Any, quiz_path: Path, quiz: Quiz, graded: Path | None,
                     overrides: dict[tuple[str, str], tuple[int, str]],
                     answers: dict[tuple[str, str], str]) -> QuizCalibration:
    """What ``kb grade`` does before grading: fit (or load) the quiz's calibration from ``graded`` and
    the instructor's ``overrides`` of the replies in ``answers`` ((student, question) → reply), make
    ``grader`` use it and its graded replies, with the overridden ones (an LLM grader takes them as
    few-shot examples)."""
    overridden = [(qid, answers[(s, qid)], p) for (s, qid), (p, _) in overrides.items() if (s, qid) in answers]
    qc = calibrate_quiz(quiz_path, quiz, getattr(grader, "offline", grader), graded, overridden)
    ids = [q.id for q in quiz.questions]
    cal = qc.calibration
    use(grader, cal.adjust(ids) if cal is not None else {}, _graded_replies(cal, overridden, ids))
    return qc


def _graded_replies(cal: Calibration | None, overridden: Sequence[tuple[str, str, int]],
                    question_ids: Sequence[str]) -> dict[str, list[tuple[str, int]]]:
    """Per question, the calibration's graded replies and the overridden ones (a reply graded twice
    keeps its latest points: the override)."""
    out: dict[str, dict[str, int]] = defaultdict(dict)
    for qid, pairs in (cal.graded if cal is not None else {}).items():
        out[qid].update((r.strip(), p) for r, p in pairs)
    for qid, reply, pts in overridden:
        if reply.strip():
            out[qid][reply.strip()] = pts
    return {q: list(v.items()) for q, v in out.items() if q in set(question_ids)}


def study_adjustments(quizzes: Sequence[tuple[str, Quiz]]) -> tuple[
        dict[str, tuple[Sequence[float], float]], dict[str, list[tuple[str, int]]], list[str]]:
    """Per question id, the stored calibrations of the quizzes being studied (cuts and offset, and the
    teacher's graded replies); a damaged one is a note (the default level is used for that quiz),
    never a stop."""
    out: dict[str, tuple[Sequence[float], float]] = {}
    graded: dict[str, list[tuple[str, int]]] = {}
    notes: list[str] = []
    for path, quiz in quizzes:
        try:
            cal = load_calibration(Path(path))
        except InputError as e:
            notes.append(Message("{error} — default grading level used; {fix}", error=e,
                                 fix=Message(e.hint_template, **e.fields)))
            continue
        if cal is not None:
            ids = [q.id for q in quiz.questions]
            out.update(cal.adjust(ids))
            graded.update(_graded_replies(cal, (), ids))
    return out, graded, notes
