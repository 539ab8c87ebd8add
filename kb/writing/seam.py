"""The writer seam: what ``kb quiz generate`` was asked for (:class:`GenerationRequest`), a candidate
question with what selection needs (:class:`Draft`), what a writer returns (:class:`WriterOutput`,
:class:`Rejected`), and the :class:`QuestionWriter` protocol both writers honour."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, Sequence

from ..errors import UsageError
from ..quiz import DIFFICULTIES, LANGS, TYPES, Question
from ..records import Chunk

if TYPE_CHECKING:
    from .course import CourseTerms

@dataclass(frozen=True)
class GenerationRequest:
    """What `kb quiz generate` was asked for: how many questions, of which types, about which topic
    or sources, at which difficulty and in which language."""

    n: int = 10
    types: tuple[str, ...] = TYPES
    topic: str | None = None
    sources: tuple[str, ...] = ()
    difficulty: str | None = None
    lang: str | None = None

    def validate(self) -> None:
        """Raise UsageError naming the bad option (n, types, difficulty, lang)."""
        if self.n < 1:
            raise UsageError("-n {n}: must be at least 1",
                             "ask for 1 or more questions",
                             n=self.n)
        bad = [t for t in self.types if t not in TYPES]
        if bad or not self.types:
            raise UsageError("--types {types}: unknown type {bad}",
                             "use a comma-separated list of {allowed}",
                             types=','.join(self.types), bad=', '.join(bad), allowed=", ".join(TYPES))
        if self.difficulty and self.difficulty not in DIFFICULTIES:
            raise UsageError("--difficulty {difficulty}: unknown",
                             "use one of {difficulties}",
                             difficulty=self.difficulty, difficulties=', '.join(DIFFICULTIES))
        if self.lang and self.lang not in LANGS:
            raise UsageError("--lang {lang}: unsupported",
                             "use one of {langs}",
                             lang=self.lang, langs=', '.join(LANGS))


@dataclass(frozen=True)
class Rejected:
    """A candidate question a check turned down, and why (shown in the generation summary)."""

    what: str
    reason: str
    chunk_id: str = ""  # the passage it was written from, when known (to say why an idea has no question)


@dataclass
class Draft:
    """A candidate question plus what selection needs to know about it."""

    question: Question
    chunk: Chunk
    key: str  # what the question is about (a term): one question per key
    priority: float
    item: str = ""  # the idea(s) (chunk id + item index, "|"-joined) it was written from: one question per idea
    idea: str = ""  # the outline idea it asks (kb.outline.Idea.key), set by kb.writing.plan.aim
    section: str = ""  # the outline section of that idea: selection spreads questions over these
    plan: int | None = None  # the rank of that idea (or one on its topic) among the source's planned top ideas
    # a form fresh teachers fix rather than keep (what each of a slide's labels means: 0 of 76 kept, 69 fixed,
    # eval/real_heldout_r6-r7; now a slide asked of its topic in general words, kb/writing/pattern_topic.py):
    # asked only to reach n once every other form is used (generate._fill); without it the ideas it asks went
    # unasked (round 8: key ideas asked 74 % -> 51 %)
    fallback: bool = False
    # its form's KEEP rate less its DROP rate as form_prior.weigh read it (against the whole deck where weigh is given
    # it, else the passage; the fit's mean KEEP rate for a form the fit has no rate for): the order last resorts are
    # asked in; None when not weighed (generate._fill then reads the question alone: form_prior.worth)
    worth: float | None = None


@dataclass
class WriterOutput:
    """What a writer returns: candidate questions, the ones it rejected, endpoint errors, notes."""

    drafts: list[Draft] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # why fewer questions may come out, for the summary


class QuestionWriter(Protocol):
    """The writer seam: the offline writer and the LLM writer both turn passages into drafts."""

    name: str

    def write(self, passages: Sequence[Chunk], request: GenerationRequest, course: CourseTerms) -> WriterOutput:
        """Questions (drafts) from the passages, and notes on what could not be asked."""
