"""What ``kb ask`` returns: the :class:`Answer` record and the "course does not contain it" sentence.

It sits below both ways of answering (:mod:`kb.answering` offline, :mod:`kb.llm.answerer` with an
LLM) and :mod:`kb.ask` that picks one, so neither imports the other to build its result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .records import Hit

NOT_FOUND = {
    "pt": "O curso não parece conter a resposta a esta pergunta.",
    "es": "El curso no parece contener la respuesta a esta pregunta.",
    "en": "The course does not seem to contain the answer to this question.",
}


@dataclass
class Answer:
    """What ``ask`` returns: the answer text, the passages it was drawn from, whether the course seemed
    to hold an answer, how it was made, and which passages (1-based) it cites."""
    question: str
    text: str
    hits: list[Hit]
    found: bool
    method: str  # "extractive" or "llm:<model>"
    cited: list[int] = field(default_factory=list)  # passage numbers the answer uses
    warning: str = ""  # why the LLM was not used (the endpoint failed: the extractive answer instead)

    def to_json(self) -> dict[str, Any]:
        """The answer as ``kb ask --json`` prints it, with every passage consulted."""
        out = {"question": self.question, "answer": self.text, "found": self.found, "method": self.method,
               "cited": self.cited, "passages": [h.to_json() for h in self.hits]}
        return {**out, "warning": self.warning} if self.warning else out
