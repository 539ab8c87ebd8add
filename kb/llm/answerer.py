"""The ask-answerer over the LLM client: the best passages, numbered, go to the model, which
answers citing them as ``[n]`` and says when the course lacks the answer (JSON Schema
:class:`~kb.llm.schemas.AskReply`). Each sentence of the answer is then checked against the
passages it cites (or, citing none, against all): one that neither shares most of its words with
them nor is close in meaning to one of their sentences is marked as not confirmed by the course,
never shown as the course's word. :func:`kb.ask.ask` falls back to the extractive answer, with a
warning, when the endpoint fails."""

from __future__ import annotations

import re
from typing import Any

from ..answer import NOT_FOUND, Answer

# A sentence is the course's word when this share of its content words is in the passages it cites,
# or when its cosine (USE-m3) to one of their sentences reaches SUPPORTED_COSINE. Set by hand on the
# sample course's passages (a copied or lightly reworded sentence passes both; an invented fact about
# the same topic passes neither), not measured on a set.
SUPPORTED_WORDS = 0.6
SUPPORTED_COSINE = 0.6
UNCONFIRMED = {"pt": "[não confirmado pelas passagens]", "es": "[no confirmado por los pasajes]",
               "en": "[not confirmed by the passages]"}

_ASK_SYSTEM = (
    "You answer students' questions using only the numbered course passages given. Cite the passages you use as [n]. "
    "If the passages do not contain the answer, say so and set found to false. Reply with one JSON object only."
)


def answer_with_llm(client: Any, question: str, hits: list, lang: str, embedder: Any = None) -> Any:
    """An :class:`kb.answer.Answer` synthesized by the model from ``hits``, each sentence the passages
    do not confirm marked (with ``embedder``, by meaning too); BackendError when the endpoint fails
    (after its retries)."""
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
    elif found:
        text = mark_unconfirmed(text, hits, lang, embedder)
    return Answer(question, text, hits, found, f"llm:{client.model}", cited)


def mark_unconfirmed(text: str, hits: list, lang: str, embedder: Any = None) -> str:
    """``text`` with every sentence the passages it cites do not confirm followed by a marker."""
    from ..text import STOPWORDS, fold, sentences, words

    by_rank = {h.rank: h.chunk.text for h in hits}
    out = []
    for s in sentences(text) or [text]:
        refs = [int(n) for n in re.findall(r"\[(\d+)\]", s) if int(n) in by_rank]
        passages = [by_rank[n] for n in refs] or list(by_rank.values())
        content = {fold(w) for w in words(re.sub(r"\[\d+\]", " ", s))} - STOPWORDS
        source = {fold(w) for p in passages for w in words(p)}
        ok = not content or len(content & source) / len(content) >= SUPPORTED_WORDS
        if not ok and embedder is not None:
            cands = [x for p in passages for x in sentences(p.replace("\n", " ")) if len(x) > 20]
            if cands:
                vecs = embedder.embed_documents([re.sub(r"\[\d+\]", "", s)] + cands)
                ok = float((vecs[1:] @ vecs[0]).max()) >= SUPPORTED_COSINE
        out.append(s if ok else f"{s} {UNCONFIRMED.get(lang, UNCONFIRMED['en'])}")
    return " ".join(out)
