"""`kb quiz review`: the teacher reads each question of a quiz and keeps, edits, drops or replaces it.

The quiz file stays the source of truth: a decision sets the question's ``status`` (``kept``,
``edited``, ``dropped``; none is a draft) and is written at once, atomically, so Ctrl-C or a
closed terminal loses at most the question on screen, and the next run starts at the first
question not reviewed yet. An edited question keeps its id (study history and grades stay
attached to it). Each decision is also stored for the course's writers (:mod:`kb.teacher`).

The session talks to a :class:`ReviewScreen` (the CLI's is in :mod:`kb.ui_review`); editing runs the
teacher's ``$VISUAL``/``$EDITOR`` on a plain rendering of the question, or asks field by field.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from .errors import KbError
from .export._common import tf_answer
from .i18n import N_, _, ngettext
from .quiz import STATUSES, Question, Quiz, load_quiz, save_quiz
from .quiz import _question_from_json as checked_question  # the quiz file's own checks, for an edit
from .teacher import load_decisions, record_decision

KEYS_LINE = N_("[k]eep [e]dit [d]rop [r]eplace [s]kip [q]uit")  # shown in the interface language
_ACTIONS = {"k": "keep", "e": "edit", "d": "drop", "r": "replace", "s": "skip", "q": "quit"}
_TF_WORDS = {"pt": ("Verdadeiro", "Falso"), "es": ("Verdadero", "Falso"), "en": ("True", "False")}
_TRUE = {"true", "t", "v", "verdadeiro", "verdadero", "sim", "si", "sí", "yes"}
_FALSE = {"false", "f", "falso", "não", "nao", "no"}


class ReviewScreen(Protocol):
    """Where a review is shown and read: one question card at a time, messages, one line of input."""

    def card(self, q: Question, n: int, total: int, reviewed: int) -> None:
        """Show question number ``n`` of ``total`` (``reviewed`` of them have a decision)."""

    def say(self, text: str, style: str = "") -> None:
        """Show one message (``style``: a rich colour name, or "")."""

    def read(self, prompt: str) -> str:
        """One line the teacher typed (EOFError when the input has ended)."""


@dataclass
class ReviewSummary:
    """What a review run did: questions in the quiz, how many have a decision now, this run's decisions."""

    path: Path
    total: int
    reviewed: int
    done: Counter[str] = field(default_factory=Counter)  # this run: kept, edited, dropped, replaced, skipped
    statuses: Counter[str] = field(default_factory=Counter)  # the whole quiz now (draft for none)
    finished: bool = False  # every question was shown (not quit, not interrupted)
    interrupted: bool = False  # Ctrl-C: every decision before the question on screen is saved


def reviewed_count(quiz: Quiz) -> int:
    """How many of the quiz's questions have a review decision (kept, edited or dropped)."""
    return sum(1 for q in quiz.questions if q.status in STATUSES)


def status_counts(quiz: Quiz) -> Counter[str]:
    """The quiz's questions by status (``draft`` for those without one)."""
    return Counter(q.status or "draft" for q in quiz.questions)


# --------------------------------------------------------------------------- the edit format

_HEADER = """\
# Edit this question, save and close the editor. Lines starting with # are ignored.
# Its id ({id}) and type ({type}) stay as they are. Empty the file to cancel the edit.
"""
_SECTION = re.compile(r"^(PROMPT|CHOICES|ANSWER|ALSO ACCEPTED|CONCEPTS):", re.M)


class EditError(ValueError):
    """An edited question that cannot be saved; the message says what is wrong with it."""


def render_for_edit(q: Question) -> str:
    """The question as plain text for an editor: sections PROMPT, CHOICES (mcq, ``*`` marks the right
    one), ANSWER (tf: true or false), ALSO ACCEPTED (short, cloze) and CONCEPTS, one item a line."""
    out = [_HEADER.format(id=q.id, type=q.type), "PROMPT:", q.prompt, ""]
    if q.type == "mcq":
        out.append("CHOICES: (one a line; * before the right one)")
        out += [f"{'*' if i == q.correct else ' '} {c}" for i, c in enumerate(q.choices)]
    elif q.type == "tf":  # the word in the question's language, then what kb has of the corrected statement
        out += ["ANSWER: (true or false — Verdadeiro/Falso, Verdadero/Falso — then, optionally, what the source says)",
                tf_answer(q)]
    else:
        out += ["ANSWER:", q.answer, "", "ALSO ACCEPTED: (other replies graded right, one a line)", *q.accepted]
    out += ["", "CONCEPTS: (what a right reply must contain, one a line)", *q.concepts, ""]
    return "\n".join(out)


