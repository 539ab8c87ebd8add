"""The shapes the LLM is asked to reply in, as pydantic models: each is sent as a JSON Schema
(``response_format`` ``json_schema``) where the endpoint takes it, and names the fields the prompt
describes in words for the JSON-mode and prose fallbacks. kb still checks every field itself
(a model in JSON mode or prose may send anything)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, create_model

from ..quiz_schema import CitationModel, QuestionModel, reply_field

# Lengths in characters: bounds sent in the JSON Schema (``maxLength``/``maxItems``) that llama.cpp
# turns into its grammar, so that a small model cannot ramble in one string until its token cap
# (SmolLM2-135M filled a free "reasoning" with 700 tokens, every time). kb's own checks still read
# whatever a server without schemas sends.
_SENTENCES = 400
_QUOTE = 600
_TERM = 60  # a concept or an option: a few words
Term = Annotated[str, Field(max_length=_TERM)]


# One question as the writer asks for it (checked against its passage before it is kept): the quiz
# file's own fields (kb.quiz_schema: the same types, the same choices of type and difficulty), required
# where a question needs them and bounded for a grammar, in the order a model should write them, plus
# the number of the passage it cites; the quote is the file's citation quote.
DraftQuestion = create_model(
    "DraftQuestion",
    __doc__="One question as the writer asks for it (checked against its passage before it is kept).",
    type=reply_field(QuestionModel, "type"),
    passage=(int, Field(ge=1, le=12)),
    prompt=reply_field(QuestionModel, "prompt", max_length=_SENTENCES),
    answer=reply_field(QuestionModel, "answer", max_length=_SENTENCES),
    choices=reply_field(QuestionModel, "choices", default=[], max_length=4, item_max_length=_TERM),
    correct=reply_field(QuestionModel, "correct", default=None),
    quote=reply_field(CitationModel, "quote", max_length=_QUOTE),
    concepts=reply_field(QuestionModel, "concepts", default=[], max_length=4, item_max_length=_TERM),
    difficulty=reply_field(QuestionModel, "difficulty", default="medium"),
)


class QuestionsReply(BaseModel):
    """The writer's reply: a list of questions."""

    questions: list[DraftQuestion] = Field(max_length=6)  # type: ignore[valid-type]


class GradeReply(BaseModel):
    """The grader's reply: reasoning first (a model that reasons before scoring scores better), an
    integer score 0-3, feedback to the student, the key concepts present and missing."""

    reasoning: str = Field(max_length=_SENTENCES)
    score: Literal[0, 1, 2, 3]
    feedback: str = Field(max_length=_SENTENCES)
    present: list[Term] = Field(default_factory=list, max_length=6)
    missing: list[Term] = Field(default_factory=list, max_length=6)


class AskReply(BaseModel):
    """The ask-answerer's reply: the answer citing passages as [n], whether the course holds it."""

    answer: str = Field(max_length=1200)
    found: bool
    cited: list[int] = Field(default_factory=list, max_length=10)


REVIEW_BATCH = 12  # questions a review request holds (kb.llm.reviewer.BATCH): a default quiz's


class Review(BaseModel):
    """One question's review: its number in the request, keep / fix / drop, and why (or what to edit)."""

    question: int = Field(ge=1, le=REVIEW_BATCH)
    verdict: Literal["keep", "fix", "drop"]
    reason: str = Field(max_length=_SENTENCES)


class ReviewReply(BaseModel):
    """The reviewer's reply (kb.llm.reviewer): a review for each question of the request."""

    reviews: list[Review] = Field(max_length=REVIEW_BATCH)


class CheckReply(BaseModel):
    """The tiny structured request of ``kb llm check``."""

    ok: bool
    word: str = Field(max_length=20)
