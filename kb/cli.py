"""The ``kb`` command line: parse options, open the workspace, call one library
function, render the result. Heavy imports happen inside the commands."""

from __future__ import annotations

import contextlib
import functools
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path

import typer

from .click_i18n import KbGroup
from .config import DEFAULT_MAX_MB, Settings
from .errors import ExitCode, KbError

app = typer.Typer(
    name="kb",
    help="Turn a course's materials into a searchable knowledge base, exercises and grades.\n\n"
    "Example: kb ingest sources/ && kb search \"como limitar a memória da GPU?\"",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    cls=KbGroup,  # click's usage errors in the interface language (kb/click_i18n.py)
)
eval_app = typer.Typer(help="Measure retrieval, quiz and grader quality.\n\nExample: kb eval retrieval "
        "eval/queries.jsonl",
                       no_args_is_help=True)
app.add_typer(eval_app, name="eval")
quiz_app = typer.Typer(help="Generate, show and export quizzes.\n\nExample: kb quiz generate -n 10",
                       no_args_is_help=True)
app.add_typer(quiz_app, name="quiz")
llm_app = typer.Typer(help="Check the LLM endpoint kb is configured for.\n\nExample: kb llm check",
                      no_args_is_help=True)
app.add_typer(llm_app, name="llm")


class State:
    """The global options of this run (settings, ``--traceback``), set by :func:`main` for the commands."""
    settings: Settings = Settings()
    traceback: bool = False
    interrupted: bool = False  # a command ended by Ctrl-C or SIGTERM after cleaning up: run() then exits at once


def _version(value: bool) -> None:
    if value:
        from . import __version__

        typer.echo(f"kb {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    home: Path | None = typer.Option(None, "--home", help="Workspace folder (default .kb, env KB_HOME)."),
    store: str | None = typer.Option(None, "--store", help="Chroma server URL, e.g. http://127.0.0.1:8000 (env "
            "KB_STORE_URL)."),
    traceback: bool = typer.Option(False, "--traceback", help="Show the full stack on errors (for bug reports)."),
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version."),
    ui_lang: str | None = typer.Option(None, "--ui-lang", help="Language of what students and teachers read: en, pt "
            "or es (default: KB_UI_LANG, else the locale, else the course's; --json and CSV keys stay English)."),
) -> None:
    """Turn a course's materials into a searchable knowledge base, exercises and grades.

    Example: kb ingest sources/ && kb search "como limitar a memória da GPU?"
    """
    State.traceback = traceback
    State.interrupted = False
    _choose_ui_lang(ui_lang)
    _say_warnings()
    try:  # bad KB_* values are reported like every other error, not as a traceback
        State.settings = Settings.from_env(home=home, store_url=store)
    except KbError as e:
        _fail(e)
    from . import i18n  # no option, variable or locale: the course's main language (read only then)

    i18n.assume_course(lambda: _course().main_language())


def _say_warnings() -> None:
    """For the rest of the command, print the library's warnings (:class:`kb.errors.KbWarning`, e.g. a ranking
    embedder that cannot rank) as ``kb: warning:`` and ``fix:`` lines; other warnings as Python prints them."""
    import click

    from .errors import KbWarning
    from .i18n import _

    def show(message, category, filename, lineno, file=None, line=None) -> None:
        if not isinstance(message, KbWarning):
            return shown(message, category, filename, lineno, file, line)
        from . import ui

        said, fix = message.localized()
        ui.message(_("kb: warning: {warning}").format(warning=said), "yellow")
        if fix:
            ui.message("  " + _("fix: {hint}").format(hint=fix), "yellow")

    import warnings

    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.with_resource(warnings.catch_warnings())  # put back when the command ends
    warnings.simplefilter("always", KbWarning)  # kb.search says each once per process already
    shown = warnings.showwarning
    warnings.showwarning = show


