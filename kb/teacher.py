"""The teacher's review decisions as data for the question writers (issue 27).

``kb quiz review`` writes each decision into the quiz file (the question's ``status``) and also
into one file per course, beside the quizzes: ``<quiz folder>/teacher.decisions`` (JSON, not
``*.json``: ``kb study`` reads every ``quizzes/*.json`` as a quiz). It holds, per question id, the
question's *pattern* (``type:origin``, e.g. ``tf:tf``, ``short:definition``) and what the teacher
did with it (kept, edited, dropped, replaced), and the per-pattern weights computed from them.

Two writers read it:

- the offline writer prefers the patterns this teacher keeps: each draft's priority moves by
  ``PATTERN_SCALE × weight`` of its pattern (:class:`TeacherWriter`);
- the LLM writer is shown the kept and edited questions of the course's quizzes nearest to the
  passages it writes from, as few-shot examples (:func:`teacher_examples`, :func:`examples_prompt`).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import InputError
from .quiz import REVIEWED, Question, load_quiz, write_atomic
from .text import STOPWORDS, fold, words

DECISIONS_FILE = "teacher.decisions"
DECISIONS = ("kept", "edited", "dropped", "replaced")
# how much a decision says the teacher wants this pattern: an edited question was worth fixing,
# a dropped or replaced one was not (set by hand, not measured)
_WORTH = {"kept": 1.0, "edited": 0.6, "dropped": 0.0, "replaced": 0.0}
# the offline writer's draft priorities run from about 2.0 to 3.3, patterns apart by 0.1–0.4, and
# selection weighs types against each other among a section's drafts within 0.5 of its best: a
# pattern the teacher drops every time (weight near -0.5, so -1.0) leaves that window, one they keep
# every time moves ahead of the rest (set by hand; see tests/writing/test_review.py for the effect)
PATTERN_SCALE = 2.0


def decisions_path(quiz_dir: Path) -> Path:
    """Where the course's review decisions and pattern weights are stored: beside its quizzes."""
    return Path(quiz_dir) / DECISIONS_FILE


def pattern(q: Question) -> str:
    """What the writer did to make ``q``: its type and origin (``short:definition``, ``mcq:llm``)."""
    return f"{q.type}:{q.origin or 'other'}"


def load_decisions(quiz_dir: Path) -> dict[str, Any]:
    """The stored decisions file (``{"decisions": {...}, "weights": {...}}``), empty when there is none."""
    path = decisions_path(quiz_dir)
    if not path.exists():
        return {"schema": 1, "decisions": {}, "weights": {}}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or not isinstance(data.get("decisions"), dict):
            raise ValueError("no \"decisions\" object")
        for qid, d in data["decisions"].items():
            if not isinstance(d, dict) or d.get("decision") not in DECISIONS or not isinstance(d.get("pattern"), str):
                raise ValueError(f"question {qid} has no valid \"decision\" and \"pattern\"")
    except (OSError, ValueError) as e:
        raise InputError("{path}: not kb's record of review decisions ({error})",
                         "delete it: kb quiz review writes it again from the next decision",
                         path=path, error=e) from e
    return data


def pattern_weights(decisions: dict[str, dict[str, Any]]) -> dict[str, float]:
    """Per pattern, how much the teacher keeps it, from -0.5 (always dropped) to +0.5 (always kept):
    the Laplace-smoothed share of its worth minus one half, so one decision moves it little."""
    worth: dict[str, float] = {}
    seen: Counter[str] = Counter()
    for d in decisions.values():
        worth[d["pattern"]] = worth.get(d["pattern"], 0.0) + _WORTH[d["decision"]]
        seen[d["pattern"]] += 1
    return {p: round((worth[p] + 1) / (seen[p] + 2) - 0.5, 4) for p in sorted(seen)}


