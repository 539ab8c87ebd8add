"""The shapes the LLM is asked to reply in, as pydantic models: each is sent as a JSON Schema
(``response_format`` ``json_schema``) where the endpoint takes it, and names the fields the prompt
describes in words for the JSON-mode and prose fallbacks. kb still checks every field itself
(a model in JSON mode or prose may send anything)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

# Lengths in characters: bounds sent in the JSON Schema (``maxLength``/``maxItems``) that llama.cpp
# turns into its grammar, so that a small model cannot ramble in one string until its token cap
# (SmolLM2-135M filled a free "reasoning" with 700 tokens, every time). kb's own checks still read
# whatever a server without schemas sends.
_SENTENCES = 400
_QUOTE = 600
Term = Annotated[str, Field(max_length=60)]  # a concept or an option: a few words


class DraftQuestion(BaseModel):
    """One question as the writer asks for it (checked against its passage before it is kept)."""

    type: Literal["short", "mcq", "cloze", "tf"]
    passage: int = Field(ge=1, le=12)
    prompt: str = Field(max_length=_SENTENCES)
    answer: str = Field(max_length=_SENTENCES)
    choices: list[Term] = Field(default_factory=list, max_length=4)
    correct: int | bool | None = None
    quote: str = Field(max_length=_QUOTE)
    concepts: list[Term] = Field(default_factory=list, max_length=4)
    difficulty: Literal["easy", "medium", "hard"] = "medium"


class QuestionsReply(BaseModel):
    """The writer's reply: a list of questions."""

    questions: list[DraftQuestion] = Field(max_length=6)


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


class CheckReply(BaseModel):
    """The tiny structured request of ``kb llm check``."""

    ok: bool
    word: str = Field(max_length=20)