def _choose_ui_lang(value: str | None) -> None:
    """Set the interface language from --ui-lang, KB_UI_LANG or the locale (kb.i18n)."""
    import os

    from . import i18n
    from .errors import UsageError

    for what, given in (("--ui-lang", value), ("KB_UI_LANG", None if value else os.environ.get("KB_UI_LANG"))):
        if given and i18n.normalize(given) is None:
            _fail(UsageError("{what} {given}: not a language kb speaks",
                             "use en, pt or es",
                             what=what, given=given))
    i18n.choose(i18n.normalize(value))


def _fail(e: KbError):
    if State.traceback:
        raise e
    from . import ui

    ui.error(*e.localized())  # in the interface language (kb.i18n); --json never carries it
    raise typer.Exit(int(e.exit_code))


def boundary(fn: Callable) -> Callable:
    """Turn domain errors into one short message and an exit code; --traceback shows the stack."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        """Run the command; a KbError or a full disk becomes a message and its exit code, Ctrl-C exit 130."""
        try:
            return fn(*args, **kwargs)
        except KbError as e:
            _fail(e)
        except (OSError, sqlite3.DatabaseError) as e:  # a full disk, wherever kb was writing
            from .errors import disk_full

            err = disk_full(e, str(State.settings.home))
            if err is None:
                raise
            _fail(err)
        except KeyboardInterrupt:
            from .i18n import _

            State.interrupted = True
            sys.stderr.write(_("kb: interrupted") + "\n")
            raise typer.Exit(int(ExitCode.INTERRUPTED)) from None

    return wrapper


def _one_blas_thread() -> None:
    """kb search embeds one short question, kb ask a few short lines: BLAS threads only add start-up and
    contention there (a cold kb ask took 0.26 s of CPU and ~1 s on this loaded 2-core machine with one thread,
    0.4-0.5 s and 1.1-1.8 s with two). numpy's BLAS reads these when it loads, so this runs before the first
    numpy import; a user's own setting wins."""
    import os

    for var in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")


def _no_cache(no_cache: bool) -> None:
    """--no-cache: the LLM is asked again (its new replies still replace the cached ones)."""
    if no_cache:
        from dataclasses import replace

        State.settings = replace(State.settings, llm_cache=False)


@contextlib.contextmanager
def _llm_progress():
    """A progress bar for LLM requests on a terminal, and notes before a long run (kb.llm.pool)."""
    from . import ui
    from .llm import pool

    previous = pool.set_reporter(ui.LLMProgress())
    try:
        yield
    finally:
        pool.set_reporter(previous)


def _course():
    """The library object every command calls (kb.api.KB) for the global options given."""
    from .api import KB

    return KB(State.settings, root=".")  # the command line writes quizzes/ and reports/ where it runs


def _finish(result) -> None:
    """One exit rule for every command whose run can partly fail (kb.api.Result.exit_code)."""
    if result.exit_code:
        raise typer.Exit(int(result.exit_code))


def _ctrl_c_works() -> None:
    """Ctrl-C raises KeyboardInterrupt in this process even when it was started with SIGINT ignored
    (nohup, CI, `cmd &`) or blocked (a parent's signal mask is inherited through fork and exec)."""
    import signal

    signal.signal(signal.SIGINT, signal.default_int_handler)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextlib.contextmanager
def _interruptible():
    """Ctrl-C works even when kb was started with SIGINT ignored (nohup, some CI), and SIGTERM
    ends the command like Ctrl-C (consistent state, exit 130). Handlers are restored after."""
    import signal
    import threading

    def terminated(*_):
        """SIGTERM handler: stop the command the way Ctrl-C does."""
        raise KeyboardInterrupt

    saved = {}
    if threading.current_thread() is threading.main_thread():
        saved = {sig: signal.signal(sig, handler) for sig, handler in
                 ((signal.SIGTERM, terminated), (signal.SIGINT, signal.default_int_handler))}
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