def _sections(text: str) -> dict[str, str]:
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    found: dict[str, str] = {}
    marks = list(_SECTION.finditer(body))
    if body.strip() and (not marks or body[:marks[0].start()].strip()):
        raise EditError("text outside the sections: keep the PROMPT:, ANSWER:, … lines and write under them")
    for m, nxt in zip(marks, [*marks[1:], None], strict=True):
        name = m.group(1)
        if name in found:
            raise EditError(f"{name}: appears twice")
        # the rest of the header line is a hint in parentheses, not content
        content = body[m.end():nxt.start() if nxt else len(body)]
        first, _, rest = content.partition("\n")
        first = re.sub(r"^\s*\(.*\)\s*$", "", first)
        found[name] = (first + "\n" + rest).strip()
    return found


def _lines(block: str) -> list[str]:
    return [x.strip() for x in block.splitlines() if x.strip()]


def parse_edit(text: str, q: Question) -> Question:
    """The question ``q`` as the teacher edited it (``text`` in :func:`render_for_edit`'s format), with
    the same id, type, citations and status ``edited``; EditError says what is wrong."""
    got = _sections(text)
    prompt = got.get("PROMPT", "")
    if not prompt:
        raise EditError("PROMPT: is empty — write the question under PROMPT:")
    raw: dict[str, Any] = {"id": q.id, "type": q.type, "prompt": prompt, "difficulty": q.difficulty,
                           "lang": q.lang, "concepts": _lines(got.get("CONCEPTS", "")),
                           "citations": [c.to_json() for c in q.citations]}
    if q.type == "mcq":
        rows = _lines(got.get("CHOICES", ""))
        marked = [i for i, r in enumerate(rows) if r.startswith("*")]
        choices = [r.lstrip("*").strip() for r in rows]
        if len(choices) < 2 or not all(choices):
            raise EditError("CHOICES: a multiple choice needs at least 2 options, one a line")
        if len(marked) != 1:
            raise EditError(f"CHOICES: mark exactly one option with * (found {len(marked)})")
        if len(set(choices)) != len(choices):
            raise EditError("CHOICES: two options are the same")
        raw.update(choices=choices, correct=marked[0], answer=choices[marked[0]])
    elif q.type == "tf":
        given = got.get("ANSWER", "").strip()
        first = re.match(r"[^\W\d_]+", given)
        word = first.group(0).lower() if first else given.lower().rstrip(".")
        if word not in _TRUE | _FALSE:
            raise EditError(f"ANSWER: write true or false (found {word or 'nothing'!r})")
        true_word, false_word = _TF_WORDS.get(q.lang, _TF_WORDS["en"])
        rest = re.sub(r"^[\s.:;,—–-]+", "", given[first.end():]) if first else ""  # the corrected statement
        said = true_word if word in _TRUE else false_word
        raw.update(correct=word in _TRUE, answer=f"{said}. {rest}" if rest else said)
    else:
        answer = got.get("ANSWER", "")
        if not answer:
            raise EditError("ANSWER: is empty — write the model answer under ANSWER:")
        if q.type == "cloze" and "___" not in prompt:
            raise EditError("PROMPT: a cloze needs a blank (_____) where the answer goes")
        raw.update(answer=answer, accepted=_lines(got.get("ALSO ACCEPTED", "")))
    try:  # the same checks as reading a quiz file: an edit is never saved broken
        checked = checked_question(raw, Path("edit"), 1)
    except KbError as e:
        raise EditError(f"{e.message.split(': ', 1)[-1]} — {e.hint}") from None
    return replace(checked, origin=q.origin, status="edited")


def same_content(a: Question, b: Question) -> bool:
    """True when an edit changed nothing a student or the grader sees."""
    return (a.prompt, a.answer, a.choices, a.correct, a.accepted, a.concepts) == \
        (b.prompt, b.answer, b.choices, b.correct, b.accepted, b.concepts)


