"""Everything kb does with an LLM, over one client:

- ``client``: the transport to an OpenAI-compatible endpoint (whole-reply deadline, retries,
  a 429 that pauses every worker, structured output with fallbacks, usage);
- ``cache``: replies kept under ``.kb/cache/llm/``; ``pool``: parallel requests in a fixed order;
- ``schemas``: the reply shapes (pydantic models sent as JSON Schema);
- ``writer``, ``grader``, ``answerer``: the question writer, the rubric grader and the ``kb ask``
  synthesis, each over the client;
- ``check``: ``kb llm check``; ``factory``: the seams chosen by name (``offline`` or ``llm:<model>``).

Imports point one way: these modules import ``kb.grading`` and ``kb.writing``, never the reverse.
Nothing here is imported by ``kb --help``.
"""

from __future__ import annotations

from typing import Any

_NAMES = {
    "LLMClient": "client", "EndpointError": "client", "Reply": "client", "Usage": "client",
    "parse_json_object": "client", "completion_text": "client", "complete_objects": "client",
    "LLMWriter": "writer", "WriterContext": "writer", "LANG_NAMES": "writer",
    "LLMGrader": "grader", "answer_with_llm": "answerer",
    "get_writer": "factory", "get_grader": "factory", "get_answerer": "factory", "backend_name": "factory",
    "check_endpoint": "check",
}

__all__ = sorted(_NAMES)


def __getattr__(name: str) -> Any:
    if name in _NAMES:
        import importlib

        return getattr(importlib.import_module(f".{_NAMES[name]}", __name__), name)
    raise AttributeError(name)