def record_decision(quiz_dir: Path, question: Question, decision: str, quiz_name: str) -> Path:
    """Store what the teacher did with ``question`` (one entry per question id: a later decision on the
    same question replaces the earlier one) and the weights recomputed from all; written atomically."""
    if decision not in DECISIONS:
        raise ValueError(f"unknown decision {decision!r}")
    data = load_decisions(quiz_dir)
    data["decisions"][question.id] = {"pattern": pattern(question), "decision": decision, "quiz": quiz_name}
    data["weights"] = pattern_weights(data["decisions"])
    data["schema"] = 1
    path = decisions_path(quiz_dir)
    write_atomic(path, json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n")
    return path


# --------------------------------------------------------------------------- offline writer


@dataclass
class TeacherWriter:
    """A question writer (the seam of :mod:`kb.writing.generate`) that prefers the patterns this
    course's teacher kept: it moves each draft's priority by its pattern's weight. With no
    decisions stored it changes nothing."""

    inner: Any
    weights: dict[str, float] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The wrapped writer's name (``offline`` or the LLM model): the quiz records that one."""
        return self.inner.name

    @property
    def generator(self) -> Any:
        """The wrapped writer's record of the run (LLM output mode and usage), which the quiz keeps."""
        return getattr(self.inner, "generator", None)

    def write(self, passages, request, course):
        """The wrapped writer's drafts, re-weighted by the teacher's decisions."""
        out = self.inner.write(passages, request, course)
        for d in out.drafts:
            d.priority += PATTERN_SCALE * self.weights.get(pattern(d.question), 0.0)
        return out


def with_teacher(writer: Any, quiz_dir: Path) -> Any:
    """``writer`` taught by the decisions stored in ``quiz_dir``: the offline patterns re-weighted and,
    for a writer that takes them (``teacher_dir``), the kept questions as examples."""
    if hasattr(writer, "teacher_dir"):
        writer.teacher_dir = Path(quiz_dir)
    weights = load_decisions(quiz_dir).get("weights") or {}
    return TeacherWriter(writer, {str(k): float(v) for k, v in weights.items()}) if weights else writer


# --------------------------------------------------------------------------- LLM writer


@dataclass(frozen=True)
class Example:
    """A question the teacher kept or edited, with the passage quote it was written from."""

    question: Question
    quiz: str
    similarity: float


def _bag(text: str) -> Counter[str]:
    return Counter(w for w in (fold(x) for x in words(text)) if len(w) > 2 and w not in STOPWORDS)


def _cosine(a: Counter[str], b: Counter[str]) -> float:
    dot = sum(v * b[k] for k, v in a.items() if k in b)
    na, nb = math.sqrt(sum(v * v for v in a.values())), math.sqrt(sum(v * v for v in b.values()))
    return dot / (na * nb) if na and nb else 0.0


def reviewed_questions(quiz_dir: Path) -> list[tuple[str, Question]]:
    """Every kept or edited question of the quizzes in ``quiz_dir`` (unreadable quiz files are skipped:
    they are reported by the commands that read them)."""
    out = []
    for path in sorted(Path(quiz_dir).glob("*.json")):
        try:
            quiz = load_quiz(path)
        except InputError:
            continue
        out += [(path.name, q) for q in quiz.questions if q.status in REVIEWED]
    return out


def teacher_examples(quiz_dir: Path | None, passage_text: str, k: int = 3, lang: str | None = None) -> list[Example]:
    """The ``k`` kept or edited questions of the course (``quiz_dir``) whose prompt, answer and cited quote
    are nearest to ``passage_text`` (word cosine), in ``lang`` when it has any; most similar first."""
    if quiz_dir is None or not Path(quiz_dir).is_dir():
        return []
    found = reviewed_questions(Path(quiz_dir))
    if lang and any(q.lang == lang for _, q in found):
        found = [(n, q) for n, q in found if q.lang == lang]
    target = _bag(passage_text)
    scored = [Example(q, name, _cosine(target, _bag(" ".join([q.prompt, q.answer, *(c.quote for c in q.citations)]))))
              for name, q in found]
    scored.sort(key=lambda e: (-e.similarity, e.quiz, e.question.id))
    return scored[:k]


def example_json(q: Question) -> dict[str, Any]:
    """An example question as the LLM writer's reply format has it (no id, citations or status)."""
    d: dict[str, Any] = {"type": q.type, "prompt": q.prompt, "answer": q.answer}
    if q.type == "mcq":
        d.update(choices=list(q.choices), correct=q.correct)
    if q.type == "tf":
        d["correct"] = q.correct
    d["concepts"] = list(q.concepts)
    d["difficulty"] = q.difficulty
    return d


def examples_prompt(quiz_dir: Path | None, passages: Sequence[Any], k: int = 3) -> str:
    """The few-shot block the LLM writer appends to its prompt: the teacher's kept questions nearest to
    ``passages`` (chunks), or "" when the course has none."""
    if not passages:
        return ""
    text = "\n".join(getattr(c, "text", str(c)) for c in passages)
    found = teacher_examples(quiz_dir, text, k, lang=getattr(passages[0], "lang", None))
    if not found:
        return ""
    lines = "\n".join(json.dumps(example_json(e.question), ensure_ascii=False) for e in found)
    return ("\n\nQuestions this course's teacher reviewed and kept (write in their style and at their level; "
            f"never copy them):\n{lines}")
