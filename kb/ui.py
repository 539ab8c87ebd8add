"""Terminal rendering with rich. Services never import this; the CLI does.

Messages and progress go to stderr; data goes to stdout. Colour follows rich's rules
(off when piped or when ``NO_COLOR`` is set); progress bars only on a terminal.

This module is the one name callers import (``from kb import ui``); what it shows lives beside it,
one module per thing shown:

- :mod:`kb.ui_console`: the consoles, ``print_json``, ``message`` and ``error`` (every other module prints through it)
- :mod:`kb.ui_progress`: the ingest bar, and the LLM requests' bar with its notes
- :mod:`kb.ui_store`: ingest's report, ``kb sources``, search hits, ``kb ask``, the retrieval and ask evaluations
- :mod:`kb.ui_quiz`: a quiz, ``kb quiz generate``'s summary, defects in words, ``kb outline``, ``kb eval quiz``
- :mod:`kb.ui_grade`: the calibration, the class report, ``kb grade``'s result, ``kb eval grader``
- :mod:`kb.ui_study`: the end of a ``kb study`` session and ``kb progress``
- :mod:`kb.ui_review`: ``kb quiz review``'s question cards (imported by the command itself)

None imports rich (nor anything heavy) at module level: rich comes in inside the functions that print.
"""

from __future__ import annotations

from .ui_console import error, message, print_json, stderr, stdout
from .ui_grade import calibration, class_report, grade_result, grader_eval
from .ui_progress import IngestProgress, LLMProgress
from .ui_quiz import STATUS_STYLE, defect_words, generation_summary, outline, quiz, quiz_eval, risk_words
from .ui_store import answer, ask_eval, hits, ingest_result, ingest_summary, retrieval_table, sources_table
from .ui_study import progress_report, study_summary

__all__ = [
    "STATUS_STYLE", "IngestProgress", "LLMProgress", "answer", "ask_eval", "calibration", "class_report",
    "defect_words", "error", "generation_summary", "grade_result", "grader_eval", "hits", "ingest_result",
    "ingest_summary", "message", "outline", "print_json", "progress_report", "quiz", "quiz_eval",
    "retrieval_table", "risk_words", "sources_table", "stderr", "stdout", "study_summary",
]
