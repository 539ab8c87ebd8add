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
)
eval_app = typer.Typer(help="Measure retrieval, quiz and grader quality.\n\nExample: kb eval retrieval "
        "eval/queries.jsonl",
                       no_args_is_help=True)
app.add_typer(eval_app, name="eval")
quiz_app = typer.Typer(help="Generate, show and export quizzes.\n\nExample: kb quiz generate -n 10",
                       no_args_is_help=True)
app.add_typer(quiz_app, name="quiz")


class State:
    """The global options of this run (settings, ``--traceback``), set by :func:`main` for the commands."""
    settings: Settings = Settings()
    traceback: bool = False


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
) -> None:
    """Turn a course's materials into a searchable knowledge base, exercises and grades.

    Example: kb ingest sources/ && kb search "como limitar a memória da GPU?"
    """
    State.traceback = traceback
    try:  # bad KB_* values are reported like every other error, not as a traceback
        State.settings = Settings.from_env(home=home, store_url=store)
    except KbError as e:
        _fail(e)


def _fail(e: KbError):
    if State.traceback:
        raise e
    from . import ui

    ui.error(e.message, e.hint)
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
            sys.stderr.write("kb: interrupted\n")
            raise typer.Exit(int(ExitCode.INTERRUPTED)) from None

    return wrapper


def _course():
    """The library object every command calls (kb.api.KB) for the global options given."""
    from .api import KB

    return KB(State.settings)


def _finish(result) -> None:
    """One exit rule for every command whose run can partly fail (kb.api.Result.exit_code)."""
    if result.exit_code:
        raise typer.Exit(int(result.exit_code))


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
    from .store import open_store

    store = open_store(State.settings)
    rows = store.sources()
    if json_out:
        ui.print_json({"store": store.info, "sources": rows})
    elif not rows:
        ui.message("the knowledge base is empty: run kb ingest sources/")
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
    from .evaluate import evaluate_retrieval, load_queries
    from .search import MODES
    from .workspace import open_workspace

    qs = load_queries(queries)
    ws = open_workspace(State.settings)
    modes = MODES if mode == "all" else (mode,)
    results = [evaluate_retrieval(ws.retriever, qs, k=k, mode=m) for m in modes]
    if json_out:
        ui.print_json(results[0] if len(results) == 1 else {"results": results})
    else:
        ui.retrieval_table(results)


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
    lang: str | None = typer.Option(None, "--lang", help="Question language: pt, es or en (default: the source's)."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Quiz file (default "
            "quizzes/<topic|source|course>.json)."),
    force: bool = typer.Option(False, "--force", help="Replace an existing quiz file."),
    offline: bool = typer.Option(False, "--offline", help="Use the rule-based writer even when an LLM is configured."),
    json_out: bool = typer.Option(False, "--json", help="Print the quiz document on stdout."),
) -> None:
    """Generate exercises with model answers and citations, written to a quiz file.

    Offline and deterministic by default; with KB_LLM_MODEL (and OPENAI_BASE_URL for a local
    server) an LLM writes the questions, each validated against the passage it cites.

    Example: kb quiz generate --topic "dependências de controle" -n 5 --types short,mcq --lang pt
    """
    from . import ui

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
) -> None:
    """Export a quiz: a Markdown sheet or key, Moodle XML, GIFT, or an Anki deck.

    Example: kb quiz export quizzes/course.json --format moodle -o quizzes/course.xml
    """
    from . import ui
    from .export import export_quiz
    from .sheets import write_atomic_bytes

    result = export_quiz(quiz_file, fmt, answers=answers, out=out)
    if out:
        data = result.data if isinstance(result.data, bytes) else result.data.encode("utf-8")
        write_atomic_bytes(out, data)
        ui.message(f"wrote {out}")
    else:
        sys.stdout.write(str(result.data))


@app.command()
@boundary
def ask(
    question: str = typer.Argument(..., help="A question about the course."),
    k: int = typer.Option(5, "-k", help="How many passages to consult and show."),
    offline: bool = typer.Option(False, "--offline", help="Extractive answer even when an LLM is configured."),
    json_out: bool = typer.Option(False, "--json", help="Print the answer and passages as JSON."),
) -> None:
    """Answer a question from the course, citing the passages it comes from.

    Offline: the best passages and the sentences that answer best. With KB_LLM_MODEL set: a
    synthesized answer citing passage numbers, which says when the course lacks the answer.

    Example: kb ask "Como o paralelismo de dados é implementado no TensorFlow?"
    """
    from . import ui

    ans = _course().ask(question, k=k, offline=offline)
    ui.print_json(ans.to_json()) if json_out else ui.answer(ans)


