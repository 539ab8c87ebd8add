"""The quiz file's fields as pydantic models: one set for whatever reads or asks for a question.

- Reading a quiz file (:func:`kb.quiz.check_types`): :class:`QuizModel`, :class:`QuestionModel` and
  :class:`CitationModel`, strict types (no ``"5"`` for 5, no ``"abc"`` for a list of letters, a
  ``type`` among :data:`kb.quiz.TYPES`), every field optional (a missing prompt or answer is said in
  words by :mod:`kb.quiz`), unknown keys allowed (hand edits may add notes).
- The LLM writer's reply (:class:`kb.llm.schemas.DraftQuestion`, sent as JSON Schema): made by
  :func:`reply_field` from these models' own fields — the same types and the same choices of
  ``type`` and ``difficulty``, required where a question needs them, bounded for a grammar — plus what
  only a reply has (the number of the passage it cites). A field changed here changes both.

Imported only where a file is read or an LLM is asked (pydantic is not needed by ``kb --help``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from .records import DIFFICULTIES, TYPES

QuestionType = Literal[TYPES]  # type: ignore[valid-type]  # the tuple kb.quiz checks meaning with
Difficulty = Literal[DIFFICULTIES]  # type: ignore[valid-type]


class Strict(BaseModel):
    """Base of the quiz file's models: unknown keys are allowed (hand edits may add notes)."""

    model_config = ConfigDict(extra="allow")


class CitationModel(Strict):
    """The types of one citation object."""

    source: StrictStr | None = None
    locator: StrictStr | None = None
    chunk_id: StrictStr | None = None
    quote: StrictStr | None = None


class QuestionModel(Strict):
    """The types of one question object; its meaning (a prompt, an answer, a valid choice index) is
    checked later by ``kb.quiz._question_from_json``."""

    id: StrictStr | None = None
    type: QuestionType | None = None
    prompt: StrictStr | None = None
    answer: StrictStr | None = None
    choices: list[StrictStr] | None = None
    correct: Union[StrictBool, StrictInt] | None = None  # noqa: UP007 (pydantic reads the Union as written)
    accepted: list[StrictStr] | None = None
    citations: list[CitationModel] | None = None
    concepts: list[StrictStr] | None = None
    difficulty: Difficulty | None = None
    lang: StrictStr | None = None
    origin: StrictStr | None = None
    status: StrictStr | None = None


class QuizModel(Strict):
    """The types of the top-level fields (``schema`` is ``schema_``: the name would shadow ``BaseModel.schema``)."""

    schema_: StrictInt | None = None
    title: StrictStr | None = None
    created_at: StrictStr | None = None
    generator: dict[str, Any] | None = None
    kb: dict[str, Any] | None = None
    params: dict[str, Any] | None = None


def _without_none(annotation: Any) -> Any:
    """``X | None`` → ``X`` (``A | B | None`` → ``A | B``)."""
    args = tuple(a for a in get_args(annotation) if a is not type(None))
    if get_origin(annotation) is None or len(args) == len(get_args(annotation)):
        return annotation
    return args[0] if len(args) == 1 else Union[args]  # noqa: UP007


def reply_field(model: type[BaseModel], name: str, *, default: Any = ..., max_length: int | None = None,
                item_max_length: int | None = None) -> tuple[Any, Any]:
    """The field ``name`` of the quiz file's ``model`` as a field of a reply model (for
    ``pydantic.create_model``): its type without ``None``, required unless ``default`` is given
    (a list: ``[]``; ``None`` keeps ``None`` among the types), bounded by ``max_length`` (characters, or
    items of a list) and, for a list of strings, by ``item_max_length`` for each item."""
    annotation = model.model_fields[name].annotation
    if default is not None:
        annotation = _without_none(annotation)
    if item_max_length is not None:
        (item,) = get_args(annotation)  # list[X]
        annotation = list[Annotated[item, Field(max_length=item_max_length)]]  # type: ignore[valid-type]
    bounds = {"max_length": max_length} if max_length is not None else {}
    if default is ...:
        return annotation, Field(**bounds)  # type: ignore[call-overload]
    if isinstance(default, list):
        return annotation, Field(default_factory=list, **bounds)  # type: ignore[call-overload]
    return annotation, Field(default=default, **bounds)  # type: ignore[call-overload]
