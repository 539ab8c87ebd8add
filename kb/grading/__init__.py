"""How a reply is graded, in one place.

- ``base``: what every grader takes and returns (:class:`Task`, :class:`Grade`), the
  :class:`Grader` seam, an instructor's override;
- ``objective``: mcq, true/false and cloze graded exactly, after normalisation;
- ``signals``, ``roles`` and ``polarity``: what is read off a reply's words (concepts present and
  missing, a leading yes/no, keyword lists; swapped roles between two compared terms; a possible
  opposite of the model answer, for the teacher to check);
- ``offline``: the default grader (deterministic): features, the linear model and cut points fitted
  on two grading cultures (``CALIBRATION``), the guards, and feedback in the reply's language;
- ``llm``: the rubric-prompted LLM grader, with the offline grader as its fallback;
- ``calibration``: a teacher's own grades shift the cut points of one quiz;
- ``gradebook``: a class's replies read from CSV or sheets, graded, merged with earlier batches
  and overrides, and the reports written.

The names most callers need are importable from here: ``from kb.grading import OfflineGrader, Task``.
"""

from .base import MAX_POINTS, Grade, Grader, Task, make_grade, needs_judgement, verdict_for, with_override
from .objective import CORRECT_FEEDBACK, grade_objective, parse_tf
from .offline import CALIBRATION, FEATURES, OfflineGrader, compose_feedback, qwk
from .polarity import opposite_claim
from .roles import contrast_pairs, role_swap
from .signals import concept_hits, is_keyword_list, references

__all__ = [
    "CALIBRATION", "CORRECT_FEEDBACK", "FEATURES", "MAX_POINTS", "Grade", "Grader", "OfflineGrader", "Task",
    "compose_feedback", "concept_hits", "contrast_pairs", "grade_objective", "is_keyword_list", "make_grade",
    "needs_judgement", "opposite_claim", "parse_tf", "qwk", "references", "role_swap", "verdict_for",
    "with_override",
]