def run_editor(text: str, command: str) -> str:
    """Open ``command`` (``$VISUAL``/``$EDITOR``, split like a shell would) on ``text`` in a temporary
    file and return what was saved. kb ignores Ctrl-C while the editor runs (the editor handles it);
    the editor itself starts with SIGINT at its default even when kb was started with it ignored.
    Raises EditError when the editor cannot start or fails."""
    import shlex
    import signal
    import subprocess
    import tempfile

    fd, name = tempfile.mkstemp(prefix="kb-review-", suffix=".txt")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        try:
            argv = shlex.split(command)
        except ValueError as e:
            raise EditError(f"cannot read the editor command {command!r} ({e})") from None
        saved = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            done = subprocess.run([*argv, name], check=False,
                                  preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        except OSError as e:
            raise EditError(f"cannot start the editor {argv[0]!r} ({e.strerror or e}); set VISUAL or EDITOR") from None
        finally:
            signal.signal(signal.SIGINT, saved)
        if done.returncode != 0:
            raise EditError(f"the editor {argv[0]!r} exited with code {done.returncode}; the question was left "
                            "as it was")
        with open(name, encoding="utf-8") as f:
            return f.read()
    finally:
        os.unlink(name)


def line_edit(q: Question, read: Callable[[str], str], say: Callable[[str], None]) -> str:
    """Edit ``q`` field by field in the terminal (no editor set): Enter keeps a field as it is.
    Returns the edited question in :func:`render_for_edit`'s format."""
    say("no VISUAL or EDITOR set: edit field by field (Enter keeps a field as it is)")
    prompt = read("prompt> ").strip() or q.prompt
    concepts = "; ".join(q.concepts)
    out = ["PROMPT:", prompt, ""]
    if q.type == "mcq":
        shown = " | ".join(f"{'*' if i == q.correct else ''}{c}" for i, c in enumerate(q.choices))
        say(f"choices now: {shown}")
        got = read("choices (separated by |, * before the right one)> ").strip() or shown
        out += ["CHOICES:", *[c.strip() for c in got.split("|")]]
    elif q.type == "tf":  # the words of the question's language; Enter keeps the answer and its statement
        true_word, false_word = _TF_WORDS.get(q.lang, _TF_WORDS["en"])
        got = read(f"{true_word}/{false_word} [{true_word if q.correct else false_word}]> ").strip()
        out += ["ANSWER:", got or tf_answer(q)]
    else:
        out += ["ANSWER:", read("answer> ").strip() or q.answer, "", "ALSO ACCEPTED:", *q.accepted]
    say(f"concepts now: {concepts}")
    got = read("concepts (separated by ;)> ").strip()
    out += ["", "CONCEPTS:", *[c.strip() for c in (got or concepts).split(";")]]
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- the session


def review_quiz(path: Path, screen: ReviewScreen, *, editor: str | None = None,
                replacement: Callable[[Quiz, Question], Question | None] | None = None,
                again: bool = False, advice: Advice | None = None) -> ReviewSummary:
    """Review the quiz file ``path`` question by question from the first one without a decision
    (``again``: from the first question, every one shown again). Each decision is saved at once.
    ``replacement(quiz, q)`` writes another question on the same passage (None: none found). ``advice(qs)``
    (a model configured): the model's verdict on each question to review, shown under its card, and what it
    could not read; without a knowledge base the review goes on without it. Ctrl-C ends the review with
    ``interrupted`` set: only the question on screen is lost."""
    quiz = load_quiz(path)
    load_decisions(path.parent)  # a damaged record of decisions is reported before the first decision, not at it
    total = len(quiz.questions)
    summary = ReviewSummary(path, total, reviewed_count(quiz))
    todo = [i for i, q in enumerate(quiz.questions) if again or not q.status]
    if not todo:
        screen.say(_("reviewed {n} of {total}: every question has a decision ({counts}); add --again to go through "
                     "them again").format(n=summary.reviewed, total=total, counts=_counts(status_counts(quiz))))
        summary.statuses, summary.finished = status_counts(quiz), True
        return summary
    first = todo[0] + 1
    screen.say(_("reviewed {n} of {total}").format(n=summary.reviewed, total=total)
               + (_("; starting at question {first}").format(first=first) if first > 1 else ""))
    hints: dict[str, dict] = {}
    if advice is not None:
        screen.say(_("the model reads the {n} questions first (advisory: you decide)…").format(n=len(todo)), "dim")
        try:
            hints, said = advice([quiz.questions[i] for i in todo])
        except KeyboardInterrupt:
            summary.interrupted, summary.statuses = True, status_counts(quiz)
            return summary
        except KbError as e:  # (no knowledge base here, say: the review goes on, without the model's advice)
            message, hint = e.localized()
            said = [_("no advice from the model: {error}").format(error=message) + (f" — {hint}" if hint else "")]
        for line in said:
            screen.say(line, "yellow")

    def save(i: int, q: Question, decision: str, about: Question | None = None) -> Quiz:
        """Write the quiz with ``q`` at position ``i`` (atomically), then the teacher's decision."""
        nonlocal quiz
        quiz = replace(quiz, questions=quiz.questions[:i] + (q,) + quiz.questions[i + 1:])
        save_quiz(quiz, path)
        record_decision(path.parent, about or q, decision, path.name)
        summary.done[decision] += 1
        summary.reviewed = reviewed_count(quiz)
        return quiz

    try:
        for i in todo:
            if _one(i, quiz, screen, save, editor, replacement, summary, hints) == "quit":
                break
        else:
            summary.finished = True
    except KeyboardInterrupt:
        summary.interrupted = True
    finally:
        summary.statuses = status_counts(quiz)
    return summary


def _one(i: int, quiz: Quiz, screen: ReviewScreen, save: Callable[..., Quiz], editor: str | None,
         replacement: Callable[[Quiz, Question], Question | None] | None, summary: ReviewSummary,
         hints: dict[str, dict]) -> str:
    """Show question ``i`` until the teacher decides; returns the action taken."""
    q = quiz.questions[i]
    while True:
        screen.card(q, i + 1, summary.total, summary.reviewed)
        advised = hints.get(q.id)  # (a replacement is a new question: the model has not read it)
        if advised:
            from .llm.reviewer import VERDICT_STYLE, VERDICT_WORDS

            said = _(VERDICT_WORDS[advised["verdict"]])
            screen.say(_("the model says: {verdict}").format(verdict=said) + (f" — {advised['reason']}"
                       if advised["reason"] else ""), VERDICT_STYLE[advised["verdict"]])
        action = _read_action(screen)
        if action in ("quit", "skip"):
            if action == "skip":
                summary.done["skipped"] += 1
            return action
        if action in ("keep", "drop"):
            status = "kept" if action == "keep" else "dropped"
            save(i, replace(q, status=status), status)
            screen.say({"kept": _("kept"), "dropped": _("dropped")}[status], _STYLE[status])
            return action
        if action == "edit":
            edited = _edit(q, screen, editor)
            if edited is not None:
                save(i, edited, "edited")
                screen.say(_("edited (id {id} kept)").format(id=edited.id), _STYLE["edited"])
                return action
            continue
        # replace: a new draft in the same place; the old question is gone, its pattern noted
        if replacement is None:
            screen.say(_("replace needs the knowledge base the quiz was written from"), "yellow")
            continue
        screen.say(_("asking the writer for another question on this passage…"), "dim")
        try:
            new = replacement(quiz, q)
        except KbError as e:
            message, hint = e.localized()
            screen.say(_("cannot replace it: {error}").format(error=message) + (f" — {hint}" if hint else ""),
                       "yellow")
            continue
        if new is None:
            screen.say(_("the writer has no other question on this passage: edit or drop this one"), "yellow")
            continue
        quiz = save(i, new, "replaced", about=q)
        q = new
        screen.say(_("replaced by {id}: keep, edit or drop the new one").format(id=q.id), _STYLE["edited"])


_STYLE = {"kept": "green", "edited": "cyan", "dropped": "red"}
# the model's verdict on the questions to review (question id → {"verdict", "reason"}) and the lines to say about
# what it could not read (a failed request, an unusable reply)
Advice = Callable[[list[Question]], tuple[dict[str, dict], list[str]]]


def _read_action(screen: ReviewScreen) -> str:
    while True:
        try:
            got = screen.read(f"{_(KEYS_LINE)} > ").strip().lower()
        except EOFError:  # the piped answers ran out, or the terminal closed: stop where we are
            screen.say("")
            return "quit"
        if got[:1] in _ACTIONS and (len(got) == 1 or got == _ACTIONS[got[0]]):
            return _ACTIONS[got[0]]
        screen.say(_("type one of k, e, d, r, s, q, then Enter"), "yellow")


def _edit(q: Question, screen: ReviewScreen, editor: str | None) -> Question | None:
    """The edited question, or None when the edit was cancelled, changed nothing, or failed."""
    text = render_for_edit(q)
    while True:
        try:
            got = run_editor(text, editor) if editor else line_edit(q, screen.read, screen.say)
        except EditError as e:
            screen.say(str(e), "yellow")
            return None
        except EOFError:
            return None
        if not "".join(line for line in got.splitlines() if not line.lstrip().startswith("#")).strip():
            screen.say(_("the file was empty: the edit was cancelled"), "yellow")
            return None
        try:
            new = parse_edit(got, q)
        except EditError as e:
            screen.say(_("the edit cannot be saved: {error}").format(error=e), "red")
            try:
                again = screen.read(_("[e]dit again  [c]ancel the edit") + " > ").strip().lower()
            except EOFError:
                again = "c"
            if again.startswith("e"):
                # the teacher fixes what they wrote, not the original: the reason goes on top as a comment
                text = f"# NOT SAVED: {e}\n" + "\n".join(
                    line for line in got.splitlines() if not line.startswith("# NOT SAVED:")) + "\n"
                continue
            screen.say(_("edit cancelled: the question was left as it was"), "yellow")
            return None
        if same_content(new, q):
            screen.say(_("nothing changed: the question was left as it was"), "dim")
            return None
        return new


def _counts(c: Counter[str]) -> str:
    said = {"kept": ngettext("{n} kept", "{n} kept", c["kept"]),
            "edited": ngettext("{n} edited", "{n} edited", c["edited"]),
            "dropped": ngettext("{n} dropped", "{n} dropped", c["dropped"]),
            "draft": ngettext("{n} draft", "{n} drafts", c["draft"])}
    return ", ".join(text.format(n=c[k]) for k, text in said.items() if c[k])


def summary_line(s: ReviewSummary) -> str:
    """``reviewed 7 of 12 (5 kept, 1 edited, 1 dropped, 5 drafts)`` and what to do next, in the
    interface language."""
    line = _("reviewed {n} of {total} ({counts})").format(n=s.reviewed, total=s.total, counts=_counts(s.statuses))
    if s.reviewed < s.total:
        line += _("; run kb quiz review {path} again to go on").format(path=s.path)
    return line


# --------------------------------------------------------------------------- replace


NEIGHBOURS = 2  # passages before and after the cited one that replace may ask about


def write_replacement(ws, quiz: Quiz, q: Question, writer) -> Question | None:
    """Another question on ``q``'s passage, from ``writer`` (the offline or LLM writer): on the same idea
    (its cited quote) when the writer has one, else the writer's best on that passage, else on the
    passages next to it in the same source; never a question the quiz already has. None when the
    writer has no other question there."""
    from .errors import InputError
    from .quiz import LANGS, TYPES
    from .teacher import _bag, _cosine
    from .text import fold
    from .writing.generate import CourseTerms, GenerationRequest

    ids = [c.chunk_id for c in q.citations if c.chunk_id]
    chunks = ws.store.get(ids) if ids else []
    if not chunks:
        where = q.citations[0].source + " · " + q.citations[0].locator if q.citations else "no citation"
        raise InputError("question {id}: its passage ({where}) is not in the knowledge base",
                         "ingest its source again, or edit the question instead",
                         id=q.id, where=where)
    every = list(ws.store.all_chunks())
    course = CourseTerms(every, ws.embedder)
    request = GenerationRequest(n=4, types=TYPES, lang=q.lang if q.lang in LANGS else None)
    taken = {x.id for x in quiz.questions} | {fold(x.prompt) for x in quiz.questions}
    # the passage itself first; a passage with nothing else to ask (one exercise and its answer)
    # then its neighbours in the same source, the ones a teacher reads as the same slide or section
    at = {(c.source, c.ordinal) for c in chunks}
    near = [c for c in every if c.id not in {x.id for x in chunks}
            and any(c.source == s and abs(c.ordinal - o) <= NEIGHBOURS for s, o in at)]
    fresh = []
    for passages in (chunks, near):
        if passages:
            out = writer.write(passages, request, course)
            fresh = [d for d in out.drafts if d.question.id not in taken and fold(d.question.prompt) not in taken]
        if fresh:
            break
    if not fresh:
        return None
    idea = _bag(" ".join(c.quote for c in q.citations) or q.answer)

    def rank(d) -> tuple[float, bool, float, str]:
        """Same idea first, then a question of the same type, then the writer's own priority."""
        near = _cosine(idea, _bag(" ".join(c.quote for c in d.question.citations) or d.question.answer))
        return (round(near, 1), d.question.type == q.type, d.priority, d.question.id)

    return max(fresh, key=rank).question
