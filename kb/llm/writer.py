"""The LLM question writer: retrieval picks the passages, the model writes questions grounded in
them, kb checks every one against the passage it cites (the same checks as the offline writer)
and reports each rejection with its reason.

Batches of passages go to the model in parallel (``KB_LLM_CONCURRENCY``) through
:class:`kb.llm.client.LLMClient`, asked for the :class:`~kb.llm.schemas.QuestionsReply` schema;
results are taken in batch order, so the quiz does not depend on which reply came first. A reply
cut by the token cap (or repeating itself until it) keeps its complete questions and the batch is
asked again for fewer; a batch that fails is reported and the run goes on with the others.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import Any, Sequence

from ..errors import BackendError
from ..quiz import TYPES, Citation, Question
from ..records import Chunk
from ..text import detect_language, fold
from ..writing.checks import norm, vocabulary
from ..writing.generate import (
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
from .client import EndpointError, LLMClient, Reply, complete_objects

LANG_NAMES = {"pt": "Portuguese", "es": "Spanish", "en": "English"}
# Qwen2.5-Coder-1.5B wrote ~240 tokens a question (bench/llm_writer.py on 03Datos.pdf); six asked
# for in one reply overran 1500 tokens and ended the run as a truncated reply.
_MAX_PER_REPLY = 4
# questions asked of one planned idea's passages: the plan takes one question an idea; a second gives selection
# a choice of form (hand-set, not measured)
_PER_IDEA = 2
_TOKENS_PER_QUESTION = 320
# a stem that asks for the option that is NOT something: the 1.5B model marked a listed item as
# the one "no es común" (03Datos.pdf p. 9), and teachers avoid negative stems anyway
# ("no" is a negation in Spanish only: in Portuguese it is "em o", "No capítulo 12")
_NEGATED_STEM = {"es": re.compile(r"\b(no|excepto)\b", re.I), "pt": re.compile(r"\b(não|nao|exceto)\b", re.I),
                 "en": re.compile(r"\b(not|except)\b", re.I)}
_GENERIC_CONCEPTS = frozenset("""tecnica technique valor value sistema system forma form proceso processo process
    manera way datos dados data""".split())


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
  "prompt": the question text, in %(lang)s (cloze: only where the passages' code names a function, class,
            argument or command that the sentence needs: a whole sentence with that name replaced by _____, never an
            ordinary word; tf: a statement, not a question, that is clearly true or clearly false given the passage),
  "answer": the model answer in %(lang)s, a whole sentence (cloze: the missing term; tf: "true" or "false";
            mcq: the correct choice text),
  "choices": for mcq only, 4 options of the same kind (all methods, all datasets, all strategies), each a term
             of the passages or of the deck's term list, one correct, none naming the same thing as another, none
             repeated in the prompt; ask which one IS something, never which one is NOT,
  "correct": for mcq the index (0-3) of the correct choice; for tf true or false,
  "quote": the sentence of the passage that supports the answer, copied exactly,
  "concepts": what a correct answer must contain, one per point the question asks for (2-5), each a course term
              or a short phrase of at most six words; together they cover every part of the question (never generic
              words such as "technique", "value", "system", never verbs alone, never words the prompt already says),
  "difficulty": "easy" (recall), "medium" (explain) or "hard" (apply, compare or give the steps)
}]}"""


# what a question a computer marks is, said to the model (a cloze only on a code name: _FORMAT says so)
_MARKED = {"mcq": "a multiple choice (where the deck's term list names three other things of the kind its answer is)",
           "tf": "a true/false statement"}


def _mix(types: Sequence[str], want: int) -> str:
    """The types a request asks for. With short answers and a kind a computer marks both asked, half the
    questions (rounded down) are of a marked kind: left to choose, a model wrote 63 % short answers, 27 %
    true/false and 6 % multiple choice (round 39's 614 drafts), where a teacher wants the kinds Moodle marks
    too (issue 26: "where the outline offers siblings, definitions and code entities, write the objective kinds")."""
    marked = [t for t in _MARKED if t in types]
    if "short" not in types or not marked or want < 2:
        return f"types among {', '.join(types)}, each type only where the idea fits it."
    kinds = ", else ".join(_MARKED[t] for t in marked)
    # (a cloze, asked only on a code name by _FORMAT, is left to "types among": round 40 was measured on these words)
    return (f"{want // 2} of them of a kind a computer marks — {kinds} — and the rest short answers "
            f"(types among {', '.join(types)}).")


