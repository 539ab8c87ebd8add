"""How a question is written, in one place.

- ``generate``: the writer seam (``QuestionWriter``, ``Draft``, ``GenerationRequest``), which passages
  a quiz draws on, the course's key terms, selection (central ideas first, balanced types) and
  ``generate_quiz``, the one entry point both writers go through;
- ``ideas``: a slide or passage read as ideas — its title and its whole bullets and sentences;
- ``offline``: the rule-based writer (no model, no network);
- ``checks``: the defects every question is checked for (cut-off text, give-aways, unsupported
  answers, duplicate choices…), shared by both writers and by ``kb eval quiz``.

The LLM writer lives beside its client in ``kb.llm``.
"""
