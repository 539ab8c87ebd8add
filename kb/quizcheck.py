"""Defects a teacher sees in a question, checked against the passage it cites.

One set of checks serves the offline writer (drafts with a defect are not kept), the LLM
writer's validation and ``kb eval quiz``. Each check returns a defect name or nothing:

- ``cut-off``: a prompt, answer, choice or quote that stops mid-sentence (ends on a function
  word or comma, or the cited passage carries the sentence on past the quote);
- ``giveaway``: the stem contains the answer (a cloze whose answer shows elsewhere in the
  prompt, a multiple choice whose correct option alone shares a word with the stem);
- ``duplicate-choices``: two options naming the same thing (same words up to case, accents,
  inflection, or one inside the other);
- ``unsupported``: the cited passage does not back the answer (true/false: a true statement
  must be in the passage; a false one must contradict a quote that is).

Stdlib only; the optional embedder lets a paraphrased answer count as supported.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Sequence

from .ideas import dangling
from .quiz import Question
from .text import STOPWORDS, fold, words

# True/false and cloze grounding (set with the writer's defect checks, 0e944b1; no measurement recorded):
_TRUE_STATEMENT_OVERLAP = 0.9  # a true statement: (nearly) all its words are in the passage
_QUOTE_OVERLAP = 0.8  # a false statement's quote, a filled-in cloze: most of their words are in the passage
SUPPORT_THRESHOLD = 0.5  # share of an answer's content words in its passage (or cosine to its quote)
DEFECTS = ("cut-off", "giveaway", "duplicate-choices", "unsupported", "implausible-distractor")
_BLANK = re.compile(r"_{3,}")


def norm(text: str) -> str:
    """Folded words joined by single spaces: for containment tests across line wraps."""
    return " ".join(fold(w) for w in words(text))


_TEMPLATE_WORDS = frozenset("""significa significam means debe deve should solo apenas only verdadero falso
    verdadeiro true false""".split())


# Spanish/Portuguese stems whose English translation names code entities (4-letter stems both sides)
_GLOSSARY = {"guar": "save", "salv": "save", "carg": "load", "carr": "load", "mues": "samp", "amos": "samp",
             "mezc": "shuf", "emba": "shuf", "lote": "batc", "peso": "weig", "capa": "laye", "cama": "laye",
             "dicc": "dict", "dici": "dict", "disp": "devi", "entr": "trai", "trei": "trai", "apil": "stac",
             "empi": "stac", "reso": "reso", "hilo": "thre"}


def _stems4(text: str) -> set[str]:
    """4-letter stems of the content words, identifiers split into their parts
    (``torch.nn.parallel.DistributedDataParallel`` → torc, para, dist, data)."""
    parts: list[str] = []
    for w in words(text):
        parts += [p for p in re.split(r"[._()\-]+|(?<=[a-z])(?=[A-Z])", w) if p]
    return {fold(p)[:4] for p in parts if len(p) >= 4 and fold(p) not in STOPWORDS}


def stems(text: str, min_len: int = 4) -> set[str]:
    """Crude inflection-insensitive stems (first 5 letters) of the content words."""
    return {fold(w)[:5] for w in words(text) if len(w) >= min_len and fold(w) not in STOPWORDS}


def word_overlap(text: str, passage: str) -> float:
    """Share of the text's words found in the passage (accents and case ignored)."""
    tw = [fold(w) for w in words(text)]
    pw = {fold(w) for w in words(passage)}
    return sum(w in pw for w in tw) / max(1, len(tw))


def support(answer: str, quote: str, passage: str, embedder=None) -> float:
    """How well a passage supports a model answer: the share of the answer's content words
    that occur in it or, for a paraphrase, the answer's cosine to the quoted sentence."""
    content = [w for w in words(answer) if fold(w) not in STOPWORDS]
    if not content:
        return 1.0
    lexical = word_overlap(" ".join(content), passage)
    if lexical >= SUPPORT_THRESHOLD or not quote or embedder is None:
        return lexical
    v = embedder.embed_documents([answer, quote])
    return max(lexical, float(v[0] @ v[1]))


def contained(text: str, passage: str) -> bool:
    """The text, normalised, appears in the normalised passage."""
    t = norm(text)
    return bool(t) and t in norm(passage)


def cut_in_passage(fragment: str, passage: str) -> bool:
    """The cited passage carries the fragment's sentence on past its end (a lower-case word
    follows and the fragment has no closing punctuation): the fragment is a cut-off line."""
    fw = [fold(w) for w in words(fragment)]
    if len(fw) < 3 or fragment.rstrip(" »”\"')").endswith((".", "!", "?", ":", ";")):
        return False
    raw = words(passage)
    pw = [fold(w) for w in raw]
    n = len(fw)
    for i in range(len(pw) - n + 1):
        if pw[i:i + n] == fw:
            nxt = raw[i + n] if i + n < len(raw) else ""
            if nxt and nxt[0].islower():
                # the passage continues the sentence unless punctuation closes it first
                tail = re.escape(words(fragment)[-1])
                m = re.search(tail + r"(?P<gap>[^\w]*)" + re.escape(nxt), passage)
                if not m or not re.search(r"[.!?;:]", m.group("gap")):
                    return True
            return False
    return False


def statement(q: Question) -> str:
    """The sentence a tf/cloze/mcq prompt asks about, without the instruction around it."""
    p = q.prompt
    m = re.search(r"[«“\"](.+)[»”\"]\s*\??$", p)
    if m:
        return m.group(1)
    for sep in ("? ", ": "):
        if sep in p:
            return p.split(sep, 1)[1]
    return p