_TF_WORDS = {"pt": ("Falso", "Verdadeiro"), "es": ("Falso", "Verdadero"), "en": ("False", "True")}
# a batch's requests stop when a reply asked for this few questions is cut again
_MIN_PER_REPLY = 1
# from this many planned requests, the writer says what the run may cost before it starts
_ESTIMATE_FROM = 10
# batches that failed after their retries, one after another (no success between): the run stops
_FAILED_IN_A_ROW = 2


@dataclass
class WriterContext:
    """What kb knows beyond the passages, for the prompt; every field optional. ``idea``: the idea
    to ask about (one line of the deck's outline); ``outline``: the deck's outline as text;
    ``examples``: questions a teacher kept or edited (Question objects or dicts with prompt and
    answer), shown as the style to follow. Set it on the writer (``writer.context``) or as a
    ``context`` attribute of the request."""

    idea: str = ""
    outline: str = ""
    examples: tuple[Any, ...] = ()
    subject: str = ""  # what the deck is about, named in every stem (the check ``missing-context`` asks it)


def _idea_label(idea: Any) -> str:
    """An outline idea as the prompt names it: "name (section)", or the name when the section is the idea."""
    return f"{idea.name} ({idea.section})" if idea.section and idea.section != idea.name else idea.name


def _asks(batch: tuple[tuple[Chunk, ...], str], want: int = _MAX_PER_REPLY) -> int:
    """How many questions a batch of :meth:`LLMWriter._batches` asks for at most (a planned idea's:
    :data:`_PER_IDEA`)."""
    return min(want, _PER_IDEA) if batch[1] else want


def _with_outline(context: WriterContext | None, batch: Sequence[Chunk], course: Any) -> WriterContext | None:
    """``context`` with what the outline of the batch's decks (:mod:`kb.outline`, planned by the generator)
    says, where it has none of its own: the deck's outline (where the passages sit, which ideas are
    central) and the idea to ask about — the most central ideas of the outline drawn from these passages."""
    outlines = getattr(course, "outlines", None) or {}
    decks = [outlines[s] for s in dict.fromkeys(c.source for c in batch) if s in outlines]
    if not decks:
        return context
    ids = {c.id for c in batch}
    mine = sorted((i for o in decks for i in o.ideas if ids & set(i.chunk_ids)), key=lambda i: -i.score)
    idea = "; ".join(dict.fromkeys(_idea_label(i) for i in mine[:2]))
    context = context or WriterContext()
    from ..writing.subject import deck_subject

    # the names the check ``missing-context`` accepts, as the deck writes them: first the subject the offline writer
    # sets its stems in (:func:`kb.writing.subject.deck_subject`: "OWL-ViT", "kernels persistentes"; never a file's
    # name, which round 38's model wrote as "En persistentkernels_es, …" where a deck's title slide had no heading),
    # then its top ideas' names of up to three words
    subject = deck_subject(course, decks[0].source)
    top = [i.name for i in decks[0].top(10) if 1 <= len(i.name.split()) <= 3][:3]
    names = ([subject] if subject else []) + top
    return replace(context, outline=context.outline or "\n".join(o.text() for o in decks), idea=context.idea or idea,
                   subject=context.subject or "; ".join(dict.fromkeys(names)))


def _warm_checks(langs: set[str], outlines: Sequence[Any] = ()) -> None:
    """Load what the checks read on their first use (wordfreq's word lists: ~0.5-0.8 s on the shared
    machine) and the stems of the decks' titles (which read the lists of three languages), so that it is
    paid while requests are in flight, not between two replies (it delayed the next requests by as much:
    bench/llm_parallel.py)."""
    from ..writing.checks import everyday_word
    from ..writing.setting import title_stems

    for lang in sorted(langs):
        everyday_word("the", lang)
    for outline in outlines:
        title_stems(outline)


