"""Quiz records and the quiz file, the source of truth every export is made from.

A quiz file is JSON: ``schema``, ``title``, ``created_at``, ``generator``, ``kb`` (the
knowledge-base snapshot it came from), ``params`` and ``questions``. Reading validates it and
names the file, the question and the field on error: every field is checked by type
against a pydantic schema first (``"accepted": "abc"`` is not three accepted letters),
then by meaning.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .errors import InputError, Phrase
from .i18n import N_
from .records import DIFFICULTIES, TYPES, content_hash

SCHEMA_VERSION = 2  # 2: a question may carry the teacher's review "status" (issue 27)
READABLE_SCHEMAS = (1, 2)  # a schema-1 quiz reads as one whose questions are all drafts
LANGS = ("pt", "es", "en")
# what `kb quiz review` decided; no status (the empty string) is a draft nobody has checked yet
STATUSES = ("kept", "edited", "dropped")
REVIEWED = ("kept", "edited")  # what --reviewed-only takes


@dataclass(frozen=True)
class Citation:
    """Where a question's answer comes from: a source file, a readable locator, the chunk id and the
    supporting quote."""
    source: str
    locator: str  # human-readable: "p. 12 · Title", "00:36:35–00:39:00", "Chapter > Section"
    chunk_id: str
    quote: str  # the supporting sentence(s) from the passage

    def to_json(self) -> dict[str, Any]:
        """The citation as the quiz file's JSON object."""
        return asdict(self)


@dataclass(frozen=True)
class Question:
    """One question of a quiz (short, mcq, cloze or tf) with its model answer and citations; the id is a
    content hash of type, prompt and choices when not given."""
    type: str
    prompt: str
    answer: str  # model answer; mcq: the correct choice's text; tf: "true"/"false" word in lang
    citations: tuple[Citation, ...]
    concepts: tuple[str, ...] = ()
    difficulty: str = "medium"
    lang: str = "pt"
    choices: tuple[str, ...] = ()  # mcq only
    correct: int | bool | None = None  # mcq: index into choices; tf: True/False
    accepted: tuple[str, ...] = ()  # other accepted replies (cloze, short)
    origin: str = ""  # harvested | definition | cloze | mcq | tf | llm | idea | labels (a last resort: Draft.fallback)
    id: str = ""
    status: str = ""  # "" (draft), kept, edited or dropped; not part of the id: an edit keeps the id

    def __post_init__(self) -> None:
        if not self.id:
            object.__setattr__(self, "id", "q" + content_hash(self.type, self.prompt, *self.choices, n=10))

    def to_json(self) -> dict[str, Any]:
        """The question as the quiz file's JSON object; ``choices``/``correct`` only for the types that have them."""
        d: dict[str, Any] = {
            "id": self.id, "type": self.type, "prompt": self.prompt, "answer": self.answer,
        }
        if self.type == "mcq":
            d["choices"] = list(self.choices)
            d["correct"] = self.correct
        if self.type == "tf":
            d["correct"] = self.correct
        if self.accepted:
            d["accepted"] = list(self.accepted)
        d.update({
            "citations": [c.to_json() for c in self.citations],
            "concepts": list(self.concepts), "difficulty": self.difficulty, "lang": self.lang,
        })
        if self.origin:
            d["origin"] = self.origin
        if self.status:
            d["status"] = self.status
        return d

    @property
    def correct_text(self) -> str:
        """What a correct reply says: the choice text for mcq, the answer otherwise."""
        if self.type == "mcq" and isinstance(self.correct, int) and 0 <= self.correct < len(self.choices):
            return self.choices[self.correct]
        return self.answer


@dataclass(frozen=True)
class Quiz:
    """A quiz file's content: the questions, plus what made them (generator, knowledge-base snapshot, params)."""
    title: str
    questions: tuple[Question, ...]
    created_at: str = ""
    generator: dict[str, Any] = field(default_factory=dict)
    kb: dict[str, Any] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    schema: int = SCHEMA_VERSION

    def to_json(self) -> dict[str, Any]:
        """The quiz file's JSON object, as :func:`save_quiz` writes it and :func:`load_quiz` reads it."""
        return {
            "schema": self.schema, "title": self.title, "created_at": self.created_at,
            "generator": self.generator, "kb": self.kb, "params": self.params,
            "questions": [q.to_json() for q in self.questions],
        }

    def question(self, qid: str) -> Question | None:
        """The question with id ``qid``, or None when the quiz has none."""
        return next((q for q in self.questions if q.id == qid), None)

    def for_students(self, reviewed_only: bool = False) -> Quiz:
        """The quiz as students get it: without the questions the teacher dropped and, with
        ``reviewed_only``, with only those kept or edited in ``kb quiz review``."""
        from dataclasses import replace

        keep = [q for q in self.questions
                if (q.status in REVIEWED if reviewed_only else q.status != "dropped")]
        return self if len(keep) == len(self.questions) else replace(self, questions=tuple(keep))