def cut_off(q: Question, passage: str = "") -> str | None:
    """'cut-off' when the prompt, statement, answer or a choice ends mid-phrase, else None."""
    texts = [statement(q) if q.type in ("tf", "cloze") else q.prompt]
    if q.type == "short":
        texts.append(q.answer)
    texts += list(q.choices)
    for t in texts:
        if dangling(_BLANK.sub("x", t).rstrip("?.!")):
            return "cut-off"
    if q.type in ("tf", "cloze"):
        s = statement(q).strip()
        first = s.lstrip("¿¡\"“«(")
        if first and first[0].islower() and not _BLANK.match(first) and not re.match(r"\w+[._(]", first):
            return "cut-off"
    if passage:
        for t in [c.quote for c in q.citations] + ([q.answer] if q.type == "short" else []):
            if t and cut_in_passage(t, passage):
                return "cut-off"
    return None


def giveaway(q: Question) -> str | None:
    """'giveaway' when the stem names the answer, or has a word (or its translation) that only the
    right option echoes; else None."""
    if q.type == "cloze":
        rest = _BLANK.sub(" ", q.prompt)
        a = fold(q.answer).strip("() ")
        if a and re.search(rf"(?<![\w.]){re.escape(a)}", fold(rest)):
            return "giveaway"
        parts = _stems4(q.answer)
        if parts and len(parts & _stems4(rest)) * 2 >= len(parts) and len(parts) <= 2:
            return "giveaway"  # "(Data Shuffling): … la opción _____ …" → shuffle
    if q.type == "mcq" and len(q.choices) >= 2 and isinstance(q.correct, int):
        # a word of the stem that only the right option echoes ("rotar la imagen" → Rotación),
        # also through translation ("Para guardar …" → torch.save(), "muestreo" → Sampler)
        stem = _stems4(_BLANK.sub(" ", q.prompt))
        stem |= {_GLOSSARY[x] for x in stem if x in _GLOSSARY}
        right = _stems4(q.choices[q.correct]) & stem
        others = set().union(*(_stems4(c) for i, c in enumerate(q.choices) if i != q.correct))
        if right - others:
            return "giveaway"
    if q.type == "short" and q.origin != "harvested":
        body = q.answer.split(":", 1)[1] if re.match(r"^[^:]{2,60}:\s", q.answer) else q.answer
        if len(stems(body) - stems(q.prompt)) <= 2:
            return "giveaway"  # "¿Qué es Ruido aleatorio?" → "agregar ruido aleatorio a la imagen"
    return None


def foreign_material(q: Question, source_text: str) -> str | None:
    """Distractors the cited source never mentions ("github.com" among PyTorch methods), or a
    false statement built from words of another deck: implausible to a student of this one."""
    if not source_text:
        return None
    src = norm(source_text)
    if q.type == "mcq" and isinstance(q.correct, int):
        for i, c in enumerate(q.choices):
            if i != q.correct and norm(c) and norm(c) not in src:
                return "implausible-distractor"
    if q.type == "tf" and q.correct is False:
        have = {fold(w)[:6] for w in words(source_text)}
        missing = [w for w in words(statement(q)) if len(w) >= 4 and fold(w) not in STOPWORDS
                   and fold(w) not in _TEMPLATE_WORDS and fold(w)[:6] not in have]
        if missing:  # "Varios particionadores disponibles: …" in a deck that never says "particionadores"
            return "implausible-distractor"
    return None


def same_thing(a: str, b: str) -> bool:
    """Two options that name the same thing: equal up to case/accents/inflection, or one
    contained in the other."""
    fa, fb = norm(a), norm(b)
    if not fa or not fb:
        return False
    if fa == fb or (len(fa) >= 4 and fa in fb) or (len(fb) >= 4 and fb in fa):
        return True
    if re.search(r"[._()]", a + b):
        return fa.split(".")[-1] == fb.split(".")[-1] and "." not in a + b  # identifiers: whole names only
    sa = [w[:5] for w in fa.split() if w not in STOPWORDS]
    sb = [w[:5] for w in fb.split() if w not in STOPWORDS]
    return bool(sa) and sa == sb


def duplicate_choices(q: Question) -> str | None:
    """'duplicate-choices' when two choices name the same thing, else None."""
    cs = list(q.choices)
    for i in range(len(cs)):
        for j in range(i + 1, len(cs)):
            if same_thing(cs[i], cs[j]):
                return "duplicate-choices"
    return None


def unsupported(q: Question, passage: str, embedder=None) -> str | None:
    """'unsupported' when the cited passage does not back the answer, else None."""
    if not passage:
        return "unsupported"
    quote = q.citations[0].quote if q.citations else ""
    if q.type == "tf":
        s = statement(q)
        if q.correct is True:
            ok = contained(s, passage) or word_overlap(s, passage) >= _TRUE_STATEMENT_OVERLAP
        else:
            ok = bool(quote) and word_overlap(quote, passage) >= _QUOTE_OVERLAP and not contained(s, passage)
        return None if ok else "unsupported"
    if q.type == "cloze":
        filled = _BLANK.sub(q.answer, statement(q), count=1)
        if word_overlap(filled, passage) < _QUOTE_OVERLAP:
            return "unsupported"
    if support(q.correct_text, quote, passage, embedder) < SUPPORT_THRESHOLD:
        return "unsupported"
    return None


def defects(q: Question, passage: str, embedder=None) -> list[str]:
    """Every defect of one question against the text of the passage it cites."""
    found = [cut_off(q, passage), giveaway(q), duplicate_choices(q), unsupported(q, passage, embedder)]
    return [d for d in found if d]


def position_skew(questions: Sequence[Question]) -> float:
    """Share of multiple-choice questions whose correct option sits at the most common position."""
    pos = [q.correct for q in questions if q.type == "mcq" and isinstance(q.correct, int)]
    if not pos:
        return 0.0
    return Counter(pos).most_common(1)[0][1] / len(pos)
