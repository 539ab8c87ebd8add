"""The course's own exercises ("Ejercicio 3: …" with the text after it as model answer), harvested
before any pattern runs.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from typing import NamedTuple

from ..i18n import Message
from ..quiz import Question
from ..records import Chunk
from ..text import detect_language, fold, sentences, words
from .checklist import CODE_NAME as _CODE_NAME
from .concepts import answer_concepts
from .generate import (
    _EXERCISE_HEADING,
    CourseTerms,
    Draft,
    GenerationRequest,
    Rejected,
    WriterOutput,
    _citation,
    _clean,
)
from .terms import _with_code_names
from .wording import whole_sentences
from .writer_core import WriterCore


class _Exercise(NamedTuple):
    """A numbered exercise of a source: its question, the lines of its answer (the text up to the
    next exercise), the passage that holds the answer's first line (or the question's, with none),
    and the phrases of its answer set in bold."""

    prompt: str
    lines: list[str]
    chunk: Chunk
    bold: list[str]


def _exercise_items(chunks: Sequence[Chunk]) -> list[_Exercise]:
    """A source's numbered exercises, in order. In an exercises section every numbered item is one;
    elsewhere only one that asks ("…?"), with its answer in the same passage."""
    items: list[_Exercise] = []
    asked_in = ""  # the passage of the last exercise's question
    prev: Chunk | None = None
    for c in chunks:
        in_section = bool(c.locator.heading and _EXERCISE_HEADING.search(c.locator.heading))
        open_item = False
        lines = c.text.split("\n")
        if prev is not None and c.ordinal == prev.ordinal + 1:
            # overlapping windows repeat the lines before: read them once, or an exercise whose question
            # ends one window and opens the next is asked twice, once "without an answer"
            lines = lines[_overlap(prev.text.split("\n"), lines):]
        prev = c
        for line in lines:
            m = re.match(r"^\s*(\d{1,2})[.)]\s+(.{10,})$", line)
            if m and not c.is_code:
                open_item = in_section or m.group(2).rstrip().endswith("?")
                if open_item:
                    items.append(_Exercise(m.group(2).strip(), [], c, []))
                    asked_in = c.id
            elif items and line.strip() and (in_section or (open_item and asked_in == c.id)):
                if not items[-1].lines:
                    items[-1] = items[-1]._replace(chunk=c)  # cited where the answer starts
                items[-1].lines.append(line.strip())
                items[-1].bold.extend(p for p in c.emphasis if " ".join(p.split()) in " ".join(line.split()))
    return items


# A bold phrase longer than this is a highlighted sentence, not a key term a reply must hold; set by
# hand on the sample course's exercises (their bold phrases run 1-9 words, one 24).
_BOLD_CONCEPT_MAX_WORDS = 10


def _bold_concepts(bold: Sequence[str], answer: str) -> tuple[str, ...]:
    """The phrases of a model answer its author set in bold, as concepts: in the answer, short
    enough to be a key term (see _BOLD_CONCEPT_MAX_WORDS), once each."""
    flat = " ".join(answer.split())
    return tuple(p for p in dict.fromkeys(" ".join(b.split()) for b in bold)
                 if p in flat and 1 <= len(words(p)) <= _BOLD_CONCEPT_MAX_WORDS)


def _overlap(a: list[str], b: list[str]) -> int:
    """How many lines ``b`` opens with that ``a`` ends on: what a window repeats of the one before."""
    return next((k for k in range(min(len(a), len(b)), 0, -1) if a[-k:] == b[:k]), 0)


class ExercisePatterns(WriterCore):
    """The course's own exercises, harvested with the text after them as model answer."""


    # ------------------------------------------------------------------ ready-made exercises
    def _harvest(self, passages: Sequence[Chunk], request: GenerationRequest, course: CourseTerms,
                 out: WriterOutput) -> None:
        by_source: dict[str, list[Chunk]] = defaultdict(list)
        for c in passages:
            by_source[c.source].append(c)
        for source, chunks in by_source.items():
            chunks.sort(key=lambda c: c.ordinal)
            for prompt, answer_lines, chunk, bold in _exercise_items(chunks):
                answer = _clean(" ".join(answer_lines))
                lang = detect_language(prompt, default=chunk.lang)
                if request.lang and lang != request.lang:
                    continue
                if len(words(answer)) < 5:
                    out.rejected.append(Rejected(f"{source}: “{prompt[:80]}”",
                                                 Message("ready-made exercise without an answer in the course: "
                                                         "not kept")))
                    continue
                first = sentences(answer)[0] if sentences(answer) else answer
                answer = whole_sentences(answer, 1500)
                if not answer:
                    continue
                # the code names the answer gives (CUDA_VISIBLE_DEVICES, tf.device()) before its words
                named = _with_code_names(re.sub(r"\S+\.(?:py|txt|csv|json)\b", " ", answer), prompt,
                                         course.key_concepts(answer, exclude=prompt))
                # what the author set in bold in the answer is its point, as a teacher's key: "contêineres
                # gerenciados pelo próprio cluster", not "sessão; cliente" picked by rarity
                if key := _bold_concepts(bold, answer):
                    named = (*key, *(n for n in named if _CODE_NAME.fullmatch(n)))
                q = Question(type="short", prompt=_clean(prompt), answer=answer,
                             citations=(_citation(chunk, first),),
                             concepts=answer_concepts(named, prompt, answer, course, source),
                             difficulty="hard", lang=lang,
                             origin="harvested")
                # the course's own exercises first
                out.drafts.append(Draft(q, chunk, key="x:" + fold(prompt)[:60], priority=3.3))
