"""The offline (rule-based, deterministic) question writer: questions from ideas, not lines.

It reads each passage as a slide or section would be read (:mod:`kb.writing.ideas`: whole bullets
with their title) and writes a question only where the idea has the shape the question type
needs:

- **definitions** ("X es una técnica …", "Los parámetros: son …", "El método f() devuelve …")
  → "¿Qué es X?", "¿Qué devuelve f()?" (never a *true* statement: copied, it is judged at a glance);
- **labelled lists** ("Oversampling: …", "Undersampling: …") → "what does X mean", the
  difference between two siblings, a multiple choice when the list has ≥ 4 siblings (the
  siblings are the same kind of thing by construction), and *false* statements that attach
  one sibling's description to another;
- **named code entities** ("la clase Sampler", "el método torch.save()", "la opción shuffle")
  → a sentence to complete, as multiple choice when ≥ 3 other entities of the same kind
  (classes, methods/functions, options/parameters) exist, same deck first, else typed (cloze);
- **purpose** ("Congela los parámetros … para evitar …") → "¿Para qué sirve congelar …?";
- **scope** ("… solo en X y no en Y") → "¿Dónde se debe … y dónde no?", or the swapped,
  false statement; **contrast** ("A != B" + "x vs. y") → the difference between A and B;
- **procedures** (an intro "Para …:" with numbered steps) → "¿Qué pasos se siguen para …?";
- **ready-made exercises** the materials contain, with the text after them as model answer;
- a **cloze** on a key course term in a self-contained sentence, last.

Every draft then passes the checks of :mod:`kb.writing.checks` against the passage it cites
(cut-off text, giveaways, duplicate choices, support) or is rejected with the reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..i18n import Message
from ..records import Chunk
from ..text import words
from .checklist import CheckContext, run_checks
from .checks import (
    everyday_word,  # noqa: F401
    vocabulary,
)

# names tests and other modules import from here (their old home)
from .concepts import answer_concepts, concepts_beside_stem, phrase_concepts  # noqa: F401
from .exercises import ExercisePatterns, _overlap
from .generate import _EXERCISE_HEADING, CourseTerms, Draft, GenerationRequest, Rejected, WriterOutput, passage_usable
from .ideas import read_slide
from .pattern_cloze import ClozePatterns
from .pattern_code import CodeEntityPatterns
from .pattern_definitions import DefinitionPatterns
from .pattern_labels import LabelPatterns
from .pattern_purpose import PurposePatterns
from .positions import balance_positions  # noqa: F401
from .subject import deck_subject
from .terms import (  # noqa: F401
    term_like,
    title_topic,
)
from .wording import (  # noqa: F401
    _T,
    Entity,
    deck_topic,
    framework,
    frameworks,
    slide_library,
)


class OfflineWriter(DefinitionPatterns, LabelPatterns, CodeEntityPatterns, PurposePatterns, ClozePatterns,
                    ExercisePatterns):
    """Rule-based, deterministic question writer (no model, no network): each question pattern is a
    mixin of its own module (``pattern_*.py``, ``exercises.py``) over :class:`~kb.writing.writer_core.WriterCore`."""

    def write(self, passages: Sequence[Chunk], request: GenerationRequest, course: CourseTerms) -> WriterOutput:
        """Drafts from the passages: the course's own exercises first, then questions from each slide's
        ideas, each checked against its passage; notes say why a passage gave none."""
        out = WriterOutput()
        self._vocab: dict = {}
        self._course = course
        self._harvest(passages, request, course, out)
        entities = self._entities(course)
        skipped_lang = 0
        for chunk, parts in _whole_pages(passages):
            if not passage_usable(chunk) or (chunk.locator.heading and _EXERCISE_HEADING.search(chunk.locator.heading)):
                continue
            if chunk.kind == "transcript":
                continue  # speech has no sentence boundaries to build statements from; kb ask cites it
            lang = chunk.lang if chunk.lang in _T["tf"] else "en"
            if request.lang and request.lang != lang:
                skipped_lang += 1
                continue
            slide = read_slide(chunk)
            self._source = chunk.source
            if chunk.source not in self._vocab:
                self._vocab[chunk.source] = vocabulary(
                    "\n".join(c.text for c in course.by_source.get(chunk.source, [chunk])))
            whole = self._whole(chunk.source)  # for claims its own code contradicts
            ctx = CheckContext(chunk.text, whole, self._vocab[chunk.source], verb_like=course.verb_like,
                               outline=course.outlines.get(chunk.source), meaning=course.embedder,
                               subject=deck_subject(course, chunk.source))
            drafts: list[Draft] = []
            self._definitions(slide, lang, course, drafts)
            self._equations(slide, lang, course, drafts)
            self._roles(slide, lang, course, drafts)
            self._parts(slide, lang, course, drafts)
            self._labels(slide, lang, course, drafts)
            self._entity_items(slide, lang, course, entities, drafts)
            self._purpose(slide, lang, course, drafts)
            self._how(slide, lang, course, drafts)
            self._enables(slide, lang, course, drafts)
            self._caveats(slide, lang, course, drafts)
            self._scope_and_contrast(slide, lang, course, drafts)
            self._steps(slide, lang, course, drafts)
            self._imperative_steps(slide, lang, course, drafts)
            self._cloze(slide, lang, course, drafts)
            for d in drafts:
                d.question = concepts_beside_stem(d.question, course, chunk.source)
                found = run_checks(d.question, ctx)
                if found:
                    out.rejected.append(Rejected(d.question.prompt[:80], "failed checks: " + ", ".join(found),
                                                 d.chunk.id))
                else:
                    out.drafts.append(_cited_part(d, parts))
        if skipped_lang:
            out.notes.append(Message("{n} passages are not in --lang {lang}: no questions written from them "
                                     "(offline, kb writes only from passages already in that language; an LLM, "
                                     "KB_LLM_MODEL, writes in it from any language)", n=skipped_lang,
                                     lang=request.lang))
        return out


def _whole_pages(passages: Sequence[Chunk]) -> list[tuple[Chunk, list[Chunk]]]:
    """The passages as the writer reads them: the text passages of one slide (a PDF page), which
    the chunker cut into overlapping windows, joined back into the whole slide, each with the
    passages it was joined from. A list cut in two ("Tipos de cuello de botella:" with four kinds
    over two windows) is one list again; code stays in its own passages."""
    out: list[tuple[Chunk, list[Chunk]]] = []
    for c in passages:
        last = out[-1] if out else None
        if last and c.kind == "pdf" and not c.is_code and last[0].kind == "pdf" and not last[0].is_code \
                and c.source == last[0].source and c.locator.page is not None \
                and c.locator.page == last[0].locator.page and c.ordinal == last[1][-1].ordinal + 1:
            a, b = last[0].text.split("\n"), c.text.split("\n")
            out[-1] = (replace(last[0], text="\n".join(a + b[_overlap(a, b):])), [*last[1], c])
        else:
            out.append((c, [c]))
    return out


def _cited_part(d: Draft, parts: list[Chunk]) -> Draft:
    """The draft cites the passage of its slide that holds its quote (most of its words), as stored."""
    if len(parts) == 1:
        return d
    quote = set(words(d.question.citations[0].quote)) if d.question.citations else set()
    best = max(parts, key=lambda p: len(quote & set(words(p.text))))
    cites = tuple(replace(c, chunk_id=best.id) for c in d.question.citations)
    return replace(d, chunk=best, question=replace(d.question, citations=cites))