@dataclass(frozen=True)
class BatchRequest:
    """One request of the writer: the passages, how many questions, the deck's terms, the context."""

    passages: tuple[Chunk, ...]
    want: int
    terms: tuple[str, ...] = ()
    context: WriterContext | None = None
    examples: str = ""  # the teacher's kept questions nearest to the passages, as a prompt block (kb.teacher)


@dataclass
class _BatchResult:
    raws: list[Any]
    notes: list[str]
    modes: list[str]


@dataclass
class LLMWriter:
    """Retrieval picks the passages; the model writes questions grounded in them."""

    client: LLMClient
    batch_passages: int = 3
    context: WriterContext | None = None
    teacher_dir: Any = None  # the course's quiz folder: its kept questions are shown as examples (kb.teacher)
    _source_text: dict[str, tuple[str, Any]] = field(default_factory=dict, repr=False)
    _terms: dict[str, list[str]] = field(default_factory=dict, repr=False)
    _modes: list[str] = field(default_factory=list, repr=False)

    @property
    def name(self) -> str:
        """The model's name, as the quiz's generator records it."""
        return self.client.model

    @property
    def generator(self) -> dict[str, Any]:
        """What the quiz file records of this writer: model, the output mode its replies came in
        (``json_schema``, ``json_object`` or ``prose``) and what the run spent."""
        modes = self._modes or [self.client.mode]
        return {"kind": "llm", "model": self.client.model, "output": max(set(modes), key=modes.count),
                "usage": self.client.usage.to_json()}

    def write(self, passages: Sequence[Chunk], request: GenerationRequest, course: CourseTerms) -> WriterOutput:
        """Drafts from the model for ``request``: batches of passages asked in parallel, each reply
        checked in batch order as it comes while the next ones are in flight, until enough questions
        passed the checks; each failed batch is named and the run goes on."""
        out = WriterOutput()
        usable = [c for c in passages if passage_usable(c)]
        if not request.topic:  # spread over sources
            by_src: dict[str, list[Chunk]] = {}
            for c in usable:
                by_src.setdefault(c.source, []).append(c)
            usable = interleave(by_src.values())
        target = max(2, int(request.n * 1.5))
        context = getattr(request, "context", None) or self.context
        batches = self._batches(usable, request, course, context)
        # a model that keeps failing validation must not walk the whole course: the batches that ask at most as many
        # questions in all as n full replies would (a planned idea's batch asks fewer)
        budget, planned = max(3, request.n) * _MAX_PER_REPLY, 0
        while planned < len(batches) and budget >= _asks(batches[planned]):
            budget -= _asks(batches[planned])
            planned += 1
        max_batches = planned
        if planned >= _ESTIMATE_FROM:  # a long run: what it may cost, before it starts
            self._estimate(batches[:planned], request, course, context, target)
        sent = self._pipeline(batches[:planned], target, request, course, context, out)
        if len(out.drafts) < target and sent >= max_batches and len(batches) > max_batches:
            out.notes.append(f"stopped after {sent} batches with {len(out.drafts)} valid questions of {target} wanted")
        out.notes.extend(self.client.notes)
        out.notes.append("LLM: " + self.client.usage.summary() + f"; output mode {self.generator['output']}")
        return out

    def _batches(self, usable: Sequence[Chunk], request: GenerationRequest, course: CourseTerms,
                 context: WriterContext | None) -> list[tuple[tuple[Chunk, ...], str]]:
        """The passages to send, in order, each batch with the idea it is to ask about ("" for the model
        to choose). Planned (:mod:`kb.writing.plan`): each source's ``request.n`` most central ideas of its
        outline, spread over its sections (:meth:`kb.outline.Outline.top`), one batch each — the idea's own
        passages — taken in turn from each source; then the passages no planned idea holds, each source's in
        reading order, a few at a time, the sources in turn. Not planned for a ``--topic`` quiz (retrieval
        ordered its passages) or a context that names its own idea: the passages in their order."""
        size = self.batch_passages
        outlines = getattr(course, "outlines", None) or {}
        if request.topic or (context is not None and context.idea) or not outlines:
            return [(tuple(usable[i : i + size]), "") for i in range(0, len(usable), size)]
        by_id = {c.id: c for c in usable}
        per_source: dict[str, dict[tuple[Chunk, ...], list[str]]] = {}
        taken: set[str] = set()
        for src in dict.fromkeys(c.source for c in usable):
            o = outlines.get(src)
            for idea in o.top(request.n) if o is not None else ():
                mine = tuple(by_id[i] for i in dict.fromkeys(idea.chunk_ids) if i in by_id)[:size]
                if mine:  # (ideas of the same passages share one request)
                    per_source.setdefault(src, {}).setdefault(mine, []).append(_idea_label(idea))
                    taken.update(c.id for c in mine)
        planned = interleave([(b, "; ".join(names)) for b, names in d.items()] for d in per_source.values())
        rest: dict[str, list[Chunk]] = {}  # (each source's own, a few at a time; the sources in turn)
        for c in usable:
            if c.id not in taken:
                rest.setdefault(c.source, []).append(c)
        return planned + interleave([(tuple(r[i : i + size]), "") for i in range(0, len(r), size)]
                                    for r in rest.values())

    def _pipeline(self, batches: Sequence[tuple[tuple[Chunk, ...], str]], target: int, request: GenerationRequest,
                  course: CourseTerms, context: WriterContext | None, out: WriterOutput) -> int:
        """Ask for ``batches`` in order, each reply checked into ``out`` in batch order as it comes while
        the next ones are in flight, until ``target`` questions passed the checks or the endpoint fails
        (two failed batches in a row, or one it cannot serve at all); returns how many were sent."""
        from .pool import OrderedPool

        sent = in_a_row = 0
        stop = False  # the endpoint is failing: nothing more is sent, the requests in flight are still taken

        def ask(br: BatchRequest) -> _BatchResult:
            return self._ask(br, request)

        with OrderedPool(ask, self.client.concurrency, self.client, total=len(batches), what="LLM writer") as pool:

            def send_more() -> None:
                """As many batches pending (sent, or queued for the next free worker) as should give the
                questions still needed at the rate questions have passed the checks so far, plus one, and
                at most twice the workers (once, after a failed batch): a worker freed while an earlier
                batch is still out takes the next one at once. Called when a reply is taken (in batch
                order) and again once it is checked, so what is sent depends on the replies, never on
                which came first; the first call after a take keeps the workers busy while the main
                thread checks that reply's questions."""
                nonlocal sent
                need = target - len(out.drafts)
                want = min(_MAX_PER_REPLY, max(2, need))
                # what a request should bring: the questions the next one asks for, times the share of the
                # questions received so far that passed the checks (a model whose drafts mostly fail needs more)
                seen = len(out.drafts) + len(out.rejected)
                asks = _asks(batches[sent], want) if sent < len(batches) else want
                expect = max(0.5, asks * len(out.drafts) / seen) if seen else asks
                ahead = 1 if in_a_row else 2  # after a failed batch, none queued: the next failure may stop the run
                while (not stop and need > 0 and sent < len(batches)
                       and pool.pending < min(ahead * self.client.concurrency, math.ceil(need / expect) + 1)):
                    pool.submit(self._request(batches[sent], want, course, context))
                    sent += 1

            send_more()
            if pool.pending:  # the checks' one-time set-up, while the first requests are in flight
                # ... not while a worker imports openai for them: both need the GIL, and the set-up
                # (~0.5 s) would hold the first requests back by as much (bench/llm_parallel.py)
                transport = getattr(self.client, "transport_ready", None)
                if transport is not None:
                    pool.wait_for(transport)
                outlines = getattr(course, "outlines", None) or {}
                decks = [outlines[s] for s in dict.fromkeys(c.source for b, _ in batches for c in b) if s in outlines]
                _warm_checks({request.lang} if request.lang else {c.lang for b, _ in batches[:sent] for c in b},
                             decks)
            while pool.pending:
                br, res = pool.take()
                if not isinstance(res, BaseException):  # a failed batch may stop the run: decided first
                    send_more()
                failed, fatal = self._take([br], [res], request, course, out)
                in_a_row = in_a_row + 1 if failed else 0
                if failed and (stop or fatal or in_a_row >= _FAILED_IN_A_ROW):  # keep what we have
                    out.errors.extend(f for f in failed if f not in out.errors)
                    stop = True
                    pool.stop()  # the batches queued for a worker are not sent
                elif failed:  # one bad batch: said, and the others are kept
                    out.notes.append(f"one batch of passages got no usable reply ({failed[0]}); the run went on "
                                     "without it")
                send_more()
        return sent

    def _request(self, batch: tuple[tuple[Chunk, ...], str], want: int, course: CourseTerms,
                 context: WriterContext | None) -> BatchRequest:
        """What is sent for one of :meth:`_batches`: its passages, up to ``want`` questions (a planned
        idea's batch: at most :data:`_PER_IDEA`), the deck's terms, the context with its idea, and the
        teacher's examples."""
        passages, idea = batch
        aimed = replace(context or WriterContext(), idea=idea) if idea else context
        return BatchRequest(passages, _asks(batch, want),
                            tuple(self._deck_terms(passages, course)), _with_outline(aimed, passages, course),
                            self._teacher_examples(passages))

    def _estimate(self, batches: Sequence[tuple[tuple[Chunk, ...], str]], request: GenerationRequest,
                  course: CourseTerms, context: WriterContext | None, target: int) -> None:
        """Say what a long run may send and cost, before it starts: ``batches``, each with a prompt like the
        first one's (outline, terms and the teacher's examples included), each reply at most its own cap (the
        line's "each": the largest)."""
        from .pool import note

        if not batches:
            return
        first = self._request(batches[0], _MAX_PER_REPLY, course, context)
        chars = len(_SYSTEM) + len(self._prompt(first.passages, request, first.want, first.terms, first.context)
                                   + first.examples)
        caps = [_TOKENS_PER_QUESTION * _asks(b) + 300 for b in batches]
        note(self.client.estimate("the LLM writer", len(batches), chars, max(caps),
                                  f" (it stops once {target} questions pass the checks)", completion_total=sum(caps)))

    def _teacher_examples(self, batch: Sequence[Chunk]) -> str:
        """The few-shot block of the teacher's kept questions nearest to ``batch`` (``kb.teacher``, set
        through ``teacher_dir`` by ``kb.teacher.with_teacher``), or ""."""
        if self.teacher_dir is None:
            return ""
        from ..teacher import examples_prompt

        return str(examples_prompt(self.teacher_dir, batch))

    def _take(self, wave: list[BatchRequest], results: list[Any], request: GenerationRequest, course: CourseTerms,
              out: WriterOutput) -> tuple[list[str], bool]:
        """A wave's replies validated into ``out``, in batch order: (why batches failed, whether
        the endpoint cannot serve at all)."""
        failed: list[str] = []
        fatal = False
        for br, res in zip(wave, results, strict=True):
            if isinstance(res, BackendError):
                failed.append(res.message + (f" — {res.hint}" if res.hint else ""))
                fatal = fatal or isinstance(res, EndpointError)
                continue
            if isinstance(res, BaseException):
                raise res
            if res is None:  # never started: the run was cancelled
                continue
            self._modes.extend(res.modes)
            out.notes.extend(res.notes)
            for raw in res.raws:
                draft, why = self._validate(raw, br.passages, request, course)
                if draft:
                    out.drafts.append(draft)
                else:
                    prompt = str(raw.get("prompt", ""))[:80] if isinstance(raw, dict) else str(raw)[:80]
                    out.rejected.append(Rejected(prompt or "(no prompt)", why))
        return failed, fatal

    def _ask(self, br: BatchRequest, request: GenerationRequest) -> _BatchResult:
        """One batch's questions (raw): a reply cut at its token cap keeps its complete questions
        and the batch is asked again for fewer, down to one."""
        from .schemas import QuestionsReply

        got = _BatchResult([], [], [])
        want = br.want
        while True:
            user = self._prompt(br.passages, request, want, br.terms, br.context) + br.examples
            reply: Reply = self.client.request(_SYSTEM, user, max_tokens=_TOKENS_PER_QUESTION * want + 300,
                                               schema=QuestionsReply, accept_truncated=True)
            got.modes.append(reply.mode)
            if reply.truncated:
                complete = complete_objects(reply.text, "questions")
                got.raws.extend(complete)
                if want <= _MIN_PER_REPLY:
                    got.notes.append(f"a reply asked for {want} question was cut at its token cap "
                                     f"({len(complete)} complete kept); raise the server's context or use a "
                                     "larger model")
                    return got
                fewer = max(_MIN_PER_REPLY, want // 2)
                got.notes.append(f"a reply was cut at its token cap (repeating itself?): {len(complete)} complete "
                                 f"question{'s' if len(complete) != 1 else ''} kept, asked again for {fewer}")
                want = fewer
                continue
            questions = reply.data.get("questions")
            if isinstance(questions, list):
                got.raws.extend(questions)
            else:
                keys = ", ".join(map(str, list(reply.data)[:5])) or "none"
                got.notes.append(f'a reply had no "questions" list (its keys: {keys}); its batch was skipped')
            return got

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
                context: WriterContext | None = None) -> str:
        lang = request.lang or batch[0].lang
        lang_name = LANG_NAMES.get(lang, "the passages' language")
        parts = [f"Passage {i}: ({c.citation()})\n{c.text}" for i, c in enumerate(batch, start=1)]
        diff = f" All of difficulty {request.difficulty}." if request.difficulty else " Mix the difficulties."
        extra = ""
        if context is not None:
            if context.outline:
                extra += f"The deck's outline (where these passages sit):\n{context.outline.strip()[:3000]}\n\n"
            if context.examples:
                lines = []
                for ex in list(context.examples)[:4]:
                    p = ex.get("prompt", "") if isinstance(ex, dict) else getattr(ex, "prompt", "")
                    a = ex.get("answer", "") if isinstance(ex, dict) else getattr(ex, "answer", "")
                    if p:
                        lines.append(f"- {p} → {a}")
                if lines:
                    extra += ("Questions the teacher kept (follow their style; do not repeat them):\n"
                              + "\n".join(lines) + "\n\n")
        idea = f" Ask about this idea: {context.idea.strip()}." if context is not None and context.idea else ""
        if context is not None and context.subject:  # a stem that names nothing of the deck fails missing-context
            idea += f" Every question names the deck's subject (one of: {context.subject.strip()})."
        # the fixed instructions first: a local server (llama.cpp) reuses the prefix it already read
        return (
            _FORMAT % {"types": ", ".join(request.types), "lang": lang_name} + "\n\n"
            + (f"The deck's term list (wrong options of a multiple choice come from it): {'; '.join(terms)}\n\n"
               if terms and "mcq" in request.types else "")
            + extra
            + "\n\n".join(parts)
            + f"\n\nWrite {want} questions in {lang_name} about the most central ideas of these passages, "
            f"{_mix(request.types, want)}{diff}{idea} "
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
            # the answer in the quiz's language ("Verdadeiro"), never the JSON words "true"/"false"
            answer = _TF_WORDS.get(request.lang or chunk.lang, _TF_WORDS["en"])[int(correct)]
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
                     concepts=concepts, difficulty=difficulty, lang=lang, origin="llm")
        text, vocab = self._source(chunk, course)
        from ..writing.checklist import CheckContext, run_checks

        # the one registry of checks, as the offline writer and kb eval quiz run it (source_text: words
        # the deck never uses, claims its own code contradicts)
        from ..writing.concepts import concepts_beside_stem

        # the offline writer's concept steps: none a grader cannot mark with, none the stem already says (before
        # the registry's concept-in-stem would turn the whole question down); the model's own concepts stay, and
        # only where none is left do the answer's points take their place (kb.writing.answer_points)
        q = concepts_beside_stem(q, course, chunk.source, own=True)
        if not q.concepts:  # (the model gave none a grader can use, and the answer has no points)
            from ..writing.checklist import in_stem

            terms = course.key_concepts(answer, exclude=prompt, source=chunk.source)
            q = replace(q, concepts=tuple(x for x in terms if not in_stem(x, prompt)))
        from ..writing.subject import deck_subject

        found = run_checks(q, CheckContext(chunk.text, text, vocab, course.embedder, course.verb_like,
                                           outline=(getattr(course, "outlines", None) or {}).get(chunk.source),
                                           subject=deck_subject(course, chunk.source)))
        if found:
            return None, "failed checks: " + ", ".join(found)
        return Draft(q, chunk, key="llm:" + fold(prompt)[:80], priority=2.5), ""
