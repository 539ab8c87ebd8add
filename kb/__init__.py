"""kb — turn a course's materials into a searchable knowledge base, exercises and grades.

The package is a library first: ``kb.open(home)`` gives a :class:`~kb.api.KB` with ``ingest``,
``search``, ``ask``, ``generate_quiz``, ``grade`` and ``study_queue``; :mod:`kb.cli` is a thin
wrapper over it. Heavy dependencies
(chromadb, sentence-transformers, torch, openai, the USE encoder) are imported only
inside the functions that need them, so ``kb --help`` stays fast.
"""

__version__ = "0.1.0"

from .api import KB, Result, open  # noqa: E402,A004  (kb.open is the entry point, like llm.get_model)

__all__ = ["KB", "Result", "open", "__version__"]
