"""How a question is written, in one place.

- ``seam``: the writer seam (``QuestionWriter``, ``Draft``, ``GenerationRequest``, ``WriterOutput``);
  ``course``: the course's key terms (``CourseTerms``);
- ``generate``: which passages a quiz draws on, selection (central ideas first, balanced types) and
  ``generate_quiz``, the one entry point both writers go through (it re-exports the seam's names);
- ``ideas``: a slide or passage read as ideas — its title and its whole bullets and sentences;
- ``plan``: plan, then write — drafts aimed at the outline's central ideas (:mod:`kb.outline`), a plain
  question on a top idea no pattern fits (``pattern_siblings``: its objective forms; ``pattern_discourse``: a
  list of a slide's roles, "Problema; Solución", asked of its topic; ``pattern_errors``: a common-mistakes
  slide's "cause -> consequence" bullets asked by their consequence), and which top ideas a quiz asks;
- ``offline``: the rule-based writer (no model, no network): ``writer_core`` plus one module per
  question pattern (``pattern_definitions``, ``pattern_labels``, ``pattern_code``, ``pattern_purpose``,
  ``pattern_cloze``, ``exercises``), over ``wording``, ``terms`` and ``concepts``;
- ``checks`` (and ``glue``): the defects a question is checked for (cut-off text, give-aways,
  unsupported answers, duplicate choices, glued words…); ``checklist``: the one registry of them that
  both writers and ``kb eval quiz`` run.

The LLM writer lives beside its client in ``kb.llm``.
"""
