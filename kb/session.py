"""The interactive study session in the terminal (rich): ask, read the typed reply, grade it,
show verdict, feedback, model answer and source, schedule the next review.

Keys: an empty line submits a free-text reply (multi-line allowed); objective questions take
one line (a letter, true/false, the missing term). ``:h`` shows a hint (the cited passage with
the answer's words masked), ``:s`` skips, ``:q`` quits. After the grade: Enter goes on, ``r``
says "I was right" (the review is redone as Good), ``q`` quits. Ctrl-C or Ctrl-D end the session;
every review already graded is saved.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from .export._common import tf_answer
from .grading.base import MAX_POINTS, Grade, Task, with_override
from .grading.objective import CORRECT_FEEDBACK
from .i18n import _, main_language, ngettext, type_word, verdict_word
from .study import Item, StudyDB, StudyDBLocked
from .text import fold, words

# Hint masking hides the answer's words longer than this many letters; shorter ones ("de", "the")
# stay readable. Set by hand, not measured.
_MASK_SHORT_WORD = 3
VERDICT_STYLE = {"correct": ("✓", "bold green"), "partial": ("~", "bold yellow"), "incorrect": ("✗", "bold red")}


@dataclass
class SessionSummary:
    """What one study session did: replies answered by verdict, skips, "I was right" overrides, and
    whether it ended before the queue did."""
    answered: int = 0
    skipped: int = 0
    verdicts: dict[str, int] = field(default_factory=lambda: {"correct": 0, "partial": 0, "incorrect": 0})
    overridden: int = 0
    quit_early: bool = False
    interrupted: bool = False  # ended by Ctrl-C: kb study exits 130


class Quit(Exception):
    """Raised by ``:q``/``q`` to end the session; every review graded so far is already saved."""
    pass


def mask(text: str, question) -> str:
    """The passage with the answer's own words hidden (first letter kept): a hint, not the answer."""
    hide = {fold(w) for src in (question.correct_text, *question.concepts) for w in words(src)
            if len(w) > _MASK_SHORT_WORD}
    hide -= {fold(w) for w in words(question.prompt)}  # words of the question stay readable
    return re.sub(r"[\wÀ-ÿ][\w\-À-ÿ]*", lambda m: (m.group(0)[0] + "_" * (len(m.group(0)) - 1))
                  if fold(m.group(0)) in hide else m.group(0), text)


def when(due_iso: str, now_iso: str) -> str:
    """When a review is due, relative to now: 'in 5 min', 'in 3 h', 'in 2 days'."""
    import datetime as dt

    delta = dt.datetime.fromisoformat(due_iso) - dt.datetime.fromisoformat(now_iso)
    s = delta.total_seconds()
    if s < 90 * 60:
        return _("in {n} min").format(n=max(1, round(s / 60)))
    if s < 36 * 3600:
        return _("in {n} h").format(n=round(s / 3600))
    days = round(s / 86400)
    return ngettext("in {n} day", "in {n} days", days).format(n=days)