@eval_app.command("quiz")
@boundary
def eval_quiz(
    quiz_file: Path = typer.Argument(..., help="A quiz file (JSON)."),
    json_out: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
) -> None:
    """Measure a quiz as a teacher would: the share of questions with no defect (cut-off text,
    giveaway, duplicate or implausible options, unsupported answer, off-topic, language,
    near-duplicate), correct-position skew, questions written vs asked, section coverage.

    Example: kb eval quiz quizzes/course.json
    """
    from . import ui
    from .evaluate import evaluate_quiz
    from .quiz import load_quiz
    from .workspace import open_workspace

    result = evaluate_quiz(open_workspace(State.settings), load_quiz(quiz_file))
    if json_out:
        ui.print_json(result)
    else:
        ui.quiz_eval(result)



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
) -> None:
    """Grade a class's replies: per-student scores and feedback, per-question statistics.

    Writes grades.md (to read and send), grades.csv (gradebook; put 0-3 in its override
    column, or edit points, and re-run: overrides are kept), grades.xlsx (the same rows for
    spreadsheets, rewritten each run) and grades.json. Rows that cannot
    be graded are listed with file, line and fix; the rest is graded and the exit code is 1.

    Example: kb grade quizzes/course.json replies.csv --out reports/
    """
    from . import ui

    result = _course().grade(quiz_file, replies, out=out, offline=offline, calibrate=calibrate,
                             csv_dialect=csv_dialect)
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
) -> None:
    """Grade human-graded replies with kb's grader and measure the agreement.

    Prints Pearson and Spearman (on the 0-3 score), quadratic weighted kappa and exact
    agreement (on whole points), a confusion matrix and per-question means.

    Example: kb eval grader data.csv --scale 0-3
    """
    from . import ui

    result = _course().evaluate_grader(data, scale=scale, predictions=predictions, offline=offline,
                                       calibrate_k=calibrate_k)
    for n in result.notes:
        ui.message(f"kb: note: {n}", "dim")
    ui.print_json(result.value) if json_out else ui.grader_eval(result.value)
    if result.backend_failure:
        ui.error(result.backend_failure, "check the endpoint, or add --offline")
    _finish(result)


@app.command()
@boundary
def study(
    quizzes: list[Path] | None = typer.Argument(None, help="Quiz files (default: every quizzes/*.json)."),
    topic: str | None = typer.Option(None, "--topic", help="Only questions about this topic."),
    new: int = typer.Option(10, "--new", help="At most this many never-studied questions this session."),
    offline: bool = typer.Option(False, "--offline", help="Use the offline grader even when an LLM is configured."),
) -> None:
    """Study in the terminal: due questions first, then new ones; graded, scheduled by FSRS.

    Type the answer (an empty line submits; objective questions take one line). :h hint,
    :s skip, :q quit; after the grade, r says "I was right". With no quiz yet, one is generated
    from the knowledge base. Every graded answer is saved at once.

    Example: kb study quizzes/course.json --topic "all-reduce" --new 10
    """
    import signal

    from .session import study_session

    # started with SIGINT ignored (nohup, CI, `cmd &`), Ctrl-C would never end the session
    signal.signal(signal.SIGINT, signal.default_int_handler)
    study_session(_course(), quizzes or (), topic=topic, new=new, offline=offline)


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

    p = _course().progress(quizzes or (), warn=lambda m: ui.message(f"kb: {m}", "yellow"))
    ui.print_json(p) if json_out else ui.progress_report(p)


def run() -> None:
    """Console-script entry point. SIGTERM ends kb with exit code 130 also outside a command's
    work — while it starts, or once the work is done and it writes the report; inside,
    ``_interruptible`` turns it into Ctrl-C so that what was written stays consistent. (In the
    interpreter's own teardown, after the report, CPython has restored the default handler: a
    SIGTERM there still ends the process with -15, everything already written.)"""
    import signal

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(int(ExitCode.INTERRUPTED)))
    app()


if __name__ == "__main__":
    run()
