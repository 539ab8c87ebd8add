"""Words a PDF ran together ("elsistema", "claseque"): seen in the source's own word counts, flagged by
the ``glued-words`` check and written apart in a question's text. Stdlib only."""

from __future__ import annotations

import re
from collections import Counter
from itertools import pairwise

from ..quiz import Question
from ..text import STOPWORDS, fold, words

_GLUE_HEADS = ("el", "la", "los", "las", "de", "del", "en", "y", "que", "se", "un", "una", "con", "por", "al", "da",
               "do", "no", "na", "em", "the", "of", "and")


def vocabulary(text: str) -> Counter:
    """Folded word and word-pair counts of a source, each distinct line counted once (the
    passages of a source overlap: a line in two passages is still one occurrence)."""
    lines = dict.fromkeys(" ".join(line.split()) for line in text.split("\n"))
    ws = [fold(w) for w in words("\n".join(lines))]
    return Counter(ws) + Counter(f"{a} {b}" for a, b in pairwise(ws))


def _glue_split(w: str, vocab: Counter) -> tuple[str, str] | None:
    """(head, tail) when the word is two the PDF ran together: seen once in the source, and a
    function word glued before ("elsistema") or after ("claseque", "útilcuando") a word, the
    pair being written apart elsewhere in the source ("el sistema", "clase que")."""
    fw = fold(w)
    if len(fw) < 6 or not w.islower() or vocab.get(fw, 0) > 1:
        return None
    for head in _GLUE_HEADS:
        rest = fw[len(head):]
        if fw.startswith(head) and len(rest) >= 4 and vocab.get(f"{head} {rest}", 0) >= 1 and rest not in STOPWORDS:
            return w[:len(head)], w[len(head):]
    for tail in _GLUE_TAILS:
        rest = fw[:-len(tail)]
        if fw.endswith(tail) and len(rest) >= 4 and vocab.get(f"{rest} {tail}", 0) >= 1 and rest not in STOPWORDS:
            return w[:-len(tail)], w[-len(tail):]
    return None


_GLUE_TAILS = ("que", "de", "del", "cuando", "en", "el", "la", "y", "para", "con", "como")


def glued_words(q: Question, vocab: Counter) -> str | None:
    """Two words the PDF ran together ("elsistema", "claseque"): see :func:`_glue_split`."""
    if not vocab:
        return None
    texts = [q.prompt, q.answer, *q.choices]
    return "glued-words" if any(_glue_split(w, vocab) for w in words(" ".join(texts))) else None


def unglue(text: str, vocab: Counter) -> str:
    """The text with the words the PDF ran together written apart ("claseque" → "clase que")."""
    def fix(m: re.Match) -> str:
        split = _glue_split(m.group(0), vocab)
        return f"{split[0]} {split[1]}" if split else m.group(0)

    return re.sub(r"[A-Za-zÀ-ÖØ-öø-ÿ]{6,}", fix, text) if vocab else text