class Session:
    """One ``kb study`` session on a terminal: asks each queued item, grades the reply with ``grader``,
    records it in ``db`` and shows the verdict; ``read`` reads a line (``input``, or a test's feed)."""
    def __init__(self, items: list[Item], db: StudyDB, grader, console, read: Callable[[str], str] = input) -> None:
        self.items, self.db, self.grader, self.con, self.read = items, db, grader, console, read
        self.summary = SessionSummary()

    def run(self) -> SessionSummary:
        """Ask every item, recording each answer; Ctrl-C, end of input or quit end it early."""
        total = len(self.items)
        try:
            for n, item in enumerate(self.items, 1):
                self._one(n, total, item)
        except Quit:
            self.summary.quit_early = True
        except (KeyboardInterrupt, EOFError) as e:
            self.summary.quit_early = True
            self.summary.interrupted = isinstance(e, KeyboardInterrupt)
            self.con.print()
        return self.summary

    def _one(self, n: int, total: int, item: Item) -> None:
        from rich.markup import escape
        from rich.rule import Rule

        q = item.question
        src = q.citations[0] if q.citations else None
        label = f"{n}/{total} · {type_word(q.type)}" + (" · " + _("new") if item.is_new else "")
        self.con.print(Rule(label, style="dim"))
        self.con.print(escape(q.prompt))
        for i, c in enumerate(q.choices):
            self.con.print(f"  {'abcdefghij'[i]}) {escape(c)}")
        reply = self._ask(q, src)
        if reply is None:
            self.summary.skipped += 1
            self.con.print(f"[dim]{_('skipped')}[/dim]")
            return
        grade = self.grader.grade([Task(q, reply)])[0]
        review_id, due = self._save(item, grade, reply)
        self.summary.answered += 1
        self.summary.verdicts[grade.verdict] += 1
        graded_as = grade.verdict
        self._show(grade, item, due)
        while True:
            key = self.read(_("[Enter] next · r I was right · q quit: ")).strip().lower()
            if key in ("", "n"):
                return
            if key == "q":
                raise Quit
            if key == "r" and grade.grader != "override":
                grade = with_override(grade, MAX_POINTS, "student")
                due = self.db.override(review_id, item, grade)
                self.summary.overridden += 1
                self.summary.verdicts[graded_as] -= 1
                self.summary.verdicts["correct"] += 1
                self.con.print(f"[green]{_('marked right')}[/green] — "
                               + _("next review {when}").format(when=when(due, _now())))
                return

    def _save(self, item: Item, grade: Grade, reply: str) -> tuple[int, str]:
        """Record the review; while another process keeps the database locked, say so and try again
        when the student presses Enter. Quitting there (or the end of input) is exit 4 with the
        unsaved answer shown, never a silent loss."""
        while True:
            try:
                return self.db.record(item, grade, reply)
            except StudyDBLocked as e:
                self.con.print(f"kb: {e.localized()[0]}", style="yellow", markup=False)
                try:
                    key = self.read(_("your answer is kept: Enter tries again, q gives up: ")).strip().lower()
                except EOFError:
                    key = "q"
                if key == "q":
                    raise StudyDBLocked("{locked}; your answer to question {question} was not saved (it was: "
                                        "{reply!r})", e.hint_template, **e.fields, locked=e,
                                        question=item.question.id, reply=reply) from None

    def _ask(self, q, src) -> str | None:
        from rich.markup import escape

        objective = q.type in ("mcq", "tf", "cloze")
        if objective:
            hint = {"mcq": _("a letter"), "tf": _("true/false (v/f)"), "cloze": _("the missing term")}[q.type]
            self.con.print("[dim]" + escape(_("Answer with {hint}, then Enter.").format(hint=hint)) + " "
                           + escape(_(":h hint · :s skip · :q quit")) + "[/dim]")
        else:
            self.con.print("[dim]" + escape(_("Type your answer; an empty line submits.")) + " "
                           + escape(_(":h hint · :s skip · :q quit")) + "[/dim]")
        lines: list[str] = []
        while True:
            line = self.read("> " if not lines else ". ")
            cmd = line.strip().lower()
            if not lines and cmd in (":q", ":quit"):
                raise Quit
            if not lines and cmd in (":s", ":skip"):
                return None
            if not lines and cmd in (":h", ":hint"):
                if src and src.quote:
                    self.con.print(f"[cyan]{_('hint')} ({escape(src.source)} · {escape(src.locator)}):[/cyan] "
                                   f"{escape(mask(src.quote, q))}")
                else:
                    self.con.print(f"[dim]{_('no hint for this question')}[/dim]")
                continue
            if objective:
                if line.strip():
                    return line.strip()
                continue
            if not line.strip():
                if lines:
                    return "\n".join(lines).strip()
                continue
            lines.append(line)

    def _show(self, grade: Grade, item: Item, due: str) -> None:
        from rich.markup import escape

        q = item.question
        mark, style = VERDICT_STYLE[grade.verdict]
        self.con.print(f"[{style}]{mark} {verdict_word(grade.verdict)} {grade.points}/{MAX_POINTS}[/{style}]")
        if grade.feedback and grade.feedback not in CORRECT_FEEDBACK:
            self.con.print(escape(grade.feedback))
        if "llm_unavailable" in grade.flags or "llm_invalid" in grade.flags:
            self.con.print(f"[dim]({_('the LLM grader did not answer: graded offline')})[/dim]")
        model = q.correct_text if q.type != "tf" else tf_answer(q)
        self.con.print(f"[bold]{_('Model answer:')}[/bold] {escape(model)}")
        for c in q.citations[:1]:
            self.con.print(f"[cyan]{_('Source:')} {escape(c.source)} · {escape(c.locator)}[/cyan]")
        self.con.print("[dim]" + _("next review {when}").format(when=when(due, _now())) + "[/dim]")


