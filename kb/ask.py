"""Answer a question from the course with cited passages.

Offline: the unit of a page that answers the question's kind, quoted whole with its passage
number (:mod:`kb.answering`). With an LLM: a synthesized answer that cites passage numbers and
says when the course does not contain the answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .records import Hit
from .text import detect_language

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


def ask(ws, question: str, k: int = 5, client=None) -> Answer:
    """Answer `question` from the `k` best passages of the workspace's store: the course's own words
    offline (:func:`kb.answering.answer_offline`), or an LLM's cited synthesis when `client` is given.
    Nothing relevant found → the "course does not seem to contain" answer, found=False."""
    if client is None:  # offline: the unit of the course that answers the question's kind (kb.answering)
        from .answering import answer_offline

        return answer_offline(ws.retriever, ws.embedder, question, k=k)
    hits = ws.retriever.search(question, k=k)
    lang = detect_language(question)
    if not hits:
        return Answer(question, NOT_FOUND[lang], [], False, "extractive")
    from .errors import BackendError
    from .llm.answerer import answer_with_llm

    try:
        return answer_with_llm(client, question, hits, lang, ws.embedder)
    except BackendError as e:  # the course's own words rather than no answer
        from .answering import answer_offline

        offline = answer_offline(ws.retriever, ws.embedder, question, k=k)
        offline.warning = (f"{e.message} — the offline answer is shown instead "
                           f"({e.hint or 'check the endpoint'}; --offline skips the LLM)")
        return offline
