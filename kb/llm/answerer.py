"""The ask-answerer over the LLM client: the best passages, numbered, go to the model, which
answers citing them as ``[n]`` and says when the course lacks the answer (JSON Schema
:class:`~kb.llm.schemas.AskReply`). :func:`kb.ask.ask` falls back to the extractive answer, with
a warning, when the endpoint fails."""

from __future__ import annotations

import re
from typing import Any

_ASK_SYSTEM = (
    "You answer students' questions using only the numbered course passages given. Cite the passages you use as [n]. "
    "If the passages do not contain the answer, say so and set found to false. Reply with one JSON object only."
)


def answer_with_llm(client: Any, question: str, hits: list, lang: str) -> Any:
    """An :class:`kb.ask.Answer` synthesized by the model from ``hits``; BackendError when the
    endpoint fails (after its retries)."""
    from ..ask import NOT_FOUND, Answer
    from .pool import run_parallel
    from .schemas import AskReply
    from .writer import LANG_NAMES

    passages = "\n\n".join(f"[{h.rank}] ({h.chunk.citation()})\n{h.chunk.text}" for h in hits)
    user = (f"{passages}\n\nQuestion: {question}\n\nAnswer in {LANG_NAMES.get(lang, 'the language of the question')}. "
            'Return JSON: {"answer": "... [n] ...", "found": true or false, "cited": [passage numbers]}')
    # in a worker, so that Ctrl-C reaches the main thread at once even while the reply dribbles in
    (reply,) = run_parallel(lambda u: client.chat_json(_ASK_SYSTEM, u, max_tokens=800, schema=AskReply), [user], 1,
                            client)
    if isinstance(reply, BaseException):
        raise reply
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
