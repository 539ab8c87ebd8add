"""Answer a question from the course with cited passages.

Offline: the best passages and a short extractive answer (the sentences closest in meaning
to the question, each marked with its passage number). With an LLM: a synthesized answer
that cites passage numbers and says when the course does not contain the answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .records import Hit
from .text import STOPWORDS, detect_language, fold, sentences, words

NOT_FOUND = {
    "pt": "O curso não parece conter a resposta a esta pergunta.",
    "es": "El curso no parece contener la respuesta a esta pregunta.",
    "en": "The course does not seem to contain the answer to this question.",
}
MIN_SIMILARITY = 0.30  # below this, no sentence of the top passages is about the question (USE-m3 cosine)
MIN_SHARED_WORDS = 0.6  # ... unless the best sentence holds this share of the question's content words
# How a candidate sentence is scored: cosine to the question + these bonuses. Set by hand in round 1 on
# the sample course's questions (no held-out measurement yet): a sentence holding every content word of
# the question gains as much as ~0.3 of cosine; the first passage's sentences beat the fourth's by
# 0.06; the question's language breaks near-ties; sentences within ANSWER_WINDOW of the best join it.
LEXICAL_WEIGHT = 0.3
RANK_BONUS = 0.02  # per place above the 4th passage
SAME_LANGUAGE_BONUS = 0.05
ANSWER_WINDOW = 0.15


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
    """Answer `question` from the `k` best passages of the workspace's store: an extractive
    answer of whole cited sentences offline, or an LLM's cited synthesis when `client` is given.
    Nothing relevant found → the "course does not seem to contain" answer, found=False."""
    hits = ws.retriever.search(question, k=k)
    lang = detect_language(question)
    if not hits:
        return Answer(question, NOT_FOUND[lang], [], False, "extractive")
    if client is not None:
        from .errors import BackendError
        from .llm.answerer import answer_with_llm

        try:
            return answer_with_llm(client, question, hits, lang, ws.embedder)
        except BackendError as e:  # the course's own sentences rather than no answer
            offline = _extractive(ws.embedder, question, hits, lang)
            offline.warning = (f"{e.message} — the extractive answer is shown instead "
                               f"({e.hint or 'check the endpoint'}; --offline skips the LLM)")
            return offline
    return _extractive(ws.embedder, question, hits, lang)


def answer_candidates(hits: list[Hit]) -> list[tuple[int, str, str]]:
    """Whole sentences of the top passages as (passage number, sentence, language). Readers
    give one bullet or paragraph per line, so a sentence is never half of a wrapped line;
    lines that only introduce a list ("Algunas configuraciones comunes incluyen:") and
    questions are not answers."""
    cands: list[tuple[int, str, str]] = []
    for h in hits[:3]:
        if h.chunk.is_code:
            continue
        for line in h.chunk.text.split("\n"):
            line = re.sub(r"^\s*(?:[-*•◦▪□☐]+|\d{1,2}[.)])\s*", "", line).replace("**", "").strip()
            for s in sentences(line) or [line]:
                s = s.strip()
                if 5 <= len(words(s)) <= 80 and not s.endswith(("?", ":")):
                    cands.append((h.rank, s, detect_language(s, default=h.chunk.lang) if len(s) > 60 else h.chunk.lang))
    return cands


def _extractive(embedder, question: str, hits: list[Hit], lang: str, max_sentences: int = 3) -> Answer:
    """The sentences of the top passages closest to the question (meaning, shared words, the
    passage's rank, and the question's language when the course says it in that language),
    each whole and marked with its passage number, in the order the passages give them."""
    import numpy as np

    cands = answer_candidates(hits)
    if not cands:
        return Answer(question, NOT_FOUND[lang], hits, False, "extractive")
    vecs = embedder.embed_documents([s for _, s, _ in cands])
    q = embedder.embed_queries([question])[0]
    qwords = {fold(w) for w in words(question) if fold(w) not in STOPWORDS}
    scores, lexical = [], []
    for (rank, s, s_lang), v in zip(cands, vecs, strict=True):
        lex = len(qwords & {fold(w) for w in words(s)}) / max(1, len(qwords))
        lexical.append(lex)
        scores.append(float(v @ q) + LEXICAL_WEIGHT * lex + RANK_BONUS * (4 - rank)
                      + (SAME_LANGUAGE_BONUS if s_lang == lang else 0.0))
    order = list(np.argsort(scores)[::-1])
    # "¿Qué es MNIST?" is far in meaning from any sentence (short questions embed poorly) but
    # a sentence that holds most of its content words answers it
    if float(np.max(vecs @ q)) < MIN_SIMILARITY and lexical[order[0]] < MIN_SHARED_WORDS:
        return Answer(question, NOT_FOUND[lang], hits, False, "extractive")
    picked: list[int] = []
    for i in order:
        if len(picked) == max_sentences or scores[i] < scores[order[0]] - ANSWER_WINDOW:
            break
        if any(fold(cands[i][1]) == fold(cands[j][1]) for j in picked):
            continue
        picked.append(int(i))
    picked.sort(key=lambda i: (cands[i][0], i))  # passage order, then text order
    text = " ".join(f"{_sentence_end(cands[i][1])} [{cands[i][0]}]" for i in picked)
    return Answer(question, text, hits, True, "extractive", sorted({cands[i][0] for i in picked}))


def _sentence_end(s: str) -> str:
    """A bullet without its full stop still ends as a sentence in running text."""
    return s if s.endswith((".", "!", "?", "…", ")", '"', "”")) else s + "."
