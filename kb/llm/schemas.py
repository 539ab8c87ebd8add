"""The shapes the LLM is asked to reply in, as pydantic models: each is sent as a JSON Schema
(``response_format`` ``json_schema``) where the endpoint takes it, and names the fields the prompt
describes in words for the JSON-mode and prose fallbacks. kb still checks every field itself
(a model in JSON mode or prose may send anything)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class DraftQuestion(BaseModel):
    """One question as the writer asks for it (checked against its passage before it is kept)."""

    type: Literal["short", "mcq", "cloze", "tf"]
    passage: int = Field(ge=1, le=12)
    prompt: str
    answer: str
    choices: list[str] = Field(default_factory=list)
    correct: int | bool | None = None
    quote: str
    concepts: list[str] = Field(default_factory=list)
    difficulty: Literal["easy", "medium", "hard"] = "medium"


class QuestionsReply(BaseModel):
    """The writer's reply: a list of questions."""

    questions: list[DraftQuestion]


class GradeReply(BaseModel):
    """The grader's reply: reasoning first (a model that reasons before scoring scores better), an
    integer score 0-3, feedback to the student, the key concepts present and missing."""

    reasoning: str
    score: Literal[0, 1, 2, 3]
    feedback: str
    present: list[str] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list)


class AskReply(BaseModel):
    """The ask-answerer's reply: the answer citing passages as [n], whether the course holds it."""

    answer: str
    found: bool
    cited: list[int] = Field(default_factory=list)


class CheckReply(BaseModel):
    """The tiny structured request of ``kb llm check``."""

    ok: bool
    word: str
