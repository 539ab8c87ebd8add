"""Answer a question from the course with cited passages.

Offline: the unit of a page that answers the question's kind, quoted whole with its passage
number (:mod:`kb.answering`). With an LLM: a synthesized answer that cites passage numbers and
says when the course does not contain the answer.
"""

from __future__ import annotations

from .answer import NOT_FOUND, Answer
from .text import detect_language

__all__ = ["NOT_FOUND", "Answer", "ask"]  # Answer and NOT_FOUND live in kb.answer; kept importable here


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
        from .i18n import N_, Message, Phrase

        fix = Message(e.hint_template, **e.fields) if e.hint_template else Phrase(N_("check the endpoint"))
        offline.warning = Message("{error} — the offline answer is shown instead ({fix}; --offline skips the LLM)",
                                  error=e, fix=fix)
        return offline