@app.command()
@boundary
def ingest(
    paths: list[Path] = typer.Argument(..., help="Files or folders (PDF, Markdown, text, VTT/SRT, HTML)."),
    embedder: str | None = typer.Option(None, "--embedder", "-e", help="use-m3 (default), e5-small or st:<model name "
            "or path>."),
    rebuild: bool = typer.Option(False, "--rebuild", help="Re-read and re-embed the given paths (all sources, with a "
            "new --embedder) into a new store that replaces the old one only when complete."),
    keep_missing: bool = typer.Option(False, "--keep-missing", help="Keep chunks of files deleted from the ingested "
            "folders."),
    prune_empty: bool = typer.Option(False, "--prune-empty", help="A given folder with no files left means: remove "
            "its sources."),
    max_mb: float = typer.Option(DEFAULT_MAX_MB, "--max-mb",
                                 help="Skip files larger than this many MB, with a message."),
    json_out: bool = typer.Option(False, "--json", help="Print the report as JSON on stdout."),
) -> None:
    """Add course materials to the knowledge base; re-run any time: only changed files are redone.

    Files deleted from a folder given here are removed from the store (--keep-missing keeps
    them); a folder with no files at all (empty, unmounted) is never emptied without
    --prune-empty. A file that cannot be read is reported with its fix; the others are still
    ingested and the command exits with code 1. One ingest writes to a workspace at a time:
    a second one waits (KB_LOCK_WAIT seconds).

    Example: kb ingest sources/
    """
    from . import ui

    progress = ui.IngestProgress()
    with _interruptible():
        try:
            result = _course().ingest(paths, embedder=embedder, rebuild=rebuild, prune=not keep_missing,
                                      prune_empty=prune_empty, max_mb=max_mb, progress=progress,
                                      on_wait=lambda m: ui.message(f"kb: {m}", "yellow"))
        finally:
            progress.stop()
    ui.ingest_result(result, json_out)
    _finish(result)


@app.command()
@boundary
def sources(json_out: bool = typer.Option(False, "--json", help="Print the list as JSON on stdout.")) -> None:
    """List what is in the knowledge base: files, kind, chunks, language, when ingested.

    Example: kb sources
    """
    from . import ui
    from .i18n import _

    got = _course().contents()
    rows = got["sources"]
    if json_out:
        ui.print_json(got)
    elif not rows:
        ui.message(_("the knowledge base is empty: run kb ingest sources/"))
    else:
        ui.sources_table(rows)


@app.command()
@boundary
def outline(
    source: str = typer.Argument(..., help="An ingested source (its path as kb sources lists it, or its end)."),
    json_out: bool = typer.Option(False, "--json", help="Print the whole outline as JSON on stdout."),
) -> None:
    """Show what a source teaches: its sections and their ideas, the most central marked.

    Example: kb outline slides/03Datos.pdf
    """
    from . import ui

    result = _course().outline(source)
    ui.print_json(result.to_json()) if json_out else ui.outline(result)


@app.command()
@boundary
def search(
    query: str = typer.Argument(..., help="What to look for, in any of the course's languages."),
    k: int = typer.Option(5, "-k", help="How many passages to show."),
    mode: str = typer.Option("hybrid", "--mode", help="hybrid (default), dense or bm25."),
    json_out: bool = typer.Option(False, "--json", help="Print hits as JSON on stdout."),
) -> None:
    """Find passages with citations (file + page, heading, or lecture timestamps).

    Example: kb search "como limitar a memória da GPU?" -k 5
    """
    from . import ui

    _one_blas_thread()
    hits = _course().search(query, k=k, mode=mode)
    if json_out:
        ui.print_json({"query": query, "mode": mode, "hits": [h.to_json() for h in hits]})
    else:
        ui.hits(hits)


@eval_app.command("retrieval")
@boundary
def eval_retrieval(
    queries: Path = typer.Argument(..., help="JSONL: one {\"query\": ..., \"evidence\": [phrases]} per line."),
    k: int = typer.Option(10, "-k", help="Depth for MRR@k (hit@1, hit@5 and MRR@10 are always reported)."),
    mode: str = typer.Option("hybrid", "--mode", help="hybrid, dense, bm25, or all to compare them."),
    json_out: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
) -> None:
    """Score retrieval on a query set: hit@1, hit@5 and MRR@10.

    Example: kb eval retrieval eval/queries.jsonl --mode all
    """
    from . import ui

    results = _course().evaluate_retrieval(queries, k=k, mode=mode)
    if json_out:
        ui.print_json(results[0] if len(results) == 1 else {"results": results})
    else:
        ui.retrieval_table(results)