def save_quiz(quiz: Quiz, path: Path) -> None:
    """Write atomically (temp file + rename): a crash never leaves half a quiz."""
    write_atomic(path, json.dumps(quiz.to_json(), ensure_ascii=False, indent=2) + "\n")


def write_atomic(path: Path, text: str) -> None:
    """Write UTF-8 text atomically with the user's umask (see :func:`kb.sheets.write_atomic_bytes`)."""
    from .sheets import write_atomic_bytes

    write_atomic_bytes(path, text.encode("utf-8"))


def load_quiz(path: Path) -> Quiz:
    """Read and validate a quiz file (hand edits welcome); errors name question and field."""
    if not path.exists():
        raise InputError("{path}: no such quiz file", "generate one with kb quiz generate, or check the path",
                         path=path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise InputError("{path}:{line}: not valid JSON ({error})", "fix the JSON syntax at that line", path=path,
                         line=e.lineno, error=e.msg) from e
    except UnicodeDecodeError as e:
        raise InputError("{path}: not UTF-8 text", "save the quiz file as UTF-8", path=path) from e
    except RecursionError:
        raise InputError("{path}: JSON nested too deeply to be a quiz",
                         "regenerate it with kb quiz generate", path=path) from None
    except OSError as e:
        raise InputError("{path}: cannot read ({error})", "check the path and its permissions", path=path,
                         error=e.strerror or e) from e
    if not isinstance(data, dict) or not isinstance(data.get("questions"), list):
        raise InputError("{path}: no \"questions\" list", "a quiz file is a JSON object with a \"questions\" list",
                         path=path)
    check_types(data, path)
    schema = data.get("schema", SCHEMA_VERSION)
    if schema not in READABLE_SCHEMAS:
        raise InputError("{path}: quiz schema {schema} is not supported (this kb reads {readable})",
                         "regenerate it with this version of kb", path=path, schema=schema,
                         readable=", ".join(map(str, READABLE_SCHEMAS)))
    questions = []
    seen: set[str] = set()
    for i, raw in enumerate(data["questions"], start=1):
        q = _question_from_json(raw, path, i)
        if q.id in seen:
            raise InputError("{path}: question {question} appears twice", "give each question its own \"id\"",
                             path=path, question=q.id)
        seen.add(q.id)
        questions.append(q)
    return Quiz(
        title=str(data.get("title") or path.stem), questions=tuple(questions),
        created_at=str(data.get("created_at", "")), generator=dict(data.get("generator") or {}),
        kb=dict(data.get("kb") or {}), params=dict(data.get("params") or {}),
    )


_FIXES = {  # words in an error message: translated with it (kb.errors.Phrase)
    "str": N_("a string in double quotes"),
    "list[str]": N_("a list of strings, e.g. [\"one\", \"two\"]"),
    "dict": N_("a JSON object {…}"),
    "int": N_("a whole number"),
    "int|bool": N_("an index (mcq) or true/false (tf)"),
    "citations": N_("a list of objects with \"source\", \"locator\", \"chunk_id\" and \"quote\""),
    "type": "one of " + ", ".join(TYPES),
    "difficulty": "one of " + ", ".join(DIFFICULTIES),
}


def _schemas():
    """The quiz file's types, strictly (no "5" for 5, no "abc" for a list of letters): the models of
    :mod:`kb.quiz_schema`, which the LLM writer's reply schema is made from too."""
    from .quiz_schema import QuestionModel, QuizModel

    return QuestionModel, QuizModel


_EXPECTED = {
    "id": "str", "type": "type", "prompt": "str", "answer": "str", "choices": "list[str]", "correct": "int|bool",
    "accepted": "list[str]", "citations": "citations", "concepts": "list[str]", "difficulty": "difficulty",
    "lang": "str", "origin": "str", "title": "str", "created_at": "str", "generator": "dict", "kb": "dict",
    "params": "dict", "schema": "int", "status": "str",
}


def check_types(data: dict, path: Path) -> None:
    """Raise InputError naming the file, the question and the field whose type is wrong."""
    from pydantic import ValidationError

    question_model, quiz_model = _schemas()
    top = {("schema_" if k == "schema" else k): v for k, v in data.items() if k != "questions"}
    try:
        quiz_model.model_validate(top)
    except ValidationError as e:
        field_ = str(e.errors()[0]["loc"][0]).rstrip("_")
        raise InputError("{path}: \"{field}\" is {value}, not {expected}",
                         "fix \"{field}\" in the file, or regenerate it with kb quiz generate", path=path,
                         field=field_, value=_shown(data.get(field_)),
                         expected=Phrase(_FIXES[_EXPECTED.get(field_, 'str')])) from None
    for n, raw in enumerate(data["questions"], start=1):
        if not isinstance(raw, dict):
            continue  # reported with its number by _question_from_json
        try:
            question_model.model_validate(raw)
        except ValidationError as e:
            loc = e.errors()[0]["loc"]
            field_ = str(loc[0])
            label = raw["id"] if isinstance(raw.get("id"), str) and raw["id"] else f"#{n}"
            expected = Phrase(_FIXES[_EXPECTED.get(field_, "str")])
            raise InputError("{path}: question {question} has \"{field}\" = {value}, not {expected}",
                             "write \"{field}\" as {expected}", path=path, question=label, field=field_,
                             value=_shown(raw.get(field_)), expected=expected) from None


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _mcq_correct(choices: Any, correct: Any, answer: str, bad: Callable[..., InputError]) -> int:
    """The index of a multiple-choice question's right option: ``correct`` when valid, else the
    option equal to the model answer."""
    if (not isinstance(choices, list) or len(choices) < 2
            or not all(isinstance(c, str) and c.strip() for c in choices)):
        raise bad(N_("{path}: question {question} has fewer than 2 \"choices\""), N_("list the options in \"choices\""))
    if not isinstance(correct, int) or isinstance(correct, bool) or not 0 <= correct < len(choices):
        if answer in choices:
            return choices.index(answer)
        raise bad(N_("{path}: question {question} has no valid \"correct\" choice index"),
                  N_("set \"correct\" to 0..{last}"), last=len(choices) - 1)
    return correct


def _citations_from_json(raw: Any, bad: Callable[..., InputError]) -> list[Citation]:
    cits = []
    for c in raw:
        if not isinstance(c, dict) or not c.get("source"):
            raise bad(N_("{path}: question {question} has a citation without \"source\""),
                      N_("each citation needs \"source\" (and locator, chunk_id, quote)"))
        cits.append(Citation(str(c["source"]), str(c.get("locator", "")), str(c.get("chunk_id", "")),
                             str(c.get("quote", ""))))
    return cits


def _question_from_json(raw: Any, path: Path, n: int) -> Question:
    label = raw.get("id") if isinstance(raw, dict) and raw.get("id") else f"#{n}"

    def bad(message: str, fix: str, **fields: Any) -> InputError:
        """An InputError naming the file and this question (``{path}``, ``{question}`` in ``message``)."""
        return InputError(message, fix, path=path, question=label, **fields)

    if not isinstance(raw, dict):
        raise bad(N_("{path}: question {question} has no fields (it is not an object)"),
                  N_("each question is a JSON object"))
    qtype = raw.get("type")
    if qtype not in TYPES:
        raise bad(N_("{path}: question {question} has an unknown \"type\" {value}"), N_("use one of {allowed}"),
                  value=repr(qtype), allowed=", ".join(TYPES))
    prompt = raw.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        raise bad(N_("{path}: question {question} has no \"prompt\""), N_("add the question text as \"prompt\""))
    answer = raw.get("answer")
    if not isinstance(answer, str) or not answer.strip():
        raise bad(N_("{path}: question {question} has no model answer"), N_("regenerate it or add \"answer\""))
    choices = raw.get("choices") or []
    correct = raw.get("correct")
    if qtype == "mcq":
        correct = _mcq_correct(choices, correct, answer, bad)
    if qtype == "tf" and not isinstance(correct, bool):
        raise bad(N_("{path}: question {question} has no \"correct\" true/false value"),
                  N_("set \"correct\" to true or false"))
    cits = _citations_from_json(raw.get("citations") or [], bad)
    difficulty = raw.get("difficulty", "medium")
    if difficulty not in DIFFICULTIES:
        raise bad(N_("{path}: question {question} has an unknown \"difficulty\" {value}"), N_("use one of {allowed}"),
                  value=repr(difficulty), allowed=", ".join(DIFFICULTIES))
    concepts = raw.get("concepts") or []
    if not isinstance(concepts, list) or not all(isinstance(c, str) for c in concepts):
        raise bad(N_("{path}: question {question} has \"concepts\" that is not a list of strings"),
                  N_("write \"concepts\": [\"idea 1\", \"idea 2\"]"))
    status = raw.get("status") or ""
    if status not in ("", *STATUSES):
        raise bad(N_("{path}: question {question} has an unknown \"status\" {value}"),
                  N_("use one of {allowed}, or remove \"status\" (a draft not reviewed yet)"),
                  value=repr(status), allowed=", ".join(STATUSES))
    return Question(
        id=str(raw.get("id") or ""), type=qtype, prompt=prompt.strip(), answer=answer.strip(), citations=tuple(cits),
        concepts=tuple(concepts), difficulty=difficulty, lang=str(raw.get("lang", "pt")), choices=tuple(choices),
        correct=correct, accepted=tuple(str(a) for a in raw.get("accepted") or []), origin=str(raw.get("origin", "")),
        status=status,
    )
