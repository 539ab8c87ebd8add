"""One factory for the LLM side of the seams, chosen by name as embedders are: ``offline`` (the
rule-based writer, the offline grader, the extractive answer) or ``llm:<model>`` (any
OpenAI-compatible endpoint, from ``KB_LLM_MODEL`` and ``OPENAI_BASE_URL``)."""

from __future__ import annotations

from typing import Any

from ..config import Settings
from ..errors import UsageError


def backend_name(settings: Settings, *, offline: bool = False) -> str:
    """``offline``, or ``llm:<model>`` when a model is configured and ``offline`` is not asked."""
    return f"llm:{settings.llm_model}" if settings.llm_model and not offline else "offline"


def _llm(name: str, settings: Settings) -> Any:
    from dataclasses import replace

    from .client import LLMClient

    if not name.startswith("llm:") or not name[4:]:
        raise UsageError("unknown LLM backend {name!r}",
                         "use offline or llm:<model>",
                         name=name)
    return LLMClient(replace(settings, llm_model=name[4:]))


def get_writer(settings: Settings, name: str | None = None) -> Any:
    """The question writer called ``name`` (default: from the settings)."""
    name = name or backend_name(settings)
    if name == "offline":
        from ..writing.offline import OfflineWriter

        return OfflineWriter()
    from .writer import LLMWriter

    return LLMWriter(_llm(name, settings))


def get_grader(settings: Settings, embedder: Any, *, offline: bool = False, examples: Any = None,
               name: str | None = None) -> Any:
    """The offline grader, or the LLM grader over it (which falls back to it)."""
    from ..grading.offline import OfflineGrader

    base = OfflineGrader(embedder)
    name = name or backend_name(settings, offline=offline)
    if name == "offline":
        return base
    from .grader import LLMGrader

    return LLMGrader(_llm(name, settings), base, examples or {})


def get_answerer(settings: Settings, *, offline: bool = False, name: str | None = None) -> Any:
    """The client ``kb ask`` synthesizes with, or None for the extractive answer."""
    name = name or backend_name(settings, offline=offline)
    return None if name == "offline" else _llm(name, settings)


def get_reviewer(settings: Settings, *, offline: bool = False, name: str | None = None) -> Any:
    """The model that reads a quiz as a teacher would (``kb eval quiz``), or None offline."""
    name = name or backend_name(settings, offline=offline)
    if name == "offline":
        return None
    from .reviewer import LLMReviewer

    return LLMReviewer(_llm(name, settings))