@eval_app.command("ask")
@boundary
def eval_ask(
    ask_set: Path = typer.Argument(..., help="JSONL: {\"question\", \"source\", \"pages\", \"evidence\"} a line."),
    split: str = typer.Option("", "--split", help="Only the questions of this split (dev while tuning, test once)."),
    k: int = typer.Option(5, "-k", help="How many passages each answer consults."),
    offline: bool = typer.Option(False, "--offline", help="Extractive answers even when an LLM is configured."),
    json_out: bool = typer.Option(False, "--json", help="Print one JSON object on stdout, every answer included."),
) -> None:
    """Judge `kb ask` on a question set: correct (every evidence phrase, right page cited) / partly / wrong.

    Example: kb eval ask eval/ask_set.jsonl --split dev
    """
    from . import ui

    result = _course().evaluate_ask(ask_set, split=split or None, k=k, offline=offline)
    ui.print_json(result) if json_out else ui.ask_eval(result)


def _csv(value: str) -> tuple[str, ...]:
    return tuple(x.strip() for x in value.split(",") if x.strip())


@quiz_app.command("generate")
@boundary
def quiz_generate(
    n: int = typer.Option(10, "-n", help="How many questions."),
    topic: str | None = typer.Option(None, "--topic", help="Only passages about this topic (found by search)."),
    source: list[str] | None = typer.Option(None, "--source", help="Only these sources (repeat, or a shell glob)."),
    types: str = typer.Option("short,mcq,cloze,tf", "--types", help="Comma-separated: short, mcq, cloze, tf."),
    difficulty: str | None = typer.Option(None, "--difficulty", help="Prefer easy, medium or hard questions."),
    lang: str | None = typer.Option(None, "--lang", help="Question language: pt, es or en (default: the source's). "
            "Offline, only passages already in that language are used (nothing is translated); with an LLM "
            "(OPENAI_BASE_URL) questions are written in it from passages in any language."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Quiz file (default "
            "quizzes/<topic|source|course>.json)."),
    force: bool = typer.Option(False, "--force", help="Replace an existing quiz file."),
    offline: bool = typer.Option(False, "--offline", help="Use the rule-based writer even when an LLM is configured."),
    json_out: bool = typer.Option(False, "--json", help="Print the quiz document on stdout."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Ask the LLM again even for requests it answered before."),
) -> None:
    """Generate exercises with model answers and citations, written to a quiz file.

    Offline and deterministic by default; with KB_LLM_MODEL (and OPENAI_BASE_URL for a local
    server) an LLM writes the questions, each validated against the passage it cites.

    Example: kb quiz generate --topic "dependências de controle" -n 5 --types short,mcq --lang pt
    """
    from . import ui

    _no_cache(no_cache)
    with _interruptible(), _llm_progress():  # Ctrl-C during LLM requests, even when started with SIGINT ignored
        result = _course().generate_quiz(n=n, topic=topic, sources=source or (), types=_csv(types),
                                         difficulty=difficulty, lang=lang, out=out, force=force, offline=offline)
    run = result.value
    ui.print_json(run.quiz.to_json()) if json_out else ui.quiz(run.quiz)
    ui.generation_summary(run.report, run.path)
    _finish(result)


@quiz_app.command("show")
@boundary
def quiz_show(
    quiz_file: Path = typer.Argument(..., help="A quiz file (JSON)."),
    no_answers: bool = typer.Option(False, "--no-answers", help="Hide answers and citations."),
    json_out: bool = typer.Option(False, "--json", help="Print the validated quiz document."),
) -> None:
    """Show a quiz in the terminal.

    Example: kb quiz show quizzes/course.json
    """
    from . import ui
    from .quiz import load_quiz

    q = load_quiz(quiz_file)
    if json_out:
        ui.print_json(q.to_json())
    else:
        ui.quiz(q, show_answers=not no_answers)


@quiz_app.command("review")
@boundary
def quiz_review(
    quiz_file: Path = typer.Argument(..., help="A quiz file (JSON)."),
    again: bool = typer.Option(False, "--again", help="Go through every question again, reviewed ones too."),
    offline: bool = typer.Option(False, "--offline", help="Replace questions with the rule-based writer, and ask no "
            "model's advice, even when an LLM is configured."),
) -> None:
    """Review a quiz before students see it: keep, edit, drop or replace each question.
    With an LLM configured, the model reads the questions first and each card shows its advice
    (keep, fix: what, drop: why); you decide.

    Shows one question at a time (type, prompt, choices, model answer, concepts, the cited
    passage with its locator) and reads a key then Enter: [k]eep [e]dit [d]rop [r]eplace
    [s]kip [q]uit. Edit opens $VISUAL or $EDITOR on the question as plain text (with neither
    set, it asks field by field); an edit that is not valid is shown with the reason and never
    saved; an edited question keeps its id. Replace asks the writer for another question on
    the same passage. Each decision is written to the quiz at once; run it again to go on from
    the first question not reviewed. Exports and kb study leave dropped questions out.

    Example: kb quiz review quizzes/course.json
    """
    import os

    from . import ui
    from .review import summary_line
    from .ui_review import ReviewScreen

    _ctrl_c_works()  # started with SIGINT ignored or blocked, Ctrl-C would never end the review
    with _llm_progress():  # the model's reading of the quiz, first, when one is configured
        summary = _course().review_quiz(quiz_file, ReviewScreen(), offline=offline, again=again,
                                        editor=os.environ.get("VISUAL") or os.environ.get("EDITOR"))
    if summary.interrupted:
        from .i18n import _

        sys.stderr.write("\n" + _("kb: interrupted; {summary}").format(summary=summary_line(summary)) + "\n")
        State.interrupted = True  # every decision is already written: run() ends the process at once
        raise typer.Exit(int(ExitCode.INTERRUPTED))
    ui.message(summary_line(summary))


@quiz_app.command("export")
@boundary
def quiz_export(
    quiz_file: Path = typer.Argument(..., help="A quiz file (JSON)."),
    fmt: str = typer.Option("md", "--format", "-f", help="md (sheet/key), moodle (Moodle XML), gift (Moodle GIFT) or "
            "anki (.apkg)."),
    answers: bool = typer.Option(False, "--answers", help="md: the answer key (model answers and citations); the "
            "other formats always carry the answers."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Write to this file instead of stdout (required for "
            "anki)."),
    reviewed_only: bool = typer.Option(False, "--reviewed-only", help="Only the questions kept or edited in kb quiz "
            "review (dropped ones are always left out)."),
) -> None:
    """Export a quiz: a Markdown sheet or key, Moodle XML, GIFT, or an Anki deck.

    Example: kb quiz export quizzes/course.json --format moodle -o quizzes/course.xml
    """
    from . import ui
    from .export import export_quiz
    from .i18n import _
    from .sheets import write_atomic_bytes

    result = export_quiz(quiz_file, fmt, answers=answers, out=out, reviewed_only=reviewed_only)
    if out:
        data = result.data if isinstance(result.data, bytes) else result.data.encode("utf-8")
        write_atomic_bytes(out, data)
        ui.message(_("wrote {path}").format(path=out))
    elif sys.stdout.isatty():  # a terminal obeys control codes in a prompt: show them escaped
        from .text import visible

        sys.stdout.write(visible(str(result.data)))
    else:
        sys.stdout.write(str(result.data))


@app.command()
@boundary
def ask(
    question: str = typer.Argument(..., help="A question about the course."),
    k: int = typer.Option(5, "-k", help="How many passages to consult and show."),
    offline: bool = typer.Option(False, "--offline", help="Extractive answer even when an LLM is configured."),
    json_out: bool = typer.Option(False, "--json", help="Print the answer and passages as JSON."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Ask the LLM again even if it answered this before."),
) -> None:
    """Answer a question from the course, citing the passages it comes from.

    Offline: the best passages and the sentences that answer best. With KB_LLM_MODEL set: a
    synthesized answer citing passage numbers, which says when the course lacks the answer.

    Example: kb ask "Como o paralelismo de dados é implementado no TensorFlow?"
    """
    from . import ui
    from .i18n import _, text

    _one_blas_thread()
    _no_cache(no_cache)
    with _interruptible(), _llm_progress():
        ans = _course().ask(question, k=k, offline=offline)
    if ans.warning:
        ui.message(_("kb: warning: {warning}").format(warning=text(ans.warning)), "yellow")
    ui.print_json(ans.to_json()) if json_out else ui.answer(ans)


@llm_app.command("check")
@boundary
def llm_check(
    json_out: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
) -> None:
    """Reach the LLM endpoint, confirm the model, try one tiny structured request: latency and
    the output mode that works (json_schema, json_object or prose). Each failure names its fix.

    Example: OPENAI_BASE_URL=http://127.0.0.1:8080/v1 KB_LLM_MODEL=qwen2.5 kb llm check
    """
    from . import ui
    from .llm.check import check_endpoint

    report = check_endpoint(State.settings)
    if json_out:
        ui.print_json(report)
        return
    from .i18n import _

    listed = {True: _("listed by the endpoint"), False: _("not listed"), None: _("the endpoint lists no models")}
    sys.stdout.write(_("endpoint: {endpoint}\nmodel: {model} ({listed})\noutput mode: {output_mode}\n"
                       "latency: {latency_s} s\nok\n").format(**report, listed=listed[report["model_listed"]]))


@eval_app.command("quiz")
@boundary
def eval_quiz(
    quiz_file: Path = typer.Argument(..., help="A quiz file (JSON)."),
    json_out: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
    offline: bool = typer.Option(False, "--offline", help="Only kb's own checks, even when an LLM is configured."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Ask the LLM again even for questions it reviewed before."),
) -> None:
    """Measure a quiz as a teacher would: the share of questions with no defect (cut-off text,
    giveaway, duplicate or implausible options, unsupported answer, off-topic, language,
    near-duplicate), correct-position skew, questions written vs asked, section coverage.
    With an LLM configured, the model also reads each question with its passage and its deck's
    outline and says keep, fix (what) or drop (why): advisory, it removes nothing.

    Example: kb eval quiz quizzes/course.json
    """
    from . import ui

    _no_cache(no_cache)
    with _interruptible(), _llm_progress():
        result = _course().evaluate_quiz(quiz_file, offline=offline)
    if json_out:
        ui.print_json(result)
    else:
        ui.quiz_eval(result)
    review = result.get("model_review") or {}
    if review.get("failed"):  # kb's own checks ran on every question; the model read only some
        from .errors import ExitCode
        from .i18n import _, text

        ui.message(_("kb: the model could not review {k} of {n} questions: {failure}").format(
            k=review["failed"], n=result["n"], failure=text(review["failure"])), "yellow")
        if review.get("failure_hint"):
            ui.message("  " + _("fix: {hint}").format(hint=text(review["failure_hint"])), "yellow")
        raise typer.Exit(int(ExitCode.BACKEND))



@app.command()
@boundary
def grade(
    quiz_file: Path = typer.Argument(..., help="The quiz the class answered (JSON)."),
    replies: Path = typer.Argument(..., help="CSV with student,question_id,answer — or a folder of per-student "
            "sheets."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Folder for grades.md/.csv/.xlsx/.json (default "
            "reports/<quiz name>/)."),
    offline: bool = typer.Option(False, "--offline", help="Use the offline grader even when an LLM is configured."),
    json_out: bool = typer.Option(False, "--json", help="Print the report as JSON on stdout."),
    csv_dialect: str = typer.Option("comma", "--csv-dialect", help="grades.csv as comma (UTF-8, ',') or excel-eu "
            "(BOM, ';', decimal comma: Excel in pt/es)."),
    calibrate: Path | None = typer.Option(None, "--calibrate", help="CSV of replies you graded (question_id, answer, "
            "points 0-3): refit this quiz's grade levels, stored beside it with your graded replies (from 10 "
            "per question, a reply like one you graded is graded partly like it)."),
    review: bool = typer.Option(False, "--review", help="Then grade the answer groups of grades-review.csv one "
            "by one in the terminal (0-3, s skip, q quit; each key saved) and re-grade with them."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Ask the LLM again even for replies it graded before."),
    scale: int = typer.Option(10, "--scale", help="class.csv/.xlsx and moodle_grades.csv give each student's grade "
            "on 0-10, 0-20 or 0-100 (points are kept)."),
    template: bool = typer.Option(False, "--template", help="Write REPLIES as the empty replies sheet of the quiz "
            "(question numbers and text) for the class to fill, instead of grading."),
) -> None:
    """Grade a class's replies: per-student scores and feedback, per-question statistics.

    Writes grades.md (to read and send), grades.csv (gradebook; put 0-3 in its override
    column, or edit points, and re-run: overrides are kept), grades.xlsx (the same rows for
    spreadsheets, rewritten each run) and grades.json. Rows that cannot
    be graded are listed with file, line and fix; the rest is graded and the exit code is 1.

    Also writes class.csv/.xlsx (students x questions, the grade on --scale, a chart of each
    question's points), students/<name>.md (each student's feedback) and moodle_grades.csv.

    Example: kb grade quizzes/course.json replies.csv --out reports/ --scale 20
    """
    from . import ui
    from .i18n import _

    if template:
        ui.message(_("wrote {path}").format(path=_course().replies_template(quiz_file, replies)))
        return

    _no_cache(no_cache)
    with _interruptible(), _llm_progress():
        result = _course().grade(quiz_file, replies, out=out, offline=offline, calibrate=calibrate,
                                 csv_dialect=csv_dialect, scale=scale)
    ui.grade_result(result, str(quiz_file), json_out)
    if review and result.value.report is not None:
        from .review_session import review_groups

        if review_groups(result.value.out_dir, ui.stderr()):  # the teacher's grades, applied by a re-run
            result = _course().grade(quiz_file, replies, out=out, offline=offline, csv_dialect=csv_dialect,
                                     scale=scale)
            ui.grade_result(result, str(quiz_file), json_out)
    _finish(result)


@eval_app.command("grader")
@boundary
def eval_grader(
    data: Path = typer.Argument(..., help="CSV: question, reference (several on separate lines), answer, score[, "
            "concepts]."),
    scale: str | None = typer.Option(None, "--scale", help="The human score scale, e.g. 0-3 or 0-10 (default: the "
            "data's min-max)."),
    predictions: Path | None = typer.Option(None, "--predictions", help="Write every row's grade to this CSV."),
    offline: bool = typer.Option(False, "--offline", help="Use the offline grader even when an LLM is configured."),
    json_out: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
    calibrate_k: int | None = typer.Option(None, "--calibrate-k", min=0, help="Also fit a teacher calibration on K "
            "graded replies per question and report both levels on the other replies (offline grader)."),
    review_budget: str | None = typer.Option(None, "--review-budget", help="Simulate a teacher grading answer "
            "groups in kb's review order (and in a random one) with decisions numbering these % of the replies, "
            "e.g. 5,10,20."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Ask the LLM again even for replies it graded before."),
) -> None:
    """Grade human-graded replies with kb's grader and measure the agreement.

    Prints Pearson and Spearman (on the 0-3 score), quadratic weighted kappa and exact
    agreement (on whole points), a confusion matrix and per-question means.

    Example: kb eval grader data.csv --scale 0-3
    """
    from . import ui
    from .evaluate import parse_budgets

    budgets = parse_budgets(review_budget) if review_budget is not None else []
    _no_cache(no_cache)
    result = _course().evaluate_grader(data, scale=scale, predictions=predictions, offline=offline,
                                       calibrate_k=calibrate_k, review_budget=budgets)
    from .i18n import _, text

    for n in result.notes:
        ui.message(_("kb: note: {note}").format(note=text(n)), "dim")
    ui.print_json(result.value) if json_out else ui.grader_eval(result.value)
    if result.backend_failure:
        ui.error(text(result.backend_failure), _("check the endpoint, or add --offline"))
    _finish(result)


@app.command()
@boundary
def study(
    quizzes: list[Path] | None = typer.Argument(None, help="Quiz files (default: every quizzes/*.json)."),
    topic: str | None = typer.Option(None, "--topic", help="Only questions about this topic."),
    new: int = typer.Option(10, "--new", help="At most this many never-studied questions this session."),
    offline: bool = typer.Option(False, "--offline", help="Use the offline grader even when an LLM is configured."),
    reviewed_only: bool = typer.Option(False, "--reviewed-only", help="Only questions kept or edited in kb quiz "
            "review (dropped ones are always left out)."),
) -> None:
    """Study in the terminal: due questions first, then new ones; graded, scheduled by FSRS.

    Type the answer (an empty line submits; objective questions take one line). :h hint,
    :s skip, :q quit; after the grade, r says "I was right". With no quiz yet, one is generated
    from the knowledge base. Every graded answer is saved at once.

    Example: kb study quizzes/course.json --topic "all-reduce" --new 10
    """

    from .session import study_session

    _ctrl_c_works()  # started with SIGINT ignored or blocked, Ctrl-C would never end the session
    study_session(_course(), quizzes or (), topic=topic, new=new, offline=offline, reviewed_only=reviewed_only)


@app.command()
@boundary
def progress(
    quizzes: list[Path] | None = typer.Argument(None, help="Quiz files counted as 'new' (default: every "
            "quizzes/*.json)."),
    json_out: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
) -> None:
    """What is learned, what is due and when, weakest topics, streak.

    Example: kb progress --json
    """
    from . import ui
    from .i18n import text

    p = _course().progress(quizzes or (), warn=lambda m: ui.message(f"kb: {text(m)}", "yellow"))
    ui.print_json(p) if json_out else ui.progress_report(p)


def _exit_interrupted() -> None:
    """End the process with exit code 130 now, once an interrupted command has cleaned up (``boundary``
    said "kb: interrupted"; what the command wrote is closed). The interpreter's teardown and its atexit
    handlers are skipped: after a Ctrl-C during LLM requests (still hanging in daemon threads) the process
    sometimes ended killed by SIGINT (-2) instead of exit 130 after that message (1 run in 36 of the Ctrl-C
    test on a loaded machine), and the teardown has nothing left to save."""
    import os

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed or broken pipe: nothing more can be said
            pass
    os._exit(int(ExitCode.INTERRUPTED))


def run() -> None:
    """Console-script entry point. SIGTERM ends kb with exit code 130 also outside a command's
    work — while it starts, or once the work is done and it writes the report; inside,
    ``_interruptible`` turns it into Ctrl-C so that what was written stays consistent. (In the
    interpreter's own teardown, after the report, CPython has restored the default handler: a
    SIGTERM there still ends the process with -15, everything already written.)"""
    import signal

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(int(ExitCode.INTERRUPTED)))
    try:
        app()
    except SystemExit as e:
        if State.interrupted and e.code == ExitCode.INTERRUPTED:
            _exit_interrupted()
        raise
    finally:
        # the interpreter's teardown then skips its last collection over every object the command
        # left (chromadb, openai, pydantic: ~0.35 s of `kb quiz generate` with an LLM, bench/llm_parallel.py);
        # they are still freed by reference count, and what kb writes is closed and flushed by now
        import gc

        gc.freeze()


if __name__ == "__main__":
    run()
