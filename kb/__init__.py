"""kb — turn a course's materials into a searchable knowledge base, exercises and grades.

The package is a library first: :mod:`kb.cli` is a thin wrapper over the services
(:mod:`kb.ingest`, :mod:`kb.search`, :mod:`kb.evaluate`). Heavy dependencies
(chromadb, sentence-transformers, torch, openai, the USE encoder) are imported only
inside the functions that need them, so ``kb --help`` stays fast.
"""

__version__ = "0.1.0"