def _sigint_to_main_thread_only() -> set | None:
    """Block SIGINT in this thread, so that every thread started from now on (a model's pools,
    Chroma's) has it blocked too; :func:`read_line` unblocks it while waiting for the student. Returns
    the mask before, for :func:`_restore_mask`.
    Otherwise the kernel may hand Ctrl-C to one of those threads, and the main thread, blocked
    reading the terminal, never sees it: the session would ignore Ctrl-C. A Ctrl-C pressed while
    a reply is being graded is held until the next prompt, where it ends the session."""
    import signal

    if hasattr(signal, "pthread_sigmask"):
        return set(signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}))
    return None


def _restore_mask(mask: set | None) -> None:
    """Put back the signal mask :func:`_sigint_to_main_thread_only` changed."""
    import signal

    if mask is not None and hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def read_line(prompt: str) -> str:
    """``input(prompt)`` with SIGINT unblocked in this (the main) thread only, for as long as it waits."""
    import signal

    if not hasattr(signal, "pthread_sigmask"):
        return input(prompt)
    old = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        return input(prompt)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def study_session(course, quizzes, *, topic: str | None, new: int, offline: bool,
                  reviewed_only: bool = False) -> None:
    """`kb study`: generate a first quiz when there is none, build the queue (due, then new), run
    the session on the terminal and print the summary."""

    from . import i18n, ui
    from .api import FIRST_QUIZ_QUESTIONS

    def warn(m: str) -> None:
        """Show a warning (a quiz skipped, a grader fallback) in yellow on stderr."""
        ui.message(f"kb: {i18n.text(m)}", "yellow")

    if not quizzes and not list(course.quiz_dir.glob("*.json")):
        ui.message(_("no quiz in quizzes/ yet: generating {n} questions from the knowledge base (offline)…")
                   .format(n=FIRST_QUIZ_QUESTIONS))
        ui.message(_("wrote {path}").format(path=course.first_quiz()))
    queue = course.study_queue(quizzes, new=new, topic=topic, warn=warn, reviewed_only=reviewed_only)
    with i18n.course(main_language(q.lang for _path, quiz in queue.quizzes for q in quiz.questions)):
        if not queue.items:
            p = queue.db.progress(queue.quizzes)
            nxt = "; " + _("next review {when}").format(when=p["next_due"][:16].replace("T", " ") + " UTC") \
                if p.get("next_due") else ""
            about = " " + _("about {topic}").format(topic=repr(topic)) if topic else ""
            ui.message(_("nothing to study now") + about + nxt + ". "
                       + _("Raise --new for new questions, or generate more with kb quiz generate."))
            return
        repaired = queue.db.repaired
        mask = _sigint_to_main_thread_only()  # before the grader starts its threads: they inherit the mask
        try:
            summary = Session(queue.items, queue.db, course.study_grader(queue.quizzes, offline=offline, warn=warn),
                              ui.stdout(), read=read_line).run()
        finally:  # a library call leaves the caller's mask as it found it (a child process would inherit it)
            _restore_mask(mask)
        if queue.db.repaired != repaired:
            ui.message(f"kb: {queue.db.repaired}; your answer was saved", "yellow")
        ui.study_summary(summary, queue.db.progress(queue.quizzes))
        if summary.interrupted:  # Ctrl-C: everything graded is saved, and the exit code says it was stopped
            raise KeyboardInterrupt


def _now() -> str:
    from .study import _iso, now_utc

    return _iso(now_utc())
