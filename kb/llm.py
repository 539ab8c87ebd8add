"""The LLM side of the question-writer seam: any OpenAI-compatible endpoint (OpenAI, vLLM,
Ollama, llama.cpp) through the ``openai`` client, asked for JSON.

Timeouts, rate limits, server errors, invalid JSON and truncated replies
(``finish_reason="length"``) are retried a bounded number of times, then fail with a
:class:`~kb.errors.BackendError` that says what happened and what to change. Every
question the model writes is validated against the passage it cites; rejected ones are
reported with the reason, never silently kept.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Sequence

from .config import Settings
from .errors import BackendError
from .quiz import TYPES, Citation, Question
from .records import Chunk
from .text import detect_language, fold
from .writing.checks import norm, vocabulary
from .writing.generate import (
    SUPPORT_THRESHOLD,
    CourseTerms,
    Draft,
    GenerationRequest,
    Rejected,
    WriterOutput,
    interleave,
    passage_usable,
    support,
    word_overlap,
)

LANG_NAMES = {"pt": "Portuguese", "es": "Spanish", "en": "English"}
# Qwen2.5-Coder-1.5B wrote ~240 tokens a question (bench/llm_writer.py on 03Datos.pdf); six asked
# for in one reply overran 1500 tokens and ended the run as a truncated reply.
_MAX_PER_REPLY = 4
_TOKENS_PER_QUESTION = 320
# a stem that asks for the option that is NOT something: the 1.5B model marked a listed item as
# the one "no es común" (03Datos.pdf p. 9), and teachers avoid negative stems anyway
# ("no" is a negation in Spanish only: in Portuguese it is "em o", "No capítulo 12")
_NEGATED_STEM = {"es": re.compile(r"\b(no|excepto)\b", re.I), "pt": re.compile(r"\b(não|nao|exceto)\b", re.I),
                 "en": re.compile(r"\b(not|except)\b", re.I)}
_GENERIC_CONCEPTS = frozenset("""tecnica technique valor value sistema system forma form proceso processo process
    manera way datos dados data""".split())


class LLMClient:
    """Chat completions that must come back as one JSON object.

    Transport failures (timeouts, connection errors, 429 and 5xx) are retried by the openai
    client itself (``max_retries``, honouring ``Retry-After``); kb retries only what the
    transport cannot see: a body that is not a chat completion (an HTML page with status
    200, invalid JSON), an empty or truncated reply, or a reply that is not a JSON object.
    Every failure ends as a :class:`BackendError` (exit code 5) naming the endpoint and fix."""

    def __init__(self, settings: Settings) -> None:
        if not settings.llm_model:
            raise BackendError("no LLM model configured", "set KB_LLM_MODEL (and OPENAI_BASE_URL for a local server)")
        try:
            import openai
        except ImportError as e:  # pragma: no cover
            raise BackendError("the openai package is not installed", "pip install openai") from e
        self._openai = openai
        self.model = settings.llm_model
        self.base_url = settings.llm_base_url or "https://api.openai.com/v1"
        self.retries = max(0, settings.llm_retries)
        self._json_mode = True
        import httpx

        self._timeout = httpx.Timeout(settings.llm_timeout, connect=min(settings.llm_timeout, 10.0))
        self.client = openai.OpenAI(
            base_url=settings.llm_base_url, api_key=settings.llm_api_key or "not-needed",
            # openai's annotation names its vendored httpx2.Timeout; it reads the same fields of an httpx one
            timeout=self._timeout,  # type: ignore[arg-type]
            max_retries=self.retries,
        )

    def _fail(self, what: str, hint: str = "") -> BackendError:
        return BackendError(
            f"the LLM at {self.base_url} {what}",
            hint or "check the server, raise KB_LLM_TIMEOUT/KB_LLM_RETRIES, or add --offline (or unset "
            "KB_LLM_MODEL) to work without the LLM",
        )

    def chat_json(self, system: str, user: str, max_tokens: int = 1500) -> dict[str, Any]:
        """One JSON object from the model, or BackendError."""
        last = ""
        for _attempt in range(self.retries + 1):
            resp, last = self._complete(system, user, max_tokens)
            if resp is None:
                continue
            content, why = completion_text(resp)
            if why:
                last = why
                continue
            try:
                return parse_json_object(content)
            except ValueError as e:
                last = f"replied with invalid JSON ({e})"
                continue
        raise self._fail(f"failed {self.retries + 1} times: {last}")

    def _complete(self, system: str, user: str, max_tokens: int) -> tuple[Any, str]:
        """One chat completion: (response, "") or, for a reply worth asking again, (None, why);
        an error that asking again cannot fix raises BackendError."""
        o = self._openai
        kwargs: dict[str, Any] = {}
        if self._json_mode:
            kwargs["response_format"] = {"type": "json_object"}
        try:
            resp = self.client.chat.completions.create(
                model=self.model, temperature=0.2, max_tokens=max_tokens,
                messages=[{"role": "system", "content": system}, {"role": "user", "content": user}], **kwargs,
            )
        except o.APITimeoutError as e:
            raise self._fail(f"failed {self.retries + 1} times: "
                             f"timed out after {self._timeout.read:g} s") from e
        except o.RateLimitError as e:
            raise self._fail(f"failed {self.retries + 1} times: rate limited (HTTP 429)",
                             "wait and run again, or raise KB_LLM_RETRIES") from e
        except o.APIConnectionError as e:
            raise self._fail(f"cannot be reached ({e.__cause__ or e})",
                             "start the server or fix OPENAI_BASE_URL, or add --offline") from e
        except o.AuthenticationError as e:
            raise BackendError(f"the LLM endpoint {self.base_url} refused the API key (HTTP 401)",
                               "set OPENAI_API_KEY to a valid key") from e
        except o.NotFoundError as e:
            raise BackendError(f"model '{self.model}' not found at {self.base_url}",
                               "set KB_LLM_MODEL to a model the endpoint serves") from e
        except o.BadRequestError as e:
            if self._json_mode and "response_format" in str(e):
                self._json_mode = False  # some servers do not take JSON mode: ask in the prompt only
                return None, "endpoint does not support JSON mode"
            raise BackendError(f"the LLM endpoint rejected the request ({e})",
                               "check KB_LLM_MODEL and the endpoint") from e
        except o.APIStatusError as e:
            raise self._fail(f"failed {self.retries + 1} times: server error (HTTP {e.status_code})") from e
        except (ValueError, TypeError, o.APIResponseValidationError) as e:  # body not JSON (JSONDecodeError)
            return None, f"answered with a body that is not JSON ({type(e).__name__})"
        return resp, ""


def completion_text(resp: Any) -> tuple[str, str]:
    """(the reply's text, "") or ("", why it is not a usable chat completion)."""
    from pydantic import BaseModel, ValidationError

    class Message(BaseModel):
        content: str | None = None

    class Choice(BaseModel):
        message: Message
        finish_reason: str | None = None

    class Completion(BaseModel):
        choices: list[Choice]

    if isinstance(resp, (str, bytes)):
        head = (resp.decode("utf-8", "replace") if isinstance(resp, bytes) else resp).strip()[:60]
        return "", f"answered with something that is not a chat completion ({head!r}…; an HTML page?)"
    try:
        data = resp.model_dump() if hasattr(resp, "model_dump") else resp
        got = Completion.model_validate(data)
    except ValidationError as e:
        return "", f"answered with something that is not a chat completion ({e.errors()[0]['msg']})"
    if not got.choices:
        return "", "sent an empty reply (no choices)"
    choice = got.choices[0]
    if choice.finish_reason == "length":
        return "", "reply truncated (finish_reason=length)"
    if not (choice.message.content or "").strip():
        return "", "sent an empty reply"
    return choice.message.content or "", ""


def parse_json_object(text: str) -> dict[str, Any]:
    """The JSON object in a reply, tolerating code fences and prose around it."""
    text = text.strip()
    fence = re.search(r"```(?:json)?\s*(.*?)```", text, re.S)
    if fence:
        text = fence.group(1).strip()
    start = text.find("{")
    end = text.rfind("}")
    if start < 0 or end <= start:
        raise ValueError("no JSON object in the reply")
    try:
        obj = json.loads(text[start : end + 1])
    except RecursionError:
        raise ValueError("the reply nests too deeply") from None
    if not isinstance(obj, dict):
        raise ValueError("the reply is not a JSON object")
    return obj


# --------------------------------------------------------------------------- question writer

_SYSTEM = (
    "You are an experienced university instructor writing exam questions from course slides and notes. "
    "Ask about the central ideas of the passages (definitions, differences, purposes, procedures, where something "
    "applies and where not), never about a stray line, a URL, a lab file name or a trivial word. "
    "Every question must be answerable from ONE passage, and its model answer must be supported by that passage. "
    "Write whole sentences: never cut a sentence, never put the answer in the question. "
    "Each question must stand alone: name what it is about (\"the parameters of a PyTorch model\", not "
    "\"the parameters\"; never \"this\", \"these\" or \"they\" for something the question does not state). "
    "State facts, not opinions (no \"powerful\", \"advanced\", \"the most common\"). A model answer explains; it "
    "never just repeats the question. A false statement must not be false at a glance from a term's own name. "
    "Reply with one JSON object only."
)

_FORMAT = """Return JSON: {"questions": [{
  "type": one of %(types)s,
  "passage": the number of the passage the question comes from,
  "prompt": the question text, in %(lang)s (cloze: a whole sentence with one key course term replaced by _____;
            tf: a statement, not a question, that is clearly true or clearly false given the passage),
  "answer": the model answer in %(lang)s, a whole sentence (cloze: the missing term; tf: "true" or "false";
            mcq: the correct choice text),
  "choices": for mcq only, 4 options of the same kind (all methods, all datasets, all strategies), each a term
             of the passages or of the deck's term list, one correct, none naming the same thing as another, none
             repeated in the prompt; ask which one IS something, never which one is NOT,
  "correct": for mcq the index (0-3) of the correct choice; for tf true or false,
  "quote": the sentence of the passage that supports the answer, copied exactly,
  "concepts": 2-4 key terms of the course that a correct answer must contain (never generic words such as
              "technique", "value", "system", never verbs),
  "difficulty": "easy" (recall), "medium" (explain) or "hard" (apply, compare or give the steps)
}]}"""


@dataclass
class LLMWriter:
    """Retrieval picks the passages; the model writes questions grounded in them."""

    client: LLMClient
    batch_passages: int = 3
    _source_text: dict[str, tuple[str, Any]] = field(default_factory=dict, repr=False)
    _terms: dict[str, list[str]] = field(default_factory=dict, repr=False)

    @property
    def name(self) -> str:
        return self.client.model

    def write(self, passages: Sequence[Chunk], request: GenerationRequest, course: CourseTerms) -> WriterOutput:
        out = WriterOutput()
        usable = [c for c in passages if passage_usable(c)]
        if not request.topic:  # spread over sources
            by_src: dict[str, list[Chunk]] = {}
            for c in usable:
                by_src.setdefault(c.source, []).append(c)
            usable = interleave(by_src.values())
        target = max(2, int(request.n * 1.5))
        max_batches = max(3, request.n)  # a model that keeps failing validation must not walk the whole course
        for b, i in enumerate(range(0, len(usable), self.batch_passages)):
            if len(out.drafts) >= target:
                break
            if b >= max_batches:
                out.errors.append(f"stopped after {b} batches with {len(out.drafts)} valid questions "
                                  f"of {target} wanted")
                break
            batch = usable[i : i + self.batch_passages]
            want = min(_MAX_PER_REPLY, max(2, target - len(out.drafts)))
            try:
                user = self._prompt(batch, request, want, self._deck_terms(batch, course),
                                    outline="\n".join(course.outlines[s].text() for s in dict.fromkeys(
                                        c.source for c in batch) if s in getattr(course, "outlines", {})))
                reply = self.client.chat_json(_SYSTEM, user, max_tokens=_TOKENS_PER_QUESTION * want + 300)
            except BackendError as e:
                out.errors.append(e.message + (f" — {e.hint}" if e.hint else ""))
                break  # the endpoint is failing; keep what we have
            for raw in reply.get("questions", []) if isinstance(reply.get("questions"), list) else []:
                draft, why = self._validate(raw, batch, request, course)
                if draft:
                    out.drafts.append(draft)
                else:
                    prompt = str(raw.get("prompt", ""))[:80] if isinstance(raw, dict) else str(raw)[:80]
                    out.rejected.append(Rejected(prompt or "(no prompt)", why))
        return out

    def _source(self, chunk: Chunk, course: CourseTerms) -> tuple[str, Any]:
        """The cited source's text (headings and passages, as ``kb eval quiz`` reads it) and its
        word counts, once per source."""
        if chunk.source not in self._source_text:
            chunks = course.by_source.get(chunk.source, [chunk])
            text = "".join(f"\n{c.locator.heading or ''}\n{c.text}" for c in chunks)
            self._source_text[chunk.source] = (text, vocabulary(text))
        return self._source_text[chunk.source]

    def _deck_terms(self, batch: Sequence[Chunk], course: CourseTerms, k: int = 40) -> list[str]:
        """Course terms (defined, bold, identifiers) that the batch's sources use, most specific
        first: the wrong options of a multiple choice must come from the same deck."""
        first = {c.source: c for c in batch}
        key = "\0".join(sorted(first))
        if key not in self._terms:
            text = " ".join(norm(self._source(c, course)[0]) for c in first.values())
            found = [t for t in course.pool if norm(t) and f" {norm(t)} " in f" {text} "]
            found.sort(key=lambda t: (-course.importance(t), fold(t)))
            self._terms[key] = sorted(found[:k], key=fold)
        return self._terms[key]

    @staticmethod
    def _prompt(batch: Sequence[Chunk], request: GenerationRequest, want: int, terms: Sequence[str] = (),
                outline: str = "") -> str:
        lang = request.lang or batch[0].lang
        lang_name = LANG_NAMES.get(lang, "the passages' language")
        parts = [f"Passage {i}: ({c.citation()})\n{c.text}" for i, c in enumerate(batch, start=1)]
        diff = f" All of difficulty {request.difficulty}." if request.difficulty else " Mix the difficulties."
        # the fixed instructions first: a local server (llama.cpp) reuses the prefix it already read
        return (
            _FORMAT % {"types": ", ".join(request.types), "lang": lang_name} + "\n\n"
            + (f"The deck's term list (wrong options of a multiple choice come from it): {'; '.join(terms)}\n\n"
               if terms and "mcq" in request.types else "")
            + (f"The deck's outline (its most central ideas by section; ask about these first):\n{outline}\n\n"
               if outline else "")
            + "\n\n".join(parts)
            + f"\n\nWrite {want} questions in {lang_name} about the most central ideas of these passages, "
            f"types among {', '.join(request.types)}, each type only where the idea fits it.{diff} "
            "Reply with the JSON object described above."
        )

    def _validate(self, raw: Any, batch: Sequence[Chunk], request: GenerationRequest,  # noqa: C901 (debt: split the per-type checks)
                  course: CourseTerms) -> tuple[Draft | None, str]:
        if not isinstance(raw, dict):
            return None, "not a JSON object"
        qtype = raw.get("type")
        if qtype not in TYPES or qtype not in request.types:
            return None, f"type {qtype!r} was not asked for"
        prompt, answer = str(raw.get("prompt") or "").strip(), str(raw.get("answer") or "").strip()
        if not prompt or not answer:
            return None, "missing prompt or answer"
        try:
            passage: Any = raw.get("passage")
            chunk = batch[int(passage) - 1]
        except (TypeError, ValueError, IndexError):
            return None, "no valid citation (passage number)"
        quote = str(raw.get("quote") or "").strip()
        if not quote or word_overlap(quote, chunk.text) < 0.7:
            return None, "the quote is not in the cited passage"
        choices: tuple[str, ...] = ()
        correct: int | bool | None = None
        if qtype == "mcq":
            choices = tuple(str(c).strip() for c in raw.get("choices") or [] if str(c).strip())
            correct = raw.get("correct")
            if (len(choices) < 4 or not isinstance(correct, int) or isinstance(correct, bool)
                    or not 0 <= correct < len(choices)):
                return None, "multiple choice without 4 choices and a valid correct index"
            negation = _NEGATED_STEM.get(request.lang or chunk.lang, _NEGATED_STEM["en"])
            if negation.search(prompt):
                return None, "multiple choice asks which option is NOT something"
            answer = choices[correct]
        elif qtype == "tf":
            if prompt.rstrip().endswith("?") and "? " not in prompt:
                return None, "true/false written as a question, not a statement"  # "¿Es posible …?" → "Sí"
            correct = raw.get("correct")
            if not isinstance(correct, bool):
                correct = fold(answer).startswith(("true", "verdad", "sim", "si", "yes"))
        elif qtype == "cloze" and "___" not in prompt:
            return None, "cloze prompt has no blank (_____)"
        if (qtype in ("short", "cloze", "mcq")
                and support(answer, quote, chunk.text, course.embedder) < SUPPORT_THRESHOLD):
            return None, "the answer is not supported by the cited passage"
        concepts = tuple(str(c) for c in raw.get("concepts") or [] if isinstance(c, (str, int)))[:6]
        concepts = tuple(c for c in concepts if fold(c) not in _GENERIC_CONCEPTS)
        difficulty = str(raw["difficulty"]) if raw.get("difficulty") in ("easy", "medium", "hard") else "medium"
        lang = detect_language(prompt, default=chunk.lang)
        if request.lang and lang != request.lang or not request.lang and lang != chunk.lang:
            return None, f"written in {lang}, not in {request.lang or chunk.lang}"
        if request.difficulty and difficulty != request.difficulty:
            return None, f"difficulty {difficulty}, not {request.difficulty}"
        q = Question(type=qtype, prompt=prompt, answer=answer, choices=choices, correct=correct,
                     citations=(Citation(chunk.source, chunk.locator.describe(), chunk.id, quote[:500]),),
                     concepts=concepts or course.key_concepts(answer), difficulty=difficulty, lang=lang, origin="llm")
        text, vocab = self._source(chunk, course)
        from .writing.checklist import CheckContext, run_checks

        # the one registry of checks, as the offline writer and kb eval quiz run it (source_text: words
        # the deck never uses, claims its own code contradicts)
        found = run_checks(q, CheckContext(chunk.text, text, vocab, course.embedder, course.verb_like))
        if found:
            return None, "failed checks: " + ", ".join(found)
        return Draft(q, chunk, key="llm:" + fold(prompt)[:80], priority=2.5), ""


def get_grader(settings: Settings, embedder, *, offline: bool = False, examples=None):
    """The offline grader, or the LLM grader when KB_LLM_MODEL is set (and not ``offline``)."""
    from .grading.llm import LLMGrader
    from .grading.offline import OfflineGrader

    base = OfflineGrader(embedder)
    if settings.llm_model and not offline:
        return LLMGrader(LLMClient(settings), base, examples or {})
    return base


def get_writer(settings: Settings):
    """The offline writer, or the LLM writer when KB_LLM_MODEL (and an endpoint) is set."""
    from .writing.offline import OfflineWriter

    if settings.llm_model:
        return LLMWriter(LLMClient(settings))
    return OfflineWriter()
