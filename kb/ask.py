"""Answer a question from the course with cited passages.

Offline: the unit of a page that answers the question's kind, quoted whole with its passage
number (:mod:`kb.answering`). With an LLM: a synthesized answer that cites passage numbers and
says when the course does not contain the answer.
"""

from __future__ import annotations

import re
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

    def to_json(self) -> dict[str, Any]:
        """The answer as ``kb ask --json`` prints it, with every passage consulted."""
        return {"question": self.question, "answer": self.text, "found": self.found, "method": self.method,
                "cited": self.cited, "passages": [h.to_json() for h in self.hits]}


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
    return _ask_llm(client, question, hits, lang)


_ASK_SYSTEM = (
    "You answer students' questions using only the numbered course passages given. Cite the passages you use as [n]. "
    "If the passages do not contain the answer, say so and set found to false. Reply with one JSON object only."
)


def _ask_llm(client, question: str, hits: list[Hit], lang: str) -> Answer:
    from .llm import LANG_NAMES

    passages = "\n\n".join(f"[{h.rank}] ({h.chunk.citation()})\n{h.chunk.text}" for h in hits)
    user = (f"{passages}\n\nQuestion: {question}\n\nAnswer in {LANG_NAMES.get(lang, 'the language of the question')}. "
            'Return JSON: {"answer": "... [n] ...", "found": true or false, "cited": [passage numbers]}')
    reply = client.chat_json(_ASK_SYSTEM, user, max_tokens=800)
    raw_answer, raw_cited = reply.get("answer"), reply.get("cited")
    text = (raw_answer if isinstance(raw_answer, str) else "").strip()  # a model may send anything here
    found = reply.get("found", True) is not False and bool(text)
    valid = {h.rank for h in hits}
    listed = raw_cited if isinstance(raw_cited, list) else []
    cited = sorted({int(n) for n in re.findall(r"\[(\d+)\]", text)} | {int(n) for n in listed
                                                                         if str(n).isdigit()})
    cited = [n for n in cited if n in valid]
    if not text:
        text = NOT_FOUND[lang]
    return Answer(question, text, hits, found, f"llm:{client.model}", cited)
